"""The contract-rummy section of a ruleset: contracts, melds, lay-offs, joker swaps,
buying, going out, the stock, card points, bonuses, chance events and the call of a
fitting discard; built from the document and checked for every player count."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Mapping

from ...errors import EvaluationError
from ...expressions import Compiled, Type
from ...rules import CORE_EVENTS, GAME_NAMES, ROUND_NAMES, Ace, Direction, RulesBuilder, SeatFromDealer, Setup, \
    Template
from .cardset import rummy_pack

# The event kinds a contract-rummy record writes besides the core's: a ruleset's own
# events (chance events, the fitting-discard call) must not reuse them.
RECORD_EVENTS = ("draw", "buy", "refuse", "meld", "layoff", "swap", "discard", "out", "reshuffle", "exhausted", "bonus",
                 "laydown", "contracts", "skip", "capture", "bury", "choose")

MELD_NAMES: dict[str, Type] = {**GAME_NAMES, "size": Type.INT, "is_run": Type.BOOL, "is_set": Type.BOOL}
# buying and chance-event expressions: the round's names (round, rounds, hand_size, is_last_round)
BUY_NAMES: dict[str, Type] = dict(ROUND_NAMES)
# buying.priority.first: the round's names, the dealer, the player in turn and the discarder
PRIORITY_NAMES: dict[str, Type] = {**ROUND_NAMES, "dealer": Type.INT, "player": Type.INT, "discarder": Type.INT}
# buying.may: the round's names and the seat asking
SEAT_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "player": Type.INT, "discarder": Type.INT,
                               "is_next": Type.BOOL, "is_down": Type.BOOL, "buys": Type.INT, "buys_left": Type.INT,
                               "cards_in_hand": Type.INT, "others_down": Type.INT, "stock": Type.INT,
                               "went_down_this_turn": Type.BOOL, "top_card": Type.INT}
# melds.wild: the round's names and the card asked about
WILD_NAMES: dict[str, Type] = {**ROUND_NAMES, "card_rank": Type.INT, "card_suit": Type.INT, "card": Type.INT,
                               "card_is_special": Type.BOOL}
# card_points as an expression: the round's names and the card priced
POINT_NAMES: dict[str, Type] = {**WILD_NAMES, "card_is_wild": Type.BOOL, "card_is_joker": Type.BOOL}
# discard.may: the seat's names and the card it would discard
DISCARD_NAMES: dict[str, Type] = {**SEAT_NAMES, "card_rank": Type.INT, "card_suit": Type.INT, "card_is_wild": Type.BOOL,
                                  "card_fits_table": Type.BOOL, "is_last_card": Type.BOOL}
# skip.may (skip.seat: chosen): the discarder's names and the seat it would name: target (its
# seat), pending (the turns it is yet to lose), named (how often a skip named it this round)
# and since (the turns begun since a skip last named it, a lost turn counting; 0 when none has)
SKIP_NAMES: dict[str, Type] = {**SEAT_NAMES, "target": Type.INT, "pending": Type.INT, "named": Type.INT,
                               "since": Type.INT, "target_cards": Type.INT, "target_is_down": Type.BOOL,
                               "team": Type.INT, "target_team": Type.INT}
# going_down.may: the seat's names and the go-down tried
GO_DOWN_NAMES: dict[str, Type] = {**SEAT_NAMES, "cards_left": Type.INT, "melds_put_down": Type.INT,
                                  "extra_melds": Type.INT, "run_suits": Type.LIST, "run_sizes": Type.LIST,
                                  "run_lows": Type.LIST, "run_highs": Type.LIST,
                                  "set_ranks": Type.LIST, "set_sizes": Type.LIST}
BONUS_NAMES: dict[str, Type] = {**BUY_NAMES, "in_one_turn": Type.BOOL, "jokers_melded": Type.INT,
                                "others_down": Type.INT, "buys": Type.INT, "is_last_round": Type.BOOL}
# counters.*.initial: the first round's names and the seat; contract: the round's names, the seat
# (and the counters)
COUNTER_START_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT}
# contract.choose: the seat, the contract it may choose (n, 1 the first) and the contracts it
# has made in the rounds before (made: their numbers, in order; and the counters)
CHOOSE_NAMES: dict[str, Type] = {**COUNTER_START_NAMES, "n": Type.INT, "made": Type.LIST}
# counters.*.update: after a round is scored, the seat's part in it (and every counter)
COUNTER_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "points": Type.INT, "is_down": Type.BOOL,
                                  "went_out": Type.BOOL, "cards_left": Type.INT, "contract": Type.INT,
                                  "buys": Type.INT}
# going_out.counted: at the round's end, the seat whose hand may count and who went out
COUNTED_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "team": Type.INT, "goer": Type.INT,
                                  "goer_team": Type.INT, "is_down": Type.BOOL, "cards_left": Type.INT}
# going_out.last_turn_for: those, and the seat's and the goer's places in the round's turn order
# (0 the first player), the dealer
LAST_TURN_NAMES: dict[str, Type] = {**COUNTED_NAMES, "place": Type.INT, "goer_place": Type.INT, "dealer": Type.INT}
# melds.kinds.*.rule: the cards of a meld tried (the natural cards' values in lists)
KIND_NAMES: dict[str, Type] = {**GAME_NAMES, "size": Type.INT, "naturals": Type.INT, "wilds": Type.INT,
                               "ranks": Type.LIST, "suits": Type.LIST, "colours": Type.LIST,
                               "distinct_ranks": Type.INT, "distinct_suits": Type.INT, "distinct_colours": Type.INT}


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"
    EITHER = "meld"  # a contract part that may be met by a set or a run (never a meld's own kind)
    GROUP = "group"  # cards of one colour, of one suit, or any cards (a kind of melds.kinds; never written)


class Like(StrEnum):
    """melds.kinds.*.like: what a kind of the ruleset's own is made of, before its rule."""

    SET = "set"  # one rank
    RUN = "run"  # in sequence
    COLOUR = "colour"  # natural cards of one colour, any ranks
    SUIT = "suit"  # natural cards of one suit, any ranks
    ANY = "any"  # any cards


class GoingOut(StrEnum):
    DISCARD_REQUIRED = "discard-required"
    DISCARD_OPTIONAL = "discard-optional"
    NO_DISCARD = "no-discard"


class LayOffOn(StrEnum):
    ANY_MELD = "any-meld"
    OWN_MELDS = "own-melds"


class SwapFrom(StrEnum):
    RUNS = "runs"
    ALL = "all"


class FreedJoker(StrEnum):
    TO_HAND = "to-hand"
    PLAY_THIS_TURN = "play-this-turn"


class BuyPriority(StrEnum):
    FROM_PLAYER_IN_TURN = "clockwise-from-player-in-turn"
    FROM_DEALER_LEFT = "clockwise-from-dealer-left"


class BuyVeto(StrEnum):
    """buying.veto: what the player in turn may do about another player's buy."""

    NONE = "none"  # nothing: the first buyer in priority order gets the card
    REFUSE = "refuse"  # refuse it: the card stays on the pile, the player draws from the stock
    TAKE = "take"  # refuse it by taking the card themselves, as their draw


class WhenEmpty(StrEnum):
    RESHUFFLE_DISCARDS = "reshuffle-discards"
    END_ROUND = "end-round"


# The members as plain module constants, for the hot paths: an enum class attribute
# costs a lookup through the enum machinery each time it is read.
SET, RUN, EITHER, GROUP = MeldKind.SET, MeldKind.RUN, MeldKind.EITHER, MeldKind.GROUP
DISCARD_REQUIRED, DISCARD_OPTIONAL, NO_DISCARD = GoingOut.DISCARD_REQUIRED, GoingOut.DISCARD_OPTIONAL, GoingOut.NO_DISCARD
OWN_MELDS = LayOffOn.OWN_MELDS
SWAP_FROM_RUNS, SWAP_FROM_ALL = SwapFrom.RUNS, SwapFrom.ALL
FREED_TO_HAND, PLAY_THIS_TURN = FreedJoker.TO_HAND, FreedJoker.PLAY_THIS_TURN


@dataclass(frozen=True)
class MeldKindRule:
    """A kind of meld of the ruleset's own (``melds.kinds``): cards like a set, a run, of
    one colour, of one suit or any, that also meet ``rule`` (a predicate of KIND_NAMES)."""

    name: str
    like: Like
    rule: Compiled | None
    min_size: int
    description: str = ""

    @property
    def kind(self) -> MeldKind:
        """The kind of meld its melds are (a set, a run, or a group of cards)."""
        return SET if self.like is Like.SET else RUN if self.like is Like.RUN else GROUP


@dataclass(frozen=True)
class MeldSpec:
    kind: MeldKind
    min_size: int
    name: str = ""  # a kind of melds.kinds (its melds are of ``kind`` and meet its rule)

    def __str__(self) -> str:
        return f"{self.name or self.kind.value} of {self.min_size}"


@dataclass(frozen=True)
class RummyCounter:
    """A number each seat carries from round to round (``counters``)."""

    name: str
    initial: Compiled  # COUNTER_START_NAMES
    update: Compiled  # after each round's scoring: COUNTER_NAMES and every counter


@dataclass(frozen=True)
class Contract:
    melds: tuple[MeldSpec, ...]
    going_out: GoingOut
    name: str

    @property
    def cards_needed(self) -> int:
        return sum(m.min_size for m in self.melds)


@dataclass(frozen=True)
class MeldRules:
    set_min: int
    run_min: int
    run_ace: Ace
    wrap: bool
    jokers_per_meld: Compiled
    jokers_adjacent: bool
    min_natural: Compiled
    distinct_set_ranks: bool
    no_consecutive_same_suit_runs: bool
    wild: Compiled | None = None
    run_max: int = 14  # melds.run.max_size: most cards in a run
    set_distinct_suits: bool = False  # melds.set.distinct_suits: no two natural cards of one suit in a set  # the natural cards that are wild too: a predicate of WILD_NAMES
    run_same_suit: bool = True  # melds.run.same_suit: false lets a run's cards be of any suits
    kinds: Mapping[str, MeldKindRule] = field(default_factory=dict)  # melds.kinds, by name
    # melds.jokers.move_to_end: a natural laid off in a run's wild card's place, the wild card moving to an end
    jokers_move: bool = False
    # melds.wild_natural: a wild card standing in its own place (a set of its rank, its own
    # place in a run of its suit) counts as the natural card it is
    wild_natural: bool = False


@dataclass(frozen=True)
class SeatRule:
    """Whether a seat may do something now: a predicate of SEAT_NAMES and the message a
    refused attempt gets."""

    rule: Compiled
    message: Template


@dataclass(frozen=True)
class GoingDownRules:
    """How a contract is met when going down (``going_down``)."""

    extra_melds: bool = False  # melds beyond the contract may go down with it
    exact_sizes: bool = False  # each contract meld goes down with exactly its size
    may: SeatRule | None = None  # going_down.may: a rule of GO_DOWN_NAMES
    later_melds: bool = False  # once down, new melds may be put down on later turns
    later_kinds: tuple[MeldSpec, ...] = ()  # ... of these kinds (sets and runs where later_melds is true)


@dataclass(frozen=True)
class LayOffRules:
    allowed: bool
    requires_down: bool
    same_turn_as_going_down: bool
    on: LayOffOn
    may: SeatRule | None = None  # lay_off.may: who may lay off now, beyond the switches above


@dataclass(frozen=True)
class JokerSwapRules:
    allowed: bool
    melds: SwapFrom
    requires_down: bool
    freed_joker: FreedJoker
    may: SeatRule | None = None  # joker_swap.may: who may swap now, beyond the switches above
    on: str = "any-meld"  # joker_swap.on: whose melds: any-meld, own-melds or others-melds
    # joker_swap.capture: a wild card just put on the table may be captured at once by the
    # others, in turn order (they put the natural card in its place and take it)
    capture: bool = False


@dataclass(frozen=True)
class BuyingRules:
    allowed: bool
    # a named order, or None: from ``priority_first`` (None: the seat after the player in
    # turn) going round by ``priority_step`` (1 clockwise, -1 counter-clockwise)
    priority: BuyPriority | None
    penalty_cards: Compiled
    limit: Compiled
    may: Compiled | None = None  # who may buy: a predicate of SEAT_NAMES
    may_message: Template | None = None
    veto: BuyVeto = BuyVeto.NONE  # the player in turn's answer to a buy (see BuyVeto)
    priority_first: Compiled | None = None  # buying.priority.first: the seat asked first (PRIORITY_NAMES)
    priority_step: int = 1
    # buying.forced: the declined discard is no offer: it goes at once, with its penalty
    # cards, to the first seat of the priority order that may buy it (the push draw)
    forced: bool = False
    # buying.per_discard: after a buy, the card it uncovers is offered again, up to this
    # many buys a turn (the seats that bought it in the turn are not asked again)
    per_discard: int = 1


@dataclass(frozen=True)
class StockRules:
    when_empty: WhenEmpty
    reshuffles: int
    turn_limit: int
    bury_upcard: Compiled | None = None  # a turned-up card of which this holds is buried (POINT_NAMES)


@dataclass(frozen=True)
class Bonus:
    name: str
    when: Compiled
    goer: Compiled
    others: Compiled


@dataclass(frozen=True)
class ChanceEvent:
    name: str
    description: str
    one_in: int
    seat: SeatFromDealer
    actor: Compiled
    others: Compiled


@dataclass(frozen=True)
class FittingDiscardCall:
    allowed: bool
    penalty_draw: int
    name: str  # the record's event kind and the word typed at the table


@dataclass(frozen=True)
class RummyRules:
    """The contract-rummy section of a ruleset (``Ruleset.section``)."""

    contracts: tuple[Contract, ...]
    melds: MeldRules
    lay_off: LayOffRules
    joker_swap: JokerSwapRules
    buying: BuyingRules
    going_out: GoingOut
    stock: StockRules
    card_points: Mapping[str, int]  # by rank code and special card code (empty with card_points_rule)
    bonuses: tuple[Bonus, ...]
    chance_events: tuple[ChanceEvent, ...]
    fitting_discard_call: FittingDiscardCall
    take_discard: SeatRule | None = None  # take_discard.may: who may take the discard in turn
    discard: SeatRule | None = None  # discard.may: which cards may be discarded (a rule of DISCARD_NAMES)
    going_down: GoingDownRules = GoingDownRules()
    card_points_rule: Compiled | None = None  # card_points as an expression of POINT_NAMES
    last_turns: Compiled | None = None  # going_out.last_turns: the others' turns after one goes out (BUY_NAMES)
    count_unmatched: bool = False  # going_out.count: unmatched: a hand scores only what its best melding leaves
    counted: Compiled | None = None  # going_out.counted: whose hand counts at the round's end (COUNTED_NAMES)
    last_turn_for: Compiled | None = None  # going_out.last_turn_for: who takes the last turns (LAST_TURN_NAMES)
    counters: tuple[RummyCounter, ...] = ()  # counters: what each seat carries from round to round
    contract_rule: Compiled | None = None  # contract: each seat's contract number (COUNTER_START_NAMES, counters)
    contract_choose: Compiled | None = None  # contract.choose: the contracts a seat may choose (CHOOSE_NAMES, counters)
    skip_cards: Compiled | None = None  # skip.cards: the cards whose discard skips the next player (POINT_NAMES)
    skip_upcard: bool = False  # skip.upcard: such a card turned up at the deal skips the first player
    skip_chosen: bool = False  # skip.seat: chosen: the discarder names the seat that loses its next turn
    skip_may: SeatRule | None = None  # skip.may: whom the discarder may name (SKIP_NAMES, counters)
    # whether a seat rule reads top_card: only then is it put among a seat's names (one more
    # name grows the dict past a size the seat rules of most rulesets stay within)
    reads_top_card: bool = False

    @property
    def own_contracts(self) -> bool:
        """Each seat plays its own contract (``contract``: by a rule, or chosen by the player)."""
        return self.contract_rule is not None or self.contract_choose is not None


MELD_OUT_NAME = "go out by melding every card"  # the name of a round with no contract

def schedule(section: RummyRules, sizes: int | list[int]) -> list[int]:
    """One hand size per contract: a single number for every round, or a list.  Where
    each seat's contract is chosen by ``contract``, the rounds are not the contracts: the
    list is the schedule (its length the most rounds), and a single number is refused."""
    if section.own_contracts:
        if not isinstance(sizes, list):
            raise ValueError("each seat's contract is chosen by 'contract', so the rounds are not the contracts: "
                             "give the schedule as a list of hand sizes, one a round, long enough for a game "
                             "(\"repeat(10, 100)\": at most 100 rounds of 10 cards)")
        return sizes
    count = len(section.contracts)
    if isinstance(sizes, list):
        if len(sizes) != count:
            raise ValueError(f"the deal gives {len(sizes)} hand size{'s' if len(sizes) != 1 else ''} for {count} "
                             f"contract{'s' if count != 1 else ''}: give one size per contract (a round each), or "
                             "one number for every round")
        return sizes
    return [sizes] * count


def build_section(builder: RulesBuilder) -> RummyRules:
    # Long on purpose: one step per key of the section, in the schema's order, each
    # reporting its problems at its own key.
    get = builder.get
    deck = builder.deck
    assert deck is not None
    set_min = get(("melds", "set", "min_size"), 3)
    run_min = get(("melds", "run", "min_size"), 4)
    default_out = GoingOut(get(("going_out", "final_discard"), "discard-optional"))
    contracts = []
    kinds = _kinds(builder, set_min, run_min)
    for i, entry in enumerate(get(("contracts",), [])):
        specs, path = (entry, ("contracts", i)) if isinstance(entry, list) else (entry["melds"], ("contracts", i, "melds"))
        melds = []
        for j, text in enumerate(specs):
            kind, _, size = text.partition(" of ")
            if kind not in ("set", "run", "meld"):
                named = kinds.get(kind)
                if named is None:
                    builder.fail(path + (j,), f"'{kind}' is no kind of meld: a contract names set, run, meld"
                                 + (f" or a kind of melds.kinds ({', '.join(kinds)})" if kinds else
                                    " (or a kind of the ruleset's own, under melds.kinds)"))
                    continue
                spec = MeldSpec(named.kind, int(size) if size else named.min_size, kind)
                if spec.min_size < named.min_size:
                    builder.fail(path + (j,), f"the contract asks for a {spec} but a {kind} has at least "
                                 f"{named.min_size} cards (melds.kinds.{kind}.min_size)")
                melds.append(spec)
                continue
            least = {"set": set_min, "run": run_min}.get(kind, min(set_min, run_min))
            spec = MeldSpec(MeldKind(kind), int(size) if size else least)
            if spec.min_size < least:
                builder.fail(path + (j,), f"the contract asks for a {spec} but a {kind} has at least "
                          f"{least} cards (melds.{kind}.min_size)" if kind != "meld" else
                          f"the contract asks for a {spec} but a set has at least {set_min} cards and a run at "
                          f"least {run_min} (melds.set.min_size, melds.run.min_size)")
            melds.append(spec)
        going_out = GoingOut(entry.get("going_out", default_out)) if isinstance(entry, dict) else default_out
        name = entry.get("name", "") if isinstance(entry, dict) else ""
        contracts.append(Contract(tuple(melds), going_out, name or ", ".join(map(str, melds)) or MELD_OUT_NAME))
    counters, counter_names = _counters(builder)
    seat_names = {**SEAT_NAMES, **counter_names}
    run_ace = Ace(get(("melds", "run", "ace"), deck.ace))
    card_points, card_points_rule = _card_points(builder)
    bonuses = []
    for i, b in enumerate(get(("bonuses",), [])):
        bonuses.append(Bonus(
            name=b["name"],
            when=builder.expr(("bonuses", i, "when"), {**BONUS_NAMES, **counter_names}, Type.BOOL),
            goer=builder.expr(("bonuses", i, "goer"), {**BONUS_NAMES, **counter_names}, Type.INT, 0),
            others=builder.expr(("bonuses", i, "others"), {**BONUS_NAMES, **counter_names}, Type.INT, 0)))
    taken = set(CORE_EVENTS) | set(RECORD_EVENTS)
    for i, e in enumerate(get(("chance_events",), [])):
        if e["name"] in taken:
            builder.fail(("chance_events", i, "name"), f"'{e['name']}' is already an event kind of game "
                      "records: name the chance event something else")
        taken.add(e["name"])
    call_name = get(("fitting_discard_call", "name"), "call")
    if call_name in taken:
        builder.fail(("fitting_discard_call", "name"), f"'{call_name}' is already an event kind of game "
                  "records: name the call something else")
    events = []
    for i, e in enumerate(get(("chance_events",), [])):
        events.append(ChanceEvent(
            name=e["name"], description=e.get("description", ""), one_in=e["one_in"], seat=SeatFromDealer(e["seat"]),
            actor=builder.expr(("chance_events", i, "actor"), BUY_NAMES, Type.INT, 0),
            others=builder.expr(("chance_events", i, "others"), BUY_NAMES, Type.INT, 0)))
    section = RummyRules(
        contracts=tuple(contracts),
        melds=MeldRules(
            set_min=set_min, run_min=run_min, run_ace=run_ace,
            wrap=get(("melds", "run", "wrap"), False),
            jokers_per_meld=builder.expr(("melds", "jokers", "per_meld"), MELD_NAMES, Type.INT, "size"),
            jokers_adjacent=get(("melds", "jokers", "adjacent_in_runs"), True),
            jokers_move=bool(get(("melds", "jokers", "move_to_end"), False)),
            wild_natural=_wild_natural(builder),
            min_natural=builder.expr(("melds", "jokers", "min_natural"), MELD_NAMES, Type.INT, 1),
            distinct_set_ranks=get(("melds", "initial", "distinct_set_ranks"), False),
            no_consecutive_same_suit_runs=get(("melds", "initial", "no_consecutive_same_suit_runs"), False),
            wild=builder.expr(("melds", "wild"), WILD_NAMES, Type.BOOL) if get(("melds", "wild")) is not None else None,
            set_distinct_suits=get(("melds", "set", "distinct_suits"), False),
            run_max=_run_max(builder, run_min),
            run_same_suit=get(("melds", "run", "same_suit"), True),
            kinds=kinds,
        ),
        going_down=GoingDownRules(extra_melds=get(("going_down", "extra_melds"), False),
                                  exact_sizes=get(("going_down", "exact_sizes"), False),
                                  may=_seat_rule(builder, "going_down", {**GO_DOWN_NAMES, **counter_names}),
                                  later_melds=bool(get(("going_down", "later_melds"), False)),
                                  later_kinds=_later_kinds(builder, kinds, set_min, run_min)),
        lay_off=LayOffRules(allowed=get(("lay_off", "allowed"), True),
                       requires_down=get(("lay_off", "requires_down"), True),
                       same_turn_as_going_down=get(("lay_off", "same_turn_as_going_down"), True),
                       on=LayOffOn(get(("lay_off", "on"), "any-meld")),
                       may=_seat_rule(builder, "lay_off", seat_names)),
        joker_swap=JokerSwapRules(allowed=get(("joker_swap", "allowed"), False),
                             melds=SwapFrom(get(("joker_swap", "melds"), "runs")),
                             requires_down=get(("joker_swap", "requires_down"), True),
                             freed_joker=FreedJoker(get(("joker_swap", "freed_joker"), "to-hand")),
                             may=_seat_rule(builder, "joker_swap", seat_names),
                             on=get(("joker_swap", "on"), "any-meld"),
                             capture=bool(get(("joker_swap", "capture"), False))),
        buying=BuyingRules(allowed=_buying_allowed(builder),
                      **_buy_priority(builder, _direction(builder)),
                      penalty_cards=builder.expr(("buying", "penalty_cards"), BUY_NAMES, Type.INT, 1),
                      limit=builder.expr(("buying", "limit"), BUY_NAMES, Type.INT, 0),
                      may=builder.expr(("buying", "may", "rule"), seat_names, Type.BOOL)
                      if get(("buying", "may")) is not None else None,
                      may_message=builder.template(("buying", "may", "message"), seat_names)
                      if get(("buying", "may")) is not None else None,
                      veto=BuyVeto(get(("buying", "veto"), "none")),
                      forced=_buying_forced(builder),
                      per_discard=_per_discard(builder)),
        going_out=default_out,
        stock=StockRules(when_empty=WhenEmpty(get(("stock", "when_empty"), "reshuffle-discards")),
                        reshuffles=get(("stock", "reshuffles"), 1),
                        turn_limit=get(("stock", "turn_limit"), 400),
                        bury_upcard=builder.expr(("stock", "bury_upcard"), POINT_NAMES, Type.BOOL)
                        if get(("stock", "bury_upcard")) is not None else None),
        card_points=card_points,
        card_points_rule=card_points_rule,
        bonuses=tuple(bonuses),
        chance_events=tuple(events),
        fitting_discard_call=FittingDiscardCall(
            allowed=get(("fitting_discard_call", "allowed"), False),
            penalty_draw=get(("fitting_discard_call", "penalty_draw"), 1),
            name=get(("fitting_discard_call", "name"), "call")),
        take_discard=_seat_rule(builder, "take_discard", seat_names),
        discard=_seat_rule(builder, "discard", {**DISCARD_NAMES, **counter_names}),
        last_turns=builder.expr(("going_out", "last_turns"), BUY_NAMES, Type.INT)
        if get(("going_out", "last_turns")) is not None else None,
        count_unmatched=get(("going_out", "count"), "all") == "unmatched",
        counted=builder.expr(("going_out", "counted"), COUNTED_NAMES, Type.BOOL)
        if get(("going_out", "counted")) is not None else None,
        last_turn_for=_last_turn_for(builder, counter_names),
        counters=counters,
        contract_rule=builder.expr(("contract",), {**COUNTER_START_NAMES, **counter_names}, Type.INT)
        if get(("contract",)) is not None and not isinstance(get(("contract",)), dict) else None,
        contract_choose=builder.expr(("contract", "choose"), {**CHOOSE_NAMES, **counter_names}, Type.BOOL)
        if isinstance(get(("contract",)), dict) else None,
        skip_cards=builder.expr(("skip", "cards"), POINT_NAMES, Type.BOOL) if get(("skip",)) is not None else None,
        skip_upcard=get(("skip", "upcard"), False),
        skip_chosen=get(("skip", "seat"), "next") == "chosen",
        skip_may=_skip_may(builder, {**SKIP_NAMES, **counter_names}),
    )
    return replace(section, reads_top_card=_reads_top_card(section))


def _reads_top_card(section: RummyRules) -> bool:
    """Whether a rule about a seat (its rule or its message) reads ``top_card``."""
    rules: list[Compiled | None] = [section.buying.may]
    templates = [section.buying.may_message]
    for seat_rule in (section.take_discard, section.discard, section.going_down.may, section.lay_off.may,
                      section.joker_swap.may, section.skip_may):
        if seat_rule is not None:
            rules.append(seat_rule.rule)
            templates.append(seat_rule.message)
    rules += [p for t in templates if t is not None for p in t.parts if not isinstance(p, str)]
    return any(r is not None and "top_card" in r.names for r in rules)


def _counters(builder: RulesBuilder) -> tuple[tuple[RummyCounter, ...], dict[str, Type]]:
    """``counters``: each compiled, and their names (ints) for the rules that read them."""
    names: dict[str, Type] = {}
    given = builder.get(("counters",), {}) or {}
    for name in given:
        if name in COUNTER_NAMES or name in DISCARD_NAMES or name in GO_DOWN_NAMES or name in BONUS_NAMES or \
                name in KIND_NAMES or name in POINT_NAMES or name in CHOOSE_NAMES or name in COUNTED_NAMES or \
                name in SKIP_NAMES or name in LAST_TURN_NAMES or \
                name in builder.let_names:
            builder.fail(("counters", name), f"'{name}' is a name the language (or a let) already binds",
                         at_key=True, span=len(name))
            continue
        names[name] = Type.INT
    counters = []
    for name in names:
        counters.append(RummyCounter(
            name=name,
            initial=builder.expr(("counters", name, "initial"), COUNTER_START_NAMES, Type.INT, 0),
            update=builder.expr(("counters", name, "update"), {**COUNTER_NAMES, **names}, Type.INT)))
    return tuple(counters), names


def _kinds(builder: RulesBuilder, set_min: int, run_min: int) -> dict[str, MeldKindRule]:
    """``melds.kinds``: the ruleset's own kinds of meld, by name."""
    out = {}
    for name, spec in (builder.get(("melds", "kinds"), {}) or {}).items():
        like = Like(spec["like"])
        least = spec.get("min_size", set_min if like is Like.SET else run_min if like is Like.RUN else 3)
        rule = spec.get("rule")
        out[name] = MeldKindRule(name, like, builder.expr(("melds", "kinds", name, "rule"), KIND_NAMES, Type.BOOL)
                                 if rule is not None else None, least, spec.get("description", ""))
    return out



def _card_points(builder: RulesBuilder) -> tuple[dict[str, int], Compiled | None]:
    """``card_points``: a mapping of rank codes and special cards' codes (each key may
    list several, separated by spaces) to points, or an int expression of POINT_NAMES."""
    given = builder.get(("card_points",), {})
    if isinstance(given, str):
        return {}, builder.expr(("card_points",), POINT_NAMES, Type.INT)
    pack = builder.pack
    ranks = [r.code for r in pack.ranks]
    specials = [s.code for s in pack.specials]
    card_points: dict[str, int] = {}
    for key, points in given.items():
        for word in key.split():
            code = word.upper()
            if code == "10" and "T" in ranks:
                code = "T"
            if code not in ranks and code not in specials:
                builder.fail(("card_points", key), f"card_points prices '{word}', which is neither a rank of the "
                             f"pack ({' '.join(ranks)}) nor a special card of it ({' '.join(specials)})",
                             at_key=True, span=len(key))
                continue
            if code in card_points:
                builder.fail(("card_points", key), f"rank {code} is given points twice", at_key=True, span=len(key))
            card_points[code] = points
    deck = builder.deck
    assert deck is not None
    for rank in deck.ranks if deck.ranks_rule is None else ():  # (else checked per player count)
        if rank not in card_points:
            builder.fail(("card_points",), f"card_points gives no points for rank {rank}", at_key=True,
                         span=len("card_points"))
    return card_points, None


def _seat_rule(builder: RulesBuilder, key: str, names: Mapping[str, Type] = SEAT_NAMES) -> SeatRule | None:
    """``KEY.may: {rule, message}``, compiled, or None where it is not given."""
    if builder.get((key, "may")) is None:
        return None
    return SeatRule(builder.expr((key, "may", "rule"), names, Type.BOOL),
                    builder.template((key, "may", "message"), names))


def _later_kinds(builder: RulesBuilder, kinds: Mapping[str, MeldKindRule], set_min: int,
                 run_min: int) -> tuple[MeldSpec, ...]:
    """``going_down.later_melds``: the kinds of meld a player who is down may put down
    later (true: sets and runs), each at its least size."""
    given = builder.get(("going_down", "later_melds"), False)
    if given is False:
        return ()
    names = ["set", "run"] if given is True else list(given)
    specs = []
    for i, name in enumerate(names):
        if name == "set":
            specs.append(MeldSpec(MeldKind.SET, set_min))
        elif name == "run":
            specs.append(MeldSpec(MeldKind.RUN, run_min))
        elif name in kinds:
            specs.append(MeldSpec(kinds[name].kind, kinds[name].min_size, name))
        else:
            builder.fail(("going_down", "later_melds", i), f"'{name}' is no kind of meld: later melds are set, run"
                         + (f" or a kind of melds.kinds ({', '.join(kinds)})" if kinds else ""))
    return tuple(specs)


def _last_turn_for(builder: RulesBuilder, counter_names: Mapping[str, Type]) -> Compiled | None:
    """``going_out.last_turn_for``, compiled; only beside ``last_turns`` (else no one has a
    last turn to take)."""
    if builder.get(("going_out", "last_turn_for")) is None:
        return None
    if builder.get(("going_out", "last_turns")) is None:
        builder.fail(("going_out", "last_turn_for"), "last_turn_for says who takes the last turns, so it needs "
                     "going_out.last_turns (how many)", at_key=True, span=13)
        return None
    return builder.expr(("going_out", "last_turn_for"), {**LAST_TURN_NAMES, **counter_names}, Type.BOOL)


def _skip_may(builder: RulesBuilder, names: Mapping[str, Type]) -> SeatRule | None:
    """``skip.may``, compiled; only beside ``skip.seat: chosen`` (the next player is
    named by no one)."""
    if builder.get(("skip", "may")) is None:
        return None
    if builder.get(("skip", "seat"), "next") != "chosen":
        builder.fail(("skip", "may"), "skip.may says whom a discarder may name, so it needs skip.seat: chosen",
                     at_key=True, span=3)
        return None
    return _seat_rule(builder, "skip", names)


def _run_max(builder: RulesBuilder, run_min: int) -> int:
    most = builder.get(("melds", "run", "max_size"))
    if most is None:  # as many as the ranks allow (14 for the standard pack, with the ace at both ends)
        return builder.pack.stride + 1
    if most < run_min:
        builder.fail(("melds", "run", "max_size"), f"a run has at least {run_min} cards (melds.run.min_size), so it "
                     f"cannot hold at most {most}")
    return int(most)


def _direction(builder: RulesBuilder) -> Direction:
    return Direction(builder.get(("direction",), "clockwise"))


def _buy_priority(builder: RulesBuilder, direction: Direction) -> dict[str, Any]:
    """buying.priority: a named clockwise order, or ``{first, direction}`` (the seat asked
    first, as an expression, and the way round from it); without it, the seats after the
    player in turn in the direction of play."""
    spec = builder.get(("buying", "priority"))
    if isinstance(spec, str):
        return {"priority": BuyPriority(spec)}
    if spec is None:
        if direction is Direction.CLOCKWISE:
            return {"priority": BuyPriority.FROM_PLAYER_IN_TURN}
        return {"priority": None, "priority_step": direction.step}
    first = builder.expr(("buying", "priority", "first"), PRIORITY_NAMES, Type.INT) if "first" in spec else None
    way = Direction(spec.get("direction", direction.value))
    return {"priority": None, "priority_first": first, "priority_step": way.step}


def _buying_allowed(builder: RulesBuilder) -> bool:
    """buying.allowed, refused without a limit: the limit's default of 0 buys would make
    'allowed' mean nothing, silently."""
    allowed = bool(builder.get(("buying", "allowed"), False))
    if not allowed and builder.get(("buying", "may")) is not None:
        builder.warn(("buying", "may"), "buying is not allowed, so this rule never applies")
    if not allowed and builder.get(("buying", "veto"), "none") != "none":
        builder.warn(("buying", "veto"), "buying is not allowed, so there is never a buy to refuse")
    if allowed and builder.get(("buying", "limit")) is None:
        builder.fail(("buying", "allowed"), "buying is allowed but buying.limit is not given, so no one could buy: "
                     "give the buys a player may make in a round (an integer or an expression of the round)")
    return allowed


def _wild_natural(builder: RulesBuilder) -> bool:
    """melds.wild_natural, warned of where no card but the joker is wild (a joker has no
    rank of its own to stand for)."""
    on = bool(builder.get(("melds", "wild_natural"), False))
    if on and builder.get(("melds", "wild")) in (None, False):
        builder.warn(("melds", "wild_natural"), "no card but the joker is wild (melds.wild), and a joker has no rank "
                     "of its own: this rule never applies")
    return on


def _buying_forced(builder: RulesBuilder) -> bool:
    """buying.forced, refused beside a rule it leaves nothing to: no one answers a
    forced buy, and no window opens in which to call."""
    forced = bool(builder.get(("buying", "forced"), False))
    if not forced:
        return False
    if not builder.get(("buying", "allowed"), False):
        builder.fail(("buying", "forced"), "buying.forced needs buying.allowed: true (a forced buy is a buy, within "
                     "buying.limit and buying.may)")
    if builder.get(("buying", "veto"), "none") != "none":
        builder.fail(("buying", "veto"), "a forced buy is not asked, so the player in turn has no buy to refuse: "
                     "leave out buying.veto, or buying.forced")
    if builder.get(("fitting_discard_call", "allowed"), False):
        builder.fail(("fitting_discard_call", "allowed"), "with buying.forced the declined discard goes at once to "
                     "the buyer: no window opens in which to call it")
    return True


def _per_discard(builder: RulesBuilder) -> int:
    """buying.per_discard, refused beside the rules a chain of buys would leave undefined:
    a veto (the player in turn answers one buy) and a call (it gives the cards to the
    discarder of the card on top, which an uncovered card has none of here), and a forced
    buy (no one is asked)."""
    n = int(builder.get(("buying", "per_discard"), 1))
    if n == 1:
        return 1
    for path, value, words in ((("buying", "veto"), "none", "the player in turn answers one buy (buying.veto)"),
                               (("buying", "forced"), False, "a forced buy is not asked (buying.forced)"),
                               (("fitting_discard_call", "allowed"), False,
                                "a call gives cards to the discarder of the card on top (fitting_discard_call)")):
        if builder.get(path, value) != value:
            builder.fail(("buying", "per_discard"), f"more than one buy a turn cannot go with this rule: {words}",
                         at_key=True, span=11)
    return n


def wild_cards(melds: MeldRules, setup: Setup, round_index: int) -> frozenset[int]:
    """The wild cards of the round at ``round_index``: the joker, and the cards of the
    deck (natural cards of ranks ``setup.ranks``, and the special cards the deck holds)
    that ``melds.wild`` names; worked out once a round.  EvaluationError at melds.wild
    when the rule cannot be evaluated."""
    if melds.wild is None:
        return rummy_pack(setup.pack).joker_only
    key = ("wild", round_index)
    got = setup.cache.get(key)
    if got is None:
        cards = rummy_pack(setup.pack)
        env = setup.round_env(round_index)
        found = {cards.joker}
        for c, card_env in _deck_cards(setup):
            env.update(card_env)
            try:
                if melds.wild(env):
                    found.add(c)
            except EvaluationError as exc:
                raise EvaluationError(f"melds.wild '{melds.wild.source}': {exc}", ("melds", "wild")) from None
        got = setup.cache[key] = frozenset(found)
    return got


def _deck_cards(setup: Setup) -> list[tuple[int, dict[str, Any]]]:
    """Each kind of card the deck holds but the joker, with its names in ``melds.wild``
    and ``card_points`` (``card``, ``card_rank``: its rank's value, 0 for a special card;
    ``card_suit``: -1 for a special card; ``card_is_special``): the natural cards by rank
    (of ``setup.ranks``), then suit, then the special cards of ``deck.specials`` in the
    deck.  Kept per setup."""
    got = setup.cache.get("rummy_deck_cards")
    if got is None:
        pack = setup.pack
        cards = rummy_pack(pack)
        got = []
        for rank in setup.ranks:
            index = cards.rank_index[rank]
            for suit in range(cards.suits):
                c = suit * cards.stride + index
                got.append((c, {"card": c, "card_rank": pack.value_of[c], "card_suit": suit, "card_is_special": False}))
        for c, count in setup.special_counts:
            if count > 0:
                got.append((c, {"card": c, "card_rank": 0, "card_suit": -1, "card_is_special": True}))
        setup.cache["rummy_deck_cards"] = got
    return got


def skip_cards(section: RummyRules, setup: Setup, round_index: int) -> frozenset[int]:
    """The cards whose discard skips the next player in the round at ``round_index``
    (``skip.cards``).  EvaluationError at skip.cards when it cannot be evaluated."""
    return cards_where(section.skip_cards, ("skip", "cards"), section, setup, round_index)


def buried_cards(section: RummyRules, setup: Setup, round_index: int) -> frozenset[int]:
    """The cards that, turned up at the deal of the round at ``round_index``, are buried
    in the stock (``stock.bury_upcard``).  EvaluationError there when it cannot be evaluated."""
    return cards_where(section.stock.bury_upcard, ("stock", "bury_upcard"), section, setup, round_index)


def cards_where(rule: Compiled | None, path: tuple[str, ...], section: RummyRules, setup: Setup,
                round_index: int) -> frozenset[int]:
    """The cards of the deck for which ``rule`` (a predicate of POINT_NAMES, written at
    ``path``) holds in the round at ``round_index``, worked out once a round."""
    if rule is None:
        return frozenset()
    key = ("rummy_cards_where", path, round_index, id(section))
    got = setup.cache.get(key)
    if got is None:
        wild = wild_cards(section.melds, setup, round_index)
        joker = rummy_pack(setup.pack).joker
        env = setup.round_env(round_index)
        found = set()
        for c, card_env in [(joker, {"card": joker, "card_rank": 0, "card_suit": -1, "card_is_special": True}),
                            *_deck_cards(setup)]:
            env.update(card_env, card_is_wild=c in wild, card_is_joker=c == joker)
            try:
                if rule(env):
                    found.add(c)
            except EvaluationError as exc:
                raise EvaluationError(f"{'.'.join(path)} '{rule.source}': {exc}", path) from None
        got = setup.cache[key] = frozenset(found)
    return got


def round_card_points(section: RummyRules, setup: Setup, round_index: int) -> tuple[int, ...]:
    """Each card's penalty points in the round at ``round_index``, by card (a tuple as
    long as the pack): from the ``card_points`` mapping (the same every round), or its
    expression worked out once a round for each card of the deck.  A card the rules do
    not price scores 0 (``validate`` reports a priced deck).  EvaluationError at
    card_points when the expression cannot be evaluated."""
    rule = section.card_points_rule
    key = ("rummy_points", round_index if rule is not None else -1, id(section))
    got = setup.cache.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    pack = setup.pack
    if rule is None:
        table = section.card_points
        points = [table.get(pack.specials[pack.special_of[c]].code if pack.special_of[c] >= 0 else
                            pack.ranks[pack.rank_of[c]].code, 0) for c in range(pack.size)]
    else:
        points = [0] * pack.size
        wild = wild_cards(section.melds, setup, round_index)
        joker = rummy_pack(pack).joker
        env = setup.round_env(round_index)
        for c, card_env in [(joker, {"card": joker, "card_rank": 0, "card_suit": -1, "card_is_special": True}),
                            *_deck_cards(setup)]:
            env.update(card_env, card_is_wild=c in wild, card_is_joker=c == joker)
            try:
                points[c] = int(rule(env))
            except EvaluationError as exc:
                raise EvaluationError(f"card_points '{rule.source}' for {pack.codes[c]}: {exc}",
                                      ("card_points",)) from None
    got = setup.cache[key] = tuple(points)
    return got
