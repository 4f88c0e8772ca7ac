"""The melds on the table, indexed by what they accept (:class:`TableIndex`, made and
kept by the state's ``table``; :class:`TableMeld` is one meld of it, as observations
show it).  The listing of lay-offs, the checks of a hand that must still end its turn,
the bots and the discard rules ask it at every decision."""

from __future__ import annotations

from typing import NamedTuple

from .melds import Meld, MeldEngine
from .rules import RUN, SWAP_FROM_ALL, SwapFrom


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
            return bool(self.wild_places(c))
        return c in self.by_card

    def wild_places(self, c: int) -> list[int]:
        """The places of the melds the wild card ``c`` fits: a joker's, but under
        melds.wild_natural a wild card may fit its own place where a joker does not."""
        engine = self._engine
        if engine.own_place and c in engine.wild_naturals and c < engine.suited:
            return [place for place, entry in enumerate(self.entries) if engine.wild_ends(entry[1], c)]
        return self.joker_places()

    @property
    def engine(self) -> MeldEngine:
        """The meld rules of the round the table is of (its wild cards among them)."""
        return self._engine

    def meld(self, meld_id: int) -> Meld | None:
        for i, m in zip(self.ids, self.table):
            if i == meld_id:
                return m
        return None
