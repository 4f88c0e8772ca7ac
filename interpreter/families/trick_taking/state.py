"""A game of any trick-taking ruleset: deal -> trump -> bidding -> trick play -> scoring.

Each phase is a module of its own, its rules and its part of the state together:
:mod:`.dealing` (the deal and the information rules), :mod:`.trump`, :mod:`.auction`
(the bidding), :mod:`.trickplay`, :mod:`.scoring` and :mod:`.observation`; the fields
they share are declared once in :mod:`.round`.  This state composes them and offers the
core's API: the legal actions, verifying and applying a move, copies.  Legality has one
source per kind of move: the legal cards (:meth:`.trickplay.PlayPhase._legal_cards`)
and the legal bids (:meth:`.auction.BiddingPhase._legal_bids`) are what
``legal_actions`` lists and what ``verify`` accepts; a refusal's reason is worked out
only once a move is refused.
"""

from __future__ import annotations

from typing import Any

from ...deal import Deal
from ...errors import IllegalActionError
from ...game import CHANCE, OVER, GameState
from .actions import Bid, BlindBid, Call, Decline, Discard, Look, Move, Pass, Play
from .auction import BiddingPhase
from .blind import BlindPhase
from .contracts import AuctionPhase
from .kitty import KittyPhase
from .dealing import DealPhase
from .exchange import ExchangePhase
from .making import MakingPhase
from .observation import Observations, TrickObservation
from .phases import _AUCTION, _BIDDING, _BLIND, _CHOOSE_TRUMP, _DEAL, _DISCARD, _EXCHANGE, _KITTY, _PLAYING, Phase
from .round import FIELDS
from .scoring import ScoringPhase
from .trickplay import PlayPhase
from .trump import TrumpPhase

__all__ = ["Phase", "TrickObservation", "TrickTakingState"]

class TrickTakingState(DealPhase, TrumpPhase, MakingPhase, AuctionPhase, KittyPhase, ExchangePhase, BlindPhase,
                       BiddingPhase, PlayPhase, ScoringPhase, Observations):
    """A game of any trick-taking ruleset."""

    # Every field's slot (declared in round.py) is this class's own, not a base's: a slot
    # read or written by name (getattr, hasattr, setattr: clone() copies every slot so)
    # checks the instance's type against the class holding the slot, at once when that is
    # the instance's own class and else along the whole chain of the phases' classes.  The
    # hot paths read a dozen fields a move, and a slot is read faster than an entry of an
    # instance dict, which CPython stops sharing between instances past 30 keys.
    __slots__ = FIELDS

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tricks = self.rules.section
        self.phase = _DEAL
        self._legal_keys = []
        self._keys_at = -1
        self._init_deal()
        self._init_trump()
        self._init_making()
        self._init_auction()
        self._init_kitty()
        self._init_blind()
        self._init_exchange()
        self._init_bidding()
        self._init_play()
        self._init_scoring()

    # --- legal actions: one source per kind of move ---------------------------------------------
    def legal_actions(self) -> list[Move]:
        if self._legal_at == self.moves:
            return self._legal_list
        turn = self.turn
        actions: list[Move]
        if turn >= 0 and (self.phase is _PLAYING or self.phase is _BIDDING):
            keys = self._legal_keys if self._keys_at == self.moves else self._keys(turn)
            if self.phase is _PLAYING:
                # map() with the interned actions' __getitem__ builds the list in C
                actions = list(map(self._play_of, keys))
            elif keys is self._candidates:  # no restriction removed a bid: reuse the round's actions
                actions = self._candidate_actions[:]
            else:
                actions = list(map(self._candidate_action.__getitem__, keys))
        elif turn == CHANCE:
            actions = [self.chance_action()]
        elif turn == OVER:
            actions = []
        elif self.phase is _EXCHANGE:
            actions = self._legal_passes(turn)
        elif self.phase is _DISCARD:
            actions = self._legal_discards(turn)
        elif self.phase is _AUCTION:
            actions = self._legal_auction(turn)
        elif self.phase is _KITTY:
            actions = self._legal_kitty_discards(turn)
        elif self.phase is _BLIND:
            actions = self._legal_blind(turn)
        elif self._ordering:
            actions = self._legal_calls(turn)
        else:
            actions = self._legal_trumps()
        self._legal_at = self.moves
        self._legal_list = actions
        return actions

    def _keys(self, turn: int) -> list[int]:
        """The legal cards (playing) or bids (bidding) of ``turn``, kept for this move:
        the plain values the listed actions stand for."""
        keys = self._legal_cards(turn) if self.phase is _PLAYING else self._legal_bids(turn)
        self._legal_keys = keys
        self._keys_at = self.moves
        return keys

    def legal_count(self) -> int:
        if self._keys_at == self.moves:
            return len(self._legal_keys)
        turn = self.turn
        if turn >= 0:
            phase = self.phase  # (as _keys, without the call: this runs for every random move)
            if phase is _PLAYING:
                keys = self._legal_cards(turn)
            elif phase is _BIDDING:
                keys = self._legal_bids(turn)
            else:
                return len(self.legal_actions())
            self._legal_keys = keys
            self._keys_at = self.moves
            return len(keys)
        return len(self.legal_actions())

    def apply_index(self, index: int) -> None:
        if self._keys_at == self.moves:  # playing or bidding: the keys are the cards or the bids
            key = self._legal_keys[index]
            self.decisions += 1
            if self.phase is _PLAYING:
                self._play(key)
            else:
                self._bid(key)
            self.moves += 1
            return
        self.apply(self.legal_actions()[index])

    # --- verification -----------------------------------------------------------------------
    def verify(self, action: Move) -> None:
        turn = self.turn
        if turn == CHANCE:
            self.verify_deal(action)
            return
        if turn == OVER:
            raise IllegalActionError("the game is over")
        phase = self.phase
        if phase is _PLAYING:
            self._verify_play(action, turn)
        elif phase is _BIDDING:
            self._verify_bid(action, turn)
        elif phase is _CHOOSE_TRUMP:
            if self._ordering:
                self._verify_call(action, turn)
            else:
                self._verify_trump(action, turn)
        elif phase is _EXCHANGE:
            self._verify_pass(action, turn)
        elif phase is _DISCARD:
            self._verify_discard(action, turn)
        elif phase is _AUCTION:
            self._verify_auction(action, turn)
        elif phase is _KITTY:
            self._verify_kitty_discard(action, turn)
        elif phase is _BLIND:
            self._verify_blind(action, turn)

    # --- applying --------------------------------------------------------------------------
    def apply(self, action: Move) -> None:
        """As :meth:`GameState.apply`; an action from the cached legal list (the case
        of every bot) skips verification, found by its card or bid, not by ``==``."""
        if type(action) is Play:  # the keys are cards only while playing
            if self.phase is _PLAYING and self._keys_at == self.moves and action.card in self._legal_keys:
                self.decisions += 1
                self._play(action.card)
                self.moves += 1
                return
        elif self._keys_at == self.moves:
            if type(action) is Bid and self.phase is _BIDDING and action.bid in self._legal_keys:
                self.decisions += 1
                self._bid(action.bid)
                self.moves += 1
                return
        super().apply(action)

    def _do(self, action: Move, checked: Any) -> None:
        if isinstance(action, Play):
            self._play(action.card, action.role)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Bid):
            self._bid(action.bid)
        elif isinstance(action, Pass):
            self._pass(action.card)
        elif isinstance(action, Discard):
            if self.phase is _KITTY:
                self._kitty_discard(action.card)
            else:
                self._discard(action.card)
        elif isinstance(action, (BlindBid, Look)):
            self._choose_blind(action)
        elif isinstance(action, Call) or (self.phase is _AUCTION and isinstance(action, Decline)):
            self._auction_call(action)
        elif self._ordering or isinstance(action, Decline):
            self._call(action)
        else:
            self._choose_trump(action.suit)

    def seat_values(self) -> dict[str, list[int]]:
        return self.counters

    # --- copies -------------------------------------------------------------------------------
    def _copy_into(self, new: Any) -> None:
        # every phase's containers in one method, not one per phase: a clone is on the
        # search's hot path
        new._keys_at = -1  # the legal keys cached for the move number are this state's own
        if self._ordered:  # the trick.order winner is a method bound to its state: the copy's own
            new._trick_winner = new._ordered_winner
        new.hands = [h[:] for h in self.hands]
        new.bids = self.bids[:]
        new.bid_order = self.bid_order[:]
        new.taken = self.taken[:]
        new.exact_bids = self.exact_bids[:]
        new.points_by_hand_size = {k: v[:] for k, v in self.points_by_hand_size.items()}
        new.trick = self.trick[:]
        new.played = self.played[:]
        new.played_roles = self.played_roles[:]
        new._played_as = self._played_as[:]
        new.card_points = self.card_points[:]
        new.trick_points = self.trick_points[:]
        new._made = self._made[:]
        new.counters = {name: values[:] for name, values in self.counters.items()}
        new._bid_env = dict(self._bid_env)
        if self.tricks.exchange is not None:
            new.passing = [p[:] for p in self.passing]
            new.received = [r[:] for r in self.received]
        if self.won:
            new.won = [w[:] for w in self.won]
        if self._ordering:
            new.trump_calls = self.trump_calls[:]
            new.laid_aside = self.laid_aside[:]
        if self._auctioning:
            new.auction_calls = self.auction_calls[:]
            new._out = self._out[:]
        if self.tricks.blind is not None:
            new.looked = self.looked[:]
            new.blind_bids = self.blind_bids[:]
        if self.tricks.kitty is not None:
            new.kitty = self.kitty[:]
            new.kitty_taken = self.kitty_taken[:]
            new.kitty_discards = self.kitty_discards[:]


class TrickTakingWithRoles(TrickTakingState):
    """A game whose pack has cards played in a role (``trick.roles``): a move for each
    role of such a card, so the moves are no longer one a card and the fast paths that
    take a card for a move are off (kept apart so that the other games pay nothing)."""

    __slots__ = ()

    def legal_actions(self) -> list[Move]:
        if self._legal_at == self.moves:
            return self._legal_list
        actions = super().legal_actions()
        if self.phase is _PLAYING and self.turn >= 0:
            actions = self._legal_list = self._with_roles(actions)
        return actions

    def _with_roles(self, actions: list[Move]) -> list[Move]:
        out: list[Move] = []
        codes = self.setup.pack.codes
        roles_of = self._roles
        for action in actions:
            assert isinstance(action, Play)
            roles = roles_of.get(action.card)
            if roles is None:
                out.append(action)
            else:
                out += [Play(action.card, role, codes[action.card]) for role in roles]
        return out

    def legal_count(self) -> int:
        return len(self.legal_actions())

    def apply_index(self, index: int) -> None:
        self.apply(self.legal_actions()[index])

    def apply(self, action: Move) -> None:
        GameState.apply(self, action)


class TrickTakingWithSitOut(TrickTakingState):
    """A game in which seats may sit a hand out (sits_out, or trump.alone: the lone
    maker's partner): a trick is then complete with a card fewer for each, and the turn
    passes over them (kept apart so that the other games' play path pays nothing for it)."""

    __slots__ = ()

    def _play(self, card: int, role: str | None = None) -> None:
        absent = self.absent
        super()._play(card, role)  # with a seat out, the trick is never complete here
        if not absent or not self.trick:
            return
        if len(self.trick) == self.players - len(absent):
            self._take_trick(self.trick, self.trick_number, self.round_index + 1)
            return
        while self.turn in absent:
            self.turn = self.seat_after(self.turn)


def state_class(rules: Any) -> type[TrickTakingState]:
    """The state class for a ruleset: with roles, with a seat sitting out, or the plain one."""
    order = rules.section.order
    if rules.section.trump.alone or rules.section.sits_out is not None:
        return TrickTakingWithSitOut
    return TrickTakingWithRoles if order is not None and order.roles else TrickTakingState
