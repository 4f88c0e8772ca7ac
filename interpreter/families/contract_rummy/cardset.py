"""The pack as the contract-rummy family reads it: for any :class:`~cardrules.interpreter.pack.Pack`
(the standard one or a ruleset's own), the numbers the meld engine, the bots and the
scoring work with, derived once per pack (:func:`rummy_pack`).

A suited card is ``suit * stride + rank`` (the rank's place in the pack's order, low to
high); every special card comes after the suited ones, the joker (``JK``) first.  Runs
go by the pack's rank order: the rank at place ``r`` has the run value ``r + 2``, so the
standard pack's ranks have their usual values (2 to 14, the ace 14) and a pack of its
own runs from 2 to ``stride + 1`` whatever its ranks are called.  The ace rules
(``melds.run.ace``) apply where the pack's highest rank is coded ``A``: that rank may
also stand below the lowest (value 1).  A pack whose highest rank is not an ace runs
only in its order, lowest to highest (turning the corner only with ``melds.run.wrap``).

>>> from cardrules.interpreter.pack import STANDARD
>>> cs = rummy_pack(STANDARD)
>>> cs.stride, cs.suits, cs.joker, cs.has_ace, cs.top, cs.card_for(0, 14), cs.card_for(1, 1)
(13, 4, 52, True, 14, 12, 25)
"""

from __future__ import annotations

from ...pack import Pack


class RummyPack:
    """What the rummy family derives from one pack (see the module's description)."""

    __slots__ = ("pack", "codes", "stride", "suits", "suited", "size", "joker", "has_ace", "top", "value_bits",
                 "rank_of_value", "neighbours", "joker_only", "rank_index")

    def __init__(self, pack: Pack):
        self.pack = pack
        self.codes = pack.codes
        self.stride = stride = pack.stride
        self.suits = len(pack.suits)
        self.suited = self.suits * stride  # the first special card (the joker)
        self.size = pack.size
        self.joker = pack.special("JK")
        # the ace rules apply to a highest rank coded A (the standard pack's ace)
        self.has_ace = bool(pack.ranks) and pack.ranks[-1].code == "A"
        self.top = stride + 1  # the run value of the highest rank
        ace = stride - 1
        # value_bits[r]: the bits of the run values rank r stands for (the ace: 1 and the top)
        self.value_bits = tuple(1 << (r + 2) for r in range(ace)) + \
            ((1 << self.top) | (2 if self.has_ace else 0),)
        # rank_of_value[v]: the rank that stands for run value v (0 to the top; -1 for none)
        self.rank_of_value = (-1, ace if self.has_ace else -1) + tuple(range(ace)) + (ace,)
        self.neighbours = _neighbours(stride, self.has_ace)
        self.joker_only = frozenset((self.joker,))  # the wild cards of a round without melds.wild
        self.rank_index = {rank.code: r for r, rank in enumerate(pack.ranks)}  # a rank's place, by its code

    def card_for(self, suit: int, value: int) -> int:
        """The natural card of ``suit`` that stands for run value ``value``."""
        return suit * self.stride + self.rank_of_value[value]


def _neighbour(rank: int, r: int, stride: int, ace: bool) -> float:
    """What holding rank ``r`` of a suit adds to keeping rank ``rank`` of that suit (the
    bot's keep score): an ace sits next to the highest rank below it and the lowest."""
    gap = abs(r - rank)
    if ace and stride - 1 in (rank, r):
        gap = min(gap, stride - gap)
    if gap == 1:
        return 2.0  # open-ended neighbours are worth more than a gap
    if gap == 2:
        return 1.0
    return 0.0


def _neighbours(stride: int, ace: bool) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(_neighbour(a, b, stride, ace) for b in range(stride)) for a in range(stride))


_BY_PACK: dict[int, tuple[Pack, RummyPack]] = {}


def rummy_pack(pack: Pack) -> RummyPack:
    """The rummy family's view of ``pack``, made once per pack."""
    got = _BY_PACK.get(id(pack))
    if got is None or got[0] is not pack:
        if len(_BY_PACK) > 256:
            _BY_PACK.clear()
        got = _BY_PACK[id(pack)] = (pack, RummyPack(pack))
    return got[1]
