"""Trump made at the table (``trump.kind: order-up``): the turned card's suit is offered
to each seat in turn from the first to act, who orders it up or passes; when every
seat has passed, the turned card is turned down and each seat in turn may name another
suit or pass (``trump.stick_the_dealer``: the dealer may not pass then).  The seat that
orders or names the trump is the round's maker.  An ordered-up card is taken by the
dealer, who discards a card face down (``trump.pickup``).  When every seat passes twice
the hand is thrown in: it scores nothing and the deal passes (:class:`MakingPhase`,
entered from :meth:`.trump.TrumpPhase._make_trump`)."""

from __future__ import annotations

from typing import Any

from ...errors import IllegalActionError
from functools import lru_cache

from .actions import DECLINE, ChooseTrump, Decline, Discard, Move, discards, trump_choices
from .phases import _CHOOSE_TRUMP, _DEAL, _DISCARD
from .round import RoundState

DECLINED = -2  # a pass, in trump_calls (a suit's number otherwise)


@lru_cache(maxsize=256)
def alone_call(call: ChooseTrump) -> ChooseTrump:
    """``call`` made to play alone (interned)."""
    return ChooseTrump(call.suit, call.code, True)


def _decline_event(round_number: int, seat: int) -> dict[str, Any]:
    return {"event": "decline", "round": round_number, "seat": seat}


def _pickup_event(round_number: int, seat: int, card: str) -> dict[str, Any]:
    return {"event": "pickup", "round": round_number, "seat": seat, "card": card}


def _discard_event(round_number: int, seat: int, card: str) -> dict[str, Any]:
    return {"event": "discard", "round": round_number, "seat": seat, "card": card}


class MakingPhase(RoundState):
    """Ordering up the turned suit, or naming another; the dealer's pickup and discard."""

    __slots__ = ()

    def _init_making(self) -> None:
        self.maker = -1
        self.making_round = 0
        self.trump_calls = []
        self.discarded = -1
        self.picked_up = False
        self.alone = False
        self.sitting_out = -1
        self.laid_aside = []
        self.absent = ()

    def _start_making(self) -> None:
        """After the deal: the turned suit is offered, from the first to act."""
        self.maker = -1
        self.making_round = 1
        self.trump_calls = []
        self.discarded = -1
        self.picked_up = False
        self.alone = False
        self.sitting_out = -1
        self.laid_aside = []
        self.trump = None
        self._use_order(None)
        self.phase = _CHOOSE_TRUMP
        self.turn = self.bid_order[0]

    def _offered(self) -> int | None:
        """The turned card's suit (None: a card of no suit, which offers none)."""
        up = self.upcard
        if up is None:
            return None
        suit = self.setup.pack.suit_of[up]
        return suit if suit >= 0 else None

    def _legal_calls(self, seat: int) -> list[Move]:
        """Ordering up the turned suit or passing (first round); naming another suit of
        trump.choices or passing (second round; not the dealer under stick_the_dealer)."""
        choices = trump_choices(self.setup.pack)
        offered = self._offered()
        if self.making_round == 1:
            offer: list[Move] = [choices[offered]] if offered is not None else []
        else:
            offer = [choices[-1 if s is None else s] for s in self.tricks.trump.choices if s != offered]
        if self.tricks.trump.alone:  # each call, with the partner or alone
            offer += [alone_call(call) for call in offer]
        if self.making_round == 1 or not (self.tricks.trump.stick_the_dealer and seat == self.dealer):
            offer.append(DECLINE)
        return offer

    def _verify_call(self, action: Move, turn: int) -> None:
        if action in self._legal_calls(turn):
            return
        pack = self.setup.pack
        offered = self._offered()
        if self.making_round == 1:
            what = pack.suits[offered].name if offered is not None else "no suit"
            raise IllegalActionError(f"order up {what} (the turned card's suit) or pass, not '{action}'")
        if isinstance(action, Decline):
            raise IllegalActionError("the dealer may not pass now: name the trump")
        if isinstance(action, ChooseTrump) and action.suit == offered and offered is not None:
            raise IllegalActionError(f"{pack.suits[offered].name} was turned down: name another suit, or pass")
        raise IllegalActionError(f"name the trump or pass, not '{action}'")

    def _call(self, action: Move) -> None:
        """A seat's call: a pass, or the trump it orders up or names."""
        seat = self.turn
        number = self.round_index + 1
        if isinstance(action, Decline):
            self.trump_calls.append((seat, DECLINED))
            self._log.append((_decline_event, number, seat))
            position = self.bid_order.index(seat) + 1
            if position < self.players:
                self.turn = self.bid_order[position]
            elif self.making_round == 1:  # every seat passed: the turned card is turned down
                self.making_round = 2
                self.turn = self.bid_order[0]
            else:  # every seat passed twice: the hand is thrown in, and the deal passes
                self.phase = _DEAL
                self.score_round([0] * self.players)
            return
        assert isinstance(action, ChooseTrump)
        self.trump_calls.append((seat, -1 if action.suit is None else action.suit))
        self.maker = seat
        self.alone = action.alone
        self._set_trump(action.suit, seat, action.alone)
        if self.making_round == 1 and self.tricks.trump.pickup and self.upcard is not None:
            dealer = self.dealer
            self.hands[dealer].append(self.upcard)
            self.picked_up = True
            self._log.append((_pickup_event, number, dealer, self.setup.pack.codes[self.upcard]))
            self.phase = _DISCARD
            self.turn = dealer
            return
        self._advance("trump")

    def _sit_out(self) -> None:
        """A maker playing alone: their partner sits the hand out, its cards laid aside;
        the first trick's leader, if it is the partner, is the seat after it."""
        teams = self.setup.teams
        maker = self.maker
        partner = next((s for s in range(self.players) if s != maker and teams and teams[s] == teams[maker]), -1)
        if partner < 0:
            return
        self.sitting_out = partner
        self.absent = (partner,)
        self.laid_aside = self.hands[partner]
        self.hands[partner] = []
        if self.leader == partner:
            self.leader = self.seat_after(partner)

    def _legal_discards(self, seat: int) -> list[Move]:
        of = discards(self.setup.pack)
        return [of[c] for c in dict.fromkeys(self.hands[seat])]

    def _verify_discard(self, action: Move, turn: int) -> None:
        if not isinstance(action, Discard):
            raise IllegalActionError(f"discard a card face down (you took the turned card), not '{action}'")
        if action.card not in self.hands[turn]:
            code = self.setup.pack.codes[action.card] if 0 <= action.card < self.setup.pack.size else action.card
            raise IllegalActionError(f"you do not hold {code}")

    def _discard(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.discarded = card
        self._log.append((_discard_event, self.round_index + 1, seat, self.setup.pack.codes[card]))
        self._advance("trump")

    def _skip_discard(self, card: int) -> None:
        """Leave the discard as if made, the hands as they are (the search's sampled state,
        whose hands are dealt as they stand after it); ``card``: the discard, when known."""
        self.discarded = card
        self._advance("trump")
