"""Cards added to melds on the table, and jokers freed from them
(:class:`LayOffs`, a part of :class:`~.melds.MeldEngine`): where a card can be laid off
(:meth:`~LayOffs.lay_off`; a wild card at either end of a run), which natural card can
take a wild card's place (:meth:`~LayOffs.swap`), and the per-meld answers the listing
of moves asks at every decision (:meth:`~LayOffs.accepts`, :meth:`~LayOffs.joker_ends`,
:meth:`~LayOffs.swappable`, :meth:`~LayOffs.fits`), cached per meld."""

from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar

from ...pack import STANDARD, Pack
from .meld_checks import Meld, MeldChecks, _jokers_side_by_side, values_of
from .rules import GROUP, RUN, SET, GoingDownRules, MeldRules

T = TypeVar("T")


class LayOffs(MeldChecks):
    """Lay-offs and joker swaps on the melds of the table."""

    def __init__(self, rules: MeldRules, env: dict[str, Any], wild: frozenset[int] | None = None,
                 going_down: GoingDownRules = GoingDownRules(), pack: Pack = STANDARD,
                 ranks: Sequence[str] | None = None):
        super().__init__(rules, env, wild, going_down, pack, ranks)
        self._accepts: dict[int, tuple[Meld, frozenset[int]]] = {}
        self._joker_ends: dict[int, tuple[Meld, tuple[bool | None, ...]]] = {}
        self._swappable: dict[int, tuple[Meld, frozenset[int]]] = {}

    def lay_off(self, meld: Meld, card: int, at_low: bool | None = None) -> Meld | None:
        """``meld`` with ``card`` added, or None if it does not fit.  For a run the card
        goes where its value belongs; a wild card goes to the high end unless ``at_low``.
        A meld of a kind of melds.kinds takes the card only if it stays one."""
        if meld.name:
            return self._lay_off_kind(meld, card, at_low)
        if self.own_place:
            return self._lay_off_own_place(meld, card, at_low)
        size = len(meld.cards) + 1
        wild = self.wild
        is_wild = card in wild
        stride = self.stride
        jokers = meld.cards.count(self.joker) if not self.wild_naturals else self.wilds(meld)
        if not is_wild and card >= self.suited:
            return None  # a special card that is not wild goes in no meld
        if meld.kind is SET:
            if is_wild:
                if self._joker_problem(size, jokers + 1, False):
                    return None
            elif meld.rank >= 0 and card % stride != meld.rank:
                return None
            elif self._joker_problem(size, jokers, False):
                return None
            elif self.rules.set_distinct_suits and any(c // stride == card // stride for c in meld.cards
                                                       if c not in wild):
                return None
            rank = meld.rank if meld.rank >= 0 or is_wild else card % stride
            return Meld(meld.kind, meld.cards + (card,), -1, 0, rank)
        low, high = meld.start - 1, meld.start + len(meld.cards)
        if is_wild:
            if self._joker_problem(size, jokers + 1, True):
                return None
            ends = [at_low] if at_low is not None else [False, True]  # the high end first
            for low_end in ends:
                cards = (card,) + meld.cards if low_end else meld.cards + (card,)
                start = meld.start - 1 if low_end else meld.start
                if self._fits(cards, start) and (self.rules.jokers_adjacent or not _jokers_side_by_side(cards, wild)):
                    return Meld(meld.kind, cards, meld.suit, start)
            return None
        if (self.same_suit and card // stride != meld.suit) or self._joker_problem(size, jokers, True):
            return None
        base, span = self.wrap_base, self.wrap_span
        for value in values_of(card, self.ace_low, self.ace_high, stride):
            if value == low or (self.rules.wrap and (value - base) % span == (low - base) % span):
                cards = (card,) + meld.cards
                if self._fits(cards, meld.start - 1):
                    return Meld(meld.kind, cards, meld.suit, meld.start - 1)
            if value == high or (self.rules.wrap and (value - base) % span == (high - base) % span):
                cards = meld.cards + (card,)
                if self._fits(cards, meld.start):
                    return Meld(meld.kind, cards, meld.suit, meld.start)
        if self.rules.jokers_move:
            return self._in_a_wild_place(meld, card)
        return None

    def _lay_off_own_place(self, meld: Meld, card: int, at_low: bool | None) -> Meld | None:
        """lay_off under melds.wild_natural: the meld with the card as it would be put
        down, checked as a whole (a wild card in its own place counts as a natural); a
        natural goes where its value belongs, a wild card to the high end unless
        ``at_low``."""
        is_wild = card in self.wild
        if not is_wild and card >= self.suited:
            return None  # a special card that is not wild goes in no meld
        if meld.kind is SET:
            try:
                return self.make(SET, meld.cards + (card,))
            except ValueError:
                return None
        if meld.kind is not RUN:
            return None
        if not is_wild and self.same_suit and card // self.stride != meld.suit:
            return None
        if is_wild:
            ends = [at_low] if at_low is not None else [False, True]  # the high end first
        else:
            ends = [True, False]  # (a natural fits one end at most, but the ace of a short run)
        for low_end in ends:
            cards = (card,) + meld.cards if low_end else meld.cards + (card,)
            start = meld.start - 1 if low_end else meld.start
            if len(cards) <= self.rules.run_max and self._fits(cards, start) and \
                    self.run_limits_problem(cards, start, meld.suit) is None:
                return Meld(meld.kind, cards, meld.suit, start)
        if not is_wild and self.rules.jokers_move:
            return self._in_a_wild_place(meld, card)
        return None

    def _in_a_wild_place(self, meld: Meld, card: int) -> Meld | None:
        """melds.jokers.move_to_end: ``card`` in the place of a wild card of the run that
        stands for it, that wild card moved to the run's high end (or its low end)."""
        swapped = self.swap(meld, card)
        if swapped is None:
            return None
        freed = next(a for a, b in zip(meld.cards, swapped.cards) if a != b)
        wild = self.wild
        for cards, start in ((swapped.cards + (freed,), swapped.start), ((freed,) + swapped.cards, swapped.start - 1)):
            if not self._fits(cards, start):
                continue
            if self.own_place:
                if self.run_limits_problem(cards, start, meld.suit) is None:
                    return Meld(meld.kind, cards, meld.suit, start)
            elif self.rules.jokers_adjacent or not _jokers_side_by_side(cards, wild):
                return Meld(meld.kind, cards, meld.suit, start)
        return None

    def _lay_off_kind(self, meld: Meld, card: int, at_low: bool | None) -> Meld | None:
        """lay_off on a meld of a kind of melds.kinds: a set or a run laid off as one that
        still meets the kind's rule; a group of cards that stays one."""
        kind = self.kinds[meld.name]
        if meld.kind is GROUP:
            try:
                return self.make_kind(meld.name, meld.cards + (card,))
            except ValueError:
                return None
        bigger = self.lay_off(meld._replace(name=""), card, at_low)
        if bigger is None or not self.meets_rule(kind, bigger.cards):
            return None
        return bigger._replace(name=meld.name)

    def wilds(self, meld: Meld) -> int:
        """How many wild cards ``meld`` holds (each counts as a joker for the limits)."""
        if not self.wild_naturals:
            return meld.cards.count(self.joker)
        wild = self.wild
        if self.own_place:  # (melds.wild_natural: but those in their own place)
            if meld.kind is RUN:
                return len(self.wild_places(meld.cards, meld.start, meld.suit))
            if meld.kind is SET:
                stride = self.stride
                return sum(1 for c in meld.cards if c in wild and not (
                    c in self.wild_naturals and c < self.suited and c % stride == meld.rank))
        return sum(1 for c in meld.cards if c in wild)

    def freed_by(self, meld: Meld, card: int) -> int:
        """The wild card that ``card`` frees from ``meld`` (see :meth:`swap`)."""
        swapped = self.swap(meld, card)
        assert swapped is not None
        return next(a for a, b in zip(meld.cards, swapped.cards) if a != b)

    def swap(self, meld: Meld, card: int) -> Meld | None:
        """``meld`` with ``card`` in the place of a wild card that stands for it (None if none)."""
        wild = self.wild
        if card in wild or not any(c in wild for c in meld.cards):
            return None
        if meld.name:  # a kind of melds.kinds: as its set or run, if it stays one of the kind
            if meld.kind is GROUP:
                return None
            swapped = self.swap(meld._replace(name=""), card)
            return swapped._replace(name=meld.name) if swapped is not None and \
                self.meets_rule(self.kinds[meld.name], swapped.cards) else None
        standing = self.wild_places(meld.cards, meld.start, meld.suit) if self.own_place and meld.kind is RUN \
            else None  # (melds.wild_natural: a wild card in its own place stands for no other card)
        if meld.kind is RUN:
            for i, c in enumerate(meld.cards):
                if c in wild and (standing is None or i in standing) and \
                        (self.stands_for(meld, i) == card if self.same_suit else
                         card < self.suited and card % self.stride == self.cards.rank_of_value[self.in_ranks(meld.start + i)]):
                    return Meld(meld.kind, meld.cards[:i] + (card,) + meld.cards[i + 1:], meld.suit, meld.start)
            return None
        if meld.rank >= 0 and card < self.suited and card % self.stride == meld.rank:
            stride = self.stride
            place = next((k for k, c in enumerate(meld.cards) if c in wild and not (  # a set frees its first wild card
                self.own_place and c in self.wild_naturals and c < self.suited and c % stride == meld.rank)), None)
            if place is None:
                return None
            return Meld(meld.kind, meld.cards[:place] + (card,) + meld.cards[place + 1:], -1, 0, meld.rank)
        return None

    # Per-meld answers are cached by the meld object itself: a meld on the table is one
    # object until a play replaces it, so the same object is asked about for turn after
    # turn.  The key is id(meld) (hashing a Meld hashes all its fields, every call) and the
    # entry keeps the meld, so the id cannot be reused while the entry lives; an entry is
    # used only if it holds this very object.  A meld equal to a cached one but another
    # object is merely computed again.
    def _cached(self, cache: dict[int, tuple[Meld, T]], meld: Meld, compute: Callable[[Meld], T]) -> T:
        got = cache.get(id(meld))
        if got is not None and got[0] is meld:
            return got[1]
        if len(cache) > 4096:
            cache.clear()
        value = compute(meld)
        cache[id(meld)] = (meld, value)
        return value

    def accepts(self, meld: Meld) -> frozenset[int]:
        """The natural cards that can be laid off on ``meld`` (cached per meld)."""
        got = self._accepts.get(id(meld))
        if got is not None and got[0] is meld:  # the common case, without a call
            return got[1]
        return self._cached(self._accepts, meld, self._compute_accepts)

    def _compute_accepts(self, meld: Meld) -> frozenset[int]:
        if meld.name or not self.same_suit or self.own_place:  # (the general rules: every candidate tried)
            return frozenset(c for c in self._lay_off_candidates(meld)
                             if c not in self.wild and self.lay_off(meld, c) is not None)
        if meld.kind is SET:
            # what lay_off checks for a natural on a set, once for all candidates: the
            # rank (every candidate has it) and the joker limits of the larger set
            if self._joker_problem(len(meld.cards) + 1, self.wilds(meld), False):
                return frozenset()
            if self.rules.set_distinct_suits:
                return frozenset(c for c in self._lay_off_candidates(meld) if self.lay_off(meld, c) is not None)
            return frozenset(c for c in self._lay_off_candidates(meld) if c not in self.wild)
        return frozenset(c for c in self._lay_off_candidates(meld)
                         if c not in self.wild and self.lay_off(meld, c) is not None)

    def joker_ends(self, meld: Meld) -> tuple[bool | None, ...]:
        """The ``at_low`` values with which a joker can be laid off on ``meld``: of
        (False, True) for a run, (None,) or () for a set (cached per meld)."""
        got = self._joker_ends.get(id(meld))
        if got is not None and got[0] is meld:  # the common case, without a call
            return got[1]
        return self._cached(self._joker_ends, meld, self._compute_joker_ends)

    def _compute_joker_ends(self, meld: Meld) -> tuple[bool | None, ...]:
        ends = (False, True) if meld.kind is RUN else (None,)
        return tuple(low for low in ends if self.lay_off(meld, self.joker, low) is not None)  # (any wild card fits alike)

    def swappable(self, meld: Meld) -> frozenset[int]:
        """The natural cards :meth:`swap` can put in the place of a joker of ``meld``
        (cached per meld): most melds hold no joker, and most cards free none."""
        return self._cached(self._swappable, meld, self._compute_swappable)

    def _compute_swappable(self, meld: Meld) -> frozenset[int]:
        wild = self.wild
        if not any(c in wild for c in meld.cards):
            return frozenset()
        card_for = self.cards.card_for
        stride = self.stride
        if meld.name or not self.same_suit or self.own_place:  # (the general rules: every natural card tried)
            return frozenset(n for n in range(self.suited) if n not in wild and self.swap(meld, n) is not None)
        if meld.kind is RUN:
            in_ranks = self.in_ranks
            return frozenset(n for n in (card_for(meld.suit, in_ranks(meld.start + i)) for i, c in enumerate(meld.cards)
                                         if c in wild) if n not in wild)
        return frozenset(s * stride + meld.rank for s in range(self.cards.suits) if s * stride + meld.rank not in wild) \
            if meld.rank >= 0 else frozenset()

    def _lay_off_candidates(self, meld: Meld) -> list[int]:
        if self.rules.jokers_move and meld.kind is RUN and any(c in self.wild for c in meld.cards):
            return self._end_candidates(meld) + sorted(self.swappable(meld))  # (a wild card's place too)
        return self._end_candidates(meld)

    def _end_candidates(self, meld: Meld) -> list[int]:
        stride = self.stride
        if meld.kind is GROUP:
            return list(range(self.suited))
        if meld.kind is RUN and not self.same_suit:
            ends = [meld.start - 1, meld.start + len(meld.cards)]
            if self.rules.wrap:
                ends = [(v - self.wrap_base) % self.wrap_span + self.wrap_base for v in ends]
            ranks = [self.cards.rank_of_value[v] for v in ends if 1 <= v <= self.cards.top]
            return [s * stride + r for r in ranks if r >= 0 for s in range(self.cards.suits)]
        if meld.kind is SET:
            return [s * stride + meld.rank for s in range(self.cards.suits)] if meld.rank >= 0 else \
                list(range(self.suited))
        values = (meld.start - 1, meld.start + len(meld.cards))
        out = []
        top = self.cards.top
        for v in values:
            if self.rules.wrap:
                v = (v - self.wrap_base) % self.wrap_span + self.wrap_base
            if 1 <= v <= top and self.cards.rank_of_value[v] >= 0:
                out.append(self.cards.card_for(meld.suit, v))
        return out

    def wild_ends(self, meld: Meld, c: int) -> tuple[bool | None, ...]:
        """The ``at_low`` values with which the wild card ``c`` can be laid off on
        ``meld``: a joker's, but under melds.wild_natural a wild card may fit in its own
        place where a joker would not (the jokers' limits)."""
        if self.own_place and c in self.wild_naturals and c < self.suited:
            ends = (False, True) if meld.kind is RUN else (None,)
            return tuple(low for low in ends if self.lay_off(meld, c, low) is not None)
        return self.joker_ends(meld)

    def fits(self, meld: Meld, c: int) -> bool:
        """Whether ``c`` can be laid off on ``meld`` (a wild card: at either end)."""
        if c in self.wild:
            return bool(self.wild_ends(meld, c))
        return c in self.accepts(meld)

