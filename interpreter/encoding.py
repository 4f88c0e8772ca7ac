"""Actions as small numbers and observations as fixed-size vectors, for tools that
want them (a learning toolkit's game or environment: ``cardrules.openspiel``,
``cardrules.pettingzoo``).

A family gives, for a ruleset and a player count (:meth:`GameFamily.action_codec`,
:meth:`GameFamily.observation_encoder`):

- an :class:`ActionCodec`: a stable id space (the same ids for the same ruleset and
  player count, in every game and every process), each of a seat's moves as a short
  sequence of ids (most moves one id; a move made of parts, a go-down of several
  melds, several: a *token* per part, so that the space stays small), and back; and
  the outcomes of chance's events other than the deal, with their probabilities;
- an :class:`ObservationEncoder`: a seat's observation (never the state) as a vector of
  a fixed size, in named pieces, and as one line of text.

The token sequences of a codec are *prefix-free*: no move's sequence begins another's,
so a tool can ask for a move one id at a time and know when it is complete.

>>> v = Vocabulary()
>>> v.add("pass"), v.add_all(f"card {c}" for c in "ABC"), v.size
(0, 1, 4)
>>> v.name(2)
'card B'
>>> layout = Layout([("seat", 3), ("hand", 4)])
>>> out = layout.zeros(); layout.one_hot(out, "seat", 1); layout.put(out, "hand", [0, 2, 0, 1]); out
[0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .family import Action, Observation
    from .game import GameState


class ActionCodec(Protocol):
    """A family's moves as ids in ``range(size)`` (see the module)."""

    size: int  # how many distinct ids a seat's moves use
    cards: int  # card numbers run from 0 to cards - 1 (the deal's chance outcomes are card numbers)
    chance_size: int  # chance outcome ids run from 0 to chance_size - 1 (cards, and the family's own)
    max_decisions: int  # an upper bound of the ids a whole game asks of the seats
    stock_order_matters: bool  # whether the order of the stock after the deal is chance's to decide

    def encode(self, action: Action) -> tuple[int, ...]:
        """The ids of a seat's move (ValueError for a move outside the space)."""

    def decode(self, ids: Sequence[int]) -> Action:
        """The move of a complete id sequence (ValueError if it is none)."""

    def token_name(self, token: int) -> str:
        """One id in words (``bid 3``, ``discard QS``, ``card QS``)."""

    def chance_outcomes(self, state: GameState) -> list[tuple[Any, float]] | None:
        """At a chance event: None when it is the deal (the core's, which a tool deals
        card by card); else, for an event of the family's own, every outcome the state
        accepts with its probability (they sum to 1).  It draws on no RNG."""

    def chance_id(self, outcome: Any) -> int:
        """The id of one of those outcomes."""

    def chance_name(self, outcome: Any) -> str:
        """One of those outcomes in words."""


class ObservationEncoder(Protocol):
    """A seat's observation as a fixed-size vector and as text."""

    pieces: tuple[tuple[str, int], ...]  # (name, size) of each part of the vector, in order
    size: int

    def tensor(self, observation: Observation) -> list[float]:
        """The vector (``size`` numbers, the pieces in order)."""

    def text(self, observation: Observation) -> str:
        """The observation as one line: equal lines for equal observations."""


class Vocabulary:
    """Names of ids, handed out in order."""

    def __init__(self) -> None:
        self.names: list[str] = []

    @property
    def size(self) -> int:
        return len(self.names)

    def add(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def add_all(self, names: Iterable[str]) -> int:
        """Add each of ``names``; the id of the first (ids follow in order)."""
        first = len(self.names)
        self.names.extend(names)
        return first

    def name(self, token: int) -> str:
        if not 0 <= token < len(self.names):
            raise ValueError(f"no action id {token} (ids run from 0 to {len(self.names) - 1})")
        return self.names[token]


class Layout:
    """The named pieces of a fixed-size vector, and writers into a list of floats."""

    def __init__(self, pieces: Sequence[tuple[str, int]]):
        self.pieces = tuple((name, int(size)) for name, size in pieces)
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in self.pieces:
            self.offsets[name] = at
            at += size
        self.size = at

    def zeros(self) -> list[float]:
        return [0.0] * self.size

    def one_hot(self, out: list[float], piece: str, index: int | None) -> None:
        """Set the piece's ``index``-th number to 1 (nothing for None or out of range)."""
        if index is None:
            return
        size = dict(self.pieces)[piece]
        if 0 <= index < size:
            out[self.offsets[piece] + index] = 1.0

    def put(self, out: list[float], piece: str, values: Sequence[float], start: int = 0) -> None:
        """Write ``values`` into the piece from its ``start``-th number on."""
        at = self.offsets[piece] + start
        out[at:at + len(values)] = [float(v) for v in values]

    def add(self, out: list[float], piece: str, index: int, amount: float = 1.0) -> None:
        out[self.offsets[piece] + index] += amount


def card_counts(cards: Iterable[int], size: int) -> list[float]:
    """How many of each card number ``cards`` holds (a vector of ``size``)."""
    out = [0.0] * size
    for c in cards:
        if 0 <= c < size:
            out[c] += 1.0
    return out
