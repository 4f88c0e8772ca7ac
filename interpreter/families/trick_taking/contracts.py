"""The auction of contracts (``trump.kind: auction``): around the table from the first
to act, each seat calls a number of tricks with a suit (``auction.tricks``,
``auction.suits``: the suits lowest first, so of two calls of as many tricks the later
suit is higher), or passes; each call is higher than the last.  Under
``auction.rounds: until-passed`` the calls go around until all but one seat have passed
after a call (a seat that has passed calls no more); under ``once`` each seat calls once.
The highest call's seat is the declarer: its suit is the trump (a ``named`` suit is
named by the declarer once it has won), and the contract (the tricks, the suit, the
declarer) is the scoring's.  When every seat passes, ``auction.all_pass`` says what
follows: the hand thrown in (scoring nothing) and dealt again by the next dealer or
the same one, or the last seat to call made to call (:class:`AuctionPhase`, entered
from :meth:`.trump.TrumpPhase._make_trump`)."""

from __future__ import annotations

from typing import Any

from ...errors import EvaluationError, IllegalActionError
from ...pack import Pack
from .actions import DECLINE, Call, Decline, Move
from .making import _decline_event
from .phases import _AUCTION, _CHOOSE_TRUMP, _DEAL
from .round import RoundState
from .rules import NAMED_SUIT, AllPass, AuctionRounds, AuctionRules, round_tricks

# a pass, as the suit of an entry of ``auction_calls`` (its tricks 0): no call's suit (a
# suit's number, -1 no trump, NAMED_SUIT), where its tricks could be a call's (a call of 0)
PASSED = -2


def _call_event(round_number: int, seat: int, tricks: int, suit: str | None) -> dict[str, Any]:
    return {"event": "call", "round": round_number, "seat": seat, "tricks": tricks, "suit": suit}


def _contract_event(round_number: int, seat: int, tricks: int, suit: str | None) -> dict[str, Any]:
    return {"event": "contract", "round": round_number, "seat": seat, "tricks": tricks, "suit": suit}


def suit_word(suit: int | None, pack: Pack) -> str | None:
    """A call's suit as the record writes it: the suit's code, ``none`` (no trump) or
    ``named`` (named by the winner)."""
    if suit is None:
        return "none"
    if suit == NAMED_SUIT:
        return "named"
    return pack.suits[suit].code


def call_words(call: Call) -> str:
    """A call for a refusal: ``bid 7H``, ``bid 6NT``, and a call whose suit its winner names
    said so (its typed form, ``bid 9 suit``, reads as a placeholder)."""
    return f"bid {call.tricks} in a suit named on winning" if call.named else str(call)


def all_calls(auction: AuctionRules, tricks: list[int], pack: Pack) -> list[Call]:
    """Every call of a round, lowest first: by tricks, then by the suits' order."""
    out = []
    for n in sorted(set(tricks)):
        for suit in auction.suits:
            if suit == NAMED_SUIT:
                out.append(Call(n, None, "", True))
            else:
                out.append(Call(n, suit, "NT" if suit is None else pack.suits[suit].code))
    return out


def round_calls(state: Any) -> list[Call]:
    """The calls of ``state``'s round, lowest first (kept for every game of the setup):
    those of ``auction.tricks`` that the round's tricks can make (validate warns of the rest)."""
    cache = state.setup.cache.setdefault("auction_calls", {})
    found: list[Call] | None = cache.get(state.round_index)
    if found is None:
        auction = state.tricks.auction
        env = state.setup.round_env(state.round_index)
        try:
            tricks = list(auction.tricks(env))
        except EvaluationError as exc:
            raise EvaluationError(f"auction.tricks '{auction.tricks.source}' in round {state.round}: {exc}",
                                  ("auction", "tricks")) from None
        most = round_tricks(state.tricks, env["hand_size"])
        found = cache[state.round_index] = all_calls(auction, [n for n in tricks if n <= most], state.setup.pack)
    return found


class AuctionPhase(RoundState):
    """The calls of an auction, the declarer and its contract."""

    __slots__ = ()

    def _init_auction(self) -> None:
        self._auctioning = self.tricks.auction is not None
        self.auction_calls = []
        self._calls = []
        self._high = -1
        self._out = []
        self._reset_contract()

    def _reset_contract(self) -> None:
        self.declarer = -1
        self.contract = 0
        self.contract_rank = -1
        self.contract_suit = -1

    def _start_auction(self) -> None:
        """After the deal: no call made yet; the first to act calls first."""
        self.auction_calls = []
        self._calls = round_calls(self)
        self._high = -1  # the index in _calls of the highest call so far
        self._out = [False] * self.players
        self._reset_contract()
        self.trump = None
        self._use_order(None)
        self.phase = _AUCTION
        self.turn = self.bid_order[0]

    def _must_call(self, seat: int) -> bool:
        """auction.all_pass: dealer-bids: the last seat to call, every other seat having
        passed without a call, may not pass."""
        auction = self.tricks.auction
        assert auction is not None
        return auction.all_pass is AllPass.DEALER_BIDS and self._high < 0 and \
            sum(self._out) == self.players - 1 and not self._out[seat]

    def _legal_auction(self, seat: int) -> list[Move]:
        """The calls above the highest so far, and a pass (unless the seat must call)."""
        out: list[Move] = list(self._calls[self._high + 1:])
        if not out and self._high < 0:
            raise EvaluationError(f"auction.tricks gives no call in round {self.round}", ("auction", "tricks"))
        if not self._must_call(seat):
            out.append(DECLINE)
        return out

    def _verify_auction(self, action: Move, turn: int) -> None:
        if isinstance(action, Decline):
            if self._must_call(turn):
                raise IllegalActionError("everyone else has passed: you must call (auction.all_pass: dealer-bids)")
            return
        if not isinstance(action, Call):
            raise IllegalActionError(f"it is time to call a number of tricks and a suit, or pass, not '{action}'")
        if action not in self._calls:
            lo, hi = self._calls[0], self._calls[-1]
            raise IllegalActionError(f"'{call_words(action)}' is not a call here: calls run from "
                                     f"{call_words(lo)[4:]} to {call_words(hi)[4:]}")
        if self._calls.index(action) <= self._high:
            raise IllegalActionError(f"'{call_words(action)}' is not higher than {call_words(self._calls[self._high])} "
                                     f"(seat {self._high_seat()}): call higher, or pass")

    def _high_seat(self) -> int:
        return next(s for s, _, suit in reversed(self.auction_calls) if suit != PASSED)

    def _auction_call(self, action: Move) -> None:
        """A seat's call or pass; then the next seat to call, or the auction's end."""
        seat = self.turn
        number = self.round_index + 1
        pack = self.setup.pack
        if isinstance(action, Call):
            self._high = self._calls.index(action)
            suit = NAMED_SUIT if action.named else (-1 if action.suit is None else action.suit)
            self.auction_calls.append((seat, action.tricks, suit))
            self._log.append((_call_event, number, seat, action.tricks,
                              suit_word(NAMED_SUIT if action.named else action.suit, pack)))
        else:
            self._out[seat] = True
            self.auction_calls.append((seat, 0, PASSED))
            self._log.append((_decline_event, number, seat))
        auction = self.tricks.auction
        assert auction is not None
        players = self.players
        if auction.rounds is AuctionRounds.ONCE:
            if len(self.auction_calls) < players:
                self.turn = self.bid_order[len(self.auction_calls)]
                return
        else:
            left = players - sum(self._out)
            if not (left == 0 or (left == 1 and self._high >= 0)):
                position = self.bid_order.index(seat)
                for k in range(1, players + 1):
                    nxt = self.bid_order[(position + k) % players]
                    if not self._out[nxt]:
                        self.turn = nxt
                        return
        if self._high < 0:  # every seat passed: the hand is thrown in
            self._throw_in()
            return
        self._end_auction()

    def _throw_in(self) -> None:
        auction = self.tricks.auction
        assert auction is not None
        self.phase = _DEAL
        if auction.all_pass is AllPass.REDEAL_SAME_DEALER:  # (score_round passes the deal on: undone first)
            self.dealer = (self.dealer - self._rotation_step) % self.players
        self.score_round([0] * self.players)

    def _end_auction(self) -> None:
        """The highest call wins: its seat declares, its suit is the trump (or the declarer
        names one)."""
        call = self._calls[self._high]
        seat = self._high_seat()
        auction = self.tricks.auction
        assert auction is not None
        self.declarer = self.maker = seat
        self.contract = call.tricks
        suit = NAMED_SUIT if call.named else call.suit
        self.contract_rank = auction.suits.index(suit)
        self._log.append((_contract_event, self.round_index + 1, seat, call.tricks, suit_word(suit, self.setup.pack)))
        if call.named:
            self.phase = _CHOOSE_TRUMP
            self.turn = seat
            return
        self.contract_suit = -1 if call.suit is None else call.suit
        self._set_trump(call.suit, seat)
        self._advance("trump")

    def contract_names(self) -> dict[str, Any]:
        """The contract's names for expressions: contract, contract_suit, contract_rank, declarer."""
        return {"contract": self.contract, "contract_suit": self.contract_suit, "contract_rank": self.contract_rank,
                "declarer": self.declarer}
