"""The end of a contract-rummy round and its scoring (:class:`ScoringPhase`; entry
points :meth:`~ScoringPhase._end_round`, called when a player goes out, and
:meth:`~ScoringPhase._exhausted`, when the stock or the turns run out): penalty points
for the cards left in each hand, the ruleset's bonuses for the player who went out,
and the points of the round's chance events that succeeded; then the core scores the
round and starts the next one (or ends the game)."""

from __future__ import annotations

from . import events
from .phases import _DEAL
from .round import RoundState


class ScoringPhase(RoundState):
    """A round's end: its points, and what `simulate` counts of it."""

    __slots__ = ()

    def _exhausted(self, reason: str) -> None:
        """The round ends with no one out: the stock is spent (``stock``), or the turn
        limit reached (``turns``)."""
        self.log(events.exhausted(self.round, reason))
        self.counters["rounds_exhausted"] += 1
        self._end_round(self.out_first)  # (someone may have gone out: the last turns ran out of stock or turns)

    def _end_round(self, goer: int | None) -> None:
        """Score the round ``goer`` went out of (None: no one did) and start the next."""
        table = self._round_facts()[5]
        counts = self._hands_counted(goer)
        if self.section.count_unmatched:  # each hand laid down as its best melding: the rest counts
            points = [0] * self.players
            for s in range(self.players):
                if counts[s] and self.hands[s]:
                    points[s], melds, left = self.meld_engine.best_melding(self.hands[s], table)
                    self.log(events.laydown(self.round, s, melds, left, self.setup.pack.codes))
        else:
            points = [sum(table[c] for c in self.hands[s]) if counts[s] else 0 for s in range(self.players)]
        for s in range(self.players):
            self.penalties[s] += points[s]
        if goer is not None:
            self.went_out[goer] += 1
        if self.section.contract_choose is not None:  # the contracts made, which contract.choose reads
            for s in range(self.players):
                if self.down[s]:
                    self.made[s] += (self.contract_numbers[s],)
        if not any(self.down):
            self.counters["rounds_nobody_down"] += 1
        self.counters["penalty_points"] += sum(points)
        if goer is not None:
            self._add_bonuses(goer, points)
        self._add_chance_event_points(points)
        if self.seat_counters:
            self._update_counters(goer, points)
            self._refresh_seat_facts()
        self.cut_success = []
        self.chance_step = 0
        self.joker_debt = 0
        self.protected = False
        self.out_first = None
        self.final_turns = ()
        self.phase = _DEAL
        self.score_round(points, self.hands)  # (recorded: a lost move shows in them, whoever scores)

    def _hands_counted(self, goer: int | None) -> list[bool]:
        """Whose hand scores: every seat but ``goer``, less those ``going_out.counted``
        leaves out (a partner of the player who went out, say)."""
        rule = self.section.counted
        counts = [s != goer for s in range(self.players)]
        if rule is None:
            return counts
        teams = self.setup.teams
        for s in range(self.players):
            if counts[s]:
                env = self.setup.round_env(self.round_index)
                env.update(seat=s, team=teams[s] if teams else s, goer=-1 if goer is None else goer,
                           goer_team=-1 if goer is None else teams[goer] if teams else goer, is_down=self.down[s],
                           cards_left=len(self.hands[s]))
                counts[s] = bool(self._evaluate(rule, env, ("going_out", "counted")))
        return counts

    def _update_counters(self, goer: int | None, points: list[int]) -> None:
        """Each counter's new value for each seat, from the round just scored and every
        counter's value before it (all counters change together)."""
        before = {name: values[:] for name, values in self.seat_counters.items()}
        for seat in range(self.players):
            env = self.setup.round_env(self.round_index)
            env.update(seat=seat, points=points[seat], is_down=self.down[seat], went_out=seat == goer,
                       cards_left=len(self.hands[seat]), contract=self.contract_number(seat), buys=self.buys[seat])
            for name, values in before.items():
                env[name] = values[seat]
            for counter in self.section.counters:
                self.seat_counters[counter.name][seat] = int(self._evaluate(counter.update, env,
                                                                            ("counters", counter.name, "update")))

    def _add_bonuses(self, goer: int, points: list[int]) -> None:
        """Add to ``points`` each bonus whose ``when`` holds for ``goer``, and log it."""
        env = self.setup.round_env(self.round_index)
        env.update(in_one_turn=self.down_turn[goer] == self.turn_number,
                   jokers_melded=self.jokers_melded[goer], buys=self.buys[goer],
                   others_down=sum(1 for s in range(self.players) if s != goer and self.down[s]))
        for name, values in self.seat_counters.items():
            env[name] = values[goer]
        evaluate = self._evaluate
        for i, bonus in enumerate(self.section.bonuses):
            if evaluate(bonus.when, env, ("bonuses", i, "when")):
                goer_points = evaluate(bonus.goer, env, ("bonuses", i, "goer"))
                other_points = evaluate(bonus.others, env, ("bonuses", i, "others"))
                for s in range(self.players):
                    points[s] += goer_points if s == goer else other_points
                self.counters[f"bonus_{bonus.name}"] += 1
                self.log(events.bonus(self.round, bonus.name, goer))

    def _add_chance_event_points(self, points: list[int]) -> None:
        """Add to ``points`` those of each of the round's chance events that succeeded."""
        for index, success in enumerate(self.cut_success):
            if success:
                event = self.section.chance_events[index]
                env = self.setup.round_env(self.round_index)
                actor = self.seat_from_dealer(event.seat)
                actor_points = self._evaluate(event.actor, env, ("chance_events", index, "actor"))
                other_points = self._evaluate(event.others, env, ("chance_events", index, "others"))
                for s in range(self.players):
                    points[s] += actor_points if s == actor else other_points
