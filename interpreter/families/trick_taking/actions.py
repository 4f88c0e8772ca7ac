"""The moves of a trick-taking game, one frozen dataclass per kind.

Actions print the way a player would type them (``bid 3``, ``play QS``), and the
common ones are interned, so listing legal actions allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Union

from ...cards import NAMES, SUITS
from ...deal import Deal
from ...pack import STANDARD, Pack


@dataclass(frozen=True, slots=True)
class Bid:
    bid: int

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    card: int
    role: str | None = None  # the tier of trick.order the player plays it as (trick.roles), or None
    code: str = field(default="", compare=False)  # the card's code in its pack (the standard pack's: "")

    def __str__(self) -> str:
        shown = f"play {self.code or NAMES[self.card]}"
        return shown if self.role is None else f"{shown} as {self.role}"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: int | None  # None: no trump
    code: str = field(default="", compare=False)  # the suit's code in its pack (the standard pack's: "")
    alone: bool = False  # trump.alone: the maker plays the hand without their partner

    def __str__(self) -> str:
        return f"trump {'none' if self.suit is None else self.code or SUITS[self.suit]}" + \
            (" alone" if self.alone else "")


@dataclass(frozen=True, slots=True)
class Pass:
    """One card a seat puts aside to pass in the exchange (a seat passing three makes
    three of these moves)."""

    card: int
    code: str = field(default="", compare=False)  # the card's code in its pack (the standard pack's: "")

    def __str__(self) -> str:
        return f"pass {self.code or NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Passing on the trump offered or to be named (trump.kind: order-up)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """A card laid aside face down (the dealer's, after taking the turned card)."""

    card: int
    code: str = field(default="", compare=False)  # the card's code in its pack (the standard pack's: "")

    def __str__(self) -> str:
        return f"discard {self.code or NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class Call:
    """A bid in an auction (trump.kind: auction): a number of tricks with a suit, no
    trump (``suit`` None) or a suit its caller names on winning (``named``)."""

    tricks: int
    suit: int | None
    code: str = field(default="", compare=False)  # the suit's code in its pack, "NT", or "" for a named suit
    named: bool = False  # the caller names the trump suit after winning the auction

    def __str__(self) -> str:
        return f"bid {self.tricks}{self.code}" if self.code else f"bid {self.tricks} suit"


@dataclass(frozen=True, slots=True)
class BlindBid:
    """A bid made before looking at one's hand (bidding.blind)."""

    bid: int

    def __str__(self) -> str:
        return f"blind {self.bid}"


@dataclass(frozen=True, slots=True)
class Look:
    """Looking at one's hand instead of bidding blind (bidding.blind): the bid follows."""

    def __str__(self) -> str:
        return "look"


DECLINE = Decline()
LOOK = Look()


# A seat's move in a trick-taking game; and what the state's legal list holds and its
# verify and apply take: a seat's move, or chance's (the core's Deal).
TrickAction = Union[Bid, Play, ChooseTrump, Pass, Decline, Discard, Call, BlindBid, Look]
Move = Union[TrickAction, Deal]

BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(0, 200))
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(len(NAMES)))
TRUMP_CHOICES: tuple[ChooseTrump, ...] = tuple(ChooseTrump(s) for s in (0, 1, 2, 3)) + (ChooseTrump(None),)


@lru_cache(maxsize=64)
def plays(pack: Pack) -> tuple[Play, ...]:
    """Every card of ``pack`` as a play, interned (the standard pack's are :data:`PLAYS`)."""
    if pack is STANDARD:
        return PLAYS
    return tuple(Play(c, None, code) for c, code in enumerate(pack.codes))


@lru_cache(maxsize=64)
def passes(pack: Pack) -> tuple[Pass, ...]:
    """Every card of ``pack`` as a card passed, interned."""
    if pack is STANDARD:
        return tuple(Pass(c) for c in range(len(NAMES)))
    return tuple(Pass(c, code) for c, code in enumerate(pack.codes))


@lru_cache(maxsize=64)
def discards(pack: Pack) -> tuple[Discard, ...]:
    """Every card of ``pack`` as a card discarded, interned."""
    if pack is STANDARD:
        return tuple(Discard(c) for c in range(len(NAMES)))
    return tuple(Discard(c, code) for c, code in enumerate(pack.codes))


@lru_cache(maxsize=64)
def trump_choices(pack: Pack) -> tuple[ChooseTrump, ...]:
    """Naming each suit of ``pack``, then no trump (the standard pack's: :data:`TRUMP_CHOICES`)."""
    if pack is STANDARD:
        return TRUMP_CHOICES
    return tuple(ChooseTrump(s, suit.code) for s, suit in enumerate(pack.suits)) + (ChooseTrump(None),)

