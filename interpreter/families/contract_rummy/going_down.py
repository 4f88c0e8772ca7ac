"""Going down in a contract-rummy turn: putting down the round's contract, once a
round, with more melds or larger ones where ``going_down`` allows (:class:`GoDownPhase`;
entry points :meth:`~GoDownPhase._go_down_actions` for the listing,
:meth:`~GoDownPhase._check_go_down` for the check, which returns the melds that
:meth:`~GoDownPhase._go_down` puts on the table).  The listing gives the canonical
go-downs the meld engine's search finds (:mod:`.meld_search`); a player may type any
valid form."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...errors import EvaluationError, IllegalActionError
from . import events
from .actions import GoDown
from .melds import Meld
from .round import Move, RoundState
from .rules import DISCARD_REQUIRED, NO_DISCARD, MeldKind, MeldSpec


class GoDownPhase(RoundState):
    """Going down with the round's contract."""

    __slots__ = ()

    def _go_down_actions(self, seat: int, hand: list[int], actions: list[Move]) -> None:
        """Add to ``actions`` the go-downs ``seat`` (not down yet) may make with ``hand``,
        each noted with the melds it puts down (in ``_go_downs``, emptied by the listing
        of each decision, for apply)."""
        engine = self.meld_engine
        next_id = len(self.owners) + 1
        going_down = self.section.going_down
        contract = self.contract.melds
        if not contract:  # no contract: going down is melding the whole hand (but a final discard)
            points = self._round_facts()[5]
            options = [o for keep in self._meld_out_keeps() for o in engine.melds_out(hand, points, keep)]
        else:
            options = engine.go_down_options(hand, contract)
        if options and contract and (going_down.extra_melds or going_down.may is not None) and \
                not going_down.exact_sizes:
            options += engine.fuller_go_downs(hand, options, contract,
                                              1 if self.contract.going_out is DISCARD_REQUIRED else 0)
        for option in options:
            action = GoDown(tuple(m.cards for m in option), tuple(m.name or m.kind.value for m in option), self.setup.pack)
            added = {next_id + i: m for i, m in enumerate(option)}
            if going_down.may is not None and not self._evaluate(
                    going_down.may.rule, self._go_down_env(seat, option), ("going_down", "may", "rule")):
                continue
            if self._leaves_legal_hand(seat, [c for m in action.melds for c in m], added):
                actions.append(action)
                self._go_downs[id(action)] = option

    def _later_meld_actions(self, seat: int, hand: list[int], actions: list[Move]) -> None:
        """going_down.later_melds: a seat down since an earlier turn may put down a new set
        or run (each found as the go-down search finds a contract of one meld)."""
        engine = self.meld_engine
        next_id = len(self.owners) + 1
        for spec in self.section.going_down.later_kinds:
            for option in engine.go_down_options(hand, (spec,)):
                option = tuple(engine.named(option, (spec,))) if spec.name else option
                action = GoDown(tuple(m.cards for m in option), tuple(m.name or m.kind.value for m in option),
                                self.setup.pack)
                if self._leaves_legal_hand(seat, [c for m in action.melds for c in m],
                                           {next_id + i: m for i, m in enumerate(option)}):
                    actions.append(action)
                    self._go_downs[id(action)] = option

    def _check_later_melds(self, seat: int, action: GoDown) -> list[Meld]:
        """New sets and runs of a seat already down (going_down.later_melds)."""
        if not self.section.going_down.later_melds:
            raise IllegalActionError("you are already down this round: lay off instead")
        if self.down_turn[seat] == self.turn_number:
            raise IllegalActionError("you went down this turn: new melds wait for a later turn")
        if not action.melds or not all(action.melds):
            raise IllegalActionError("put down at least one meld, each of cards")
        kinds = action.kinds
        allowed = {spec.name or spec.kind.value: spec for spec in self.section.going_down.later_kinds}
        if kinds is not None and (len(kinds) != len(action.melds) or any(k not in allowed and k for k in kinds)):
            raise IllegalActionError(f"a new meld once down is {_either(allowed)}, one kind for each meld")
        self._take_from_hand(seat, [c for m in action.melds for c in m])
        melds = self._later_melds(action, allowed)
        next_id = len(self.owners) + 1
        if not self._leaves_legal_hand(seat, [c for m in action.melds for c in m],
                                       {next_id + i: m for i, m in enumerate(melds)}):
            raise IllegalActionError(self._hand_rule())
        return melds

    def _later_melds(self, action: GoDown, allowed: dict[str, MeldSpec]) -> list[Meld]:
        """Each meld of a later go-down (``going_down.later_melds``) as the kind it names,
        or else as the first kind of ``allowed`` its cards make as written
        (IllegalActionError naming the cards and why not)."""
        return [self._later_reading(cards, [action.kinds[i]] if action.kinds is not None and action.kinds[i]
                                    else allowed)
                for i, cards in enumerate(action.melds)]

    def _later_reading(self, cards: Sequence[int], allowed: Iterable[str]) -> Meld:
        """The first of the kinds ``allowed`` that ``cards`` make as written (a run also
        written high to low): a set, a run or a kind of melds.kinds (IllegalActionError
        with why not each)."""
        engine = self.meld_engine
        problems = []
        for name in allowed:
            try:
                if name == "set":
                    return engine.make(MeldKind.SET, cards)
                if name == "run":
                    return engine.make_run(cards)
                return engine.make_kind(name, cards)
            except ValueError as exc:
                problems.append(f"not a {name}: {exc}")
        raise IllegalActionError(f"{' '.join(self.setup.pack.codes[c] for c in cards)}: " + "; ".join(problems))

    def _check_go_down(self, seat: int, action: GoDown) -> list[Meld]:
        """The melds of a legal go-down (IllegalActionError quoting the rule if not)."""
        if self.down[seat]:
            return self._check_later_melds(seat, action)
        self._take_from_hand(seat, [c for m in action.melds for c in m])
        if not self.contract.melds:
            return self._check_meld_out(seat, action)
        try:
            if action.kinds is None:  # each meld read as a set or a run so that together they meet the contract
                melds = self.meld_engine.read_contract(action.melds, self.contract.melds)
            else:
                melds = self.meld_engine.make_contract(action.melds, action.kinds, self.contract.melds)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        self._check_go_down_rule(seat, melds)
        next_id = len(self.owners) + 1
        added = {next_id + i: m for i, m in enumerate(melds)}
        if not self._leaves_legal_hand(seat, [c for m in action.melds for c in m], added):
            raise IllegalActionError(self._hand_rule())
        return melds

    def _check_go_down_rule(self, seat: int, melds: Sequence[Meld]) -> None:
        """going_down.may over a go-down of ``melds`` (IllegalActionError with its message)."""
        may = self.section.going_down.may
        if may is not None:
            env = self._go_down_env(seat, melds)
            if not self._evaluate(may.rule, env, ("going_down", "may", "rule")):
                try:
                    raise IllegalActionError(may.message.render(env))
                except EvaluationError as exc:
                    raise EvaluationError(f"going_down.may.message: {exc}", ("going_down", "may", "message")) from None

    def _meld_out_keeps(self) -> tuple[int, ...]:
        """In a round with no contract, how many cards a go-down may leave in hand: the
        final discard (where one is required), none (where a discard is forbidden), or
        either."""
        rule = self.contract.going_out
        return (1,) if rule is DISCARD_REQUIRED else (0,) if rule is NO_DISCARD else (0, 1)

    def _sets_and_runs(self, action: GoDown) -> list[Meld]:
        """Each meld of ``action`` as the set or run its kind says, or as its cards read
        (IllegalActionError naming the cards and why not)."""
        melds = []
        engine = self.meld_engine
        for i, cards in enumerate(action.melds):
            try:
                kind = action.kinds[i] if action.kinds is not None and i < len(action.kinds) else ""
                melds.append(engine.make(MeldKind(kind), cards) if kind in ("set", "run") else engine.classify(cards))
            except ValueError as exc:
                shown = " ".join(self.setup.pack.codes[c] for c in cards)
                raise IllegalActionError(f"{shown}: {exc}") from None
        return melds

    def _check_meld_out(self, seat: int, action: GoDown) -> list[Meld]:
        """The melds of a go-down in a round with no contract: every meld a set or a run
        (as its kind says, or as the cards read), the whole hand melded but what going
        out leaves for the final discard, and ``going_down.may`` met (as the listing asks)."""
        melds = self._sets_and_runs(action)
        self._check_go_down_rule(seat, melds)
        left = len(self.hands[seat]) - sum(len(m.cards) for m in melds)
        keeps = self._meld_out_keeps()
        if left not in keeps:
            raise IllegalActionError(
                "this round has no contract: you go down only by melding your whole hand"
                + (", but for the card you then discard" if keeps == (1,) else
                   ", with no card left to discard" if keeps == (0,) else " (or all but a last discard)")
                + f" ({left} card{'s' if left != 1 else ''} would be left)")
        return melds

    def _go_down_env(self, seat: int, melds: Sequence[Meld]) -> dict[str, Any]:
        """The names of ``going_down.may`` for ``seat`` putting down ``melds``."""
        env = self._seat_env(seat)
        env["cards_left"] = len(self.hands[seat]) - sum(len(m.cards) for m in melds)
        env["melds_put_down"] = len(melds)
        env["extra_melds"] = len(melds) - len(self.contract.melds)
        # the runs' suits and sizes, the sets' ranks and sizes, in the go-down's order;
        runs = [m for m in melds if m.kind is MeldKind.RUN]
        sets = [m for m in melds if m.kind is MeldKind.SET]
        env["run_suits"] = [m.suit for m in runs]
        env["run_sizes"] = [len(m.cards) for m in runs]
        # where each run stands: the value of its lowest place (1 for an ace played low)
        # and of its highest (a run turning the corner counts on past the ace)
        # (read as a typed meld reads them: a run the search found turning the corner keeps
        # its start in another form, so it is read again)
        engine = self.meld_engine
        lows = [engine.run_start(m.cards) if engine.rules.wrap else m.start for m in runs]
        env["run_lows"] = [m.start if low is None else low for m, low in zip(runs, lows)]
        env["run_highs"] = [low + len(m.cards) - 1 for m, low in zip(runs, env["run_lows"])]
        env["set_ranks"] = [m.rank + 2 if m.rank >= 0 else -1 for m in sets]  # the rank's value, as card_rank
        env["set_sizes"] = [len(m.cards) for m in sets]
        return env

    def _go_down(self, melds: Sequence[Meld]) -> None:
        seat = self.player
        hand = self.hands[seat]
        placed = []
        for meld in melds:
            for c in meld.cards:
                hand.remove(c)
                self._forget(seat, c)
            meld_id = len(self.owners) + 1
            self.owners[meld_id] = seat
            self._changed(meld_id, meld)
            wilds = self.meld_engine.wilds(meld)
            self.jokers_melded[seat] += wilds
            self.joker_debt = max(0, self.joker_debt - wilds)  # a freed joker melded is played
            placed.append((meld_id, meld))
        if not self.down[seat]:  # (new melds once down keep the turn it went down)
            self.down[seat] = True
            self.down_turn[seat] = self.turn_number
        self.log(events.meld(self.round, seat, placed, self.setup.pack.codes))
        self._after_table_play(seat, [meld_id for meld_id, meld in placed if self.meld_engine.wilds(meld)]
                               if self.section.joker_swap.capture else ())


def _either(names: Iterable[str]) -> str:
    """``names`` of kinds of meld as words: "a set or a run"."""
    return " or ".join(f"a {name}" for name in names)
