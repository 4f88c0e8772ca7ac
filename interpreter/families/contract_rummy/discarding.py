"""The end of a contract-rummy turn: a discard, or going out (:class:`DiscardPhase`).
A player goes out by a last discard, or by playing their last card onto the table,
as the round's contract says (``going_out``); a discard may be called to protect it
where the ruleset has the call.  The hand rule is here too: every table play must leave
a hand that can still end the turn (:meth:`~DiscardPhase._leaves_legal_hand`), which
the go-down, lay-off and swap listings and checks ask.  Entry points:
:meth:`~DiscardPhase._discard_actions`, :meth:`~DiscardPhase._verify_discard`,
:meth:`~DiscardPhase._discard`; :meth:`~DiscardPhase._go_out` ends the round
(:mod:`.scoring`)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ...errors import EvaluationError, IllegalActionError
from . import events
from .actions import Discard
from .melds import Meld
from .round import Move, RoundState
from .rules import DISCARD_REQUIRED, NO_DISCARD, RUN


class DiscardPhase(RoundState):
    """The discard that ends a turn, going out, and the hand rule."""

    __slots__ = ()

    # --- the discard --------------------------------------------------------------------------
    def _discard_actions(self, seat: int, hand: list[int], distinct: list[int], actions: list[Move]) -> None:
        """Add to ``actions`` the discards of ``distinct`` (the hand's cards, once each)
        that ``seat`` may make now (called only when no freed joker is owed to the table)."""
        facts = self._round_facts()
        out_rule = (self.seat_contracts[seat] if self.seat_contracts else facts[2]).going_out
        if len(hand) > 1 or out_rule is not NO_DISCARD:
            discardable = distinct if self.section.discard is None else self._discardable(seat, distinct)
            discards, called, _ = facts[6]
            start = len(actions)
            actions += [discards[c] for c in discardable]
            if self.section.fitting_discard_call.allowed:
                table = self.table
                actions += [called[c] for c in discardable if table.fits(c)]
            if self.section.skip_chosen and len(hand) > 1 and not self.skips.isdisjoint(discardable):
                self._aim_skips(seat, actions, start)

    # --- a skip card that names its seat (skip.seat: chosen) ------------------------------------------
    def _aim_skips(self, seat: int, actions: list[Move], start: int) -> None:
        """Replace each discard of a skip card in ``actions[start:]`` by one for each seat
        ``seat`` may name (none left where it may name no one: the card is then discarded
        naming no one)."""
        targets = self._skip_targets(seat)
        if not targets:
            return
        skips = self.skips
        aimed: list[Move] = []
        for a in actions[start:]:
            if a.card in skips:  # type: ignore[union-attr]
                aimed += [Discard(a.card, a.call, self.setup.pack, t) for t in targets]  # type: ignore[union-attr]
            else:
                aimed.append(a)
        actions[start:] = aimed

    def _skip_targets(self, seat: int) -> list[int]:
        """The seats ``seat`` may name with a skip card now (``skip.seat: chosen``): every
        other seat, in turn order from the next (in the others' last turns after a player
        went out, those still to take one), that ``skip.may`` allows."""
        if self.out_first is not None:
            candidates = list(dict.fromkeys(s for s in self.final_turns if self.hands[s] and s != seat))
        else:
            candidates = [self.seat_after(seat, k) for k in range(1, self.players)]
        rule = self.section.skip_may
        if rule is None:
            return candidates
        return [t for t in candidates if self._evaluate(rule.rule, self._skip_env(seat, t), ("skip", "may", "rule"))]

    def _skip_env(self, seat: int, target: int) -> dict[str, Any]:
        """skip.may's names: the discarder's, and the seat it would name."""
        env = self._seat_env(seat)
        teams = self.setup.teams
        env.update(target=target, pending=self.skipped[target], named=self.skip_named[target],
                   since=self.skip_since[target], target_cards=len(self.hands[target]),
                   target_is_down=self.down[target], team=teams[seat] if teams else seat,
                   target_team=teams[target] if teams else target)
        return env

    def _verify_aim(self, seat: int, action: Discard) -> None:
        """A skip card's discard names a seat it may (``skip.seat: chosen``), and only it does."""
        codes = self.setup.pack.codes
        aims = self.section.skip_chosen and action.card in self.skips and len(self.hands[seat]) > 1
        if not aims:
            if action.target is not None:
                raise IllegalActionError(
                    f"only a card that skips names a player, and {codes[action.card]} does not"
                    if action.card not in self.skips else
                    f"{codes[action.card]} skips the next player here: it names no one" if not self.section.skip_chosen
                    else "a card that goes out names no one to skip")
            return
        targets = self._skip_targets(seat)
        if action.target is None:
            if targets:
                raise IllegalActionError(f"name the player {codes[action.card]} skips, e.g. 'discard "
                                         f"{codes[action.card]} to {targets[0]}' (seats you may name: "
                                         f"{', '.join(map(str, targets))})")
            return
        if action.target not in targets:
            target = action.target
            rule = self.section.skip_may
            if not 0 <= target < self.players or target == seat or rule is None or \
                    (self.out_first is not None and target not in self.final_turns):
                raise IllegalActionError(f"seat {target} cannot be skipped now" + (
                    f" (seats you may name: {', '.join(map(str, targets))})" if targets else ": name no one"))
            try:
                reason = rule.message.render(self._skip_env(seat, target))
            except EvaluationError as exc:
                raise EvaluationError(f"skip.may.message: {exc}", ("skip", "may", "message")) from None
            raise IllegalActionError(reason)

    def _discardable(self, seat: int, distinct: Sequence[int]) -> Sequence[int]:
        """The cards of ``distinct`` (the hand's, once each) that ``discard.may`` lets
        ``seat`` discard now; every one of them when it refuses them all (a turn always
        ends)."""
        allowed = [c for c in distinct if self._may_discard(seat, c)]
        return allowed or distinct

    def _may_discard(self, seat: int, c: int) -> bool:
        rule = self.section.discard
        assert rule is not None
        return bool(self._evaluate(rule.rule, self._discard_env(seat, c), ("discard", "may", "rule")))

    def _discard_env(self, seat: int, c: int) -> dict[str, Any]:
        """discard.may's names: the seat's, and the card's."""
        env = self._seat_env(seat)
        pack = self.setup.pack
        env.update(card_rank=pack.value_of[c], card_suit=pack.suit_of[c],
                   card_is_wild=c in self.meld_engine.wild, card_fits_table=self.table.fits(c),
                   is_last_card=len(self.hands[seat]) == 1)
        return env

    def _verify_discard(self, seat: int, action: Discard) -> None:
        hand = self.hands[seat]
        if self.joker_debt:
            raise IllegalActionError("first lay off the joker you freed: it must be played this turn")
        if action.card not in hand:
            raise IllegalActionError(f"you do not hold {self.setup.pack.codes[action.card]}")
        if len(hand) == 1 and self.contract.going_out is NO_DISCARD:
            raise IllegalActionError("you may not go out by discarding: every card must go onto the table")
        rule = self.section.discard
        if rule is not None and not self._may_discard(seat, action.card) and \
                any(self._may_discard(seat, c) for c in set(hand)):  # refusing every card refuses none
            try:
                reason = rule.message.render(self._discard_env(seat, action.card))
            except EvaluationError as exc:
                raise EvaluationError(f"discard.may.message: {exc}", ("discard", "may", "message")) from None
            raise IllegalActionError(reason)
        if self.section.skip_chosen or action.target is not None:
            self._verify_aim(seat, action)
        if action.call and not self.section.fitting_discard_call.allowed:
            raise IllegalActionError("this ruleset has no call of a fitting discard")
        if action.call and not self.table.fits(action.card):
            raise IllegalActionError(f"{self.setup.pack.codes[action.card]} fits no meld on the table, so there is nothing to call")

    def _discard(self, action: Discard) -> None:
        seat = self.player
        self.hands[seat].remove(action.card)
        self._forget(seat, action.card)
        self.pile.append(action.card)
        self.discarder = seat
        self.protected = action.call
        self._log.append((events.discard, self.round_index + 1, seat, action.card,
                          self.section.fitting_discard_call.name if action.call else None, self.setup.pack.codes,
                          action.target))
        if not self.hands[seat]:
            self._go_out(seat)
            return
        if action.card in self.skips and self.section.skip_chosen:  # the seat it names loses its next turn
            target = action.target
            if target is not None:
                self.skipped[target] += 1
                self.skip_named[target] += 1
                self.skip_since[target] = 0
                self._refresh_seat_facts()
        elif action.card in self.skips:  # the next player loses their next turn
            following = self.final_turns if self.out_first is not None else (self.seat_after(seat),)
            if following:
                self.skipped[following[0]] += 1
                self._refresh_seat_facts()
        if self.out_first is not None:  # a last turn after someone went out
            self._next_last_turn()
            return
        self._start_turn(self.seat_after(seat))

    # --- going out ----------------------------------------------------------------------------
    def _after_table_play(self, seat: int, offered: Sequence[int] = ()) -> None:
        """After a go-down or lay-off of ``seat``: out if its hand is empty, else (where
        ``joker_swap.capture`` says so) the melds ``offered``, that took new wild cards,
        are offered to the others to capture one."""
        if not self.hands[seat]:
            self._go_out(seat)
        elif offered and self.section.joker_swap.capture:
            self._offer_capture(seat, offered)

    def _go_out(self, seat: int) -> None:
        self.log(events.out(self.round, seat))
        if self.out_first is not None:  # out in a last turn too: the next last turn
            self._next_last_turn()
            return
        self.counters["rounds_gone_out"] += 1
        last = self.section.last_turns
        turns = self._round_value(last, ("going_out", "last_turns")) if last is not None else 0
        if turns > 0:  # each other player takes ``turns`` more turns, in turn order, then the round ends
            self.out_first = seat
            order = []
            s = seat
            for _ in range(self.players - 1):
                s = self.seat_after(s)
                order.append(s)
            if self.section.last_turn_for is not None:
                order = [s for s in order if self._takes_last_turn(s, seat)]
            self.final_turns = tuple(order * turns)  # (none: the round ends at once)
            self._next_last_turn()
            return
        self._end_round(seat)

    def _takes_last_turn(self, seat: int, goer: int) -> bool:
        """Whether ``going_out.last_turn_for`` gives ``seat`` the last turns after ``goer`` went out."""
        rule = self.section.last_turn_for
        assert rule is not None
        first = self.seat_from_dealer(self.rules.deal.first_to_act)
        teams = self.setup.teams
        env = self._seat_env(seat) if self.seat_counters else self.setup.round_env(self.round_index)
        env.update(seat=seat, team=teams[seat] if teams else seat, goer=goer, goer_team=teams[goer] if teams else goer,
                   is_down=self.down[seat], cards_left=len(self.hands[seat]), dealer=self.dealer,
                   place=self._place(seat, first), goer_place=self._place(goer, first))
        return bool(self._evaluate(rule, env, ("going_out", "last_turn_for")))

    def _place(self, seat: int, first: int) -> int:
        """``seat``'s place in the round's turn order from ``first`` (0)."""
        return next(k for k in range(self.players) if self.seat_after(first, k) == seat)

    def _next_last_turn(self) -> None:
        """The next of the others' last turns after a player went out (those whose
        hands are empty, out in a last turn of their own, are passed over); the round
        ends after the last."""
        queue = self.final_turns
        while queue and not self.hands[queue[0]]:
            queue = queue[1:]
        if not queue:
            self.final_turns = ()
            self._end_round(self.out_first)
            return
        self.final_turns = queue[1:]
        self._start_turn(queue[0])

    # --- the hand rule: a table play must leave a hand that can end the turn ---------------------
    def _leaves_legal_hand(self, seat: int, cards_out: Sequence[int], changed: dict[int, Meld]) -> bool:
        """Whether a table play of ``cards_out`` leaves a hand that can end the turn: an
        empty hand goes out (not where a final discard is required); where going out by
        a discard is forbidden, a single card left must itself fit the table (the melds
        on it now, with ``changed`` the melds the play adds or replaces), or the turn
        could not end.  A joker freed by a swap and still owed to the table after the
        play must still fit somewhere on it."""
        if self.joker_debt and self.joker_debt > self._wilds_in(cards_out) and \
                not self._joker_fits_after(seat, changed):
            return False
        if self._cards_left(seat, cards_out) >= 2:
            return True  # the common case, without counting the hand
        left = Counter(self.hands[seat])
        left.subtract(cards_out)
        # jokers freed by a swap still owe a lay-off this turn: count the hand without them
        owed = max(0, self.joker_debt - self._wilds_in(cards_out))
        remaining = [c for c, n in left.items() for _ in range(n)]
        paid: list[int] = []
        if owed:  # the owed wild cards, jokers first
            wild = self.meld_engine.wild
            paid = sorted((c for c in remaining if c in wild), reverse=True)[:owed]
            for c in paid:
                remaining.remove(c)
        rule = self.contract.going_out
        if not remaining:
            return rule is not DISCARD_REQUIRED
        if len(remaining) == 1 and rule is NO_DISCARD:
            lay_off = self.section.lay_off
            if not lay_off.allowed or (not lay_off.same_turn_as_going_down and not self.down[seat]):
                return False
            last = remaining[0]
            if paid:  # the owed wild card goes on the table first: the last card must fit after it
                return self._fits_after_paying(seat, paid[0], last, changed)
            # the table with ``changed``: a meld the index names that the play leaves
            # alone, or else one of the changed melds
            index = self.table
            places = index.wild_places(last) if last in self.meld_engine.wild else index.by_card.get(last, ())
            if any(index.entries[place][0] not in changed and self._may_lay_off_on(seat, index.entries[place][0])
                   for place in places):
                return True
            # (lay_off itself, not the cached engine.fits: a changed meld is a new object
            # each time, so its answers would only be computed and crowd the cache)
            return any(self.meld_engine.lay_off(m, last) is not None for mid, m in changed.items()
                       if self._may_lay_off_on(seat, mid))
        return True

    def _fits_after_paying(self, seat: int, owed: int, last: int, changed: dict[int, Meld]) -> bool:
        """Whether the wild card ``owed`` (a freed joker still owed to the table) can be
        laid off on the table with ``changed`` so that ``last``, the one card then left,
        can be laid off after it (the turn could not end otherwise).  (Only a hand of two
        cards with a joker owed asks: the melds are few, so every place is tried.)"""
        engine = self.meld_engine
        table = {**self.melds, **changed}
        mine = [mid for mid in table if self._may_lay_off_on(seat, mid)]
        for mid in mine:
            meld = table[mid]
            for low in ((False, True) if meld.kind is RUN else (None,)):
                laid = engine.lay_off(meld, owed, low)
                if laid is None:
                    continue
                after = {**table, mid: laid}
                if any(engine.lay_off(after[k], last) is not None for k in mine):
                    return True
        return False

    def _cards_left(self, seat: int, cards_out: Sequence[int]) -> int:
        """At most how many cards a table play of ``cards_out`` leaves in hand, not
        counting jokers freed by a swap that are still owed to the table (the exact
        count when the cards are in hand, as they are once a play is checked)."""
        owed = max(0, self.joker_debt - self._wilds_in(cards_out))
        return len(self.hands[seat]) - len(cards_out) - owed

    def _wilds_in(self, cards: Sequence[int]) -> int:
        """How many of ``cards`` are wild this round (each pays a freed joker's debt)."""
        if not self.meld_engine.wild_naturals:
            return cards.count(self.meld_engine.joker)
        wild = self.meld_engine.wild
        return sum(1 for c in cards if c in wild)

    def _hand_rule(self) -> str:
        if self.contract.going_out is DISCARD_REQUIRED:
            return "you must keep a card to discard: this round is won by a final discard"
        return ("you may not keep a single card that cannot be played: this round is won by putting every "
                "card onto the table, never by a discard")
