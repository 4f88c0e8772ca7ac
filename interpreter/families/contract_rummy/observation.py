"""What a seat may know of a contract-rummy game: :class:`RummyObservation`, and its
construction from the state (:meth:`Observations.observation`, the state's
``observation(seat)``; ``None`` for a spectator).  It holds the seat's own hand and
public information only: never another seat's cards, the stock's order or an RNG."""

from __future__ import annotations

from typing import NamedTuple

from ...game import OVER
from .phases import _CAPTURE, _CHOOSING, _OVER, _WINDOW
from .round import RoundState, SeatFacts
from .rules import Contract
from .table import TableIndex

_new_tuple = tuple.__new__


class RummyObservation(NamedTuple):
    """What one seat of a contract-rummy game may know.  Cards are card numbers of the
    game's pack (:mod:`cardrules.interpreter.pack`)."""

    seat: int
    players: int
    round: int
    rounds: int
    hand_size: int
    dealer: int
    phase: str
    turn: int
    totals: tuple[int, ...]
    hand: tuple[int, ...]  # this seat's cards, in the order held
    contract: Contract | None  # this seat's this round (None once the game is over, or before it is chosen)
    player: int  # the player in turn (``turn`` is whoever must act now)
    hand_counts: tuple[int, ...]
    top_discard: int | None
    discard_protected: bool
    stock: int  # cards left in the stock
    table: TableIndex  # the melds on the table, and what they accept
    down: tuple[bool, ...]
    buys: tuple[int, ...]  # buys made this round, per seat
    buys_left: int  # this seat's
    joker_debt: int  # freed jokers the player in turn must still lay off this turn
    window: tuple[int, ...]  # the seats that may buy or claim the discard on offer (or capture a wild card), in order
    buyer: int | None  # who asked to buy it so far (in the veto phase: the buy the player in turn answers)
    known: tuple[tuple[int, ...], ...]  # cards each seat took from the pile and still holds
    turn_number: int
    went_down_this_turn: bool  # this seat went down in the current turn
    wild: frozenset[int]  # the round's wild cards (melds.wild): the joker and any others
    points: tuple[int, ...] = ()  # each card's penalty points this round, by card (card_points)
    out_first: int | None = None  # who went out, while the others take their last turns (going_out.last_turns)
    final_turns: tuple[int, ...] = ()  # the last turns still to come, by seat, in order
    seats: SeatFacts | None = None  # each seat's own contract, counters and skips (None where the ruleset has none)
    offered: tuple[int, ...] = ()  # in the capture phase: the melds whose new wild cards may be captured
    chain: tuple[int, ...] = ()  # buying.per_discard: in a buying window, the seats that bought this turn
    discarder: int | None = None  # who discarded the card on top of the pile (None: turned up at the deal)

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """Each seat's contract this round, where each has its own (``contract``)."""
        return self.seats.contracts if self.seats is not None else ()

    @property
    def contract_numbers(self) -> tuple[int, ...]:
        """Their numbers in ``contracts`` (1 the first)."""
        return self.seats.contract_numbers if self.seats is not None else ()

    @property
    def counters(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each counter's name and every seat's value."""
        return self.seats.counters if self.seats is not None else ()

    @property
    def skipped(self) -> tuple[int, ...]:
        """The turns each seat is yet to lose (``skip``)."""
        return self.seats.skipped if self.seats is not None else ()


class Observations(RoundState):
    """The state's part that makes observations."""

    __slots__ = ()

    def observation(self, seat: int | None) -> RummyObservation:
        """What ``seat`` may know; ``None``: what a spectator may (seat -1, no hand)."""
        if seat is None:
            return self.observation(0)._replace(seat=-1, hand=(), buys_left=0, went_down_this_turn=False)
        if self.turn == OVER:  # no round is being played: no hand size, contract or buys
            phase, contract, hand_size, buy_limit = _OVER, None, 0, None
            points: tuple[int, ...] = ()
        else:
            phase = self.phase
            _, _, contract, hand_size, buy_limit, points, _ = self._round_facts()
            seats = self._seat_facts
            if seats is not None and seats.contracts:
                contract = seats.contracts[seat]
            elif phase is _CHOOSING:  # (contract.choose: not chosen yet)
                contract = None
        pile = self.pile
        down = self.down
        # tuple.__new__ rather than RummyObservation(...): the named tuple's own __new__
        # is a Python function of 26 arguments, and this runs for every decision
        return _new_tuple(RummyObservation, (
            seat, self.players, self.round_index + 1, len(self.setup.hand_sizes), hand_size,
            self.dealer, phase, self.turn, tuple(self.totals),
            tuple(self.hands[seat]), contract, self.player,
            tuple(map(len, self.hands)), pile[-1] if pile else None, self.protected, len(self.stock),
            self.table, tuple(down), tuple(self.buys),
            0 if buy_limit is None or self.buys[seat] >= buy_limit else buy_limit - self.buys[seat],
            self.joker_debt, tuple(self.window) if phase is _WINDOW or phase is _CAPTURE else (), self.buyer,
            tuple(self.known), self.turn_number,
            down[seat] and self.down_turn[seat] == self.turn_number, self.meld_engine.wild, points,
            self.out_first, self.final_turns, self._seat_facts, self.offered,
            self.chain, self.discarder))
