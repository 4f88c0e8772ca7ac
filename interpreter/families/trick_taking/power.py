"""A card's power in a trick as data: ``trick.order``, the ordered tiers a trick is
decided by, beyond following suit and trump.

The tiers go from lowest to highest; ``led`` and ``trump`` are two of them (the cards of
the suit led, and the trumps, by their power in the suit), and every other tier holds
special cards (by code) or the cards a predicate picks each round (``card_rank ==
upcard_rank and ...``: a card that takes its power from the turned card). A trick goes
to the card of the highest tier in it; within a tier to the highest suit power for
``led`` and ``trump``, and for a tier of specials by its ``ties`` rule (the first played,
the last played, or copies cancelling each other). A tier may *win over* others: when a
card of it and a card of one of those are both in the trick, it wins (a low card that
takes any trick the highest card is in, whatever else is there). Off-suit cards of no tier
never win; a tier's cards win by their tier whatever was led, unless the tier says
``off_suit: loses`` (a card a rule picks keeps its printed suit, and may be off suit). A
card may be played as one of several tiers, its player choosing (``trick.roles``).

What a card led does comes from its tier: ``lead: free`` (no suit to follow: a card that always wins),
``lead: next`` (the next card with a suit sets it: a card that always loses); a tier's cards
may be played at any time (``any_time``, the default for specials with no suit), or
follow as trumps (``follows: trump``: a big joker that ranks above the ace of spades).

>>> order = TrickOrder.from_tiers([Tier("JES", frozenset({1}), lead=LEAD_NEXT), LED_TIER, TRUMP_TIER,
...                                Tier("WZ", frozenset({2}), lead=LEAD_FREE)], ())
>>> order.base_of("WZ") > order.base_of("trump") > order.base_of("led") > order.base_of("JES")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ...expressions import Compiled

LEAD_SETS = "sets"  # led, it sets the suit to follow (a suited card)
LEAD_FREE = "free"  # led, nothing is followed in this trick
LEAD_NEXT = "next"  # led, the next card with a suit sets the suit

TIES_FIRST, TIES_LAST, TIES_CANCEL = "first", "last", "cancel"

# The suit in play of a card led that sets no suit (as trump.py's NO_SUIT, LEAD_PASSES).
NO_SUIT, LEAD_PASSES = -1, -2

TIER_STEP = 10_000  # a tier's base key: above every power within the tier below it
TOP = 102  # trump.py's power of a highest or top-trump joker
WINS_OVER = 10 ** 8  # a tier that wins over one in the trick: above every tier


@dataclass(frozen=True)
class Tier:
    """One step of the trick order."""

    name: str  # the special's code (or the name given), ``led`` or ``trump``
    cards: frozenset[int] = frozenset()  # the special cards in it (ids of the pack)
    rule: Compiled | None = None  # or the cards a predicate picks, each round
    lead: str = LEAD_FREE
    follows: str = "none"  # "none" (no suit), "trump" (a trump for following), "own" (its printed suit)
    any_time: bool = True  # may be played whatever was led
    ties: str = TIES_FIRST
    wins_over: frozenset[str] = frozenset()  # tier names it wins over when both are in the trick
    off_suit_wins: bool = True  # a card of it with a suit neither led nor trump still wins by its tier
    path: tuple[Any, ...] = ()  # where the ruleset writes it (for messages)


LED_TIER = Tier("led", lead=LEAD_SETS, follows="own", any_time=False)
TRUMP_TIER = Tier("trump", lead=LEAD_SETS, follows="own", any_time=False)


@dataclass(frozen=True)
class TrickOrder:
    """``trick.order``, compiled: the tiers lowest first, where ``led`` and ``trump`` stand,
    each card's roles, and who takes a trick in which every card cancels."""

    tiers: tuple[Tier, ...]
    roles: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # card -> tiers it may be played as
    all_cancelled: str = "leader"  # "leader": the player who led it; "first": the first card's player
    _index: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_tiers(cls, tiers: Sequence[Tier], roles: Sequence[tuple[int, tuple[str, ...]]],
                   all_cancelled: str = "leader") -> TrickOrder:
        return cls(tuple(tiers), dict(roles), all_cancelled, {t.name: i for i, t in enumerate(tiers)})

    def index(self, name: str) -> int:
        return self._index[name]

    def base_of(self, name: str) -> int:
        return (self._index[name] + 1) * TIER_STEP

    @property
    def predicate_tiers(self) -> tuple[Tier, ...]:
        return tuple(t for t in self.tiers if t.rule is not None)


@dataclass(frozen=True)
class RoundPower:
    """The trick order for one round (its trump and turned card known): each card's tier
    (-1: a plain suited card, decided by led and trump), the tier of each role, and the
    suit each card counts as in play (``NO_SUIT`` and ``LEAD_PASSES`` as in trump.py)."""

    order: TrickOrder
    tier_of: tuple[int, ...]
    any_time: frozenset[int]


def round_power(order: TrickOrder, pack_size: int, suits: list[int], trump: int | None,
                picks: Callable[[Tier, int], bool]) -> RoundPower:
    """The round's tiers over the pack, and ``suits`` (the round's suit in play of each
    card, from trump.py) adjusted in place for each tier's cards: no suit, the next
    card's, the trump's, or their own. ``picks(tier, card)`` evaluates a predicate tier."""
    tier_of = [-1] * pack_size
    for t, tier in enumerate(order.tiers):
        if tier.name in ("led", "trump"):
            continue
        members = tier.cards if tier.rule is None else frozenset(c for c in range(pack_size) if picks(tier, c))
        for c in members:
            if tier_of[c] < 0:
                tier_of[c] = t
                suits[c] = _suit_in_play(tier, suits[c], trump)
    any_time = {c for c in range(pack_size) if tier_of[c] >= 0 and order.tiers[tier_of[c]].any_time}
    for card, roles in order.roles.items():  # a card with roles: at any time when every role may be
        if all(order.tiers[order.index(r)].any_time for r in roles):
            any_time.add(card)
        suits[card] = NO_SUIT
    return RoundPower(order, tuple(tier_of), frozenset(any_time))


def _suit_in_play(tier: Tier, printed: int, trump: int | None) -> int:
    if tier.follows == "trump" and trump is not None:
        return trump
    if tier.follows == "own" and printed >= 0:
        return printed
    return LEAD_PASSES if tier.lead == LEAD_NEXT else NO_SUIT


def role_suit(tier: Tier, trump: int | None) -> int:
    """The suit in play of a card played as ``tier`` (a chosen role)."""
    return _suit_in_play(tier, -1, trump)


def led_suit(plays: Sequence[tuple[int, int]], suits: Sequence[int], played_as: Sequence[int],
             order: TrickOrder, trump: int | None) -> int:
    """The suit to follow: the first card's, passing over cards whose lead leaves it to
    the next; NO_SUIT when a card that frees the trick was led (or none has a suit)."""
    for i, (_, card) in enumerate(plays):
        t = played_as[i]
        s = role_suit(order.tiers[t], trump) if t >= 0 and card in order.roles else suits[card]
        if s != LEAD_PASSES:
            return s
    return NO_SUIT


def trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                 trump: int | None, rp: RoundPower, played_as: Sequence[int], leader: int,
                 last_identical: bool = False, cancel_identical: bool = False) -> int:
    """The seat that takes the trick under ``trick.order`` (see the module's docstring).
    ``played_as``: the tier each play counts as (its role, or -1 for the card's own)."""
    order = rp.order
    tiers = order.tiers
    led = led_suit(plays, suits, played_as, order, trump)
    led_base = order.base_of("led")
    trump_base = order.base_of("trump")
    keys: list[int] = []
    tier_in: list[int] = []
    for i, (_, card) in enumerate(plays):
        t = played_as[i] if played_as[i] >= 0 else rp.tier_of[card]
        s = suits[card]
        if t >= 0:
            off = s >= 0 and s != led and s != trump and not tiers[t].off_suit_wins
            keys.append(-1 if off else (t + 1) * TIER_STEP)  # off_suit: loses: off suit, never wins
            tier_in.append(t)
            continue
        if trump is not None and s == trump:
            keys.append(trump_base + power[card])
        elif s == led and s >= 0:
            keys.append(led_base + power[card])
        elif s < 0:  # a joker that trump.jokers ranks (no tier of its own): highest above all, else lowest
            keys.append((len(tiers) + 1) * TIER_STEP if power[card] >= TOP else 0)
        else:
            keys.append(-1)  # off suit: never wins
        tier_in.append(-1)
    present = {tiers[t].name for t in tier_in if t >= 0}
    for i, t in enumerate(tier_in):
        if t >= 0 and keys[i] >= 0 and tiers[t].wins_over & present:
            keys[i] += WINS_OVER
    alive = list(range(len(plays)))
    # copies of one card cancel each other: under `ties: cancel` for a special's tier, or
    # play.identical_cards: cancel for suited cards (same card, same role)
    if cancel_identical or any(tiers[t].ties == TIES_CANCEL for t in tier_in if t >= 0):
        seen: dict[tuple[int, int], int] = {}
        for i, (_, card) in enumerate(plays):
            seen[card, tier_in[i]] = seen.get((card, tier_in[i]), 0) + 1
        alive = [i for i in alive if not (seen[plays[i][1], tier_in[i]] > 1 and (
            (tier_in[i] >= 0 and tiers[tier_in[i]].ties == TIES_CANCEL) or (tier_in[i] < 0 and cancel_identical)))]
    alive = [i for i in alive if keys[i] >= 0]
    if not alive:
        # every card cancelled (or none could win): the rule says who takes it
        return leader if order.all_cancelled == "leader" else plays[0][0]
    best = max(keys[i] for i in alive)
    winners = [i for i in alive if keys[i] == best]
    t = tier_in[winners[0]]
    last = (tiers[t].ties == TIES_LAST) if t >= 0 else last_identical
    return plays[winners[-1] if last else winners[0]][0]
