"""The scoring phase of a round: once the last trick is taken, each seat's points by
``scoring`` (its cases and lets, with the bids, the tricks taken, the teams' sums and
the counters), the counters carried to the next round (``counters``), and the
figures `simulate` reads (:class:`ScoringPhase`, entered at
:meth:`ScoringPhase._end_round`)."""

from __future__ import annotations

from typing import Any

from ...errors import EvaluationError
from .phases import _DEAL
from .round import RoundState


class ScoringPhase(RoundState):
    """The end of a round: the points, the counters, and the game's figures."""

    __slots__ = ()

    def _init_scoring(self) -> None:
        self.exact_bids = [0] * self.players
        self.points_by_hand_size = {}
        self._teams = self.setup.teams
        self._score = self.tricks.scoring.program
        # whether the scoring reads any per-seat name besides the bid and the tricks taken
        self._per_seat_names = bool(self.tricks.scoring.names & {"team", "team_bid", "team_tricks", "seat",
                                                                 "is_dealer"})
        self.counters = {}
        for counter in self.tricks.counters:
            values = []
            for seat in range(self.players):
                env = self.setup.round_env(0)
                env["seat"] = seat
                values.append(self._evaluated(counter.initial, env, ("counters", counter.name, "initial")))
            self.counters[counter.name] = values
        if self.counters:
            self._per_seat_names = True

    def _end_round(self) -> None:
        """After the last trick: every seat's points, the counters and the figures; then
        the core scores the round and deals the next (or ends the game)."""
        env = self._bid_env  # this round's names (the bidding's left-overs are never read)
        bids = [b if b is not None else 0 for b in self.bids]
        taken = self.taken
        env["bids"] = bids
        env["taken"] = taken[:]
        points = []
        score = self._score
        dealer = self.dealer
        teams = self._teams
        if teams:
            team_bid: dict[int, int] = {}
            team_tricks: dict[int, int] = {}
            for seat, team in enumerate(teams):
                team_bid[team] = team_bid.get(team, 0) + bids[seat]
                team_tricks[team] = team_tricks.get(team, 0) + taken[seat]
        exact = self.exact_bids
        per_seat = self._per_seat_names
        counters = self.counters
        counting = self._counting
        if counting:
            env["card_points_by_seat"] = self.card_points[:]
            env["trick_points_by_seat"] = self.trick_points[:]
        else:  # nothing counts: the names are 0
            env["card_points"] = env["trick_points"] = 0
            env["card_points_by_seat"] = env["trick_points_by_seat"] = [0] * self.players
        for seat in range(self.players):
            bid, took = bids[seat], taken[seat]
            # item assignment, and only of the names the scoring reads: no keyword dict
            # is built per seat, as update(**kw) would
            env["bid"] = bid
            env["tricks"] = took
            if per_seat:
                if teams:
                    team = teams[seat]
                    env["team"] = team
                    env["team_bid"] = team_bid[team]
                    env["team_tricks"] = team_tricks[team]
                else:  # alone, a seat is its own team
                    env["team"] = seat
                    env["team_bid"] = bid
                    env["team_tricks"] = took
                env["seat"] = seat
                env["is_dealer"] = seat == dealer
                for name, values in counters.items():
                    env[name] = values[seat]
            if counting:
                env["card_points"] = env["card_points_by_seat"][seat]
                env["trick_points"] = env["trick_points_by_seat"][seat]
            try:
                points.append(score(env))
            except EvaluationError as exc:
                raise EvaluationError(f"scoring seat {seat} in round {self.round}: {exc}", ("scoring", "points")) \
                    from None
            if bid == took:
                exact[seat] += 1
        if counters:
            self._update_counters(env, points)
        cell = self.points_by_hand_size.get(self.hand_size)
        if cell is None:
            cell = self.points_by_hand_size[self.hand_size] = [0, 0]
        cell[0] += sum(points)
        cell[1] += self.players
        self.phase = _DEAL
        self.score_round(points)

    def _update_counters(self, env: dict[str, Any], points: list[int]) -> None:
        """Each counter's new value for each seat, from the round just scored and every
        counter's value before it (all counters change together)."""
        before = {name: values[:] for name, values in self.counters.items()}
        for seat in range(self.players):
            env["bid"] = env["bids"][seat]
            env["tricks"] = env["taken"][seat]
            env["seat"] = seat
            env["is_dealer"] = seat == self.dealer
            team = self._teams[seat] if self._teams else seat
            env["team"] = team
            members = [s for s in range(self.players) if (self._teams[s] if self._teams else s) == team]
            env["team_bid"] = sum(env["bids"][s] for s in members)
            env["team_tricks"] = sum(env["taken"][s] for s in members)
            env["points"] = points[seat]
            for name, values in before.items():
                env[name] = values[seat]
            if self.tricks.scoring.lets:
                self.tricks.scoring.with_lets(env)
            for counter in self.tricks.counters:
                self.counters[counter.name][seat] = self._evaluated(counter.update, env,
                                                                    ("counters", counter.name, "update"))
