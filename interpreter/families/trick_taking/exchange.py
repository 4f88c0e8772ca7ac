"""The exchange phase of a round (``exchange``, with ``exchange`` in ``phases``): every
seat passes ``exchange.cards`` cards to the seat ``exchange.direction`` seats to its
left (or, with ``scatter``, that many to each other seat, the first to its left; with
``aside``, face down out of the round, and with ``exchange.bid`` as the seat's bid), all
at once.  A seat puts its cards aside one at a time (a move each, in the
bidding order); no seat sees what the others put aside, and the cards change hands
only once every seat has passed, when each seat sees what it received
(:class:`ExchangePhase`, entered at :meth:`ExchangePhase._start_exchange`)."""

from __future__ import annotations

from typing import Any

from ...errors import IllegalActionError
from .actions import Move, Pass, passes
from .phases import _EXCHANGE
from .round import RoundState
from .names import ASIDE, SCATTER
from .rules import exchange_env


def _pass_event(round_number: int, seat: int, card: str, to: int) -> dict[str, Any]:
    return {"event": "pass", "round": round_number, "seat": seat, "card": card, "to": to}


def _aside_event(round_number: int, seat: int, card: str) -> dict[str, Any]:
    return {"event": "pass", "round": round_number, "seat": seat, "card": card, "aside": True}


def _laid_aside_event(round_number: int, seat: int, cards: list[str], bid: int) -> dict[str, Any]:
    return {"event": "laid_aside", "round": round_number, "seat": seat, "cards": cards, "bid": bid}


def _receive_event(round_number: int, seat: int, giver: int, cards: list[str]) -> dict[str, Any]:
    return {"event": "receive", "round": round_number, "seat": seat, "from": giver, "cards": cards}


class ExchangePhase(RoundState):
    """The cards passed between seats before the play."""

    __slots__ = ()

    def _init_exchange(self) -> None:
        self.passing = [[] for _ in range(self.players)]
        self.received = [[] for _ in range(self.players)]
        self.pass_count = 0
        self.pass_offset = 0

    def _open_exchange(self) -> None:
        """After the deal: nothing passed yet this round."""
        if self.tricks.exchange is not None:
            self._init_exchange()

    def _start_exchange(self) -> None:
        """This round's pass (how many cards, to whom); a round that passes none goes on
        to the next phase at once."""
        exchange = self.tricks.exchange
        assert exchange is not None
        env = exchange_env(self.setup, self.round_index, self.dealer)
        count = int(self._evaluated(exchange.cards, env, ("exchange", "cards")))
        direction = int(self._evaluated(exchange.direction, env, ("exchange", "direction")))
        # -1: to each other seat; -2: laid aside, to no one
        offset = -1 if direction == SCATTER else -2 if direction == ASIDE else direction % self.players
        if count <= 0 or offset == 0:
            self._advance("exchange")
            return
        if offset == -1:
            count *= self.players - 1
        self.pass_count = min(count, len(self.hands[0]))
        self.pass_offset = offset
        self.phase = _EXCHANGE
        self.turn = self.bid_order[0]
        if self._counting:  # what each card is worth, for a seat choosing what to pass
            self._card_values = self._values_of_cards()

    def pass_target(self, seat: int, index: int = 0) -> int:
        """The seat that receives ``seat``'s card put aside ``index``-th this round
        (``seat`` itself: no pass, or laid aside); with a scatter, the first cards go to its
        left, the next to the seat after, and so on."""
        if self.pass_offset == -2:
            return seat
        if self.pass_offset < 0:
            return (seat + 1 + index * (self.players - 1) // self.pass_count) % self.players
        return (seat + self.pass_offset) % self.players

    def _legal_passes(self, seat: int) -> list[Move]:
        """The cards ``seat`` may put aside now: any card it holds (each once)."""
        of = passes(self.setup.pack)
        return [of[c] for c in dict.fromkeys(self.hands[seat])]

    def _verify_pass(self, action: Move, turn: int) -> None:
        left = self.pass_count - len(self.passing[turn])
        if not isinstance(action, Pass):
            raise IllegalActionError(f"it is time to pass cards ({left} more, the next to seat "
                                     f"{self.pass_target(turn, len(self.passing[turn]))}), not '{action}'")
        if action.card not in self.hands[turn]:
            code = self.setup.pack.codes[action.card] if 0 <= action.card < self.setup.pack.size else action.card
            raise IllegalActionError(f"you do not hold {code}")

    def _pass(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        put = self.passing[seat]
        put.append(card)
        number = self.round_index + 1
        if self.pass_offset == -2:
            self._log.append((_aside_event, number, seat, self.setup.pack.codes[card]))
        else:
            self._log.append((_pass_event, number, seat, self.setup.pack.codes[card],
                              self.pass_target(seat, len(put) - 1)))
        if len(put) < self.pass_count:
            return
        position = self.bid_order.index(seat) + 1
        if position < self.players:
            self.turn = self.bid_order[position]
            return
        if self.pass_offset == -2:  # laid aside: no one receives them; with exchange.bid they are the bids
            self._bid_by_cards_aside()
            self._advance("exchange")
            return
        # every seat has passed: the cards change hands, each seat sees what it received
        codes = self.setup.pack.codes
        if self.pass_offset < 0:  # a scatter: from each other seat, a receive line each
            got: dict[tuple[int, int], list[int]] = {}
            for giver in range(self.players):
                for index, c in enumerate(self.passing[giver]):
                    got.setdefault((self.pass_target(giver, index), giver), []).append(c)
            for seat in range(self.players):
                self.received[seat] = []
                for step in range(1, self.players):
                    giver = (seat - step) % self.players
                    cards = got.get((seat, giver), [])
                    self.hands[seat] += cards
                    self.received[seat] += cards
                    self._log.append((_receive_event, number, seat, giver, [codes[c] for c in cards]))
            self._advance("exchange")
            return
        for giver in range(self.players):
            to = self.pass_target(giver)
            self.hands[to] += self.passing[giver]
            self.received[to] = self.passing[giver][:]
        for seat in range(self.players):
            giver = (seat - self.pass_offset) % self.players
            self._log.append((_receive_event, number, seat, giver, [codes[c] for c in self.received[seat]]))
        self._advance("exchange")

    def _bid_by_cards_aside(self) -> None:
        """exchange.bid: each seat's bid is what the cards it laid aside are worth."""
        if self.tricks.exchange is None or self.tricks.exchange.bid is None:
            return
        worth = self._bid_values()
        for seat in range(self.players):
            self.bids[seat] = sum(worth[c] for c in self.passing[seat])

    def _bid_values(self) -> tuple[int, ...]:
        """Each card's worth in a bid laid aside this round (exchange.bid, by the round and
        the trump; kept for every game of the setup)."""
        exchange = self.tricks.exchange
        assert exchange is not None and exchange.bid is not None
        return self._values_by_card(exchange.bid, ("exchange", "bid"), "aside_bid")

    def _reveal_aside(self) -> None:
        """The round is over: the bids laid aside are shown, with their cards."""
        if self.pass_offset != -2 or not self.tricks.bids_laid_aside:
            return
        codes = self.setup.pack.codes
        number = self.round_index + 1
        for seat in range(self.players):
            self._log.append((_laid_aside_event, number, seat, [codes[c] for c in self.passing[seat]],
                              self.bids[seat] or 0))

    def _skip_exchange(self, seat: int, passed: tuple[int, ...], received: tuple[int, ...]) -> None:
        """Leave the exchange as if it were over, the hands as they are (the search's
        sampled state, whose hands are dealt as they stand after it): ``seat`` passed
        ``passed`` and received ``received``."""
        self.passing[seat] = list(passed)
        self.received[seat] = list(received)
        self._advance("exchange")
