"""Lay-offs and joker swaps in a contract-rummy turn: cards added to melds on the
table (:meth:`LayOffPhase._lay_off`, checked by :meth:`~LayOffPhase._check_lay_off`),
and a natural card put in the place of a joker that stands for it, which frees the
joker (:meth:`~LayOffPhase._swap`, checked by :meth:`~LayOffPhase._check_swap`; where
the ruleset says so the freed joker must be laid off in the same turn: the joker
debt).  Each check returns the meld after the play, which applying it uses.  The
listing (:meth:`~LayOffPhase._lay_off_actions`, :meth:`~LayOffPhase._swap_actions`)
gives lay-offs of one card, found through the table's index (:mod:`.table`); a player
may lay off several at once."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ...errors import IllegalActionError
from . import events
from .actions import PASS, LayOff, Pass, Swap, lay_off_of_one
from .melds import Meld
from .phases import _CAPTURE, _PLAYING
from .round import Move, RoundState
from .rules import NO_DISCARD, OWN_MELDS, PLAY_THIS_TURN, RUN, SWAP_FROM_RUNS


class LayOffPhase(RoundState):
    """Laying off on the table's melds, and swapping jokers out of them."""

    __slots__ = ()

    # --- lay-offs -----------------------------------------------------------------------------
    def _lay_off_actions(self, seat: int, distinct: list[int], actions: list[Move]) -> None:
        """Add to ``actions`` the lay-offs of one card of ``distinct`` (the hand's cards,
        once each) that ``seat`` (which may lay off now: :meth:`_may_lay_off`) may make,
        in the table's order, then the hand's."""
        engine = self.meld_engine
        # Every lay-off of one natural (and of one joker) leaves the hand the same size:
        # when that is two cards or more the hand can always end the turn, and the
        # table after each lay-off need not be built to ask.
        # (not while a freed joker is owed: then every lay-off must leave it a place)
        roomy_natural = not self.joker_debt and self._cards_left(seat, (0,)) >= 2
        roomy_joker = self.joker_debt <= 1 and self._cards_left(seat, (engine.joker,)) >= 2
        pack = self.setup.pack
        table = self.table
        # Only the melds that take one of the hand's cards (or a joker) can give a
        # lay-off; the index names them by their place on the table.  Each such place
        # gets the hand's cards it takes, in the hand's order, so the listing keeps
        # the table's order, then the hand's, without asking every meld about every
        # card.
        takes: dict[int, list[int]] = {}
        by_card = table.by_card
        wild = engine.wild
        for c in distinct:
            for place in table.wild_places(c) if c in wild else by_card.get(c, ()):
                takes.setdefault(place, []).append(c)
        own_only = self.section.lay_off.on is OWN_MELDS
        for place in sorted(takes):
            meld_id, meld, _ = table.entries[place]
            if own_only and self.owners[meld_id] != seat:
                continue
            for c in takes[place]:
                if c in wild:
                    for low in engine.wild_ends(meld, c):  # where lay_off(meld, c, low) fits
                        if roomy_joker or self._leaves_legal_hand(
                                seat, [c], {meld_id: _fitted(engine.lay_off(meld, c, low))}):
                            actions.append(lay_off_of_one(meld_id, c, low, pack))
                elif roomy_natural or self._leaves_legal_hand(  # lay_off(meld, c) fits: meld accepts c
                        seat, [c], {meld_id: _fitted(engine.lay_off(meld, c))}):
                    actions.append(lay_off_of_one(meld_id, c, None, pack))

    def _may_lay_off(self, seat: int) -> bool:
        """Whether ``seat`` may lay off cards this turn (its own melds or any)."""
        lay_off = self.section.lay_off
        return lay_off.allowed and (self.down[seat] or not lay_off.requires_down) and \
            (lay_off.same_turn_as_going_down or self.down_turn[seat] != self.turn_number) and \
            (lay_off.may is None or self._seat_allows(lay_off.may, seat, "lay_off"))

    def _may_lay_off_on(self, seat: int, meld_id: int) -> bool:
        """Whether the ruleset lets ``seat`` lay off on meld ``meld_id`` (a meld not yet on
        the table is one ``seat`` is putting down)."""
        return self.section.lay_off.on is not OWN_MELDS or self.owners.get(meld_id, seat) == seat

    def _joker_fits_after(self, seat: int, changed: dict[int, Meld]) -> bool:
        """Whether a joker fits some meld of the table that ``seat`` may lay off on once
        ``changed`` is played."""
        index = self.table
        if any(index.entries[place][0] not in changed and self._may_lay_off_on(seat, index.entries[place][0])
               for place in index.joker_places()):
            return True
        return any(self.meld_engine.lay_off(m, self.meld_engine.joker) is not None for mid, m in changed.items()
                   if self._may_lay_off_on(seat, mid))

    def _check_lay_off(self, seat: int, action: LayOff) -> Meld:
        """The meld after a legal lay-off (IllegalActionError quoting the rule if not)."""
        lay_off = self.section.lay_off
        if not lay_off.allowed:
            raise IllegalActionError("this ruleset has no laying off")
        if lay_off.requires_down and not self.down[seat]:
            raise IllegalActionError("you may lay off only once you are down")
        if lay_off.may is not None and not self._seat_allows(lay_off.may, seat, "lay_off"):
            raise self._seat_refusal(lay_off.may, seat, "lay_off")
        if not lay_off.same_turn_as_going_down and self.down_turn[seat] == self.turn_number:
            raise IllegalActionError("you may not lay off in the turn you go down")
        meld = self.melds.get(action.meld)
        if meld is None:
            raise IllegalActionError(f"there is no meld {action.meld} on the table")
        if lay_off.on is OWN_MELDS and self.owners[action.meld] != seat:
            raise IllegalActionError("you may lay off only on your own melds")
        if not action.cards:
            raise IllegalActionError("lay off which card?")
        self._take_from_hand(seat, action.cards)
        result = self._lay_off_result(meld, action)
        if not self._leaves_legal_hand(seat, action.cards, {action.meld: result}):
            raise IllegalActionError(self._hand_rule())
        return result

    def _lay_off_result(self, meld: Meld, action: LayOff) -> Meld:
        if action.cards_after is not None:
            return self._match_after(meld, action)
        result = meld
        for c in action.cards:
            placed = self.meld_engine.lay_off(result, c, action.at_low if c in self.meld_engine.wild else None)
            if placed is None:
                raise IllegalActionError(f"{self.setup.pack.codes[c]} does not fit meld {action.meld} "
                                         f"({' '.join(result.names(self.setup.pack.codes))})")
            result = placed
        return result

    def _match_after(self, meld: Meld, action: LayOff) -> Meld:
        after = tuple(action.cards_after or ())
        if Counter(after) != Counter(meld.cards) + Counter(action.cards):
            raise IllegalActionError("cards_after is not the meld with the laid-off cards")
        if meld.kind is RUN:
            if self.meld_engine.rules.jokers_move and len(action.cards) == 1:  # a natural in a wild card's place
                moved = self.meld_engine.lay_off(meld, action.cards[0])
                if moved is not None and moved.cards == after:
                    return moved
            n = len(meld.cards)
            if not any(after[i:i + n] == meld.cards for i in range(len(after) - n + 1)):
                raise IllegalActionError("a lay-off extends a run at its ends"
                                         + (" (or puts a natural card in a wild card's place, the wild card moved to "
                                            "an end)" if self.meld_engine.rules.jokers_move else ""))
        try:
            made = self.meld_engine.make_kind(meld.name, after) if meld.name else self.meld_engine.make(meld.kind, after)
        except ValueError as exc:
            raise IllegalActionError(f"the meld after the lay-off is not valid: {exc}") from None
        return made

    def _lay_off(self, action: LayOff, meld: Meld | None) -> None:
        seat = self.player
        if meld is None:  # a listed lay-off: its meld is worked out once, here
            meld = self._lay_off_result(self.melds[action.meld], action)
        for c in action.cards:
            self.hands[seat].remove(c)
            self._forget(seat, c)
            if c in self.meld_engine.wild:
                self.jokers_melded[seat] += 1
                self.joker_debt = max(0, self.joker_debt - 1)
        self._changed(action.meld, meld)
        self._log.append((events.layoff, self.round_index + 1, seat, action.meld, action.cards, meld.cards,
                          self.setup.pack.codes))
        if self.section.joker_swap.capture:
            wild = self.meld_engine.wild
            self._after_table_play(seat, (action.meld,) if any(c in wild for c in action.cards) else ())
        else:
            self._after_table_play(seat)

    # --- joker swaps ---------------------------------------------------------------------------
    def _swap_actions(self, seat: int, distinct: list[int], actions: list[Move]) -> None:
        """Add to ``actions`` the joker swaps of a card of ``distinct`` that ``seat`` may
        make now, in the table's order, then the hand's."""
        swap = self.section.joker_swap
        if swap.allowed and self.joker_debt == 0 and (self.down[seat] or not swap.requires_down) and \
                (swap.may is None or self._seat_allows(swap.may, seat, "joker_swap")):
            for meld_id, swappable in self.table.swaps:  # melds holding a joker a card can free
                if swappable.isdisjoint(distinct) or not self._may_swap_on(seat, meld_id):
                    continue
                for c in distinct:
                    if c in swappable and self._swap_result(seat, meld_id, c) is not None and \
                            self._swap_leaves_legal_hand(seat):
                        actions.append(Swap(meld_id, c, self.setup.pack))

    def _may_swap_on(self, seat: int, meld_id: int) -> bool:
        """Whether ``joker_swap.on`` lets ``seat`` swap a joker out of meld ``meld_id``."""
        on = self.section.joker_swap.on
        return on == "any-meld" or (self.owners[meld_id] == seat) == (on == "own-melds")

    def _swap_leaves_legal_hand(self, seat: int) -> bool:
        """A swap keeps the hand's size; if the freed joker must then be laid off, the
        seat must be allowed to lay off this turn, and the hand after that lay-off must
        still be able to end the turn."""
        if self.section.joker_swap.freed_joker is not PLAY_THIS_TURN:
            return True
        if not self._may_lay_off(seat):
            return False
        left = len(self.hands[seat]) - 1
        return left != 1 or self.contract.going_out is not NO_DISCARD

    def _swap_result(self, seat: int, meld_id: int, c: int) -> Meld | None:
        meld = self.meld_engine.swap(self.melds[meld_id], c)
        if meld is None:
            return None
        if self.section.joker_swap.freed_joker is PLAY_THIS_TURN:
            # the freed joker must then be laid off this turn, on a meld ``seat`` may lay off on
            trial = dict(self.melds)
            trial[meld_id] = meld
            if not any(self.meld_engine.joker_ends(m) for mid, m in trial.items() if self._may_lay_off_on(seat, mid)):
                return None
        return meld

    def _check_swap(self, seat: int, action: Swap) -> Meld:
        """The meld after a legal joker swap (IllegalActionError quoting the rule if not)."""
        swap = self.section.joker_swap
        if not swap.allowed:
            raise IllegalActionError("this ruleset has no joker swaps")
        if swap.requires_down and not self.down[seat]:
            raise IllegalActionError("you may swap a joker only once you are down")
        if swap.may is not None and not self._seat_allows(swap.may, seat, "joker_swap"):
            raise self._seat_refusal(swap.may, seat, "joker_swap")
        if self.joker_debt:
            raise IllegalActionError("first lay off the joker you freed")
        meld = self.melds.get(action.meld)
        if meld is None:
            raise IllegalActionError(f"there is no meld {action.meld} on the table")
        if swap.melds is SWAP_FROM_RUNS and meld.kind is not RUN:
            raise IllegalActionError("jokers may be swapped out of runs only, not sets")
        if not self._may_swap_on(seat, action.meld):
            raise IllegalActionError("jokers may be swapped only out of " + (
                "your own melds" if swap.on == "own-melds" else "the other players' melds"))
        self._take_from_hand(seat, [action.card])
        if not self._swap_leaves_legal_hand(seat):
            if not self._may_lay_off(seat):
                raise IllegalActionError("the freed joker must be laid off this turn, and you may not lay off now")
            raise IllegalActionError(self._hand_rule())
        result = self._swap_result(seat, action.meld, action.card)
        if result is None:
            raise IllegalActionError(f"no joker in meld {action.meld} stands for {self.setup.pack.codes[action.card]}"
                                     + (" (or the freed joker could not be played this turn)"
                                        if swap.freed_joker is PLAY_THIS_TURN else ""))
        return result

    def _swap(self, action: Swap, meld: Meld | None) -> None:
        seat = self.player
        if meld is None:  # a listed swap: its meld is worked out once, here
            meld = _fitted(self._swap_result(seat, action.meld, action.card))
        freed = next(a for a, b in zip(self.melds[action.meld].cards, meld.cards) if a != b)
        self.hands[seat].remove(action.card)
        self._forget(seat, action.card)
        self._changed(action.meld, meld)
        self.hands[seat].append(freed)  # freed: it must go back onto the table this turn, or stays in hand
        if self.section.joker_swap.freed_joker is PLAY_THIS_TURN:
            self.joker_debt += 1
        self.counters["swaps"] += 1
        self.log(events.swap(self.round, seat, action.meld, action.card, self.setup.pack.codes))


class CapturePhase(RoundState):
    """joker_swap.capture: when a play puts wild cards on the table, each other seat in
    turn order from the next is asked whether to capture one (put the natural card it
    stands for in its place and take it); the first capture, or the last pass, hands the
    turn back to the player.  Every other seat is asked, whether or not it can capture:
    asking only those who hold such a card would tell the table what they hold."""

    __slots__ = ()

    def _offer_capture(self, seat: int, melds: Sequence[int]) -> None:
        self.offered = tuple(melds)
        order = []
        s = seat
        for _ in range(self.players - 1):
            s = self.seat_after(s)
            order.append(s)
        self.window = order
        self.window_pos = -1
        self._capture_next()

    def _capture_next(self) -> None:
        """Ask the next seat, or hand the turn back to the player when none is left."""
        self.window_pos += 1
        if self.window_pos >= len(self.window):
            self._close_capture()
            return
        self.phase = _CAPTURE
        self.turn = self.window[self.window_pos]

    def _close_capture(self) -> None:
        self.window = []
        self.offered = ()
        self.phase = _PLAYING
        self.turn = self.player

    def _capture_actions(self, seat: int) -> list[Move]:
        """Pass, and each capture ``seat`` can make: a card of its hand that takes the
        place of a wild card of an offered meld."""
        engine = self.meld_engine
        actions: list[Move] = [PASS]
        hand = list(dict.fromkeys(self.hands[seat]))
        for meld_id in self.offered:
            meld = self.melds[meld_id]
            swappable = engine.swappable(meld)
            for c in hand:
                if c in swappable and engine.swap(meld, c) is not None:
                    actions.append(Swap(meld_id, c, self.setup.pack))
        return actions

    def _verify_capture(self, seat: int, action: Move) -> Meld | None:
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Swap):
            raise IllegalActionError(f"a wild card was just put on the table: capture it (swap MELD CARD) or pass, "
                                     f"not '{action}'")
        if action.meld not in self.offered:
            raise IllegalActionError(f"meld {action.meld} took no wild card just now: only "
                                     f"{', '.join(map(str, self.offered))} may be captured from")
        self._take_from_hand(seat, [action.card])
        meld = self.meld_engine.swap(self.melds[action.meld], action.card)
        if meld is None:
            raise IllegalActionError(f"{self.setup.pack.codes[action.card]} takes the place of no wild card of "
                                     f"meld {action.meld}")
        return meld

    def _capture(self, action: Swap, meld: Meld | None) -> None:
        seat = self.turn
        if meld is None:  # a listed capture: its meld is worked out once, here
            meld = _fitted(self.meld_engine.swap(self.melds[action.meld], action.card))
        freed = next(a for a, b in zip(self.melds[action.meld].cards, meld.cards) if a != b)
        self.hands[seat].remove(action.card)
        self._forget(seat, action.card)
        self._changed(action.meld, meld)
        self.hands[seat].append(freed)
        self.known[seat] += (freed,)  # taken from the table in sight of all
        self.counters["captures"] += 1
        self.log(events.capture(self.round, seat, action.meld, action.card, freed, self.setup.pack.codes))
        self._close_capture()


def _fitted(meld: Meld | None) -> Meld:
    """A meld the caller knows is there (a lay-off or swap the listing found to fit)."""
    assert meld is not None
    return meld
