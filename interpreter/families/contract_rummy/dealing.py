"""The start of a contract-rummy round: the ruleset's chance events (a cut of the pack, say: one
chance outcome each, before the deal) and the deal, which sets the round up (its wild
cards, an empty table) and hands the first turn to the draw (:class:`DealPhase`;
entry points :meth:`~DealPhase._round_start_outcome` for chance's next outcome,
:meth:`~DealPhase._verify_round_start`, and :meth:`~DealPhase._cut` and
:meth:`~DealPhase._deal` to apply one).  A chance event's points are scored with the
round (:mod:`.scoring`)."""

from __future__ import annotations

from ...deal import Deal
from ...errors import EvaluationError, IllegalActionError
from ...game import CHANCE, GameState
from . import events
from .actions import Choose, CutOutcome
from .melds import MeldEngine
from .round import Move, RoundState
from .phases import _CHOOSING, _DRAWING
from .rules import buried_cards, skip_cards
from .table import TableIndex


class DealPhase(RoundState):
    """The round's chance events and the deal."""

    __slots__ = ()

    def _round_start_outcome(self) -> Move:
        """Chance's next outcome before the round's play: each chance event's, then the
        deal (the core's, from the game's own deal RNG)."""
        if self.chance_step < len(self.section.chance_events):
            event = self.section.chance_events[self.chance_step]
            return CutOutcome(self.chance_step, self.rng("deal").randrange(event.one_in) == 0)
        deal: Deal = GameState.chance_action(self)
        return deal

    def _verify_round_start(self, action: Move) -> None:
        if self.chance_step < len(self.section.chance_events):
            if not isinstance(action, CutOutcome) or action.index != self.chance_step:
                raise IllegalActionError(f"the round begins with the {self.section.chance_events[self.chance_step].name}")
            return
        self.verify_deal(action)

    def _cut(self, outcome: CutOutcome) -> None:
        event = self.section.chance_events[outcome.index]
        seat = self.seat_from_dealer(event.seat)
        self.cut_success.append(outcome.success)
        self.log(events.chance_event(event.name, self.round, seat, outcome.success))
        if outcome.success:
            self.counters[f"{event.name}s"] += 1
        self.chance_step += 1

    def _seat_contracts(self) -> None:
        """Each seat's contract this round (``contract``, an expression of the round's
        names, the seat and its counters), recorded."""
        numbers = []
        contracts = self.section.contracts
        for seat in range(self.players):
            env = self.setup.round_env(self.round_index)
            env["seat"] = seat
            for name, values in self.seat_counters.items():
                env[name] = values[seat]
            number = int(self._evaluate(self.section.contract_rule, env, ("contract",)))  # type: ignore[arg-type]
            if not 1 <= number <= len(contracts):
                raise EvaluationError(f"contract '{self.section.contract_rule.source}' gives seat {seat} contract "  # type: ignore[union-attr]
                                      f"{number}, but there are {len(contracts)} (1 to {len(contracts)})",
                                      ("contract",))
            numbers.append(number)
        self.contract_numbers = tuple(numbers)
        self.seat_contracts = tuple(contracts[n - 1] for n in numbers)
        self.log(events.contracts(self.round, numbers, [c.name for c in self.seat_contracts]))

    def _deal(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal.hands]
        self.stock = list(deal.stock)
        self.stock.reverse()  # deal.stock lists the cards in dealing order: first off is the top
        self.pile = [deal.upcard] if deal.upcard is not None else []
        self.melds, self.owners = {}, {}
        if self.section.melds.wild is not None:
            wild = self._wild_cards()
            if wild != self.meld_engine.wild:
                self.meld_engine = MeldEngine(self.section.melds, self.setup.env, wild, self.section.going_down,
                                              self.setup.pack, self.setup.ranks)
        self._table_version += 1
        self._table_changes = set()
        self._table_index = TableIndex(self.meld_engine, self.section.joker_swap.melds, self._table_version)
        self.down = [False] * self.players
        self.buys = [0] * self.players
        self.jokers_melded = [0] * self.players
        self.down_turn = [0] * self.players
        self.known = [()] * self.players
        self.turn_number = 0
        self.reshuffles = 0
        self.forced = []
        self.discarder = None
        self.out_first = None
        self.final_turns = ()
        self.log_deal(deal)
        if self.section.contract_rule is not None:
            self._seat_contracts()
        elif self.section.contract_choose is not None:  # each chooses, in turn from the first player
            first = self.seat_from_dealer(self.rules.deal.first_to_act)
            self.choosers = tuple(self.seat_after(first, k) for k in range(self.players))
            self.contract_numbers, self.seat_contracts = (0,) * self.players, ()
        if self.section.skip_cards is not None:
            self.skips = skip_cards(self.section, self.setup, self.round_index)
            self.skipped = [0] * self.players
            if self.section.skip_chosen:
                self.skip_named = [0] * self.players
                self.skip_since = [0] * self.players
        if self._seat_facts is not None:
            self._refresh_seat_facts()
        self.counters["rounds"] += 1
        self._first_turn()

    def _first_turn(self) -> None:
        """The first turn, once the turned-up card stays: one that ``stock.bury_upcard``
        names (a wild card, say) is buried in the stock and chance turns the next card
        (:meth:`_turned_up`), while the stock has one."""
        pile = self.pile
        if pile and self.section.stock.bury_upcard is not None and self._buries(pile[-1]):
            self.phase = _DRAWING  # (with turn_number 0: the chance's stock card is turned up)
            self.turn = CHANCE
            return
        if self.choosers:  # contract.choose: each player chooses first
            self.phase = _CHOOSING
            self.turn = self.player = self.choosers[0]
            return
        first = self.seat_from_dealer(self.rules.deal.first_to_act)
        if self.section.skip_upcard and pile and pile[-1] in self.skips:
            self.skipped[first] = 1
        self._start_turn(first)

    def _choose_actions(self, seat: int) -> list[Move]:
        """The contracts ``seat`` may choose this round (``contract.choose``, with ``n`` each
        contract's number and ``made`` those it has made): EvaluationError when none."""
        section = self.section
        rule = section.contract_choose
        assert rule is not None
        env = self.setup.round_env(self.round_index)
        env.update(seat=seat, made=list(self.made[seat]))
        for name, values in self.seat_counters.items():
            env[name] = values[seat]
        actions: list[Move] = []
        for n in range(1, len(section.contracts) + 1):
            env["n"] = n
            if self._evaluate(rule, env, ("contract", "choose")):
                actions.append(Choose(n))
        if not actions:
            raise EvaluationError(f"contract.choose '{rule.source}' leaves seat {seat} no contract to choose in round "
                                  f"{self.round}", ("contract", "choose"))
        return actions

    def _choose(self, number: int) -> None:
        """The player choosing takes contract ``number``; once every player has, the round's
        contracts are recorded and play begins (:meth:`_first_turn`)."""
        seat = self.choosers[0]
        numbers = list(self.contract_numbers)
        numbers[seat] = number
        self.contract_numbers = tuple(numbers)
        contracts = self.section.contracts
        self.log(events.choose(self.round, seat, number, contracts[number - 1].name))
        self.choosers = self.choosers[1:]
        if self.choosers:
            self.turn = self.player = self.choosers[0]
            return
        self.seat_contracts = tuple(contracts[n - 1] for n in self.contract_numbers)
        self.log(events.contracts(self.round, list(self.contract_numbers), [c.name for c in self.seat_contracts]))
        self._refresh_seat_facts()
        self._first_turn()

    def _buries(self, card: int) -> bool:
        """Whether the turned-up ``card`` is buried: the rule names it, and the stock holds
        a card it does not name (else burying would never end)."""
        buried = buried_cards(self.section, self.setup, self.round_index)
        return card in buried and any(c not in buried for c in self.stock)

    def _turned_up(self, card: int) -> None:
        """``card``, off the stock, is turned up in place of the buried one, which goes into
        the stock at a random place below its top card (an RNG of its own, so the next
        rounds are dealt as without the rule); then as
        :meth:`_first_turn`."""
        buried = self.pile.pop()
        stock = self.stock
        stock.insert(self.rng("bury").randrange(len(stock)) if stock else 0, buried)
        self.pile.append(card)
        self.log(events.bury(self.round, buried, card, self.setup.pack.codes))
        self._first_turn()
