"""The moves of a contract-rummy game, one frozen dataclass per kind (and the chance
outcomes: the round's cut, the card drawn from the stock).

Actions print the way a player would type them (``take``, ``layoff 2 9D``); the
common ones are interned.  :data:`RummyAction` is a seat's move, :data:`RummyChance`
one of the family's chance outcomes (the deal itself is the core's ``Deal``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from ...pack import STANDARD, Pack

# A move that names cards keeps the game's pack (``pack``, not compared): it prints
# them by the pack's codes, as a player types them and a save keeps them.
def _pack_field() -> Pack:
    pack: Pack = field(default=STANDARD, compare=False, repr=False)
    return pack


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
    """Decline the discard on offer.  ``quiet``: the table shows nothing for it, so it
    does not pause after a bot's pass."""

    quiet: ClassVar[bool] = True

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Allow:
    """The player in turn lets another player's buy go ahead (``buying.veto``)."""

    def __str__(self) -> str:
        return "allow"


@dataclass(frozen=True, slots=True)
class Refuse:
    """The player in turn refuses another player's buy (``buying.veto``): the card stays
    on the pile (``refuse``) or the player takes it as their draw (``take``)."""

    def __str__(self) -> str:
        return "refuse"


@dataclass(frozen=True, slots=True)
class Choose:
    """Choose contract ``number`` (1 the first of ``contracts``) for this round (``contract.choose``)."""

    number: int

    def __str__(self) -> str:
        return f"choose {self.number}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Call a fitting discard and lay it off on meld ``meld`` (a ruleset's fitting-discard call)."""

    meld: int

    def __str__(self) -> str:
        return f"claim {self.meld}"


@dataclass(frozen=True, slots=True)
class GoDown:
    """Put down the round's contract: each meld's cards (a run low to high, jokers in place),
    and each meld's kind (``"set"`` or ``"run"``) when it is fixed: a listed go-down and one
    read from a record say it, as cards such as ``7S 2H 2C`` with deuces wild are both; a
    typed one may leave it to the engine (None: each meld is read so that together they
    meet the contract)."""

    melds: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...] | None = None
    pack: Pack = _pack_field()

    def __str__(self) -> str:
        """As a player types it: with each meld's kind where it is fixed (``meld set: 8H 8S
        JK | run: 5D 6D JK 8D``), so that the text reads back as the same move."""
        codes = self.pack.codes
        kinds = self.kinds if self.kinds is not None and all(self.kinds) and len(self.kinds) == len(self.melds) \
            else ("",) * len(self.melds)
        return "meld " + " | ".join((f"{k}: " if k else "") + " ".join(codes[c] for c in m)
                                    for k, m in zip(kinds, self.melds))


@dataclass(frozen=True, slots=True)
class StockCard:
    """Chance: the card the player in turn draws from the stock."""

    card: int
    pack: Pack = _pack_field()

    def __str__(self) -> str:
        return f"draws {self.pack.codes[self.card]}"


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add ``cards`` to meld ``meld``.  A joker on a run goes to the high end unless
    ``at_low``; ``cards_after`` (the meld's cards afterwards) may fix every place."""

    meld: int
    cards: tuple[int, ...]
    at_low: bool | None = None
    cards_after: tuple[int, ...] | None = None
    pack: Pack = _pack_field()

    def __str__(self) -> str:
        end = "" if self.at_low is None else (" low" if self.at_low else " high")
        codes = self.pack.codes
        return f"layoff {self.meld} {' '.join(codes[c] for c in self.cards)}{end}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Put ``card`` in meld ``meld`` where a joker stands for it; the joker is freed."""

    meld: int
    card: int
    pack: Pack = _pack_field()

    def __str__(self) -> str:
        return f"swap {self.meld} {self.pack.codes[self.card]}"


@dataclass(frozen=True, slots=True)
class Discard:
    card: int
    call: bool = False  # protect a fitting discard with a call
    pack: Pack = _pack_field()
    target: int | None = None  # skip.seat: chosen: the seat a skip card names (it loses its next turn)

    def __str__(self) -> str:
        return f"discard {self.pack.codes[self.card]}" + (" call" if self.call else "") + \
            (f" to {self.target}" if self.target is not None else "")


# A seat's move in a contract-rummy game, by phase: the choice of a contract, the draw, the buying window, the
# veto of a buy, the play.
RummyAction = Union[TakeDiscard, DrawStock, Buy, Pass, Claim, Allow, Refuse, GoDown, LayOff, Swap, Discard, Choose]
# Chance's outcomes of the family's own: the round's cut, a card off the stock.
RummyChance = Union[CutOutcome, StockCard]

TAKE, DRAW, BUY, PASS = TakeDiscard(), DrawStock(), Buy(), Pass()
ALLOW, REFUSE = Allow(), Refuse()
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(STANDARD.size))
CALLED_DISCARDS: tuple[Discard, ...] = tuple(Discard(c, True) for c in range(STANDARD.size))
STOCK_CARDS: tuple[StockCard, ...] = tuple(StockCard(c) for c in range(STANDARD.size))

_INTERNED: dict[int, tuple[Pack, tuple[tuple[Discard, ...], tuple[Discard, ...], tuple[StockCard, ...]]]] = {}


def card_moves(pack: Pack) -> tuple[tuple[Discard, ...], tuple[Discard, ...], tuple[StockCard, ...]]:
    """The discards, called discards and stock draws of every card of ``pack``, by card,
    made once per pack (the standard pack's are :data:`DISCARDS`, :data:`CALLED_DISCARDS`
    and :data:`STOCK_CARDS`)."""
    if pack is STANDARD:
        return DISCARDS, CALLED_DISCARDS, STOCK_CARDS
    got = _INTERNED.get(id(pack))
    if got is None or got[0] is not pack:
        if len(_INTERNED) > 64:
            _INTERNED.clear()
        got = _INTERNED[id(pack)] = (pack, (tuple(Discard(c, False, pack) for c in range(pack.size)),
                                            tuple(Discard(c, True, pack) for c in range(pack.size)),
                                            tuple(StockCard(c, pack) for c in range(pack.size))))
    return got[1]


# Lay-offs of one card, as the listing makes them, made once each: a frozen dataclass
# is slow to make (each field is set through object.__setattr__), and a table of a few
# dozen melds asks for the same few hundred again and again.
_LAY_OFFS: dict[tuple[int, int, bool | None], LayOff] = {}
_PACK_LAY_OFFS: dict[tuple[int, int, bool | None, int], tuple[Pack, LayOff]] = {}


def lay_off_of_one(meld: int, card: int, at_low: bool | None, pack: Pack = STANDARD) -> LayOff:
    """``LayOff(meld, (card,), at_low)``, interned (with a pack of the ruleset's own, by pack)."""
    if pack is STANDARD:
        key = (meld, card, at_low)
        action = _LAY_OFFS.get(key)
        if action is None:
            action = _LAY_OFFS[key] = LayOff(meld, (card,), at_low)
        return action
    pack_key = (meld, card, at_low, id(pack))
    got = _PACK_LAY_OFFS.get(pack_key)
    if got is None or got[0] is not pack:
        if len(_PACK_LAY_OFFS) > 65536:
            _PACK_LAY_OFFS.clear()
        got = _PACK_LAY_OFFS[pack_key] = (pack, LayOff(meld, (card,), at_low, None, pack))
    return got[1]
