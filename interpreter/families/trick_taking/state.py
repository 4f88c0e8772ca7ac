"""A game of any trick-taking ruleset: deal -> trump -> auction -> trick play -> scoring.

Each phase's rules live in their own module (:mod:`.trump`, :mod:`.auction`,
:mod:`.trickplay`); this state wires them together and records events.  Legality has
one source per kind of move: the legal cards (:meth:`TrickTakingState._legal_cards`)
and the legal bids (:func:`.auction.legal_bids`) are what ``legal_actions`` lists and
what ``verify`` accepts; a refusal's reason is worked out only once a move is refused.
"""

from __future__ import annotations

from typing import Any

from ...deal import Deal
from ...errors import IllegalActionError
from ...game import CHANCE, OVER
from ...privacy import Seen
from .actions import PLAYS, Bid, Move, Play
from .auction import BiddingPhase
from .observation import Observations, TrickObservation
from .phases import _BIDDING, _CHOOSE_TRUMP, _DEAL, _PLAYING, Phase
from .scoring import ScoringPhase
from .trickplay import PlayPhase
from .trump import TrumpPhase

__all__ = ["Phase", "TrickObservation", "TrickTakingState"]

_PLAY_OF = PLAYS.__getitem__


class TrickTakingState(TrumpPhase, BiddingPhase, PlayPhase, ScoringPhase, Observations):
    """A game of any trick-taking ruleset."""

    __slots__ = ()  # every field is a slot of RoundState (round.py)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tricks = self.rules.section
        self.phase = _DEAL
        self.hands = [[] for _ in range(self.players)]
        self.upcard = None
        # The plain keys (cards or bids) of the cached legal actions, so that apply() can
        # check membership with C-level int comparisons instead of calling the
        # dataclasses' Python __eq__ for every listed action before the chosen one.
        self._legal_keys = []
        self._keys_at = -1  # the move number the keys are for
        # Rule flags read on every move, copied out of their frozen rule objects.
        self._own_hidden = False  # this round a seat bids without seeing its own hand
        self._others_shown = False  # this round a seat sees every other hand
        self._trump_hidden = False  # this round the trump (and the turned card) is shown after the bidding
        self._init_trump()
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
                actions = list(map(_PLAY_OF, keys))
            elif keys is self._candidates:  # no restriction removed a bid: reuse the round's actions
                actions = self._candidate_actions[:]
            else:
                actions = list(map(self._candidate_action.__getitem__, keys))
        elif turn == CHANCE:
            actions = [self.chance_action()]
        elif turn == OVER:
            actions = []
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
            self._verify_trump(action, turn)

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
            self._play(action.card)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Bid):
            self._bid(action.bid)
        else:
            self._choose_trump(action.suit)

    def _deal(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal.hands]
        self.upcard = deal.upcard
        tricks = self.tricks
        if tricks.own_hand is not None or tricks.others_hands is not None or tricks.trump_while_bidding is not None:
            env = self.setup.round_env(self.round_index)
            self._trump_hidden = tricks.trump_while_bidding is not None and \
                not self._evaluated(tricks.trump_while_bidding, env, ("information", "trump_while_bidding"))
            self._own_hidden = tricks.own_hand is not None and \
                not self._evaluated(tricks.own_hand, env, ("information", "own_hand"))
            self._others_shown = tricks.others_hands is not None and \
                bool(self._evaluated(tricks.others_hands, env, ("information", "others_hands")))
            # what the information rules hide this round, the deal's views hide too: the
            # turned card until the trump is revealed (its event then names it), and the
            # hands when a seat may not see its own or sees the others' (the
            # observation says which)
            hidden: dict[str, Seen] = {}
            if self._trump_hidden:
                hidden["upcard"] = Seen.NOBODY
            if self._own_hidden or self._others_shown:
                hidden["hands"] = Seen.NOBODY
            self.log_deal(deal, hidden)
        else:
            self.log_deal(deal)
        self._open_bidding()
        self._open_play()
        self._make_trump()

    # --- what a seat sees ---------------------------------------------------------------------
    def sees(self, seat: int) -> tuple[bool, bool]:
        """(whether ``seat`` sees its own hand now, whether it sees every other hand)."""
        own = not (self._own_hidden and self.phase is not _PLAYING and self.turn != OVER)
        return own, self._others_shown and self.turn != OVER

    # --- copies -------------------------------------------------------------------------------
    def _copy_into(self, new: Any) -> None:
        new.hands = [h[:] for h in self.hands]
        new.bids = self.bids[:]
        new.bid_order = self.bid_order[:]
        new.taken = self.taken[:]
        new.exact_bids = self.exact_bids[:]
        new.points_by_hand_size = {k: v[:] for k, v in self.points_by_hand_size.items()}
        new.trick = self.trick[:]
        new.played = self.played[:]
        new._made = self._made[:]
        new.counters = {name: values[:] for name, values in self.counters.items()}
        new._bid_env = dict(self._bid_env)

