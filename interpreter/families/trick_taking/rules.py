"""The trick-taking section of a ruleset: trump, bidding, play and scoring, built from
the document and checked for every player count."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Mapping

from ...errors import EvaluationError
from ...expressions import CONSTANTS, Compiled, Type, names_read
from ...rules import ROUND_NAMES, Ace, RulesBuilder, Ruleset, Setup, Template
from .names import (AUCTION_NAMES, BID_NAMES, BLIND_NAMES, CONTRACT_NAMES, KITTY_NAMES, CARD_POINT_NAMES, CHOOSER_NAMES, COUNTER_NAMES, COUNT_NAMES, DEFAULT_PHASES,
                    EXCHANGE_NAMES, LEADER_NAMES, PHASE_NAMES, PLAY_NAMES, SCORE_NAMES, TRICK_POINT_NAMES,
                    TRUMP_NAMES, UPCARD_NAMES, SIT_OUT_NAMES, SCATTER, ASIDE, HAND_NAMES)
from .order_rules import build_order


class TrumpKind(StrEnum):
    UPCARD = "upcard"
    ROTATION = "rotation"
    NONE = "none"
    NAMED_BY_HIGHEST_BIDDER = "named-by-highest-bidder"
    ORDER_UP = "order-up"  # the turned card's suit offered round the table, then another suit named
    AUCTION = "auction"  # bids of tricks and a suit around the table; the highest names the trump


class AuctionRounds(StrEnum):
    """auction.rounds: how long the calls go on."""
    UNTIL_PASSED = "until-passed"  # around and around until all but one have passed (a pass is final)
    ONCE = "once"  # each seat calls once, in turn; the highest call wins


class AllPass(StrEnum):
    """auction.all_pass: what happens when every seat passes."""
    REDEAL = "redeal"  # the hand is thrown in; the next dealer deals
    REDEAL_SAME_DEALER = "redeal-same-dealer"  # thrown in; the same dealer deals again
    DEALER_BIDS = "dealer-bids"  # the dealer, last to call, may not pass then


NAMED_SUIT = 99  # auction.suits' `named`: a suit the auction's winner names (no suit's number)


class JokerRank(StrEnum):
    """trump.jokers: where a joker stands in a trick."""
    TOP_TRUMP = "top-trump"  # a trump above every other (no suit in a no-trump round)
    HIGHEST = "highest"  # no suit, above every card in every round (led: the others play freely)
    LOWEST = "lowest"  # no suit, below every card (led: the next card sets the suit)


class BidOrder(StrEnum):
    CLOCKWISE = "clockwise"
    SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True)
class TrumpRules:
    kind: TrumpKind
    rotation: tuple[int | None, ...]  # suits (0..3) round by round; None: no trump
    bowers: bool
    no_trump_without_upcard: bool  # when the deal leaves no card to turn, play without trump
    dealer_last: bool = False  # trump.no_upcard: dealer-last: then the dealer's own last card is turned (Whist)
    jokers: JokerRank | None = None  # trump.jokers: where a joker stands in a trick
    suit: Compiled | None = None  # trump.suit: the round's trump by expression (TRUMP_NAMES)
    high_cards: tuple[int, ...] = ()  # trump.high_cards: trumps above the ace, highest first
    chooser: Compiled | None = None  # trump.chooser: the seat naming a `chosen` trump (CHOOSER_NAMES)
    choices: tuple[int | None, ...] = (0, 1, 2, 3, None)  # trump.choices: what a named trump may be (None: no trump)
    stick_the_dealer: bool = False  # order-up: in the second round the dealer may not pass
    pickup: bool = True  # order-up: the dealer takes the turned card ordered up, and discards one
    alone: bool = False  # order-up: the maker may play alone, their partner sitting the hand out

    @property
    def jokers_top(self) -> bool:
        return self.jokers is JokerRank.TOP_TRUMP


@dataclass(frozen=True)
class Restriction:
    rule: Compiled
    message: Template


@dataclass(frozen=True)
class BiddingRules:
    order: BidOrder
    range: Compiled
    restrictions: tuple[Restriction, ...]
    reads_hand: bool = False  # a restriction (or its message) reads the bidder's hand or the trump (HAND_NAMES)


@dataclass(frozen=True)
class PlayRules:
    follow_suit: bool
    must_trump: bool
    restrictions: tuple[Restriction, ...] = ()  # each keeps the cards its rule holds for (PLAY_NAMES)
    free: Compiled | None = None  # cards that may be played whatever was led
    leader: Compiled | None = None  # the seat that leads the first trick (LEADER_NAMES)
    first_lead: tuple[int, ...] = ()  # play.first_lead.holder: the holder of the first of these dealt leads
    lead_it: bool = True  # play.first_lead.lead_it: and leads that card to the first trick
    last_identical: bool = False  # play.identical_cards: last-wins (of two identical cards the later wins)
    cancel_identical: bool = False  # play.identical_cards: cancel (two identical cards cannot win)
    all_cancelled: str = "leader"  # trick.all_cancelled: who takes a trick no card can win (without trick.order too)

    @property
    def by_rule(self) -> bool:
        """Whether a play is decided by rules beyond following suit and trumping."""
        return bool(self.restrictions) or self.free is not None


@dataclass(frozen=True)
class Counter:
    """A number each seat carries from round to round (bags, zero bids in a row...)."""

    name: str
    initial: Compiled  # the game's names and seat
    update: Compiled  # after each round's scoring: COUNTER_NAMES and every counter


@dataclass(frozen=True)
class ScoringRules:
    cases: tuple[tuple[Compiled | None, Compiled], ...]  # (when, points); first match wins
    lets: tuple[tuple[str, Compiled], ...] = ()  # scoring.let: named values of the scoring names, in order
    card_points: Compiled | None = None  # scoring.card_points: one card's points (CARD_POINT_NAMES)
    trick_points: Compiled | None = None  # scoring.trick_points: one trick's points for its taker (TRICK_POINT_NAMES)
    counts: tuple[tuple[str, Compiled], ...] = ()  # scoring.counts: name -> a card's count (COUNT_NAMES)

    def points(self, env: Mapping[str, Any]) -> int:
        if self.lets:
            env = self.with_lets(env)
        for when, points in self.cases:
            if when is None or when(env):
                scored: int = points(env)
                return scored
        return 0

    def with_lets(self, env: Mapping[str, Any]) -> dict[str, Any]:
        """``env`` (a dict is filled in place) with each ``scoring.let`` value."""
        out = env if isinstance(env, dict) else dict(env)
        for name, compiled in self.lets:
            out[name] = compiled(out)
        return out

    @property
    def names(self) -> frozenset[str]:
        """Every name the scoring reads (its lets' names included)."""
        out: frozenset[str] = frozenset()
        for when, points in self.cases:
            out |= points.names | (when.names if when is not None else frozenset())
        for _, compiled in self.lets:
            out |= compiled.names
        return out

    @property
    def program(self) -> Callable[[Mapping[str, Any]], int]:
        """:meth:`points` as one call (a single formula is its compiled program itself)."""
        if len(self.cases) == 1 and self.cases[0][0] is None and not self.lets:
            return self.cases[0][1].program
        return self.points


@dataclass(frozen=True)
class ExchangeRules:
    """exchange: the cards each seat passes, and to whom, round by round."""

    cards: Compiled  # how many cards each seat passes (EXCHANGE_NAMES)
    direction: Compiled  # seats to the left of the passer that receive them; 0 (hold): no pass
    bid: Compiled | None = None  # with `aside`: each card laid aside is worth this in the seat's bid (CARD_POINT_NAMES)


@dataclass(frozen=True)
class BlindRules:
    """bidding.blind: bids a seat may make before looking at its hand, and when."""

    bids: Compiled  # the blind bids, a list expression of the round's names
    when: Compiled | None  # whether this seat may bid blind now (BLIND_NAMES); None: always


@dataclass(frozen=True)
class AuctionRules:
    """auction: the calls of trump.kind: auction (a number of tricks with a suit)."""

    tricks: Compiled  # the numbers of tricks a call may name, of the round's names (AUCTION_NAMES)
    suits: tuple[int | None, ...]  # the suits a call may name, lowest first (None: no trump; NAMED_SUIT)
    rounds: AuctionRounds = AuctionRounds.UNTIL_PASSED
    all_pass: AllPass = AllPass.REDEAL


@dataclass(frozen=True)
class KittyRules:
    """kitty: cards dealt face down aside, taken by a seat who then discards as many."""

    cards: Compiled  # how many cards are dealt aside each round (KITTY_NAMES without the contract)
    taker: Compiled | None  # the seat that takes them (KITTY_NAMES); None with to_trick
    discards_as_trick: bool = False  # the taker's discards count as a trick it took (its cards' points too)
    # kitty.to_trick: no one takes the kitty into a hand; it goes, face down, to the winner
    # of this trick of the round (KITTY_NAMES without the contract), as cards it took
    to_trick: Compiled | None = None


@dataclass(frozen=True)
class TrickRules:
    """The trick-taking section of a ruleset (``Ruleset.section``)."""

    trump: TrumpRules
    bidding: BiddingRules
    play: PlayRules
    scoring: ScoringRules
    counters: tuple[Counter, ...] = ()
    own_hand: Compiled | None = None  # information.own_hand: a seat sees its hand while bidding (ROUND_NAMES)
    others_hands: Compiled | None = None  # information.others_hands: a seat sees every other hand
    trump_while_bidding: Compiled | None = None  # information.trump_while_bidding: trump known while bidding
    order: Any = None  # trick.order and trick.roles (power.TrickOrder), or None: following suit and trump alone
    phases: tuple[str, ...] = DEFAULT_PHASES  # the round's steps, in order (deal first; play, score last)
    exchange: ExchangeRules | None = None  # the exchange phase's rules (with "exchange" in phases)
    auction: AuctionRules | None = None  # trump.kind: auction's calls
    kitty: KittyRules | None = None  # the kitty (with "kitty" in phases)
    bidding_first: Compiled | None = None  # bidding.first: the seat that bids first (KITTY_NAMES)
    blind: BlindRules | None = None  # bidding.blind: bids made before looking at the hand
    sits_out: Compiled | None = None  # sits_out: a seat sits the hand out (SIT_OUT_NAMES and its counters)

    @property
    def has_bidding(self) -> bool:
        """The seats have bids this round: made in a bidding phase, or laid aside as cards."""
        return "bidding" in self.phases or self.bids_laid_aside

    @property
    def bids_laid_aside(self) -> bool:
        """The bids are the cards each seat lays aside (exchange.bid), hidden till the round's end."""
        return self.exchange is not None and self.exchange.bid is not None


def default_upcard(builder: RulesBuilder) -> bool:
    """A card is turned when the trump is the turned card's, or a trump.suit reads it."""
    return bool(builder.get(("trump", "kind")) in (TrumpKind.UPCARD, TrumpKind.ORDER_UP)
                or _reads_upcard(builder.get(("trump", "suit"))))


def _reads_upcard(rule: Any) -> bool:
    """Whether a trump.suit rule reads one of the turned card's names."""
    return isinstance(rule, str) and not names_read(rule).isdisjoint(UPCARD_NAMES)


def _suit_code(builder: RulesBuilder, path: tuple[Any, ...], code: str, codes: list[str]) -> int | None:
    """A suit written by its code (``none``: no trump) as its number in the pack."""
    if code == "none":
        return None
    if str(code).upper() not in codes:
        builder.fail(path, f"'{code}' is not a suit of this pack (its suits: {', '.join(codes)}, or none)")
        return None
    return codes.index(str(code).upper())


def _high_cards(builder: RulesBuilder, bowers: bool) -> tuple[int, ...]:
    """trump.high_cards: each a card of the deck, listed once, not a bower."""
    out: list[int] = []
    assert builder.deck is not None
    for i, text in enumerate(builder.get(("trump", "high_cards"), []) or []):
        pack = builder.pack
        try:
            c = pack.card(str(text))
        except ValueError as exc:
            builder.fail(("trump", "high_cards", i), str(exc))
            continue
        if pack.special_of[c] >= 0:
            builder.fail(("trump", "high_cards", i), "jokers are ranked by trump.jokers (top-trump puts them "
                         "above every trump), and special cards by trick.order, not by high_cards")
        elif pack.ranks[pack.rank_of[c]].code not in builder.deck.ranks:
            builder.fail(("trump", "high_cards", i), f"{pack.code(c)} is not in the deck (deck.ranks)")
        elif c in out:
            builder.fail(("trump", "high_cards", i), f"{pack.code(c)} is listed twice")
        elif bowers and pack.ranks[pack.rank_of[c]].code == "J":
            builder.fail(("trump", "high_cards", i), "with trump.bowers the jacks rank as bowers; list other cards")
        else:
            out.append(c)
    return tuple(out)


def _restrictions(builder: RulesBuilder, key: str, names: Mapping[str, Type]) -> list[Restriction]:
    """``KEY.restrictions``: each rule (a boolean expression of ``names``) and its message."""
    return [Restriction(rule=builder.expr((key, "restrictions", i, "rule"), names, Type.BOOL),
                        message=builder.template((key, "restrictions", i, "message"), names))
            for i, _ in enumerate(builder.get((key, "restrictions"), []))]


def _phases(builder: RulesBuilder) -> tuple[str, ...]:
    """``phases``: the round's steps, each once, the deal first and the play and the
    scoring last; a trump left out is made (none, without trump keys) right after the deal."""
    written = builder.get(("phases",))
    if written is None:
        return DEFAULT_PHASES
    steps = [str(step) for step in written]
    # a list refused below still says which phases the round has (no other key is then
    # reported for a phase the author left out)
    fallback = tuple(step for step in PHASE_NAMES if step in steps or step in ("deal", "trump", "play", "score"))
    for i, step in enumerate(steps):
        if steps.index(step) != i:
            builder.fail(("phases", i), f"'{step}' is listed twice: each phase comes once a round")
            return fallback
    if steps[:1] != ["deal"]:
        builder.fail(("phases", 0), "a round starts with the deal: list 'deal' first")
        return fallback
    if steps[-2:] != ["play", "score"]:
        builder.fail(("phases", len(steps) - 1), "a round ends with the tricks and their scoring: list 'play' "
                     "and then 'score' last")
        return fallback
    if "trump" in steps and "bidding" in steps and steps.index("trump") > steps.index("bidding"):
        builder.fail(("phases", steps.index("trump")), "the trump is made before the bidding (a trump named by "
                     "the highest bidder, trump.kind: named-by-highest-bidder, is named after it anyway)")
        return fallback
    if "trump" not in steps:
        steps.insert(1, "trump")  # no trump phase: a round without trump (checked by the caller)
    return tuple(steps)


def _exchange(builder: RulesBuilder, phases: tuple[str, ...]) -> ExchangeRules | None:
    """``exchange``: with an exchange phase, how many cards are passed and to whom."""
    written = builder.get(("exchange",))
    if "exchange" not in phases:
        if written is not None:
            builder.warn(("exchange",), "the round has no exchange phase (list 'exchange' in phases), so no card "
                         "is ever passed", at_key=True, span=len("exchange"))
        return None
    if written is None:
        builder.fail(("phases", phases.index("exchange") - ("trump" not in (builder.get(("phases",)) or ()))),
                     "an exchange phase needs an `exchange` key: how many cards are passed (exchange.cards) "
                     "and to whom (exchange.direction)")
        return None
    bid = None
    if builder.get(("exchange", "bid")) is not None:
        bid = builder.expr(("exchange", "bid"), CARD_POINT_NAMES, Type.INT)
        if "bidding" in phases:
            builder.fail(("exchange", "bid"), "the cards laid aside are the bids (exchange.bid), so the round has "
                         "no bidding phase: take 'bidding' out of phases", at_key=True, span=len("bid"))
    return ExchangeRules(cards=builder.expr(("exchange", "cards"), EXCHANGE_NAMES, Type.INT),
                         direction=builder.expr(("exchange", "direction"), EXCHANGE_NAMES, Type.INT, "left"), bid=bid)


def _auction(builder: RulesBuilder, kind: TrumpKind, suit_codes: list[str]) -> AuctionRules | None:
    """``auction``: with trump.kind: auction, the numbers of tricks and the suits a call
    names, how long the calls go on and what happens when every seat passes."""
    written = builder.get(("auction",))
    if kind is not TrumpKind.AUCTION:
        if written is not None:
            builder.warn(("auction",), "trump.kind is not auction, so no auction is held and these keys are never "
                         "read", at_key=True, span=len("auction"))
        return None
    if written is None:
        builder.fail(("trump", "kind"), "an auction needs an `auction` key: the tricks a call may name "
                     "(auction.tricks) and its suits (auction.suits)")
        return None
    suits: list[int | None] = []
    for i, code in enumerate(builder.get(("auction", "suits"), (*suit_codes, "none"))):
        if code == "named":
            value: int | None = NAMED_SUIT
        else:
            value = _suit_code(builder, ("auction", "suits", i), code, suit_codes)
            if value is None and code != "none":
                continue
        if value in suits:
            builder.fail(("auction", "suits", i), f"'{code}' is listed twice: each suit has one place in the order")
            continue
        suits.append(value)
    return AuctionRules(tricks=builder.expr(("auction", "tricks"), AUCTION_NAMES, Type.LIST),
                        suits=tuple(suits),
                        rounds=AuctionRounds(builder.get(("auction", "rounds"), "until-passed")),
                        all_pass=AllPass(builder.get(("auction", "all_pass"), "redeal")))


def _kitty(builder: RulesBuilder, phases: tuple[str, ...], kind: TrumpKind) -> KittyRules | None:
    """``kitty``: with a kitty phase, the cards dealt aside and the seat that takes them."""
    written = builder.get(("kitty",))
    if written is not None and builder.get(("kitty", "to_trick")) is not None:
        return _kitty_to_trick(builder, phases)
    if "kitty" not in phases:
        if written is not None:
            builder.warn(("kitty",), "the round has no kitty phase (list 'kitty' in phases), so no kitty is dealt",
                         at_key=True, span=len("kitty"))
        return None
    if written is None:
        builder.fail(("phases", phases.index("kitty") - ("trump" not in (builder.get(("phases",)) or ()))),
                     "a kitty phase needs a `kitty` key: how many cards are dealt aside (kitty.cards) and who "
                     "takes them (kitty.taker)")
        return None
    cards = builder.expr(("kitty", "cards"), {k: v for k, v in KITTY_NAMES.items() if k not in CONTRACT_NAMES},
                         Type.INT)
    taker = builder.expr(("kitty", "taker"), KITTY_NAMES, Type.INT, "declarer")
    if "declarer" in taker.names and kind is not TrumpKind.AUCTION:
        builder.fail(("kitty", "taker"), "the declarer is the auction's winner, but trump.kind is not auction: "
                     "name another seat (dealer, first) or hold an auction")
    elif "declarer" in taker.names and "kitty" in phases and "trump" in phases and \
            phases.index("kitty") < phases.index("trump"):
        builder.fail(("phases", phases.index("kitty")), "the declarer takes the kitty, so the kitty comes after "
                     "the auction: list 'kitty' after 'trump'")
    return KittyRules(cards=cards, taker=taker, discards_as_trick=bool(builder.get(("kitty", "discards_as_trick"),
                                                                                   False)))


def _kitty_to_trick(builder: RulesBuilder, phases: tuple[str, ...]) -> KittyRules | None:
    """``kitty.to_trick``: the kitty dealt aside goes to a trick's winner; no phase takes it."""
    names = {k: v for k, v in KITTY_NAMES.items() if k not in CONTRACT_NAMES}
    if "kitty" in phases:
        builder.fail(("phases", phases.index("kitty") - ("trump" not in (builder.get(("phases",)) or ()))),
                     "with kitty.to_trick no one takes the kitty into a hand (it goes with a trick to its "
                     "winner): take 'kitty' out of phases")
    for key in ("taker", "discards_as_trick"):
        if builder.get(("kitty", key)) is not None:
            builder.fail(("kitty", key), f"kitty.{key} is for a kitty taken into a hand; with kitty.to_trick the "
                         "kitty goes with a trick to its winner", at_key=True, span=len(key))
    return KittyRules(cards=builder.expr(("kitty", "cards"), names, Type.INT), taker=None,
                      to_trick=builder.expr(("kitty", "to_trick"), names, Type.INT))


def _blind(builder: RulesBuilder, phases: tuple[str, ...], counter_names: dict[str, Type]) -> BlindRules | None:
    """``bidding.blind``: the bids a seat may make before looking at its hand, and when."""
    if builder.get(("bidding", "blind")) is None or "bidding" not in phases:
        return None
    before = phases[1:phases.index("bidding")]
    if "exchange" in before or "kitty" in before:
        step = "exchange" if "exchange" in before else "kitty"
        builder.fail(("bidding", "blind"), f"a seat looks at its hand in the {step} before the bidding, so it cannot "
                     "bid blind then: put the bidding first", at_key=True, span=len("blind"))
    return BlindRules(bids=builder.expr(("bidding", "blind", "bids"), ROUND_NAMES, Type.LIST),
                      when=builder.expr(("bidding", "blind", "when"), {**BLIND_NAMES, **counter_names}, Type.BOOL)
                      if builder.get(("bidding", "blind", "when")) is not None else None)


def _first_lead(builder: RulesBuilder) -> tuple[tuple[int, ...], bool]:
    """``play.first_lead``: the cards whose holder leads the first trick, and whether
    that card must be led."""
    written = builder.get(("play", "first_lead"))
    if written is None:
        return (), True
    if builder.get(("play", "leader")) is not None:
        builder.fail(("play", "first_lead"), "play.leader already says who leads the first trick: give one of "
                     "play.leader and play.first_lead", at_key=True, span=len("first_lead"))
    out: list[int] = []
    for i, text in enumerate(builder.get(("play", "first_lead", "holder"), []) or []):
        try:
            card = builder.pack.card(str(text))
        except ValueError as exc:
            builder.fail(("play", "first_lead", "holder", i), str(exc))
            continue
        if card in out:
            builder.fail(("play", "first_lead", "holder", i), f"{builder.pack.code(card)} is listed twice")
            continue
        out.append(card)
    return tuple(out), bool(builder.get(("play", "first_lead", "lead_it"), True))


def _counts(builder: RulesBuilder, score_names: dict[str, Type]) -> list[tuple[str, Compiled]]:
    """``scoring.counts``: each a name and what one card taken adds to it (a boolean
    counts 1 for true); the scoring then reads NAME, NAME_by_seat, NAME_dealt, NAME_taker."""
    out: list[tuple[str, Compiled]] = []
    for name in builder.get(("scoring", "counts"), {}) or {}:
        bound = [f"{name}{suffix}" for suffix in ("", "_by_seat", "_dealt", "_taker")]
        clash = next((n for n in bound if n in score_names or n in COUNTER_NAMES or n in PLAY_NAMES or
                      n in CONSTANTS or n in builder.let_names), None)
        if clash is not None:
            builder.fail(("scoring", "counts", name), f"'{clash}' is a name the language (or a let or counter) "
                         "already binds", at_key=True, span=len(name))
            continue
        compiled = builder.expr(("scoring", "counts", name), COUNT_NAMES, (Type.INT, Type.BOOL))
        out.append((name, compiled))
        score_names[name] = Type.INT
        score_names[f"{name}_by_seat"] = Type.LIST
        score_names[f"{name}_dealt"] = Type.INT
        score_names[f"{name}_taker"] = Type.INT
    return out


def build_section(builder: RulesBuilder) -> TrickRules:
    # Long on purpose: one step per key of the section, in the schema's order (phases,
    # trump, counters, bidding, play, scoring, information), each reporting its problems
    # at its own key, so the order of the problems is the order of the docs.
    get = builder.get
    assert builder.deck is not None
    phases = _phases(builder)
    has_trump_phase = "trump" in (get(("phases",)) or DEFAULT_PHASES)
    if builder.deck.ace is Ace.EITHER:
        builder.fail(("deck", "ace"), "in a trick-taking game the ace ranks either 'high' or 'low'")
    if get(("deck", "jokers"), 0) not in (0, "0") and get(("trump", "jokers")) is None:
        builder.fail(("deck", "jokers"), "say how jokers rank in tricks: trump.jokers: top-trump, highest or "
                     "lowest")
    suit_codes = [suit.code for suit in builder.pack.suits]
    rotation = tuple(_suit_code(builder, ("trump", "rotation", i), code, suit_codes)
                     for i, code in enumerate(get(("trump", "rotation"), ())))
    choices = tuple(dict.fromkeys(_suit_code(builder, ("trump", "choices", i), code, suit_codes)
                                  for i, code in enumerate(get(("trump", "choices"), (*suit_codes, "none")))))
    has_suit = get(("trump", "suit")) is not None
    if not has_trump_phase and get(("trump",)) is not None:
        builder.warn(("trump",), "the round has no trump phase (list 'trump' in phases), so it is played without "
                     "trump and these keys are never read", at_key=True, span=len("trump"))
    if not has_trump_phase:
        has_suit = False
    elif get(("trump",)) is None:
        builder.fail(("trump",), "'trump' is a required property (a round without trump leaves 'trump' out of "
                     "phases)")
    elif get(("trump", "kind")) is None and not has_suit:
        builder.fail(("trump",), "say how trump is chosen: trump.kind (upcard, rotation, none, "
                     "named-by-highest-bidder) or trump.suit (an expression)")
    kind = TrumpKind(get(("trump", "kind"), "none" if has_suit else "upcard")) if has_trump_phase else \
        TrumpKind.NONE
    if kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER and "bidding" not in phases:
        builder.fail(("trump", "kind"), "the highest bidder names the trump, but the round has no bidding phase "
                     "(phases)")
    if has_suit and kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER:
        builder.fail(("trump", "suit"), "trump.suit chooses the trump; the highest bidder cannot also name it")
    if get(("trump", "chooser")) is not None and not (isinstance(get(("trump", "suit")), str)
                                                       and "chosen" in names_read(get(("trump", "suit")))):
        builder.warn(("trump", "chooser"), "trump.suit never gives `chosen`, so no one is asked to name the trump")
    if has_suit and kind is TrumpKind.AUCTION:
        builder.fail(("trump", "suit"), "trump.suit chooses the trump; with trump.kind: auction the winning call names it")
    if has_suit and kind is TrumpKind.ORDER_UP:
        builder.fail(("trump", "suit"), "trump.suit chooses the trump; with trump.kind: order-up the players make it")
    if get(("trump", "alone")) and get(("team",)) is None:
        builder.fail(("trump", "alone"), "a maker plays alone without their partner: trump.alone needs "
                     "partnerships (team)", at_key=True, span=len("alone"))
    for key in ("stick_the_dealer", "pickup", "alone"):
        if get(("trump", key)) is not None and kind is not TrumpKind.ORDER_UP:
            builder.warn(("trump", key), f"trump.{key} applies to trump.kind: order-up only, so it never applies "
                         "here", at_key=True, span=len(key))
    names_trump = kind in (TrumpKind.NAMED_BY_HIGHEST_BIDDER, TrumpKind.ORDER_UP, TrumpKind.AUCTION) or (
        isinstance(get(("trump", "suit")), str) and "chosen" in names_read(get(("trump", "suit"))))
    if get(("information", "trump_while_bidding")) is not None and isinstance(get(("trump", "suit")), str) and \
            "chosen" in names_read(get(("trump", "suit"))):
        builder.fail(("information", "trump_while_bidding"), "a trump that a player names before the bidding "
                     "cannot be hidden during it (the player naming it knows it): hide a turned or rotating "
                     "trump, or have the highest bidder name it after the bidding")
    if get(("trump", "choices")) is not None and not names_trump:
        builder.warn(("trump", "choices"), "no one names the trump here (trump.kind is not named-by-highest-bidder "
                     "and trump.suit never gives `chosen`), so these choices are never offered")
    if rotation and kind is not TrumpKind.ROTATION:
        builder.warn(("trump", "rotation"), f"trump.kind is {kind.value}, not rotation, so this rotation is never used")
    if get(("trump", "no_upcard")) is not None and not (kind is TrumpKind.UPCARD and not has_suit):
        builder.warn(("trump", "no_upcard"), "trump.no_upcard applies only to trump.kind: upcard (a trump.suit "
                     "rule reads has_upcard instead), so it never applies here")
    if kind is TrumpKind.ROTATION and not rotation:
        builder.fail(("trump", "kind"), "trump kind 'rotation' needs a 'rotation' list of suits")
    bowers = get(("trump", "bowers"), False)
    if bowers and "J" not in builder.deck.ranks:
        builder.fail(("trump", "bowers"), "bowers need jacks in the deck")
    high_cards = _high_cards(builder, bowers)
    counters = []
    counter_names: dict[str, Type] = {}
    for name in get(("counters",), {}) or {}:
        taken = name in COUNTER_NAMES or name in PLAY_NAMES or name in TRUMP_NAMES or name in LEADER_NAMES or \
            name in BID_NAMES or name in CONSTANTS or name in builder.let_names
        if taken:
            builder.fail(("counters", name), f"'{name}' is a name the language (or a let) already binds",
                         at_key=True, span=len(name))
            continue
        counter_names[name] = Type.INT
    if "bidding" in phases and get(("bidding",)) is None:
        builder.fail(("bidding",), "'bidding' is a required property (a round without bidding leaves 'bidding' "
                     "out of phases)")
    if "bidding" not in phases and get(("bidding",)) is not None:
        builder.warn(("bidding",), "the round has no bidding phase (list 'bidding' in phases), so no one bids and "
                     "these keys are never read", at_key=True, span=len("bidding"))
    bid_names = {**BID_NAMES, **counter_names}
    restrictions = _restrictions(builder, "bidding", bid_names)
    if get(("bidding", "order")) == "simultaneous":
        for i, restriction in enumerate(restrictions):
            order_names = sorted(restriction.rule.names & {"is_last", "is_first", "position", "bids"})
            if order_names:
                builder.warn(("bidding", "restrictions", i, "rule"),
                             f"bids are made at once here, so {', '.join(order_names)} never tell who bids after "
                             "whom (is_first and is_last are false, bids is empty, position is each seat's place "
                             "from first_to_act): this restriction may never apply as meant")
    play_names = {**PLAY_NAMES, **counter_names}
    play_restrictions = _restrictions(builder, "play", play_names)
    suit_rule = get(("trump", "suit"))
    if _reads_upcard(suit_rule) and get(("deal", "upcard")) is False:
        builder.warn(("trump", "suit"), "deal.upcard is false, so no card is turned: has_upcard is always false "
                     "and upcard_suit always no_trump")
    score_names = {**SCORE_NAMES, **counter_names}
    counts = _counts(builder, score_names)  # seen by the lets, the points and the counters' updates
    score_lets: list[tuple[str, Compiled]] = []
    for name in get(("scoring", "let"), {}) or {}:
        if name in score_names or name in COUNTER_NAMES or name in PLAY_NAMES or name in CONSTANTS or \
                name in builder.let_names:
            builder.fail(("scoring", "let", name), f"'{name}' is a name the language (or a let or counter) already "
                         "binds", at_key=True, span=len(name))
            continue
        compiled = builder.expr(("scoring", "let", name), score_names, (Type.INT, Type.BOOL, Type.LIST))
        score_lets.append((name, compiled))
        score_names[name] = compiled.type  # seen by the lets after it, the points and the counters' updates
    let_types = {name: compiled.type for name, compiled in score_lets}
    let_types.update({name: score_names[name] for c, _ in counts
                      for name in (c, f"{c}_by_seat", f"{c}_dealt", f"{c}_taker")})
    first_lead, lead_it = _first_lead(builder)
    for name in counter_names:
        counters.append(Counter(
            name=name,
            initial=builder.expr(("counters", name, "initial"), {**ROUND_NAMES, "seat": Type.INT}, Type.INT, 0),
            update=builder.expr(("counters", name, "update"), {**COUNTER_NAMES, **counter_names, **let_types},
                                Type.INT)))
    points = get(("scoring", "points"))
    cases: list[tuple[Compiled | None, Compiled]] = []
    if isinstance(points, list):
        for i, case in enumerate(points):
            when = builder.expr(("scoring", "points", i, "when"), score_names, Type.BOOL) if "when" in case else None
            cases.append((when, builder.expr(("scoring", "points", i, "points"), score_names, Type.INT)))
        if cases and cases[-1][0] is not None:
            builder.fail(("scoring", "points", len(cases) - 1),
                         "the last scoring case needs no 'when' (it scores whatever no case above matched)")
    else:
        cases.append((None, builder.expr(("scoring", "points"), score_names, Type.INT)))
    counter_lists = {name: Type.LIST for name in counter_names}  # trump.suit and chooser: each counter by seat
    return TrickRules(
        trump=TrumpRules(kind=kind, rotation=rotation, bowers=bowers,
                         no_trump_without_upcard=get(("trump", "no_upcard"), "forbidden") in ("no-trump", "dealer-last"),
                         dealer_last=get(("trump", "no_upcard"), "forbidden") == "dealer-last",
                         jokers=JokerRank(get(("trump", "jokers"))) if get(("trump", "jokers")) else None,
                         high_cards=high_cards,
                         chooser=builder.expr(("trump", "chooser"), {**CHOOSER_NAMES, **counter_lists}, Type.INT)
                         if get(("trump", "chooser")) is not None else None,
                         choices=choices,
                         stick_the_dealer=bool(get(("trump", "stick_the_dealer"), False)),
                         pickup=get(("trump", "pickup"), "dealer") == "dealer",
                         alone=bool(get(("trump", "alone"), False)),
                         suit=builder.expr(("trump", "suit"), {**TRUMP_NAMES, **counter_lists}, Type.INT)
                         if has_suit else None),
        bidding=BiddingRules(order=BidOrder(get(("bidding", "order"), "clockwise")),
                             range=builder.expr(("bidding", "range"), ROUND_NAMES, Type.LIST, "0..hand_size"),
                             restrictions=tuple(restrictions),
                             reads_hand=any(not part.names.isdisjoint(HAND_NAMES) for r in restrictions
                                            for part in (r.rule, *r.message.parts) if isinstance(part, Compiled))),
        play=PlayRules(follow_suit=get(("play", "follow_suit"), True),
                       must_trump=get(("play", "must_trump"), False),
                       restrictions=tuple(play_restrictions),
                       free=builder.expr(("play", "free"), play_names, Type.BOOL)
                       if get(("play", "free")) is not None else None,
                       leader=builder.expr(("play", "leader"), LEADER_NAMES, Type.INT)
                       if get(("play", "leader")) is not None else None,
                       first_lead=first_lead, lead_it=lead_it,
                       last_identical=get(("play", "identical_cards"), "first-wins") == "last-wins",
                       cancel_identical=get(("play", "identical_cards"), "first-wins") == "cancel",
                       all_cancelled=get(("trick", "all_cancelled"), "leader")),
        scoring=ScoringRules(tuple(cases), tuple(score_lets),
                             builder.expr(("scoring", "card_points"), CARD_POINT_NAMES, Type.INT)
                             if get(("scoring", "card_points")) is not None else None,
                             builder.expr(("scoring", "trick_points"), TRICK_POINT_NAMES, Type.INT)
                             if get(("scoring", "trick_points")) is not None else None,
                             tuple(counts)),
        counters=tuple(counters),
        own_hand=builder.expr(("information", "own_hand"), ROUND_NAMES, Type.BOOL)
        if get(("information", "own_hand")) is not None else None,
        others_hands=builder.expr(("information", "others_hands"), ROUND_NAMES, Type.BOOL)
        if get(("information", "others_hands")) is not None else None,
        trump_while_bidding=builder.expr(("information", "trump_while_bidding"), ROUND_NAMES, Type.BOOL)
        if get(("information", "trump_while_bidding")) is not None else None,
        order=build_order(builder),
        phases=phases,
        exchange=_exchange(builder, phases),
        auction=_auction(builder, kind, suit_codes),
        kitty=_kitty(builder, phases, kind),
        bidding_first=builder.expr(("bidding", "first"), KITTY_NAMES, Type.INT)
        if get(("bidding", "first")) is not None else None,
        blind=_blind(builder, phases, counter_names),
        sits_out=_sits_out(builder, phases, kind, counter_names),
    )


def _sits_out(builder: RulesBuilder, phases: tuple[str, ...], kind: TrumpKind,
              counter_names: Mapping[str, Type]) -> Compiled | None:
    """sits_out: a boolean of the round's names, the seat, the dealer and the seat's
    counters; not (yet) with the phases in which every seat takes part in turn."""
    if builder.get(("sits_out",)) is None:
        return None
    rule = builder.expr(("sits_out",), {**SIT_OUT_NAMES, **counter_names}, Type.BOOL)
    others = [what for what, used in (
        ("an exchange of cards", "exchange" in phases), ("a kitty", "kitty" in phases),
        ("trump made by order-up", kind is TrumpKind.ORDER_UP), ("an auction", kind is TrumpKind.AUCTION),
        ("blind bids", builder.get(("bidding", "blind")) is not None),
        ("cards played in a role (trick.roles)", bool(builder.get(("trick", "roles"))))) if used]
    if others:
        builder.fail(("sits_out",), f"a seat sitting out by sits_out cannot yet be combined with {others[0]}",
                     at_key=True, span=len("sits_out"))
    return rule


def schedule(section: TrickRules, sizes: int | list[int]) -> list[int]:
    if not isinstance(sizes, list):
        raise ValueError("a trick-taking deal needs a list of hand sizes, one per round (for example "
                         "[10..1, 2..10])")
    return sizes


def check_setup(rules: Ruleset, setup: Setup, once: Callable[..., None]) -> None:
    """Every round's deal fits the deck (with the trump card) and leaves a bid in range."""
    tricks: TrickRules = rules.section
    trump = tricks.trump
    needs_upcard = (trump.kind is TrumpKind.UPCARD and not trump.no_trump_without_upcard and trump.suit is None) \
        or trump.kind is TrumpKind.ORDER_UP
    for index, (number, size) in enumerate(zip(setup.round_numbers, setup.hand_sizes)):
        dealt = size * setup.players + (1 if needs_upcard else 0)
        if tricks.kitty is not None and not _check_kitty(tricks.kitty, setup, index, dealt, once,
                                                           rules.deal.first_to_act.offset):
            return
        if tricks.auction is not None and not _check_auction(tricks, setup, index, once):
            return
        if dealt > setup.deck_size:
            extra = " and a trump card" if needs_upcard else ""
            once(("deal", "hand_size"), f"with {setup.players} players, round {number} deals {size} cards "
                 f"each{extra}: {dealt} cards, but the deck holds {setup.deck_size}"
                 + ("; to play such a round without trump, write trump.no_upcard: no-trump (or dealer-last to turn "
                    "the dealer's own last card, as in Whist)" if needs_upcard and trump.kind is TrumpKind.UPCARD and
                    dealt - 1 <= setup.deck_size else ""))
            return
        env = setup.round_env(index)
        try:
            bids = tricks.bidding.range(env)
        except EvaluationError as exc:
            once(("bidding", "range"), f"with {setup.players} players, round {number}: {exc}")
            return
        if not bids:
            once(("bidding", "range"), f"with {setup.players} players, round {number}: no bid is in range")
            return
        if tricks.exchange is not None and not _check_exchange(tricks.exchange, setup, index, once):
            return
    if tricks.play.first_lead and not set(tricks.play.first_lead) & set(setup.pack.deck(
            setup.decks, setup.jokers, setup.ranks, setup.removed, setup.special_counts)):
        once(("play", "first_lead", "holder"), f"with {setup.players} players none of these cards is in the deck "
             "(deck.remove, deck.ranks), so no one could lead the first trick by them")


def _check_kitty(kitty: KittyRules, setup: Setup, index: int, dealt: int, once: Callable[..., None],
                 first_offset: int) -> bool:
    """The kitty of the round at ``index`` fits in what the hands leave of the pack, for
    every dealer (False: reported)."""
    number, size = setup.round_numbers[index], setup.hand_sizes[index]
    for dealer in range(setup.players):
        env = setup.round_env(index)
        env.update(dealer=dealer, first=(dealer + first_offset) % setup.players)
        try:
            cards = kitty.cards(env)
        except EvaluationError as exc:
            once(("kitty", "cards"), f"with {setup.players} players, round {number}: {exc}")
            return False
        if kitty.to_trick is not None and cards > 0:
            try:
                trick = kitty.to_trick(env)
            except EvaluationError as exc:
                once(("kitty", "to_trick"), f"with {setup.players} players, round {number}: {exc}")
                return False
            if not 1 <= trick <= size:
                once(("kitty", "to_trick"), f"with {setup.players} players, round {number} has {size} trick"
                     f"{'s' if size != 1 else ''}, so the kitty cannot go with trick {trick}")
                return False
        if cards < 0 or dealt + cards > setup.deck_size:
            once(("kitty", "cards"), f"with {setup.players} players, round {number} deals {size} card"
                 f"{'s' if size != 1 else ''} each ({dealt} in all), so the {setup.deck_size}-card pack leaves "
                 f"{max(setup.deck_size - dealt, 0)} for a kitty of {cards}")
            return False
    return True


def round_tricks(tricks: TrickRules, hand_size: int) -> int:
    """The tricks a side can take in a round of ``hand_size`` cards each: one more where
    the kitty's discards count as a trick (kitty.discards_as_trick)."""
    return hand_size + (1 if tricks.kitty is not None and tricks.kitty.discards_as_trick else 0)


def _check_auction(tricks: TrickRules, setup: Setup, index: int, once: Callable[..., None]) -> bool:
    """Some call of the round at ``index`` can be made: a number of tricks the hands can
    take, a suit (False: reported, an auction nobody can win); a call no hand could make
    is warned of (it is not offered)."""
    auction = tricks.auction
    assert auction is not None
    number, size = setup.round_numbers[index], round_tricks(tricks, setup.hand_sizes[index])
    try:
        calls = auction.tricks(setup.round_env(index))
    except EvaluationError as exc:
        once(("auction", "tricks"), f"with {setup.players} players, round {number}: {exc}")
        return False
    possible = [n for n in calls if 0 <= n <= size]  # (a call of 0 is a call: to take none)
    if not possible or not auction.suits:
        once(("auction", "tricks"), f"with {setup.players} players, round {number} has {size} trick"
             f"{'s' if size != 1 else ''}, so no call of {sorted(set(calls)) or 'none'} can be made: an auction "
             "nobody can win")
        return False
    beyond = sorted({n for n in calls if n > size})
    if beyond:
        once(("auction", "tricks"), f"with {setup.players} players, round {number} has {size} tricks, so the "
             f"call{'s' if len(beyond) > 1 else ''} of {_numbers(beyond)} cannot be made: "
             f"{'they are' if len(beyond) > 1 else 'it is'} not offered (end the range at {size}, or at "
             f"{'hand_size' if size == setup.hand_sizes[index] else 'hand_size + 1'})",
             key="auction past the tricks", warning=True)
    return True


def _numbers(values: list[int]) -> str:
    """``[13, 14, 15]`` as "13 to 15" where they run on, else listed."""
    if len(values) > 2 and values[-1] - values[0] == len(values) - 1:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values))


def exchange_env(setup: Setup, index: int, dealer: int) -> dict[str, Any]:
    """The names of exchange.cards and exchange.direction in the round at ``index``."""
    env = setup.round_env(index)
    players = setup.players
    env.update(dealer=dealer, left=1, right=players - 1, across=players // 2, hold=0, scatter=SCATTER, aside=ASIDE)
    return env


def _check_exchange(exchange: ExchangeRules, setup: Setup, index: int, once: Callable[..., None]) -> bool:
    """The pass of the round at ``index`` fits every hand, whoever deals (False: reported)."""
    number, size = setup.round_numbers[index], setup.hand_sizes[index]
    for dealer in range(setup.players):
        env = exchange_env(setup, index, dealer)
        for key, compiled in (("cards", exchange.cards), ("direction", exchange.direction)):
            try:
                value = compiled(env)
            except EvaluationError as exc:
                once(("exchange", key), f"with {setup.players} players, round {number}: {exc}")
                return False
            if key == "cards" and not 0 <= value <= size:
                once(("exchange", "cards"), f"with {setup.players} players, round {number} deals {size} "
                     f"card{'s' if size != 1 else ''} each, so no seat can pass {value}")
                return False
            if key == "direction" and exchange.bid is not None and (value != ASIDE or exchange.cards(env) <= 0):
                once(("exchange", "direction" if value != ASIDE else "cards"),
                     f"with {setup.players} players, round {number}: the bid is made of the "
                     "cards laid aside (exchange.bid), so every round lays some aside (exchange.direction: aside, "
                     "exchange.cards at least 1)")
                return False
            if key == "direction" and value == ASIDE and exchange.cards(env) >= size:
                once(("exchange", "cards"), f"with {setup.players} players, round {number} deals {size} "
                     f"card{'s' if size != 1 else ''} each, so laying {exchange.cards(env)} aside leaves no card to play")
                return False
            if key == "direction" and value == SCATTER:
                count = exchange.cards(env) * (setup.players - 1)
                if count > size:
                    once(("exchange", "direction"), f"with {setup.players} players, round {number} deals {size} "
                         f"card{'s' if size != 1 else ''} each, so no seat can pass {exchange.cards(env)} to each "
                         f"other seat ({count} cards)")
                    return False
    return True
