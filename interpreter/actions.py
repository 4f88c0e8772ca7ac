"""The actions a seat (or chance) can take, as small frozen values.

Actions print the way a player would type them (``bid 3``, ``play QS``), and the
common ones are interned, so listing legal actions allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NAMES, SUITS


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the cards dealt to each seat, the upcard (or None) and the stock order."""

    hands: tuple[tuple[int, ...], ...]
    upcard: int | None
    stock: tuple[int, ...]

    def __str__(self) -> str:
        return "deal"


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


BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(0, 200))
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(len(NAMES)))
TRUMP_CHOICES: tuple[ChooseTrump, ...] = tuple(ChooseTrump(s) for s in (0, 1, 2, 3)) + (ChooseTrump(None),)


def bid(n: int) -> Bid:
    return BIDS[n] if 0 <= n < len(BIDS) else Bid(n)


# --- contract rummy ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CutOutcome:
    """Chance: whether the round's cut (a ruleset chance event) succeeds."""

    index: int  # which of the ruleset's chance events
    success: bool

    def __str__(self) -> str:
        return f"cut {'succeeds' if self.success else 'fails'}"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class DrawStock:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Buy:
    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Claim:
    """Call a fitting discard and lay it off on meld ``meld`` (a ruleset's fitting-discard call)."""

    meld: int

    def __str__(self) -> str:
        return f"claim {self.meld}"


@dataclass(frozen=True, slots=True)
class GoDown:
    """Put down the round's contract: each meld's cards (a run low to high, jokers in place)."""

    melds: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "meld " + " | ".join(" ".join(NAMES[c] for c in m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class StockCard:
    """Chance: the card the player in turn draws from the stock."""

    card: int

    def __str__(self) -> str:
        return f"draws {NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add ``cards`` to meld ``meld``.  A joker on a run goes to the high end unless
    ``at_low``; ``cards_after`` (the meld's cards afterwards) may fix every place."""

    meld: int
    cards: tuple[int, ...]
    at_low: bool | None = None
    cards_after: tuple[int, ...] | None = None

    def __str__(self) -> str:
        end = "" if self.at_low is None else (" low" if self.at_low else " high")
        return f"layoff {self.meld} {' '.join(NAMES[c] for c in self.cards)}{end}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Put ``card`` in meld ``meld`` where a joker stands for it; the joker is freed."""

    meld: int
    card: int

    def __str__(self) -> str:
        return f"swap {self.meld} {NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class Discard:
    card: int
    call: bool = False  # protect a fitting discard with a call

    def __str__(self) -> str:
        return f"discard {NAMES[self.card]}" + (" call" if self.call else "")


TAKE, DRAW, BUY, PASS = TakeDiscard(), DrawStock(), Buy(), Pass()
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(len(NAMES)))
