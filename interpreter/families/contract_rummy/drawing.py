"""The draw of a contract-rummy turn: a turn starts (:meth:`DrawPhase._start_turn`,
unless the turns or the stock have run out), and the player in turn takes the top
discard free (:meth:`~DrawPhase._take_discard`) or draws from the stock.  Declining
the discard first opens the buying window (:mod:`.buying`); the card then comes off
the stock as a chance outcome (:meth:`~DrawPhase._stock_draw`), so that a replay can
name it.  The stock is refilled from the discard pile where the ruleset says so
(:meth:`~DrawPhase._refill_stock`).  Entry points: :meth:`~DrawPhase._can_take` (the
listing: ``take`` where it holds, and ``draw``), :meth:`~DrawPhase._verify_draw`,
:meth:`~DrawPhase._verify_stock_card`."""

from __future__ import annotations

from ...deal import take_from_stock
from ...errors import IllegalActionError
from ...game import CHANCE
from . import events
from .actions import DrawStock, StockCard, TakeDiscard
from .phases import _DRAWING, _PLAYING
from .round import Move, RoundState, not_now
from .rules import WhenEmpty


class DrawPhase(RoundState):
    """A turn's start and its draw: the discard taken, or a card off the stock."""

    __slots__ = ()

    def _start_turn(self, seat: int) -> None:
        if self.skip_named:  # skip.seat: chosen: one more turn begun since each seat was last named
            self.skip_since = [n + 1 if k else 0 for n, k in zip(self.skip_since, self.skip_named)]
            self._refresh_seat_facts()
        skipped = self.skipped
        if skipped and skipped[seat]:  # a skip card was discarded to this seat: it loses this turn
            skipped[seat] -= 1
            self._refresh_seat_facts()
            self.log(events.skip(self.round, seat))
            self.counters["turns_skipped"] += 1
            if self.out_first is not None:  # (a last turn lost)
                self._next_last_turn()
            else:
                self._start_turn(self.seat_after(seat))
            return
        self.player = seat
        self.turn_number += 1
        if self.turn_number > self.section.stock.turn_limit:
            self._exhausted("turns")
            return
        if not self.stock and not self._refill_stock():
            self._exhausted("stock")
            return
        self.phase = _DRAWING
        self.turn = seat

    def _can_take(self) -> bool:
        """Whether the player in turn may take the discard (the draw's listing is
        ``take`` where they may, and ``draw``: see ``RummyState.legal_actions``)."""
        rule = self.section.take_discard
        return bool(self.pile) and not self.protected and (
            rule is None or self._seat_allows(rule, self.player, "take_discard"))

    def _verify_draw(self, action: Move) -> None:
        if isinstance(action, TakeDiscard):
            if not self.pile:
                raise IllegalActionError("there is no discard to take")
            if self.protected:
                raise IllegalActionError("that discard was protected with a call; draw from the stock")
            if not self._can_take():
                rule = self.section.take_discard
                assert rule is not None  # (with no rule, a discard on the pile can always be taken)
                raise self._seat_refusal(rule, self.player, "take_discard")
            return
        if isinstance(action, DrawStock):
            return
        raise not_now(action, f"first take the discard or draw from the stock ('take' or 'draw'), "
                              f"not '{action}'")

    def _take_discard(self) -> None:
        c = self.pile.pop()
        self.hands[self.player].append(c)
        self.known[self.player] += (c,)
        self._log_draw("discard", c)
        self.phase = _PLAYING

    def _draw_for_player(self) -> None:
        """The discard declined (and the buying window closed): a card off the stock,
        chance's next outcome."""
        if not self.stock and not self._refill_stock():
            self._exhausted("stock")
            return
        self.phase = _DRAWING
        self.turn = CHANCE

    def _verify_stock_card(self, action: Move) -> None:
        if not isinstance(action, StockCard):
            raise IllegalActionError(f"a card comes off the stock now, not '{action}'")
        if action.card not in self.stock:
            raise IllegalActionError(f"the stock holds no {self.setup.pack.codes[action.card]}")

    def _stock_draw(self, c: int) -> None:
        drawn = self._take_stock_card(c)
        assert drawn is not None
        if self.turn_number == 0:  # before the first turn: turned up in place of a buried card
            self._turned_up(drawn)
            return
        self.hands[self.player].append(drawn)
        self._log_draw("stock", drawn)
        self.phase = _PLAYING
        self.turn = self.player

    def _log_draw(self, source: str, c: int) -> None:
        refused = self.refused_buyer()  # a refused buy leaves no other trace: the draw says so
        if refused is None:
            self._log.append((events.draw, self.round_index + 1, self.player, source, c, self.setup.pack.codes))
        else:
            self._log.append((events.draw, self.round_index + 1, self.player, source, c, self.setup.pack.codes,
                              refused))

    def _take_stock_card(self, wanted: int | None = None) -> int | None:
        """The top card of the stock, or (in a replay) the card the record names."""
        if not self.stock and not self._refill_stock():
            return None
        if wanted is None and self.forced:
            wanted = self.forced.pop(0)
        return take_from_stock(self.stock, wanted)

    def _refill_stock(self) -> bool:
        stock_rule = self.section.stock
        if stock_rule.when_empty is not WhenEmpty.RESHUFFLE_DISCARDS or self.reshuffles >= stock_rule.reshuffles:
            return False
        if not self.reshuffle():
            return False
        self.reshuffles += 1
        return True
