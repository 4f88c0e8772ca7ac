"""A game of any contract-rummy ruleset: chance events and the deal -> turns of draw
(or take, with a buying window for the others) -> go down, lay off, swap -> discard or
go out -> penalty scoring.

A turn, as the rules describe it: the player in turn takes the top discard free or
draws from the stock.  Declining the discard opens a window in which the others, in
the ruleset's priority order, may buy it (one buy per discard, within their limit,
with penalty cards) or, where the ruleset allows the call, claim a discard that fits a
meld on the table.  Where ``buying.veto`` says so, the player in turn then allows the
buy or refuses it (the card stays on the pile, or they take it as their draw).  Then
the player may go down with exactly the round's contract, lay off, swap jokers, and
ends the turn with a discard or by going out.  Drawing from the stock is a chance
event, so a replay can name the card drawn.

Each phase is a module of its own, its rules and its part of the state together:
:mod:`.dealing` (the round's chance events and the deal), :mod:`.drawing` (a turn's
start, the draw, the stock), :mod:`.buying` (the buying window and the veto),
:mod:`.going_down`, :mod:`.laying_off` (lay-offs and joker swaps), :mod:`.discarding`
(the discard, going out, and the hand rule every table play keeps), :mod:`.scoring`
(the round's end) and :mod:`.observation`; the fields they share are declared once in
:mod:`.round`, the table's index is :mod:`.table`, and every event is built in
:mod:`.events`.  This state composes them and offers the core's API: chance's next
outcome, the legal actions, verifying and applying a move, copies.

Legality: each kind of table play has one check (:meth:`~.going_down.GoDownPhase._check_go_down`,
:meth:`~.laying_off.LayOffPhase._check_lay_off`, :meth:`~.laying_off.LayOffPhase._check_swap`)
that returns what applying it needs; ``verify`` is those checks, and ``apply`` uses
what they returned.  The listed moves are the canonical ones (a go-down with each meld
of its least size, a lay-off of one card), found through an index of what the table
accepts; a property test checks that they are exactly the candidates the checks accept.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...errors import EvaluationError, IllegalActionError
from ...game import CHANCE, OVER
from .actions import (DRAW, TAKE, Allow, Buy, Choose, Claim, CutOutcome, Discard, DrawStock, GoDown, LayOff, Pass,
                      Refuse, StockCard, Swap, TakeDiscard)
from .buying import BuyingPhase
from .dealing import DealPhase
from .discarding import DiscardPhase
from .drawing import DrawPhase
from .going_down import GoDownPhase
from .laying_off import CapturePhase, LayOffPhase
from .melds import MeldEngine
from .observation import Observations, RummyObservation
from .phases import _CAPTURE, _CHOOSING, _DEAL, _DRAWING, _VETO, _WINDOW, Phase
from .round import Checked, Move, not_now
from .rules import BuyVeto
from .scoring import ScoringPhase
from .table import TableIndex, TableMeld

__all__ = ["Move", "Phase", "RummyObservation", "RummyState", "TableIndex", "TableMeld"]


class RummyState(DealPhase, DrawPhase, BuyingPhase, GoDownPhase, LayOffPhase, CapturePhase, DiscardPhase, ScoringPhase,
                 Observations):
    """A game of any contract-rummy ruleset."""

    __slots__ = ()  # every field is a slot of RoundState (round.py)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.section = self.rules.section
        self.meld_engine = MeldEngine(self.section.melds, self.setup.env, going_down=self.section.going_down,
                                      pack=self.setup.pack, ranks=self.setup.ranks)
        self.phase = _DEAL
        self.hands = [[] for _ in range(self.players)]
        self.melds = {}
        self.owners = {}
        self.down = [False] * self.players
        self.buys = [0] * self.players
        self.jokers_melded = [0] * self.players
        self.down_turn = [0] * self.players
        self.known = [()] * self.players
        self.turn_number = 0
        self.discarder = None
        self.reshuffles = 0
        self.player = 0
        self.protected = False
        self.window = []
        self.window_pos = 0
        self.buyer = None
        self.chain = ()
        self.joker_debt = 0
        self.offered = ()
        self.chance_step = 0
        self.cut_success = []
        self.forced = []
        self.counters = Counter()
        self.seat_counters = {}
        for counter in self.section.counters:
            values = []
            for seat in range(self.players):
                env = self.setup.round_env(0)
                env["seat"] = seat
                values.append(int(self._evaluate(counter.initial, env, ("counters", counter.name, "initial"))))
            self.seat_counters[counter.name] = values
        self.seat_contracts = ()
        self.contract_numbers = ()
        self.skips = frozenset()
        self.skipped = []
        self.skip_named = []
        self.skip_since = []
        self.made = [()] * self.players
        self.choosers = ()
        self._refresh_seat_facts()
        self._per_round = {}
        self.went_out = [0] * self.players
        self.penalties = [0] * self.players
        self.out_first = None
        self.final_turns = ()
        self.add_rng("aux")  # the cards a claimer gives away, blind
        if self.section.stock.bury_upcard is not None:
            self.add_rng("bury")  # where a buried card goes (its own: the deals stay the seed's)
        self._chance_pending = None
        self._go_downs = {}
        self._table_version = 0
        self._table_changes = set()
        self._table_index = TableIndex(self.meld_engine, self.section.joker_swap.melds)
        self._facts = (-1, None, None, 0, None, (), None)
        # (worked out once: the window's close tests only this)
        self._vetoes = self.section.buying.allowed and self.section.buying.veto is not BuyVeto.NONE

    # --- chance ----------------------------------------------------------------------------
    def chance_action(self) -> Move:
        if self.turn != CHANCE:
            raise IllegalActionError("it is not chance's turn")
        if self._chance_pending is not None:
            return self._chance_pending
        action = self._round_start_outcome() if self.phase is _DEAL else self._round_facts()[6][2][self.stock[-1]]
        self._chance_pending = action
        return action

    # --- legal actions ---------------------------------------------------------------------
    def legal_actions(self) -> list[Move]:
        if self._legal_at == self.moves:
            return self._legal_list
        turn = self.turn
        if turn == OVER:
            actions: list[Move] = []
        elif turn == CHANCE:
            actions = [self.chance_action()]
        elif self.phase is _DRAWING:  # (listed here, not by a call: a third of all decisions)
            actions = [TAKE, DRAW] if self._can_take() else [DRAW]
        elif self.phase is _WINDOW:
            actions = self._window_actions(turn)
        elif self.phase is _VETO:
            actions = self._veto_actions()
        elif self.phase is _CAPTURE:
            actions = self._capture_actions(turn)
        elif self.phase is _CHOOSING:
            actions = self._choose_actions(turn)
        else:
            actions = self._play_actions(turn)
            if not actions:  # the rules above are built so that a turn can always end
                raise EvaluationError(f"seat {turn} has no legal move in round {self.round}")
        self._legal_at = self.moves
        self._legal_list = actions
        return actions

    def _play_actions(self, seat: int) -> list[Move]:
        """A turn after the draw, in the listing's order: go-downs, lay-offs, joker swaps,
        discards (plain, then called).  (The tests that most often leave a phase nothing
        to list are made here, sparing its module a call at most play decisions.)"""
        hand = self.hands[seat]
        distinct = list(dict.fromkeys(hand))
        actions: list[Move] = []
        self._go_downs = {}
        if not self.down[seat]:
            self._go_down_actions(seat, hand, actions)
        elif self.section.going_down.later_melds and self.down_turn[seat] != self.turn_number:
            self._later_meld_actions(seat, hand, actions)
        if self._may_lay_off(seat):
            self._lay_off_actions(seat, distinct, actions)
        self._swap_actions(seat, distinct, actions)
        if self.joker_debt == 0:  # (a freed joker owed to the table: no discard yet)
            self._discard_actions(seat, hand, distinct, actions)
        return actions

    # --- verification: one check per kind of move, returning what applying it needs --------
    def verify(self, action: Move) -> Checked:
        turn = self.turn
        if turn == OVER:
            raise IllegalActionError("the game is over")
        if turn == CHANCE:
            if action is not self._chance_pending:
                if self.phase is _DEAL:
                    self._verify_round_start(action)
                else:
                    self._verify_stock_card(action)
            return None
        phase = self.phase
        if phase is _VETO:
            self._verify_veto(action)
            return None
        if phase is _DRAWING:
            self._verify_draw(action)
            return None
        if phase is _WINDOW:
            self._verify_window(turn, action)
            return None
        if phase is _CAPTURE:
            return self._verify_capture(turn, action)
        if phase is _CHOOSING:
            if action not in self._choose_actions(turn):
                options = ", ".join(str(a.number) for a in self._choose_actions(turn))  # type: ignore[union-attr]
                raise not_now(action, f"choose one of the contracts you may play this round: {options} "
                              "(e.g. 'choose 3')" if isinstance(action, Choose) else
                              f"first choose this round's contract (one of {options}, e.g. 'choose 3')")
            return None
        return self._verify_play(turn, action)

    def _verify_play(self, seat: int, action: Move) -> Checked:
        if isinstance(action, Discard):
            self._verify_discard(seat, action)
            return None
        if isinstance(action, GoDown):
            return self._check_go_down(seat, action)
        if isinstance(action, LayOff):
            return self._check_lay_off(seat, action)
        if isinstance(action, Swap):
            return self._check_swap(seat, action)
        raise not_now(action, f"now go down, lay off, swap or discard, not '{action}'")

    # --- applying ------------------------------------------------------------------------------
    def apply(self, action: Move) -> None:
        """As :meth:`GameState.apply`; an action from the cached legal list (the case
        of every bot) is not verified again, and what applying it needs comes from the
        listing (a listed go-down's melds) or is worked out once, here."""
        if self.turn == OVER:
            raise IllegalActionError("the game is over")
        # (a plain loop, not any() over a generator: this runs for every action)
        for listed in self._legal_list if self._legal_at == self.moves else ():
            if listed is action:
                checked: Checked = self._go_downs[id(action)] if type(action) is GoDown else None
                break
        else:
            checked = self.verify(action)
        if self.turn >= 0:
            self.decisions += 1
        self._do(action, checked)
        self.moves += 1

    def _do(self, action: Move, checked: Checked) -> None:
        """Apply a verified move: each kind to its phase's module."""
        self._chance_pending = None
        # (the kind is tested by identity, which mypy does not narrow through: hence
        # untyped names for the move and what verify returned)
        a: Any = action
        c: Any = checked
        kind = type(action)
        if kind is Discard:
            self._discard(a)
        elif kind is StockCard:
            self._stock_draw(a.card)
        elif kind is Pass:
            if self.phase is _CAPTURE:
                self._capture_next()
            else:
                self._window_next()
        elif kind is DrawStock:
            self._decline_discard()
        elif kind is TakeDiscard:
            self._take_discard()
        elif kind is Buy:
            self._ask_to_buy()
        elif kind is Claim:
            self._claim(a.meld)
        elif kind is GoDown:
            self._go_down(c)
        elif kind is LayOff:
            self._lay_off(a, c)
        elif kind is Swap:
            if self.phase is _CAPTURE:
                self._capture(a, c)
            else:
                self._swap(a, c)
        elif kind is CutOutcome:
            self._cut(a)
        elif kind is Choose:
            self._choose(a.number)
        elif kind is Allow:
            self._allow()
        elif kind is Refuse:
            self._refuse()
        else:
            self._deal(a)

    # --- copies -------------------------------------------------------------------------------
    def _copy_into(self, new: RummyState) -> None:
        new.hands = [h[:] for h in self.hands]
        new.melds = dict(self.melds)
        new.owners = dict(self.owners)
        new.down = self.down[:]
        new.buys = self.buys[:]
        new.jokers_melded = self.jokers_melded[:]
        new.down_turn = self.down_turn[:]
        new.known = self.known[:]
        new.window = self.window[:]  # (offered: a tuple, copied with the other plain fields)
        new.cut_success = self.cut_success[:]
        new.forced = self.forced[:]
        new.counters = Counter(self.counters)
        new.seat_counters = {name: values[:] for name, values in self.seat_counters.items()}
        new.skipped = self.skipped[:]
        new.skip_named = self.skip_named[:]
        new.skip_since = self.skip_since[:]
        new._per_round = dict(self._per_round)
        new.made = self.made[:]
        new.went_out = self.went_out[:]
        new._table_changes = set(self._table_changes)
        new.penalties = self.penalties[:]
        new._go_downs = {}
