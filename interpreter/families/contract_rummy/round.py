"""What a contract-rummy round holds: every field of the state, by the phase that owns
it, and what every phase uses (the round's facts and rules evaluated with their place
named on failure, a seat's names, the table and its index).

:class:`RoundState` is the base of each phase's part of the state (:mod:`.dealing`,
:mod:`.drawing`, :mod:`.buying`, :mod:`.going_down`, :mod:`.laying_off`,
:mod:`.discarding`, :mod:`.scoring`, :mod:`.observation`); :class:`~.state.RummyState`
composes them.  The fields are declared here once, because the phases read each
other's (the buying window reads who discarded and who is down; the hand rule reads
the lay-off rules), and each phase sets its own.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence, Union

from ...deal import Deal
from ...errors import EvaluationError, IllegalActionError
from ...expressions import Compiled
from ...game import GameState
from ...rules import Setup
from .actions import Allow, Refuse, RummyAction, RummyChance, card_moves
from .melds import Meld, MeldEngine
from .phases import Phase
from .rules import Contract, RummyRules, SeatRule, round_card_points, wild_cards
from .table import TableIndex

# What the legal list holds and what verify and apply take: a seat's move, one of the
# family's chance outcomes, or chance's deal (the core's).
Move = Union[RummyAction, RummyChance, Deal]
# What verify returns for apply to use: a go-down's melds, the meld after a lay-off or a
# swap; None for every other move.
Checked = Union[Sequence[Meld], Meld, None]


class SeatFacts(NamedTuple):
    """What each seat has of its own, as observations show it (where the ruleset has
    ``contract``, ``counters`` or ``skip``; remade when one of them changes).  Where the
    players choose their contracts, a seat yet to choose has contract number 0."""

    contracts: tuple[Contract, ...] = ()  # each seat's contract this round (``contract``)
    contract_numbers: tuple[int, ...] = ()  # their numbers in ``contracts`` (1 the first)
    counters: tuple[tuple[str, tuple[int, ...]], ...] = ()  # each counter's name and every seat's value
    skipped: tuple[int, ...] = ()  # the turns each seat is yet to lose (``skip``)
    made: tuple[tuple[int, ...], ...] = ()  # the contracts each seat has made (``contract.choose``)
    named: tuple[int, ...] = ()  # skip.seat: chosen: how often a skip named each seat this round
    since: tuple[int, ...] = ()  # ... and the turns begun since one last did (a lost turn counts)


class RoundState(GameState):
    """The fields of a contract-rummy game, and the helpers every phase uses."""

    # --- the state's own ----------------------------------------------------------------------
    section: RummyRules  # the ruleset's contract-rummy section
    meld_engine: MeldEngine  # the meld rules, with the round's wild cards
    phase: Phase
    player: int  # the player in turn (``turn`` is whoever must act now)
    hands: list[list[int]]
    forced: list[int]  # cards a replay says come off the stock (or a claimer gives) next
    counters: Counter[str]  # what `simulate` counts (rounds, buys, calls, bonuses, ...)
    _per_round: dict[tuple[int, int], int]  # buying expressions' values this round (see _round_value)
    _facts: tuple[Any, ...]  # the round's facts (see _round_facts)

    # --- the table (table.py) -----------------------------------------------------------------
    melds: dict[int, Meld]  # by meld number
    owners: dict[int, int]  # meld number -> who put it down
    _table_index: TableIndex  # see table
    _table_version: int  # one more at every change of ``melds``
    _table_changes: set[int]  # the melds changed since the index was made

    # --- the round's start (dealing.py) -------------------------------------------------------
    chance_step: int  # how many of the ruleset's chance events this round has had
    cut_success: list[bool]  # each chance event's outcome this round
    _chance_pending: Move | None  # the chance outcome offered, until it is applied

    # --- the draw (drawing.py) ----------------------------------------------------------------
    turn_number: int  # the turns of this round, this one included
    reshuffles: int  # of the discard pile into the stock, this round
    # taken from the pile, still held: a tuple per seat, replaced when it changes (rarely),
    # so an observation copies only the outer list
    known: list[tuple[int, ...]]

    # --- the buying window and the veto (buying.py) -------------------------------------------
    buys: list[int]  # made this round, per seat
    window: list[int]  # the seats that may buy or claim the discard on offer, in order
    window_pos: int  # the place in ``window`` of the seat asked
    buyer: int | None  # a tentative buyer, overruled by a claim
    chain: tuple[int, ...]  # buying.per_discard: the seats that bought in this turn, in order
    _vetoes: bool  # buying.veto: the player in turn answers each buy (worked out once)

    # --- going down (going_down.py) -----------------------------------------------------------
    down: list[bool]
    down_turn: list[int]  # the turn number each seat went down in (0: not down)
    jokers_melded: list[int]  # wild cards each seat put onto the table this round
    _go_downs: dict[int, tuple[Meld, ...]]  # id(listed GoDown) -> its melds

    # --- lay-offs and joker swaps (laying_off.py) ---------------------------------------------
    joker_debt: int  # freed jokers that must be laid off this turn
    offered: tuple[int, ...]  # joker_swap.capture: the melds whose new wild cards the others may capture now

    # --- the discard (discarding.py) ----------------------------------------------------------
    discarder: int | None  # who discarded the card on top of the pile
    protected: bool  # the discard was protected by a call

    # --- each seat's own (dealing.py, scoring.py) ----------------------------------------------
    seat_counters: dict[str, list[int]]  # counters: name -> each seat's value, carried from round to round
    seat_contracts: tuple[Contract, ...]  # each seat's contract this round (``contract``); empty: the round's
    contract_numbers: tuple[int, ...]  # their numbers in ``contracts`` (1 the first); empty as above
    skips: frozenset[int]  # the cards whose discard skips the next player this round (``skip``)
    skipped: list[int]  # seats to lose their next turn (empty where no card skips)
    skip_named: list[int]  # skip.seat: chosen: how often a skip named each seat this round (else empty)
    skip_since: list[int]  # ... the turns begun since one last did (a lost turn counts; 0: never)
    made: list[tuple[int, ...]]  # contract.choose: the contracts each seat has made, in order
    choosers: tuple[int, ...]  # contract.choose: the seats still to choose this round's contract, in order
    _seat_facts: SeatFacts | None  # the above as observations show them (None where the ruleset has none)

    # --- the round's end (scoring.py) ---------------------------------------------------------
    went_out: list[int]  # rounds each seat went out in
    penalties: list[int]  # penalty points from cards left in hand
    out_first: int | None  # who went out first this round, while the others take their last turns
    final_turns: tuple[int, ...]  # the seats still to take a last turn (going_out.last_turns), in order

    # Slots for every field above (tests/test_rummy_state_layout.py checks they agree), and
    # only here: the phases' classes have none, or composing them would clash.  The hot
    # paths read a dozen fields a move, and a slot is read faster than an entry of an
    # instance dict, which CPython stops sharing between instances past 30 keys.
    __slots__ = ("section", "meld_engine", "phase", "player", "hands", "forced", "counters", "_per_round", "_facts",
                 "melds", "owners", "_table_index", "_table_version", "_table_changes",
                 "chance_step", "cut_success", "_chance_pending",
                 "turn_number", "reshuffles", "known",
                 "buys", "window", "window_pos", "buyer", "chain", "_vetoes", "offered",
                 "down", "down_turn", "jokers_melded", "_go_downs",
                 "joker_debt",
                 "discarder", "protected",
                 "seat_counters", "seat_contracts", "contract_numbers", "skips", "skipped", "skip_named", "skip_since",
                 "made", "choosers",
                 "_seat_facts",
                 "went_out", "penalties", "out_first", "final_turns")

    # --- the round's facts ----------------------------------------------------------------------
    @property
    def contract(self) -> Contract:
        """The contract of the player in turn (each seat's own where ``contract`` says so)."""
        own = self.seat_contracts
        return own[self.player] if own else self._round_facts()[2]

    def contract_of(self, seat: int) -> Contract:
        """``seat``'s contract this round."""
        own = self.seat_contracts
        return own[seat] if own else self._round_facts()[2]

    def contract_number(self, seat: int) -> int:
        """``seat``'s contract's number in ``contracts`` this round (1 the first)."""
        numbers = self.contract_numbers
        return numbers[seat] if numbers else self.rules_round

    def seat_values(self) -> dict[str, list[int]]:
        return self.seat_counters

    def _refresh_seat_facts(self) -> None:
        """Remake ``_seat_facts`` after each seat's contract, counters or skips changed."""
        section = self.section
        if not section.own_contracts and not section.counters and section.skip_cards is None:
            self._seat_facts = None
            return
        self._seat_facts = SeatFacts(self.seat_contracts, self.contract_numbers,
                                     tuple((name, tuple(values)) for name, values in self.seat_counters.items()),
                                     tuple(self.skipped), tuple(self.made) if section.contract_choose else (),
                                     tuple(self.skip_named), tuple(self.skip_since))

    def _round_facts(self) -> tuple[int, Setup, Contract, int, int | None, tuple[int, ...], Any]:
        """(round index, setup, contract, hand size, buy limit or None, each card's
        penalty points, the pack's discards, called discards and stock draws) of the
        round being played.  Every decision's observation and most listings read them, and
        they change only with the round (or with the setup, which a stacked deal may
        replace), so they are worked out once for each and kept until then."""
        facts = self._facts
        if facts[0] != self.round_index or facts[1] is not self.setup:
            buying = self.section.buying
            # (where each seat has its own contract, ``seat_contracts`` holds them: the round's is a placeholder)
            contracts = self.section.contracts
            contract = contracts[self.rules_round - 1] if not self.section.own_contracts else contracts[0]
            facts = self._facts = (self.round_index, self.setup, contract,
                                   self.hand_size, self._round_value(buying.limit, ("buying", "limit")) if buying.allowed else None,
                                   round_card_points(self.section, self.setup, self.round_index),
                                   card_moves(self.setup.pack))
        return facts

    def _round_value(self, compiled: Compiled, path: tuple[str | int, ...]) -> int:
        """A buying expression's value this round.  Those expressions see only the
        round's names (see BUY_NAMES), so each is evaluated once a round."""
        key = (id(compiled), self.round_index)
        value = self._per_round.get(key)
        if value is None:
            if len(self._per_round) > 64:
                self._per_round.clear()
            value = self._per_round[key] = self._evaluate(compiled, self.setup.round_env(self.round_index), path)
        return value

    def _wild_cards(self) -> frozenset[int]:
        """This round's wild cards: the joker, and each card ``melds.wild`` names."""
        return wild_cards(self.section.melds, self.setup, self.round_index)

    def _evaluate(self, compiled: Compiled, env: dict[str, Any], path: tuple[str | int, ...]) -> Any:
        """``compiled`` evaluated in ``env``; a failure names the rule and its expression
        (EvaluationError at ``path``, where the rule is written)."""
        try:
            return compiled(env)
        except EvaluationError as exc:
            where = ".".join(str(k) for k in path)
            raise EvaluationError(f"{where} '{compiled.source}': {exc}", path) from None

    # --- a seat's names and the rules about it --------------------------------------------------
    def _seat_env(self, seat: int) -> dict[str, Any]:
        """The seat's names (buying.may, take_discard.may) for ``seat`` now."""
        env = self.setup.round_env(self.round_index)
        limit = self._round_facts()[4] or 0
        env.update(seat=seat, player=self.player, discarder=-1 if self.discarder is None else self.discarder,
                   is_next=seat == self.seat_after(self.player), is_down=self.down[seat], buys=self.buys[seat],
                   buys_left=max(0, limit - self.buys[seat]), cards_in_hand=len(self.hands[seat]),
                   others_down=sum(1 for s in range(self.players) if s != seat and self.down[s]),
                   stock=len(self.stock),
                   went_down_this_turn=self.down[seat] and self.down_turn[seat] == self.turn_number)
        if self.section.reads_top_card:
            env["top_card"] = self.pile[-1] if self.pile else -1
        if self.seat_counters:
            for name, values in self.seat_counters.items():
                env[name] = values[seat]
        return env

    def _seat_allows(self, rule: SeatRule, seat: int, key: str) -> bool:
        """Whether ``KEY.may`` (a SeatRule) lets ``seat`` act now."""
        return bool(self._evaluate(rule.rule, self._seat_env(seat), (key, "may", "rule")))

    def _seat_refusal(self, rule: SeatRule, seat: int, key: str) -> IllegalActionError:
        """The refusal ``KEY.may``'s message gives ``seat``."""
        try:
            return IllegalActionError(rule.message.render(self._seat_env(seat)))
        except EvaluationError as exc:
            raise EvaluationError(f"{key}.may.message: {exc}", (key, "may", "message")) from None

    # --- hands and the table --------------------------------------------------------------------
    def _take_from_hand(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c, n in Counter(cards).items():
            held = hand.count(c)  # a play takes a card or a few: no need to count the whole hand
            if held < n:
                raise IllegalActionError(f"you hold {held} {self.setup.pack.codes[c]}; this needs {n}" if held or n > 1
                                         else f"you do not hold {self.setup.pack.codes[c]}")

    def _forget(self, seat: int, c: int) -> None:
        """A card left ``seat``'s hand: it is no longer known to be there."""
        known = self.known[seat]
        if c in known:
            i = known.index(c)
            self.known[seat] = known[:i] + known[i + 1:]

    def _changed(self, meld_id: int, meld: Meld) -> None:
        """Put ``meld`` on the table as meld ``meld_id`` (new, or in place of the old)."""
        self.melds[meld_id] = meld
        self._table_version += 1
        self._table_changes.add(meld_id)

    @property
    def table(self) -> TableIndex:
        """The index of the melds on the table (see :class:`TableIndex`).  The table
        changes only with a play, and the bots and the legal actions ask about it at
        every decision, so the index is kept until the table changes (every change of
        ``melds`` counts one more ``_table_version`` and notes the meld in
        ``_table_changes``), and then updated in the melds that changed."""
        index = self._table_index
        if index.version != self._table_version:
            index = self._table_index = index.updated(self._table_version, self.melds, self.owners,
                                                      self._table_changes)
            self._table_changes = set()
        return index

    def place_meld(self, owner: int, cards: Sequence[int]) -> int:
        """Put ``cards`` on the table as a meld of ``owner``'s (a position from a worked
        example or a test; no hand gives the cards) and return its number."""
        meld = self.meld_engine.classify(tuple(cards))
        meld_id = len(self.owners) + 1
        while meld_id in self.melds:
            meld_id += 1
        self.owners[meld_id] = owner
        self._changed(meld_id, meld)
        self._legal_at = -1
        return meld_id

    if TYPE_CHECKING:
        # What each phase offers the others (defined in its module, found through the
        # composed state's classes).
        def _start_turn(self, seat: int) -> None: ...  # drawing
        def _turned_up(self, card: int) -> None: ...  # dealing
        def _choose_actions(self, seat: int) -> list[Move]: ...  # dealing
        def _choose(self, number: int) -> None: ...  # dealing
        def _can_take(self) -> bool: ...  # drawing
        def _take_discard(self) -> None: ...  # drawing
        def _draw_for_player(self) -> None: ...  # drawing
        def refused_buyer(self) -> int | None: ...  # buying
        def _take_stock_card(self, wanted: int | None = None) -> int | None: ...  # drawing
        def _may_lay_off(self, seat: int) -> bool: ...  # laying_off
        def _may_lay_off_on(self, seat: int, meld_id: int) -> bool: ...  # laying_off
        def _joker_fits_after(self, seat: int, changed: dict[int, Meld]) -> bool: ...  # laying_off
        def _leaves_legal_hand(self, seat: int, cards_out: Sequence[int],
                               changed: dict[int, Meld]) -> bool: ...  # discarding
        def _cards_left(self, seat: int, cards_out: Sequence[int]) -> int: ...  # discarding
        def _hand_rule(self) -> str: ...  # discarding
        def _after_table_play(self, seat: int, offered: Sequence[int] = ()) -> None: ...  # discarding
        def _offer_capture(self, seat: int, melds: Sequence[int]) -> None: ...  # laying_off
        def _exhausted(self, reason: str) -> None: ...  # scoring
        def _end_round(self, goer: int | None) -> None: ...  # scoring
        def _next_last_turn(self) -> None: ...  # discarding


def not_now(action: Move, message: str) -> IllegalActionError:
    """The refusal of an action the phase has no place for: ``message``, or for an answer
    to a buy, that there is no buy to answer."""
    if isinstance(action, (Allow, Refuse)):
        return IllegalActionError(f"there is no buy to {action} now: the player in turn answers a buy after "
                                  "the others have had their chance to buy")
    return IllegalActionError(message)
