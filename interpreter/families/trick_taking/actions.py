"""The moves of a trick-taking game, one frozen dataclass per kind.

Actions print the way a player would type them (``bid 3``, ``play QS``), and the
common ones are interned, so listing legal actions allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ...cards import NAMES, SUITS
from ...deal import Deal


@dataclass(frozen=True, slots=True)
class Bid:
    bid: int

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: int | None  # None: no trump

    def __str__(self) -> str:
        return f"trump {'none' if self.suit is None else SUITS[self.suit]}"


# A seat's move in a trick-taking game; and what the state's legal list holds and its
# verify and apply take: a seat's move, or chance's (the core's Deal).
TrickAction = Union[Bid, Play, ChooseTrump]
Move = Union[TrickAction, Deal]

BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(0, 200))
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(len(NAMES)))
TRUMP_CHOICES: tuple[ChooseTrump, ...] = tuple(ChooseTrump(s) for s in (0, 1, 2, 3)) + (ChooseTrump(None),)

