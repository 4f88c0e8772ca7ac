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

Legality: each kind of table play has one check (:meth:`RummyState._check_go_down`,
:meth:`~RummyState._check_lay_off`, :meth:`~RummyState._check_swap`) that returns what
applying it needs; ``verify`` is those checks, and ``apply`` uses what they returned.
The listed moves are the canonical ones (a go-down with each meld of its least size,
a lay-off of one card), found through an index of what the table accepts; a property
test checks that they are exactly the candidates the checks accept.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any, NamedTuple, Sequence

from ...cards import JOKER, NAMES
from ...deal import Deal, take_from_stock
from ...errors import EvaluationError, IllegalActionError
from ...game import CHANCE, OVER, GameState
from ...rules import Setup
from .actions import (ALLOW, BUY, CALLED_DISCARDS, DISCARDS, DRAW, PASS, REFUSE, STOCK_CARDS, TAKE, Allow, Buy, Claim,
                      CutOutcome, Discard, DrawStock, GoDown, LayOff, Pass, Refuse, StockCard, Swap, TakeDiscard,
                      lay_off_of_one)
from .melds import Meld, MeldEngine, card_points
from .rules import (DISCARD_REQUIRED, NO_DISCARD, OWN_MELDS, PLAY_THIS_TURN, RUN, SWAP_FROM_ALL, SWAP_FROM_RUNS,
                    BuyPriority, BuyVeto, Contract, RummyRules, SwapFrom, WhenEmpty, wild_cards)


_new_tuple = tuple.__new__


class Phase(StrEnum):
    DEAL = "deal"
    DRAWING = "draw"
    WINDOW = "window"
    VETO = "veto"  # the player in turn allows or refuses a buy (buying.veto)
    PLAYING = "play"
    OVER = "over"


_DEAL, _DRAWING, _WINDOW, _PLAYING, _OVER = Phase.DEAL, Phase.DRAWING, Phase.WINDOW, Phase.PLAYING, Phase.OVER
_VETO = Phase.VETO


class TableMeld(NamedTuple):
    """A meld on the table: its number (as players name it), who put it down, the meld."""

    id: int
    owner: int
    meld: Meld


class TableIndex:
    """The melds on the table and what they accept (see RummyState.table): ``melds``
    (:class:`TableMeld` in the table's order); ``entries`` (meld id, meld, the naturals
    it accepts); ``by_card`` natural -> the places in ``entries`` of the melds that
    accept it; :meth:`joker_places` the places of the melds a joker fits; ``swaps``
    (meld id, cards that can free a joker) for each meld the joker-swap rule lets a
    joker be taken from, in order.  A lay-off listing then looks up the hand's cards
    instead of asking every meld about every card.  A play changes a meld or adds a
    few: :meth:`updated` makes the next index from this one, touching only those.  It
    is public information (a function of the melds and the rules), so observations
    carry it; it is never changed once made."""

    __slots__ = ("version", "ids", "table", "melds", "entries", "by_card", "_swap_of", "_swaps", "_joker_places",
                 "_engine", "_runs_only")

    def __init__(self, engine: MeldEngine, swap_from: SwapFrom, version: int = 0):
        """An empty table."""
        self.version = version  # the state's table version it was made for
        self.ids: tuple[int, ...] = ()
        self.table: tuple[Meld, ...] = ()
        self.melds: tuple[TableMeld, ...] = ()
        self.entries: tuple[tuple[int, Meld, frozenset[int]], ...] = ()
        self.by_card: dict[int, tuple[int, ...]] = {}
        self._swap_of: dict[int, frozenset[int]] = {}
        self._swaps: list[tuple[int, frozenset[int]]] | None = []
        self._joker_places: list[int] | None = []
        self._engine = engine
        self._runs_only = swap_from is not SWAP_FROM_ALL

    def updated(self, version: int, melds: dict[int, Meld], owners: dict[int, int], changed: set[int]) -> TableIndex:
        """The index of the table ``melds``, which differs from this one's in the melds
        ``changed`` (replaced, or added at the end)."""
        new = object.__new__(TableIndex)
        new.version = version
        new._engine = engine = self._engine
        new._runs_only = runs_only = self._runs_only
        ids = new.ids = tuple(melds)
        new.table = tuple(melds.values())
        entries = list(self.entries)
        table_melds = list(self.melds)
        by_card = dict(self.by_card)
        swap_of = dict(self._swap_of)
        for meld_id in sorted(changed, key=ids.index):  # (a play changes a meld or a few)
            place = ids.index(meld_id)
            meld = melds[meld_id]
            accepted = engine.accepts(meld)
            if place < len(entries):  # a meld replaced: move its place between the cards' lists
                old = entries[place][2]
                for c in old - accepted:
                    left = tuple(p for p in by_card[c] if p != place)
                    if left:
                        by_card[c] = left
                    else:
                        del by_card[c]
                for c in accepted - old:
                    by_card[c] = tuple(sorted(by_card.get(c, ()) + (place,)))
                entries[place] = (meld_id, meld, accepted)
                table_melds[place] = TableMeld(meld_id, owners[meld_id], meld)
            else:  # a meld added at the end
                for c in accepted:
                    by_card[c] = by_card.get(c, ()) + (place,)
                entries.append((meld_id, meld, accepted))
                table_melds.append(TableMeld(meld_id, owners[meld_id], meld))
            swap_of.pop(meld_id, None)
            if (not runs_only or meld.kind is RUN) and not engine.wild.isdisjoint(meld.cards):
                swappable = engine.swappable(meld)
                if swappable:
                    swap_of[meld_id] = swappable
        new.entries = tuple(entries)
        new.melds = tuple(table_melds)
        new.by_card = by_card
        new._swap_of = swap_of
        new._swaps = None
        new._joker_places = None
        return new

    @property
    def swaps(self) -> list[tuple[int, frozenset[int]]]:
        if self._swaps is None:
            swap_of = self._swap_of
            self._swaps = [(i, swap_of[i]) for i in self.ids if i in swap_of]
        return self._swaps

    def joker_places(self) -> list[int]:
        """The places of the melds a joker fits.  Made when first asked: the table
        changes with most plays and few hands hold a joker, and a joker's two ends are
        two lay_off calls per new meld."""
        if self._joker_places is None:
            joker_ends = self._engine.joker_ends
            self._joker_places = [place for place, entry in enumerate(self.entries) if joker_ends(entry[1])]
        return self._joker_places

    def fits(self, c: int) -> bool:
        """Whether ``c`` can be laid off on some meld of the table."""
        if c in self._engine.wild:
            return bool(self.joker_places())
        return c in self.by_card

    def meld(self, meld_id: int) -> Meld | None:
        for i, m in zip(self.ids, self.table):
            if i == meld_id:
                return m
        return None


class RummyObservation(NamedTuple):
    """What one seat of a contract-rummy game may know.  Cards are card numbers
    (:mod:`cardrules.interpreter.cards`)."""

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
    contract: Contract | None  # this round's (None once the game is over)
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
    window: tuple[int, ...]  # the seats that may buy or claim the discard on offer, in order
    buyer: int | None  # who asked to buy it so far (in the veto phase: the buy the player in turn answers)
    known: tuple[tuple[int, ...], ...]  # cards each seat took from the pile and still holds
    turn_number: int
    went_down_this_turn: bool  # this seat went down in the current turn
    wild: frozenset[int]  # the round's wild cards (melds.wild): the joker and any others


def _draw_event(round_number: int, seat: int, source: str, card: int) -> dict[str, Any]:
    return {"event": "draw", "round": round_number, "seat": seat, "from": source, "card": NAMES[card]}


def _layoff_event(round_number: int, seat: int, meld_id: int, cards: tuple[int, ...],
                  cards_after: tuple[int, ...]) -> dict[str, Any]:
    return {"event": "layoff", "round": round_number, "seat": seat, "meld": meld_id,
            "cards": [NAMES[c] for c in cards], "cards_after": [NAMES[c] for c in cards_after]}


def _discard_event(round_number: int, seat: int, card: int, call: str | None) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "discard", "round": round_number, "seat": seat, "card": NAMES[card]}
    if call is not None:
        event[call] = True
    return event


class RummyState(GameState):
    """A game of any contract-rummy ruleset."""

    __slots__ = ("section", "meld_engine", "phase", "hands", "melds", "owners", "down", "buys", "jokers_melded",
                 "down_turn", "known", "turn_number", "discarder", "reshuffles", "player", "protected", "window",
                 "window_pos", "buyer", "joker_debt", "chance_step", "cut_success", "forced", "counters",
                 "_per_round", "went_out", "penalties", "_chance_pending", "_go_downs", "_table_index",
                 "_table_version", "_table_changes", "_facts", "_vetoes")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.section: RummyRules = self.rules.section
        self.meld_engine = MeldEngine(self.section.melds, self.setup.env, going_down=self.section.going_down)
        self.phase = _DEAL
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.melds: dict[int, Meld] = {}
        self.owners: dict[int, int] = {}
        self.down = [False] * self.players
        self.buys = [0] * self.players
        self.jokers_melded = [0] * self.players
        self.down_turn = [0] * self.players  # the turn number each seat went down in (0: not down)
        # taken from the pile, still held: a tuple per seat, replaced when it changes (rarely),
        # so an observation copies only the outer list
        self.known: list[tuple[int, ...]] = [()] * self.players
        self.turn_number = 0
        self.discarder: int | None = None  # who discarded the card on top of the pile
        self.reshuffles = 0
        self.player = 0  # the player in turn (self.turn is whoever must act now)
        self.protected = False  # the discard was protected by a call
        self.window: list[int] = []
        self.window_pos = 0
        self.buyer: int | None = None  # a tentative buyer, overruled by a claim
        self.joker_debt = 0  # freed jokers that must be laid off this turn
        self.chance_step = 0
        self.cut_success: list[bool] = []
        self.forced: list[int] = []  # cards a replay says come off the stock (or a claimer gives) next
        self.counters: Counter[str] = Counter()
        self._per_round: dict[tuple[int, int], int] = {}
        self.went_out = [0] * self.players  # rounds each seat went out in
        self.penalties = [0] * self.players  # penalty points from cards left in hand
        self.add_rng("aux")  # the cards a claimer gives away, blind
        self._chance_pending: Any = None
        self._go_downs: dict[int, tuple[Meld, ...]] = {}  # id(listed GoDown) -> its melds
        self._table_version = 0
        self._table_changes: set[int] = set()
        self._table_index = TableIndex(self.meld_engine, self.section.joker_swap.melds)
        self._facts: tuple[Any, ...] = (-1, None, None, 0, None)  # see _round_facts
        # buying.veto: the player in turn answers each buy (worked out once: the window's
        # close tests only this)
        self._vetoes = self.section.buying.allowed and self.section.buying.veto is not BuyVeto.NONE

    def place_meld(self, owner: int, cards: Any) -> int:
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

    @property
    def contract(self) -> Contract:
        return self._round_facts()[2]

    # --- chance --------------------------------------------------------------------------
    def chance_action(self) -> Any:
        if self.turn != CHANCE:
            raise IllegalActionError("it is not chance's turn")
        if self._chance_pending is not None:
            return self._chance_pending
        if self.phase is _DEAL and self.chance_step < len(self.section.chance_events):
            event = self.section.chance_events[self.chance_step]
            action: Any = CutOutcome(self.chance_step, self.rng("deal").randrange(event.one_in) == 0)
        elif self.phase is _DEAL:
            action = super().chance_action()
        else:
            action = STOCK_CARDS[self.stock[-1]]
        self._chance_pending = action
        return action

    # --- legal actions ---------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        if self._legal_at == self.moves:
            return self._legal_list
        turn = self.turn
        if turn == OVER:
            actions: list[Any] = []
        elif turn == CHANCE:
            actions = [self.chance_action()]
        elif self.phase is _DRAWING:
            actions = ([TAKE] if self._can_take() else []) + [DRAW]
        elif self.phase is _WINDOW:
            actions = [PASS]
            if self._can_buy(turn):
                actions.append(BUY)
            if self._may_claim(turn):
                actions += [Claim(m) for m in self._claimable()]
        elif self.phase is _VETO:
            actions = [ALLOW, REFUSE] if self._may_refuse() else [ALLOW]
        else:
            actions = self._play_actions(turn)
            if not actions:  # the rules above are built so that a turn can always end
                raise EvaluationError(f"seat {turn} has no legal move in round {self.round}")
        self._legal_at = self.moves
        self._legal_list = actions
        return actions

    def _can_take(self) -> bool:
        rule = self.section.take_discard
        return bool(self.pile) and not self.protected and (
            rule is None or self._seat_allows(rule, self.player, "take_discard"))

    def _may_refuse(self) -> bool:
        """Whether the player in turn may refuse the buy asked (in the veto phase): always
        under ``veto: refuse``; under ``take`` only where they may take the discard."""
        return self.section.buying.veto is BuyVeto.REFUSE or self._can_take()

    def _can_buy(self, seat: int) -> bool:
        limit = self._round_facts()[4]  # None where the ruleset has no buying
        return (limit is not None and self.buyer is None and bool(self.pile) and not self.protected
                and self.buys[seat] < limit and (self.section.buying.may is None or self._may_buy(seat)))

    def _seat_env(self, seat: int) -> dict[str, Any]:
        """The seat's names (buying.may, take_discard.may) for ``seat`` now."""
        env = self.setup.round_env(self.round_index)
        limit = self._round_facts()[4] or 0
        env.update(seat=seat, player=self.player, discarder=-1 if self.discarder is None else self.discarder,
                   is_next=seat == (self.player + 1) % self.players, is_down=self.down[seat], buys=self.buys[seat],
                   buys_left=max(0, limit - self.buys[seat]), cards_in_hand=len(self.hands[seat]),
                   others_down=sum(1 for s in range(self.players) if s != seat and self.down[s]),
                   stock=len(self.stock),
                   went_down_this_turn=self.down[seat] and self.down_turn[seat] == self.turn_number)
        return env

    def _may_buy(self, seat: int) -> bool:
        buying = self.section.buying
        assert buying.may is not None
        return bool(self._evaluate(buying.may, self._seat_env(seat), ("buying", "may", "rule")))

    def _may_claim(self, seat: int) -> bool:
        """A claimer gives cards from its hand and must keep one (an empty hand between
        turns is no way to go out)."""
        return len(self.hands[seat]) > self.section.fitting_discard_call.penalty_draw

    def _claimable(self) -> list[int]:
        if not self.section.fitting_discard_call.allowed or self.protected or not self.pile:
            return []
        top = self.pile[-1]
        return [m for m, meld in self.melds.items() if self.meld_engine.fits(meld, top)]

    def _round_value(self, compiled: Any, path: tuple[str | int, ...]) -> int:
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

    def _evaluate(self, compiled: Any, env: dict[str, Any], path: tuple[str | int, ...]) -> Any:
        """``compiled`` evaluated in ``env``; a failure names the rule and its expression
        (EvaluationError at ``path``, where the rule is written)."""
        try:
            return compiled(env)
        except EvaluationError as exc:
            where = ".".join(str(k) for k in path)
            raise EvaluationError(f"{where} '{compiled.source}': {exc}", path) from None

    def _play_actions(self, seat: int) -> list[Any]:
        hand = self.hands[seat]
        engine = self.meld_engine
        actions: list[Any] = []
        distinct = list(dict.fromkeys(hand))
        self._go_downs = {}
        if not self.down[seat]:
            next_id = len(self.owners) + 1
            going_down = self.section.going_down
            contract = self.contract.melds
            options = engine.go_down_options(hand, contract)
            if options and (going_down.extra_melds or going_down.may is not None) and not going_down.exact_sizes:
                options += engine.fuller_go_downs(hand, options, contract,
                                                  1 if self.contract.going_out is DISCARD_REQUIRED else 0)
            for option in options:
                action = GoDown(tuple(m.cards for m in option), tuple(m.kind.value for m in option))
                added = {next_id + i: m for i, m in enumerate(option)}
                if going_down.may is not None and not self._evaluate(
                        going_down.may.rule, self._go_down_env(seat, option), ("going_down", "may", "rule")):
                    continue
                if self._leaves_legal_hand(seat, [c for m in action.melds for c in m], added):
                    actions.append(action)
                    self._go_downs[id(action)] = option
        lay_off = self.section.lay_off
        if self._may_lay_off(seat):
            # Every lay-off of one natural (and of one joker) leaves the hand the same size:
            # when that is two cards or more the hand can always end the turn, and the
            # table after each lay-off need not be built to ask.
            # (not while a freed joker is owed: then every lay-off must leave it a place)
            roomy_natural = not self.joker_debt and self._cards_left(seat, (0,)) >= 2
            roomy_joker = self.joker_debt <= 1 and self._cards_left(seat, (JOKER,)) >= 2
            table = self.table
            # Only the melds that take one of the hand's cards (or a joker) can give a
            # lay-off; the index names them by their place on the table.  Each such place
            # gets the hand's cards it takes, in the hand's order, so the listing keeps
            # the table's order, then the hand's, without asking every meld about every
            # card.
            takes: dict[int, list[int]] = {}
            by_card = table.by_card
            wild = engine.wild
            for c in distinct:
                for place in table.joker_places() if c in wild else by_card.get(c, ()):
                    takes.setdefault(place, []).append(c)
            own_only = lay_off.on is OWN_MELDS
            for place in sorted(takes):
                meld_id, meld, _ = table.entries[place]
                if own_only and self.owners[meld_id] != seat:
                    continue
                for c in takes[place]:
                    if c in wild:
                        for low in engine.joker_ends(meld):  # where lay_off(meld, a wild card, low) fits
                            if roomy_joker or self._leaves_legal_hand(
                                    seat, [c], {meld_id: _fitted(engine.lay_off(meld, c, low))}):
                                actions.append(lay_off_of_one(meld_id, c, low))
                    elif roomy_natural or self._leaves_legal_hand(  # lay_off(meld, c) fits: meld accepts c
                            seat, [c], {meld_id: _fitted(engine.lay_off(meld, c))}):
                        actions.append(lay_off_of_one(meld_id, c, None))
        swap = self.section.joker_swap
        if swap.allowed and self.joker_debt == 0 and (self.down[seat] or not swap.requires_down) and \
                (swap.may is None or self._seat_allows(swap.may, seat, "joker_swap")):
            for meld_id, swappable in self.table.swaps:  # melds holding a joker a card can free
                if swappable.isdisjoint(distinct):
                    continue
                for c in distinct:
                    if c in swappable and self._swap_result(seat, meld_id, c) is not None and \
                            self._swap_leaves_legal_hand(seat):
                        actions.append(Swap(meld_id, c))
        if self.joker_debt == 0:
            out_rule = self.contract.going_out
            if len(hand) > 1 or out_rule is not NO_DISCARD:
                discardable = distinct if self.section.discard is None else self._discardable(seat, distinct)
                actions += [DISCARDS[c] for c in discardable]
                if self.section.fitting_discard_call.allowed:
                    table = self.table
                    actions += [CALLED_DISCARDS[c] for c in discardable if table.fits(c)]
        return actions

    def _discardable(self, seat: int, distinct: Sequence[int]) -> Sequence[int]:
        """The cards of ``distinct`` (the hand's, once each) that ``discard.may`` lets
        ``seat`` discard now; every one of them when it refuses them all (a turn always
        ends)."""
        allowed = [c for c in distinct if self._may_discard(seat, c)]
        return allowed or distinct

    def _may_discard(self, seat: int, c: int) -> bool:
        rule = self.section.discard
        assert rule is not None
        return bool(self._evaluate(rule.rule, self._discard_env(seat, c), ("discard", "may", "rule")))

    def _discard_env(self, seat: int, c: int) -> dict[str, Any]:
        """discard.may's names: the seat's, and the card's."""
        env = self._seat_env(seat)
        env.update(card_rank=0 if c == JOKER else c % 13 + 2, card_suit=-1 if c == JOKER else c // 13,
                   card_is_wild=c in self.meld_engine.wild, card_fits_table=self.table.fits(c),
                   is_last_card=len(self.hands[seat]) == 1)
        return env

    def _cards_left(self, seat: int, cards_out: Sequence[int]) -> int:
        """At most how many cards a table play of ``cards_out`` leaves in hand, not
        counting jokers freed by a swap that are still owed to the table (the exact
        count when the cards are in hand, as they are once a play is checked)."""
        owed = max(0, self.joker_debt - self._wilds_in(cards_out))
        return len(self.hands[seat]) - len(cards_out) - owed

    def _wilds_in(self, cards: Sequence[int]) -> int:
        """How many of ``cards`` are wild this round (each pays a freed joker's debt)."""
        if not self.meld_engine.wild_naturals:
            return cards.count(JOKER)
        wild = self.meld_engine.wild
        return sum(1 for c in cards if c in wild)

    def _leaves_legal_hand(self, seat: int, cards_out: Sequence[int], changed: dict[int, Meld]) -> bool:
        """Whether a table play of ``cards_out`` leaves a hand that can end the turn: an
        empty hand goes out (not where a final discard is required); where going out by
        a discard is forbidden, a single card left must itself fit the table (the melds
        on it now, with ``changed`` the melds the play adds or replaces), or the turn
        could not end.  A joker freed by a swap and still owed to the table after the
        play must still fit somewhere on it."""
        if self.joker_debt and self.joker_debt > self._wilds_in(cards_out) and \
                not self._joker_fits_after(seat, changed):
            return False
        if self._cards_left(seat, cards_out) >= 2:
            return True  # the common case, without counting the hand
        left = Counter(self.hands[seat])
        left.subtract(cards_out)
        # jokers freed by a swap still owe a lay-off this turn: count the hand without them
        owed = max(0, self.joker_debt - self._wilds_in(cards_out))
        remaining = [c for c, n in left.items() for _ in range(n)]
        if owed:  # the owed wild cards, jokers first
            wild = self.meld_engine.wild
            for c in sorted((c for c in remaining if c in wild), reverse=True)[:owed]:
                remaining.remove(c)
        rule = self.contract.going_out
        if not remaining:
            return rule is not DISCARD_REQUIRED
        if len(remaining) == 1 and rule is NO_DISCARD:
            lay_off = self.section.lay_off
            if not lay_off.allowed or (not lay_off.same_turn_as_going_down and not self.down[seat]):
                return False
            # the table with ``changed``: a meld the index names that the play leaves
            # alone, or else one of the changed melds
            last = remaining[0]
            index = self.table
            places = index.joker_places() if last in self.meld_engine.wild else index.by_card.get(last, ())
            if any(index.entries[place][0] not in changed and self._may_lay_off_on(seat, index.entries[place][0])
                   for place in places):
                return True
            # (lay_off itself, not the cached engine.fits: a changed meld is a new object
            # each time, so its answers would only be computed and crowd the cache)
            return any(self.meld_engine.lay_off(m, last) is not None for mid, m in changed.items()
                       if self._may_lay_off_on(seat, mid))
        return True

    def _may_lay_off_on(self, seat: int, meld_id: int) -> bool:
        """Whether the ruleset lets ``seat`` lay off on meld ``meld_id`` (a meld not yet on
        the table is one ``seat`` is putting down)."""
        return self.section.lay_off.on is not OWN_MELDS or self.owners.get(meld_id, seat) == seat

    def _joker_fits_after(self, seat: int, changed: dict[int, Meld]) -> bool:
        """Whether a joker fits some meld of the table that ``seat`` may lay off on once
        ``changed`` is played."""
        index = self.table
        if any(index.entries[place][0] not in changed and self._may_lay_off_on(seat, index.entries[place][0])
               for place in index.joker_places()):
            return True
        return any(self.meld_engine.lay_off(m, JOKER) is not None for mid, m in changed.items()
                   if self._may_lay_off_on(seat, mid))

    def _swap_leaves_legal_hand(self, seat: int) -> bool:
        """A swap keeps the hand's size; if the freed joker must then be laid off, the
        seat must be allowed to lay off this turn, and the hand after that lay-off must
        still be able to end the turn."""
        if self.section.joker_swap.freed_joker is not PLAY_THIS_TURN:
            return True
        if not self._may_lay_off(seat):
            return False
        left = len(self.hands[seat]) - 1
        return left != 1 or self.contract.going_out is not NO_DISCARD

    def _may_lay_off(self, seat: int) -> bool:
        """Whether ``seat`` may lay off cards this turn (its own melds or any)."""
        lay_off = self.section.lay_off
        return lay_off.allowed and (self.down[seat] or not lay_off.requires_down) and \
            (lay_off.same_turn_as_going_down or self.down_turn[seat] != self.turn_number) and \
            (lay_off.may is None or self._seat_allows(lay_off.may, seat, "lay_off"))

    def _seat_allows(self, rule: Any, seat: int, key: str) -> bool:
        """Whether ``KEY.may`` (a SeatRule) lets ``seat`` act now."""
        return bool(self._evaluate(rule.rule, self._seat_env(seat), (key, "may", "rule")))

    def _seat_refusal(self, rule: Any, seat: int, key: str) -> IllegalActionError:
        """The refusal ``KEY.may``'s message gives ``seat``."""
        try:
            return IllegalActionError(rule.message.render(self._seat_env(seat)))
        except EvaluationError as exc:
            raise EvaluationError(f"{key}.may.message: {exc}", (key, "may", "message")) from None

    def _swap_result(self, seat: int, meld_id: int, c: int) -> Meld | None:
        meld = self.meld_engine.swap(self.melds[meld_id], c)
        if meld is None:
            return None
        if self.section.joker_swap.freed_joker is PLAY_THIS_TURN:
            # the freed joker must then be laid off this turn, on a meld ``seat`` may lay off on
            trial = dict(self.melds)
            trial[meld_id] = meld
            if not any(self.meld_engine.joker_ends(m) for mid, m in trial.items() if self._may_lay_off_on(seat, mid)):
                return None
        return meld

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

    # --- verification: one check per kind of move, returning what applying it needs --------
    def verify(self, action: Any) -> Any:
        turn = self.turn
        if turn == OVER:
            raise IllegalActionError("the game is over")
        if turn == CHANCE:
            self._verify_chance(action)
            return None
        phase = self.phase
        if phase is _VETO:
            self._verify_veto(action)
            return None
        if phase is _DRAWING:
            if isinstance(action, TakeDiscard):
                if not self.pile:
                    raise IllegalActionError("there is no discard to take")
                if self.protected:
                    raise IllegalActionError("that discard was protected with a call; draw from the stock")
                if not self._can_take():
                    raise self._seat_refusal(self.section.take_discard, self.player, "take_discard")
                return None
            if isinstance(action, DrawStock):
                return None
            raise _not_now(action, f"first take the discard or draw from the stock ('take' or 'draw'), "
                                   f"not '{action}'")
        if phase is _WINDOW:
            if isinstance(action, Pass):
                return None
            if isinstance(action, Buy):
                self._verify_buy(turn)
                return None
            if isinstance(action, Claim):
                if not self._may_claim(turn):
                    raise IllegalActionError("you need a card to give the discarder before you can call")
                if action.meld not in self._claimable():
                    raise IllegalActionError(f"the discard does not fit meld {action.meld}")
                return None
            raise _not_now(action, f"you may buy the discard or pass now, not '{action}'")
        return self._verify_play(turn, action)

    def _verify_veto(self, action: Any) -> None:
        """The player in turn's answer to a buy: allow, or refuse where they may."""
        assert self.buyer is not None
        asked = f"seat {self.buyer} wants to buy {NAMES[self.pile[-1]]}"
        if isinstance(action, Allow):
            return None
        if isinstance(action, Refuse):
            if not self._may_refuse():
                rule = self.section.take_discard
                assert rule is not None
                reason = self._seat_refusal(rule, self.player, "take_discard")
                raise IllegalActionError(f"{asked}; you may only allow it: refusing means taking the discard "
                                         f"yourself, and {reason}")
            return None
        raise IllegalActionError(f"{asked}: allow or refuse it, not '{action}'")

    def _verify_chance(self, action: Any) -> None:
        if action is self._chance_pending:
            return
        if self.phase is _DEAL and self.chance_step < len(self.section.chance_events):
            if not isinstance(action, CutOutcome) or action.index != self.chance_step:
                raise IllegalActionError(f"the round begins with the {self.section.chance_events[self.chance_step].name}")
            return
        if self.phase is _DEAL:
            self.verify_deal(action)
            return
        if not isinstance(action, StockCard):
            raise IllegalActionError(f"a card comes off the stock now, not '{action}'")
        if action.card not in self.stock:
            raise IllegalActionError(f"the stock holds no {NAMES[action.card]}")

    def _verify_buy(self, seat: int) -> None:
        buying = self.section.buying
        if not buying.allowed:
            raise IllegalActionError("this ruleset has no buying")
        if self.protected:
            raise IllegalActionError("that discard was protected with a call")
        if self.buyer is not None:
            raise IllegalActionError("the discard is already bought: one buy per discard")
        limit = self._round_value(buying.limit, ("buying", "limit"))
        if self.buys[seat] >= limit:
            raise IllegalActionError(f"you have made your {limit} buys this round")
        if buying.may is not None and not self._may_buy(seat):
            assert buying.may_message is not None
            try:
                raise IllegalActionError(buying.may_message.render(self._seat_env(seat)))
            except EvaluationError as exc:
                raise EvaluationError(f"buying.may.message: {exc}", ("buying", "may", "message")) from None

    def why_no_buy(self, seat: int) -> str:
        """Why ``seat`` was not offered the discard just declined (for a replay's
        refusal of a record's buy line)."""
        if seat == self.player:
            return "it is the player in turn, who takes the discard free or not at all"
        if seat == self.discarder:
            return "it discarded that card"
        try:
            self._verify_buy(seat)
        except IllegalActionError as exc:
            return str(exc).replace("you have made your", "it has made its")
        return "the buying window had closed"

    def _verify_play(self, seat: int, action: Any) -> Any:
        hand = self.hands[seat]
        if isinstance(action, Discard):
            if self.joker_debt:
                raise IllegalActionError("first lay off the joker you freed: it must be played this turn")
            if action.card not in hand:
                raise IllegalActionError(f"you do not hold {NAMES[action.card]}")
            if len(hand) == 1 and self.contract.going_out is NO_DISCARD:
                raise IllegalActionError("you may not go out by discarding: every card must go onto the table")
            rule = self.section.discard
            if rule is not None and not self._may_discard(seat, action.card) and \
                    any(self._may_discard(seat, c) for c in set(hand)):  # refusing every card refuses none
                try:
                    reason = rule.message.render(self._discard_env(seat, action.card))
                except EvaluationError as exc:
                    raise EvaluationError(f"discard.may.message: {exc}", ("discard", "may", "message")) from None
                raise IllegalActionError(reason)
            if action.call and not self.section.fitting_discard_call.allowed:
                raise IllegalActionError("this ruleset has no call of a fitting discard")
            if action.call and not self.table.fits(action.card):
                raise IllegalActionError(f"{NAMES[action.card]} fits no meld on the table, so there is nothing to call")
            return None
        if isinstance(action, GoDown):
            return self._check_go_down(seat, action)
        if isinstance(action, LayOff):
            return self._check_lay_off(seat, action)
        if isinstance(action, Swap):
            return self._check_swap(seat, action)
        raise _not_now(action, f"now go down, lay off, swap or discard, not '{action}'")

    def _take_from_hand(self, seat: int, cards: Any) -> None:
        hand = self.hands[seat]
        for c, n in Counter(cards).items():
            held = hand.count(c)  # a play takes a card or a few: no need to count the whole hand
            if held < n:
                raise IllegalActionError(f"you hold {held} {NAMES[c]}; this needs {n}" if held or n > 1
                                         else f"you do not hold {NAMES[c]}")

    def _check_go_down(self, seat: int, action: GoDown) -> list[Meld]:
        """The melds of a legal go-down (IllegalActionError quoting the rule if not)."""
        if self.down[seat]:
            raise IllegalActionError("you are already down this round: lay off instead")
        self._take_from_hand(seat, [c for m in action.melds for c in m])
        try:
            if action.kinds is None:  # each meld read as a set or a run so that together they meet the contract
                melds = self.meld_engine.read_contract(action.melds, self.contract.melds)
            else:
                melds = self.meld_engine.make_contract(action.melds, action.kinds, self.contract.melds)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        may = self.section.going_down.may
        if may is not None:
            env = self._go_down_env(seat, melds)
            if not self._evaluate(may.rule, env, ("going_down", "may", "rule")):
                try:
                    raise IllegalActionError(may.message.render(env))
                except EvaluationError as exc:
                    raise EvaluationError(f"going_down.may.message: {exc}", ("going_down", "may", "message")) from None
        next_id = len(self.owners) + 1
        added = {next_id + i: m for i, m in enumerate(melds)}
        if not self._leaves_legal_hand(seat, [c for m in action.melds for c in m], added):
            raise IllegalActionError(self._hand_rule())
        return melds

    def _go_down_env(self, seat: int, melds: Sequence[Meld]) -> dict[str, Any]:
        """The names of ``going_down.may`` for ``seat`` putting down ``melds``."""
        env = self._seat_env(seat)
        env["cards_left"] = len(self.hands[seat]) - sum(len(m.cards) for m in melds)
        env["melds_put_down"] = len(melds)
        env["extra_melds"] = len(melds) - len(self.contract.melds)
        return env

    def _hand_rule(self) -> str:
        if self.contract.going_out is DISCARD_REQUIRED:
            return "you must keep a card to discard: this round is won by a final discard"
        return ("you may not keep a single card that cannot be played: this round is won by putting every "
                "card onto the table, never by a discard")

    def _check_lay_off(self, seat: int, action: LayOff) -> Meld:
        """The meld after a legal lay-off (IllegalActionError quoting the rule if not)."""
        lay_off = self.section.lay_off
        if not lay_off.allowed:
            raise IllegalActionError("this ruleset has no laying off")
        if lay_off.requires_down and not self.down[seat]:
            raise IllegalActionError("you may lay off only once you are down")
        if lay_off.may is not None and not self._seat_allows(lay_off.may, seat, "lay_off"):
            raise self._seat_refusal(lay_off.may, seat, "lay_off")
        if not lay_off.same_turn_as_going_down and self.down_turn[seat] == self.turn_number:
            raise IllegalActionError("you may not lay off in the turn you go down")
        meld = self.melds.get(action.meld)
        if meld is None:
            raise IllegalActionError(f"there is no meld {action.meld} on the table")
        if lay_off.on is OWN_MELDS and self.owners[action.meld] != seat:
            raise IllegalActionError("you may lay off only on your own melds")
        if not action.cards:
            raise IllegalActionError("lay off which card?")
        self._take_from_hand(seat, action.cards)
        result = self._lay_off_result(meld, action)
        if not self._leaves_legal_hand(seat, action.cards, {action.meld: result}):
            raise IllegalActionError(self._hand_rule())
        return result

    def _lay_off_result(self, meld: Meld, action: LayOff) -> Meld:
        if action.cards_after is not None:
            return self._match_after(meld, action)
        result = meld
        for c in action.cards:
            placed = self.meld_engine.lay_off(result, c, action.at_low if c in self.meld_engine.wild else None)
            if placed is None:
                raise IllegalActionError(f"{NAMES[c]} does not fit meld {action.meld} "
                                         f"({' '.join(result.names())})")
            result = placed
        return result

    def _match_after(self, meld: Meld, action: LayOff) -> Meld:
        after = tuple(action.cards_after or ())
        if Counter(after) != Counter(meld.cards) + Counter(action.cards):
            raise IllegalActionError("cards_after is not the meld with the laid-off cards")
        if meld.kind is RUN:
            n = len(meld.cards)
            if not any(after[i:i + n] == meld.cards for i in range(len(after) - n + 1)):
                raise IllegalActionError("a lay-off extends a run at its ends")
        try:
            made = self.meld_engine.make(meld.kind, after)
        except ValueError as exc:
            raise IllegalActionError(f"the meld after the lay-off is not valid: {exc}") from None
        return made

    def _check_swap(self, seat: int, action: Swap) -> Meld:
        """The meld after a legal joker swap (IllegalActionError quoting the rule if not)."""
        swap = self.section.joker_swap
        if not swap.allowed:
            raise IllegalActionError("this ruleset has no joker swaps")
        if swap.requires_down and not self.down[seat]:
            raise IllegalActionError("you may swap a joker only once you are down")
        if swap.may is not None and not self._seat_allows(swap.may, seat, "joker_swap"):
            raise self._seat_refusal(swap.may, seat, "joker_swap")
        if self.joker_debt:
            raise IllegalActionError("first lay off the joker you freed")
        meld = self.melds.get(action.meld)
        if meld is None:
            raise IllegalActionError(f"there is no meld {action.meld} on the table")
        if swap.melds is SWAP_FROM_RUNS and meld.kind is not RUN:
            raise IllegalActionError("jokers may be swapped out of runs only, not sets")
        self._take_from_hand(seat, [action.card])
        if not self._swap_leaves_legal_hand(seat):
            if not self._may_lay_off(seat):
                raise IllegalActionError("the freed joker must be laid off this turn, and you may not lay off now")
            raise IllegalActionError(self._hand_rule())
        result = self._swap_result(seat, action.meld, action.card)
        if result is None:
            raise IllegalActionError(f"no joker in meld {action.meld} stands for {NAMES[action.card]}"
                                     + (" (or the freed joker could not be played this turn)"
                                        if swap.freed_joker is PLAY_THIS_TURN else ""))
        return result

    # --- applying ------------------------------------------------------------------------------
    def apply(self, action: Any) -> None:
        """As :meth:`GameState.apply`; an action from the cached legal list (the case
        of every bot) is not verified again, and what applying it needs comes from the
        listing (a listed go-down's melds) or is worked out once, here."""
        if self.turn == OVER:
            raise IllegalActionError("the game is over")
        # (a plain loop, not any() over a generator: this runs for every action)
        for listed in self._legal_list if self._legal_at == self.moves else ():
            if listed is action:
                checked = self._go_downs[id(action)] if type(action) is GoDown else None
                break
        else:
            checked = self.verify(action)
        if self.turn >= 0:
            self.decisions += 1
        self._do(action, checked)
        self.moves += 1

    def _do(self, action: Any, checked: Any) -> None:
        self._chance_pending = None
        kind = type(action)
        if kind is Discard:
            self._discard(action)
        elif kind is StockCard:
            self._stock_draw(action.card)
        elif kind is Pass:
            self._window_next()
        elif kind is DrawStock:
            self._decline_discard()
        elif kind is TakeDiscard:
            self._take_discard()
        elif kind is Buy:
            self.buyer = self.turn
            self._window_next()
        elif kind is Claim:
            self._claim(action.meld)
        elif kind is GoDown:
            self._go_down(checked)
        elif kind is LayOff:
            self._lay_off(action, checked)
        elif kind is Swap:
            self._swap(action, checked)
        elif kind is CutOutcome:
            self._cut(action)
        elif kind is Allow:
            self._allow()
        elif kind is Refuse:
            self._refuse()
        else:
            self._deal(action)

    def _cut(self, outcome: CutOutcome) -> None:
        event = self.section.chance_events[outcome.index]
        seat = self.seat_from_dealer(event.seat)
        self.cut_success.append(outcome.success)
        self.log({"event": event.name, "round": self.round, "seat": seat, "success": outcome.success})
        if outcome.success:
            self.counters[f"{event.name}s"] += 1
        self.chance_step += 1

    def _deal(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal.hands]
        self.stock = list(deal.stock)
        self.stock.reverse()  # deal.stock lists the cards in dealing order: first off is the top
        self.pile = [deal.upcard] if deal.upcard is not None else []
        self.melds, self.owners = {}, {}
        if self.section.melds.wild is not None:
            wild = self._wild_cards()
            if wild != self.meld_engine.wild:
                self.meld_engine = MeldEngine(self.section.melds, self.setup.env, wild, self.section.going_down)
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
        self.log_deal(deal)
        self.counters["rounds"] += 1
        self._start_turn(self.seat_from_dealer(self.rules.deal.first_to_act))

    def _start_turn(self, seat: int) -> None:
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

    def _refill_stock(self) -> bool:
        stock_rule = self.section.stock
        if stock_rule.when_empty is not WhenEmpty.RESHUFFLE_DISCARDS or self.reshuffles >= stock_rule.reshuffles:
            return False
        if not self.reshuffle():
            return False
        self.reshuffles += 1
        return True

    def _exhausted(self, reason: str) -> None:
        self.log({"event": "exhausted", "round": self.round, "reason": reason})
        self.counters["rounds_exhausted"] += 1
        self._end_round(None)

    def _take_discard(self) -> None:
        c = self.pile.pop()
        self.hands[self.player].append(c)
        self.known[self.player] += (c,)
        self._log.append((_draw_event, self.round_index + 1, self.player, "discard", c))
        self.phase = _PLAYING

    def _decline_discard(self) -> None:
        self.buyer = None
        self.window = self._window_order() if self.pile and not self.protected else []
        self.window_pos = -1
        self._window_next()

    def _window_order(self) -> list[int]:
        buying = self.section.buying
        if not (buying.allowed or self.section.fitting_discard_call.allowed):
            return []
        player, discarder = self.player, self.discarder  # discarder: None for the flip card
        first = self.dealer + 1 if buying.priority is BuyPriority.FROM_DEALER_LEFT else player + 1
        players = self.players
        order = [(first + k) % players for k in range(players)]
        return [s for s in order if s != player and s != discarder]

    def _window_next(self) -> None:
        """Ask the next seat in the window that has a choice; close it when none is left."""
        while True:
            self.window_pos += 1
            if self.window_pos >= len(self.window):
                self._close_window()
                return
            seat = self.window[self.window_pos]
            if self._can_buy(seat) or (self._may_claim(seat) and self._claimable()):
                self.phase = _WINDOW
                self.turn = seat
                return

    def _close_window(self) -> None:
        if self.buyer is not None:
            if self._vetoes:  # the player in turn answers the buy first (buying.veto)
                self.window = []
                self.phase = _VETO
                self.turn = self.player
                return
            self._buy(self.buyer)
        self.buyer = None
        self.window = []
        self.forced = []
        self._draw_for_player()

    def _allow(self) -> None:
        """The player in turn allowed the buy: it happens, then they draw from the stock."""
        assert self.buyer is not None
        self._buy(self.buyer)
        self.buyer = None
        self.forced = []
        self._draw_for_player()

    def _refuse(self) -> None:
        """The player in turn refused the buy: the buyer keeps its buys and no one else is
        asked; the card stays on the pile and they draw from the stock (``refuse``), or
        they take it, free, as their draw (``take``)."""
        buyer = self.buyer
        assert buyer is not None
        self.log({"event": "refuse", "round": self.round, "seat": self.player, "buyer": buyer,
                  "card": NAMES[self.pile[-1]]})
        self.counters["buys_refused"] += 1
        self.buyer = None
        self.forced = []
        if self.section.buying.veto is BuyVeto.TAKE:
            self._take_discard()
            self.turn = self.player
        else:
            self._draw_for_player()

    def _draw_for_player(self) -> None:
        if not self.stock and not self._refill_stock():
            self._exhausted("stock")
            return
        self.phase = _DRAWING
        self.turn = CHANCE

    def _take_stock_card(self, wanted: int | None = None) -> int | None:
        """The top card of the stock, or (in a replay) the card the record names."""
        if not self.stock and not self._refill_stock():
            return None
        if wanted is None and self.forced:
            wanted = self.forced.pop(0)
        return take_from_stock(self.stock, wanted)

    def _stock_draw(self, c: int) -> None:
        drawn = self._take_stock_card(c)
        assert drawn is not None
        self.hands[self.player].append(drawn)
        self._log.append((_draw_event, self.round_index + 1, self.player, "stock", drawn))
        self.phase = _PLAYING
        self.turn = self.player

    def _buy(self, seat: int) -> None:
        c = self.pile.pop()
        self.hands[seat].append(c)
        self.known[seat] += (c,)
        penalty = []
        at = len(self._log)  # the buy comes before a reshuffle its penalty cards call for
        for _ in range(self._round_value(self.section.buying.penalty_cards, ("buying", "penalty_cards"))):
            drawn = self._take_stock_card()
            if drawn is None:
                break
            penalty.append(drawn)
        self.hands[seat].extend(penalty)
        self.buys[seat] += 1
        self.counters["buys"] += 1
        self.log_at(at, {"event": "buy", "round": self.round, "seat": seat, "card": NAMES[c],
                         "penalty": [NAMES[p] for p in penalty]})

    def _claim(self, meld_id: int) -> None:
        claimer = self.turn
        discarder = self.discarder if self.discarder is not None else self.player
        c = self.pile.pop()
        self._changed(meld_id, self.meld_engine.lay_off(self.melds[meld_id], c) or self.melds[meld_id])
        given = []
        for _ in range(self.section.fitting_discard_call.penalty_draw):
            hand = self.hands[claimer]
            if not hand:
                break
            pick = self.forced.pop(0) if self.forced else hand[self.rng("aux").randrange(len(hand))]
            if pick not in hand:
                raise IllegalActionError(f"the claimer holds no {NAMES[pick]} to give")
            hand.remove(pick)
            self._forget(claimer, pick)
            self.hands[discarder].append(pick)
            given.append(pick)
        self.counters["calls"] += 1
        # the cards given are seen by the two players they pass between
        self.log({"event": self.section.fitting_discard_call.name, "round": self.round, "seat": claimer,
                  "meld": meld_id, "card": NAMES[c], "given": [NAMES[g] for g in given],
                  "cards_after": self.melds[meld_id].names()}, seen={"given": frozenset({claimer, discarder})})
        self.buyer = None
        self.window = []
        self._draw_for_player()

    def _changed(self, meld_id: int, meld: Meld) -> None:
        """Put ``meld`` on the table as meld ``meld_id`` (new, or in place of the old)."""
        self.melds[meld_id] = meld
        self._table_version += 1
        self._table_changes.add(meld_id)

    def _forget(self, seat: int, c: int) -> None:
        """A card left ``seat``'s hand: it is no longer known to be there."""
        known = self.known[seat]
        if c in known:
            i = known.index(c)
            self.known[seat] = known[:i] + known[i + 1:]

    def _go_down(self, melds: Any) -> None:
        seat = self.player
        hand = self.hands[seat]
        listed = []
        for meld in melds:
            for c in meld.cards:
                hand.remove(c)
                self._forget(seat, c)
            meld_id = len(self.owners) + 1
            self.owners[meld_id] = seat
            self._changed(meld_id, meld)
            wilds = self.meld_engine.wilds(meld)
            self.jokers_melded[seat] += wilds
            self.joker_debt = max(0, self.joker_debt - wilds)  # a freed joker melded is played
            listed.append({"id": meld_id, "kind": meld.kind.value, "cards": meld.names()})
        self.down[seat] = True
        self.down_turn[seat] = self.turn_number
        self.log({"event": "meld", "round": self.round, "seat": seat, "melds": listed})
        self._after_table_play(seat)

    def _lay_off(self, action: LayOff, meld: Meld | None) -> None:
        seat = self.player
        if meld is None:  # a listed lay-off: its meld is worked out once, here
            meld = self._lay_off_result(self.melds[action.meld], action)
        for c in action.cards:
            self.hands[seat].remove(c)
            self._forget(seat, c)
            if c in self.meld_engine.wild:
                self.jokers_melded[seat] += 1
                self.joker_debt = max(0, self.joker_debt - 1)
        self._changed(action.meld, meld)
        self._log.append((_layoff_event, self.round_index + 1, seat, action.meld, action.cards, meld.cards))
        self._after_table_play(seat)

    def _swap(self, action: Swap, meld: Meld | None) -> None:
        seat = self.player
        if meld is None:  # a listed swap: its meld is worked out once, here
            meld = _fitted(self._swap_result(seat, action.meld, action.card))
        freed = next(a for a, b in zip(self.melds[action.meld].cards, meld.cards) if a != b)
        self.hands[seat].remove(action.card)
        self._forget(seat, action.card)
        self._changed(action.meld, meld)
        self.hands[seat].append(freed)  # freed: it must go back onto the table this turn, or stays in hand
        if self.section.joker_swap.freed_joker is PLAY_THIS_TURN:
            self.joker_debt += 1
        self.counters["swaps"] += 1
        self.log({"event": "swap", "round": self.round, "seat": seat, "meld": action.meld,
                  "card": NAMES[action.card]})

    def _after_table_play(self, seat: int) -> None:
        if not self.hands[seat]:
            self._go_out(seat)

    def _discard(self, action: Discard) -> None:
        seat = self.player
        self.hands[seat].remove(action.card)
        self._forget(seat, action.card)
        self.pile.append(action.card)
        self.discarder = seat
        self.protected = action.call
        self._log.append((_discard_event, self.round_index + 1, seat, action.card,
                          self.section.fitting_discard_call.name if action.call else None))
        if not self.hands[seat]:
            self._go_out(seat)
            return
        self._start_turn(self.seat_after(seat))

    def _go_out(self, seat: int) -> None:
        self.log({"event": "out", "round": self.round, "seat": seat})
        self.counters["rounds_gone_out"] += 1
        self._end_round(seat)

    def _end_round(self, goer: int | None) -> None:
        table = self.section.card_points
        points = [0 if s == goer else card_points(self.hands[s], table) for s in range(self.players)]
        for s in range(self.players):
            self.penalties[s] += points[s]
        if goer is not None:
            self.went_out[goer] += 1
        if not any(self.down):
            self.counters["rounds_nobody_down"] += 1
        self.counters["penalty_points"] += sum(points)
        if goer is not None:
            env = self.setup.round_env(self.round_index)
            env.update(in_one_turn=self.down_turn[goer] == self.turn_number,
                       jokers_melded=self.jokers_melded[goer], buys=self.buys[goer],
                       others_down=sum(1 for s in range(self.players) if s != goer and self.down[s]))
            evaluate = self._evaluate
            for i, bonus in enumerate(self.section.bonuses):
                if evaluate(bonus.when, env, ("bonuses", i, "when")):
                    goer_points = evaluate(bonus.goer, env, ("bonuses", i, "goer"))
                    other_points = evaluate(bonus.others, env, ("bonuses", i, "others"))
                    for s in range(self.players):
                        points[s] += goer_points if s == goer else other_points
                    self.counters[f"bonus_{bonus.name}"] += 1
                    self.log({"event": "bonus", "round": self.round, "name": bonus.name, "seat": goer})
        for index, success in enumerate(self.cut_success):
            if success:
                event = self.section.chance_events[index]
                env = self.setup.round_env(self.round_index)
                actor = self.seat_from_dealer(event.seat)
                actor_points = self._evaluate(event.actor, env, ("chance_events", index, "actor"))
                other_points = self._evaluate(event.others, env, ("chance_events", index, "others"))
                for s in range(self.players):
                    points[s] += actor_points if s == actor else other_points
        self.cut_success = []
        self.chance_step = 0
        self.joker_debt = 0
        self.protected = False
        self.phase = _DEAL
        self.score_round(points)

    # --- what a seat sees ---------------------------------------------------------------------
    def _round_facts(self) -> tuple[int, Setup, Contract, int, int | None]:
        """(round index, setup, contract, hand size, buy limit or None) of the round
        being played.  Every decision's observation and most listings read them, and
        they change only with the round (or with the setup, which a stacked deal may
        replace), so they are worked out once for each and kept until then."""
        facts = self._facts
        if facts[0] != self.round_index or facts[1] is not self.setup:
            buying = self.section.buying
            facts = self._facts = (self.round_index, self.setup, self.section.contracts[self.rules_round - 1],
                                   self.hand_size, self._round_value(buying.limit, ("buying", "limit")) if buying.allowed else None)
        return facts

    def observation(self, seat: int | None) -> RummyObservation:
        """What ``seat`` may know; ``None``: what a spectator may (seat -1, no hand)."""
        if seat is None:
            return self.observation(0)._replace(seat=-1, hand=(), buys_left=0, went_down_this_turn=False)
        if self.turn == OVER:  # no round is being played: no hand size, contract or buys
            phase, contract, hand_size, buy_limit = _OVER, None, 0, None
        else:
            phase = self.phase
            _, _, contract, hand_size, buy_limit = self._round_facts()
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
            self.joker_debt, tuple(self.window) if phase is _WINDOW else (), self.buyer,
            tuple(self.known), self.turn_number,
            down[seat] and self.down_turn[seat] == self.turn_number, self.meld_engine.wild))

    # --- copies -------------------------------------------------------------------------------
    def _copy_into(self, new: Any) -> None:
        new.hands = [h[:] for h in self.hands]
        new.melds = dict(self.melds)
        new.owners = dict(self.owners)
        new.down = self.down[:]
        new.buys = self.buys[:]
        new.jokers_melded = self.jokers_melded[:]
        new.down_turn = self.down_turn[:]
        new.known = self.known[:]
        new.window = self.window[:]
        new.cut_success = self.cut_success[:]
        new.forced = self.forced[:]
        new.counters = Counter(self.counters)
        new._per_round = dict(self._per_round)
        new.went_out = self.went_out[:]
        new._table_changes = set(self._table_changes)
        new.penalties = self.penalties[:]
        new._go_downs = {}


def _not_now(action: Any, message: str) -> IllegalActionError:
    """The refusal of an action the phase has no place for: ``message``, or for an answer
    to a buy, that there is no buy to answer."""
    if isinstance(action, (Allow, Refuse)):
        return IllegalActionError(f"there is no buy to {action} now: the player in turn answers a buy after "
                                  "the others have had their chance to buy")
    return IllegalActionError(message)


def _fitted(meld: Meld | None) -> Meld:
    """A meld the caller knows is there (a lay-off or swap the listing found to fit)."""
    assert meld is not None
    return meld
