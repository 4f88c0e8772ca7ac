"""The scoring phase of a round: once the last trick is taken, each seat's points by
``scoring`` (its cases and lets, with the bids, the tricks taken, the teams' sums and
the counters), the counters carried to the next round (``counters``), and the
figures `simulate` reads (:class:`ScoringPhase`, entered at
:meth:`ScoringPhase._end_round`)."""

from __future__ import annotations

from typing import Any, Sequence

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
                                                                 "is_dealer", "is_declarer", "is_declarer_side", "blind"})
        # the names of the cards taken (cards_taken, all_card_points, scoring.counts) are
        # worked out only for a ruleset that reads them (decided once for the setup)
        reads = self.setup.cache.get("reads_taken")
        if reads is None:
            read = self.tricks.scoring.names.union(*(c.update.names for c in self.tricks.counters))
            reads = self.setup.cache["reads_taken"] = bool(read & {"cards_taken", "cards_taken_by_seat",
                                                                   "all_card_points"}) or bool(self.tricks.scoring.counts)
        self._reads_taken = reads
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
        the core scores the round and deals the next (or ends the game).

        (Long because the round's names are built once, in the order the rules read them:
        bids and tricks, cards taken and their counts, lets, points, counters, figures.)"""
        self._reveal_aside()  # bids laid aside as cards are shown now
        env = self._bid_env  # this round's names (the bidding's left-overs are never read)
        bids = [b if b is not None else 0 for b in self.bids]
        taken = self.taken
        env["bids"] = bids
        env["taken"] = taken[:]
        totals = self.totals
        env["totals"] = totals[:]  # before this round's points
        teams = self._teams
        env["team_totals"] = [sum(t for s, t in enumerate(totals) if teams[s] == teams[other])
                              for other in range(self.players)] if teams else totals[:]
        maker = self.maker
        env["maker"] = maker
        env["maker_team"] = -1 if maker < 0 else self._teams[maker] if self._teams else maker
        env["alone"] = self.alone
        declarer = self.declarer
        if self._auctioning:
            env["contract"] = self.contract
            env["contract_suit"] = self.contract_suit
            env["contract_rank"] = self.contract_rank
            env["declarer"] = declarer
        else:
            env["contract"] = env["contract_rank"] = 0
            env["contract_suit"] = env["declarer"] = -1
        declarer_team = -1 if declarer < 0 else self._teams[declarer] if self._teams else declarer
        blind = self.blind_bids if self.tricks.blind is not None else None
        env["blind"] = False
        points = []
        score = self._score
        dealer = self.dealer
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
        per_seat_lists: list[tuple[str, list[int]]] = self._taken_names(env) if self._reads_taken else []
        absent = self.absent if self.tricks.sits_out is not None else ()  # (a lone maker's partner scores)
        for seat in range(self.players):
            if seat in absent:  # sitting the hand out: no points, no exact bid
                points.append(0)
                continue
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
                env["is_declarer"] = seat == declarer
                env["is_declarer_side"] = declarer >= 0 and (teams[seat] if teams else seat) == declarer_team
                if blind is not None:
                    env["blind"] = blind[seat]
                for name, values in counters.items():
                    env[name] = values[seat]
            if counting:
                env["card_points"] = env["card_points_by_seat"][seat]
                env["trick_points"] = env["trick_points_by_seat"][seat]
            for name, by_seat in per_seat_lists:
                env[name] = by_seat[seat]
            try:
                points.append(score(env))
            except EvaluationError as exc:
                raise EvaluationError(f"scoring seat {seat} in round {self.round}: {exc}", ("scoring", "points")) \
                    from None
            if bid == took:
                exact[seat] += 1
        if counters:
            self._update_counters(env, points, per_seat_lists)
        cell = self.points_by_hand_size.get(self.hand_size)
        if cell is None:
            cell = self.points_by_hand_size[self.hand_size] = [0, 0]
        cell[0] += sum(points)
        cell[1] += self.players - len(absent)
        self.phase = _DEAL
        self.score_round(points)

    def _taken_names(self, env: dict[str, Any]) -> list[tuple[str, list[int]]]:
        """The names of the cards taken this round, into ``env``: every seat's count of
        cards taken, the card points of the cards dealt, and each scoring.counts count
        (NAME_by_seat, NAME_dealt, NAME_taker); returns each per-seat name with its list
        by seat (NAME and cards_taken), set for each seat as it is scored."""
        players = self.players
        per_trick = players - len(self.absent)  # (a seat sitting out plays no card)
        taken_cards = [t * per_trick for t in self.taken]
        env["cards_taken_by_seat"] = taken_cards
        values = self._card_values
        # the cards dealt: those that went to the tricks, and the kitty's: taken with a
        # trick (kitty.to_trick), or, taken into a hand, the cards its taker laid aside
        dealt = self.played
        kitty = self.tricks.kitty
        if kitty is not None:
            dealt = dealt + (self.kitty_taken + self.kitty if kitty.to_trick is not None else self.kitty_discards)
        env["all_card_points"] = sum(values[c] for c in dealt) if values is not None else 0
        out = [("cards_taken", taken_cards)]
        won = self.won if self.won else [[] for _ in range(players)]
        for name, counts in self._count_values():
            by_seat = [sum(counts[c] for c in cards) for cards in won]
            env[f"{name}_by_seat"] = by_seat
            env[f"{name}_dealt"] = sum(counts[c] for c in dealt)
            most = max(by_seat)
            env[f"{name}_taker"] = by_seat.index(most) if most > 0 else -1
            out.append((name, by_seat))
        return out

    def _count_values(self) -> list[tuple[str, tuple[int, ...]]]:
        """Each scoring.counts count's value for every card of the pack this round (kept
        for every game of the setup, by the round and the trump)."""
        counts = self.tricks.scoring.counts
        if not counts:
            return []
        key = (self.round_index, self.trump)
        cache = self.setup.cache.setdefault("card_counts", {})
        found: list[tuple[str, tuple[int, ...]]] | None = cache.get(key)
        if found is None:
            pack = self.setup.pack
            env = self.setup.round_env(self.round_index)
            env["trump"] = -1 if self.trump is None else self.trump
            found = []
            for name, rule in counts:
                values = []
                for c in range(pack.size):
                    env["card"] = c
                    env["card_suit"] = pack.suit_of[c]
                    env["card_rank"] = pack.value_of[c]
                    env["card_is_special"] = pack.special_of[c] >= 0
                    env["card_is_joker"] = pack.special_of[c] == 0
                    values.append(int(self._evaluated(rule, env, ("scoring", "counts", name))))
                found.append((name, tuple(values)))
            cache[key] = found
        return found

    def _update_counters(self, env: dict[str, Any], points: list[int],
                         per_seat_lists: Sequence[tuple[str, list[int]]] = ()) -> None:
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
            env["is_declarer"] = seat == self.declarer
            env["blind"] = self.tricks.blind is not None and self.blind_bids[seat]
            env["is_declarer_side"] = self.declarer >= 0 and team == (self._teams[self.declarer] if self._teams
                                                                      else self.declarer)
            members = [s for s in range(self.players) if (self._teams[s] if self._teams else s) == team]
            env["team_bid"] = sum(env["bids"][s] for s in members)
            env["team_tricks"] = sum(env["taken"][s] for s in members)
            env["points"] = points[seat]
            if self._counting:  # (scoring set them seat by seat: the last seat's are left in env)
                env["card_points"] = env["card_points_by_seat"][seat]
                env["trick_points"] = env["trick_points_by_seat"][seat]
            for name, by_seat in per_seat_lists:
                env[name] = by_seat[seat]
            for name, values in before.items():
                env[name] = values[seat]
            if self.tricks.scoring.lets:
                self.tricks.scoring.with_lets(env)
            for counter in self.tricks.counters:
                self.counters[counter.name][seat] = self._evaluated(counter.update, env,
                                                                    ("counters", counter.name, "update"))
