"""Melding a whole hand (:class:`MeldingOut`, a part of :class:`~.melds.MeldEngine`):
the arrangement of a hand into sets and runs that leaves the fewest penalty points
unmatched (:meth:`~MeldingOut.best_melding`), for a round with no contract, in which a
player goes out by melding every card (but a final discard), and for counting only the
cards a hand cannot meld (``going_out.count: unmatched``).

The search is exact: it takes the hand's lowest natural card and tries it unmatched,
in each set of its rank (with the hand's other cards of that rank and wild cards) and
in each run of its suit through it (each place a natural card of the hand or a wild
card), within the meld rules (least sizes, joker limits, jokers side by side, the ace,
the deck's ranks), remembering each rest of the hand it has solved.  Wild cards are
counted, not named: the melds take the costliest ones and leave the cheapest.  (A run
turning the corner, ``melds.run.wrap``, is not tried.)
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .meld_checks import Meld, MeldChecks, values_of
from .rules import RUN, SET, MeldKind

# a meld as the search makes it: its kind and cards, wild places as None
Shape = tuple[MeldKind, tuple[int | None, ...]]


class MeldingOut(MeldChecks):
    """The best melding of a hand."""

    def best_melding(self, hand: Sequence[int], points: Sequence[int]) -> tuple[int, list[Meld], list[int]]:
        """(the penalty points left, the melds, the cards left unmatched) of the
        arrangement of ``hand`` into sets and runs that leaves the fewest points
        (``points``: each card's, by card); of equal ones, the one that melds most cards.
        Under melds.wild_natural, the better of reading the wild cards of a rank as wild
        and as themselves."""
        best = self._best_melding(hand, points)
        if self.has_own_place_wilds(hand):
            other = self.as_naturals().best_melding(hand, points)
            if (other[0], -sum(len(m.cards) for m in other[1])) < (best[0], -sum(len(m.cards) for m in best[1])):
                try:
                    best = (other[0], [self.adopted(m) for m in other[1]], other[2])
                except ValueError:
                    pass
        return best

    def _best_melding(self, hand: Sequence[int], points: Sequence[int]) -> tuple[int, list[Meld], list[int]]:
        """best_melding with every wild card read as wild."""
        wild = self.wild
        dead = self.dead
        wilds = sorted((c for c in hand if c in wild), key=lambda c: points[c])  # cheapest first
        naturals = tuple(sorted(c for c in hand if c not in wild and c not in dead))
        left_dead = [c for c in hand if c in dead]
        solver = self._solver(points)
        penalty, _, shapes = solver.solve(naturals, tuple(points[c] for c in wilds))
        pool = iter(wilds[::-1])  # the melds take the costliest wild cards
        melds = [self.make(kind, tuple(next(pool) if c is None else c for c in cards)) for kind, cards in shapes]
        used = [c for m in melds for c in m.cards]
        left = list(hand)
        for c in used:
            left.remove(c)
        return penalty + sum(points[c] for c in left_dead), melds, left

    def melds_out(self, hand: Sequence[int], points: Sequence[int], keep: int) -> list[tuple[Meld, ...]]:
        """The go-downs that meld all of ``hand`` but ``keep`` cards (0 or 1: the final
        discard), one for each card that can be kept (the best melding of the rest)."""
        if keep == 0:
            penalty, melds, left = self.best_melding(hand, points)
            return [tuple(melds)] if not left and melds else []
        # the hand less a card c melds whole only if the whole hand leaves at most c's points
        least = self.best_melding(hand, points)[0]
        out = []
        for c in dict.fromkeys(hand):
            if points[c] < least:
                continue
            rest = list(hand)
            rest.remove(c)
            penalty, melds, left = self.best_melding(rest, points)
            if not left and melds:
                out.append(tuple(melds))
        return out


    def _solver(self, points: Sequence[int]) -> _Solver:
        """The search for one round's points, kept with its memo while they are the
        same (the hands of a decision, each less one card, share most of their rests)."""
        got: _Solver | None = getattr(self, "_melding_solver", None)
        if got is None or got.points is not points or len(got.memo) > 200_000:
            got = _Solver(self, points)
            self._melding_solver = got
        return got


class _Solver:
    """The best-melding search (see :class:`MeldingOut`) for one round's points: its
    memo, keyed by the natural cards left and the points of the wild cards left (the
    cheapest first: a meld takes the costliest)."""

    def __init__(self, engine: MeldingOut, points: Sequence[int]):
        self.e = engine
        self.points = points
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int, tuple[Shape, ...]]] = {}
        rules = engine.rules
        self.set_min, self.run_min, self.run_max = rules.set_min, rules.run_min, rules.run_max
        self.distinct = rules.set_distinct_suits
        self.adjacent = rules.jokers_adjacent

    def solve(self, naturals: tuple[int, ...], wilds: tuple[int, ...]) -> tuple[int, int, tuple[Shape, ...]]:
        """(points left, -cards melded, melds) of the best melding of ``naturals`` and
        wild cards of the points ``wilds`` (cheapest first): the fewest points, then the
        most cards melded."""
        key = (naturals, wilds)
        got = self.memo.get(key)
        if got is not None:
            return got
        w = len(wilds)
        if not naturals:
            best: tuple[int, int, tuple[Shape, ...]] = (sum(wilds), 0, ())
            if w >= self.set_min:  # a set of wild cards only, where the rules allow one
                most, least = self.e.limits(w, False)
                if least == 0 and most >= w:
                    best = (0, -w, ((SET, (None,) * w),))
            self.memo[key] = best
            return best
        c, rest = naturals[0], naturals[1:]
        sub = self.solve(rest, wilds)
        best = (sub[0] + self.points[c], sub[1], sub[2])  # c left unmatched
        for used, k, shape in self._melds_with(c, rest, w):
            remaining = list(rest)
            for x in used:
                remaining.remove(x)
            sub = self.solve(tuple(remaining), wilds[:w - k])  # (the k costliest go in the meld)
            option = (sub[0], sub[1] - len(shape[1]), (shape, *sub[2]))
            if option[:2] < best[:2]:
                best = option
        self.memo[key] = best
        return best

    def _melds_with(self, c: int, rest: tuple[int, ...], w: int) -> list[tuple[tuple[int, ...], int, Shape]]:
        """Each meld holding ``c`` and cards of ``rest`` and up to ``w`` wild cards: (the
        cards of ``rest`` it uses, its wild cards, its shape)."""
        e = self.e
        stride = e.stride
        out: list[tuple[tuple[int, ...], int, Shape]] = []
        rank, suit = c % stride, c // stride
        # sets of c's rank: any of the rank's other naturals, and wild cards
        same = [x for x in rest if x % stride == rank]
        for n in range(len(same) + 1):
            for others in dict.fromkeys(combinations(same, n)):
                naturals = (c, *others)
                if self.distinct and len({x // stride for x in naturals}) < len(naturals):
                    continue
                for k in range(w + 1):
                    size = len(naturals) + k
                    if size < self.set_min:
                        continue
                    most, least = e.limits(size, False)
                    if k > most or size - k < least:
                        continue
                    out.append((others, k, (SET, naturals + (None,) * k)))
        # runs of c's suit through c: every other place a natural of ``rest`` or a wild card
        held: dict[int, int] = {}
        for x in rest:
            if x // stride == suit:
                held[x] = held.get(x, 0) + 1
        rank_of_value = e.cards.rank_of_value
        for v in values_of(c, e.ace_low, e.ace_high, stride):
            # a run starting below c needs a card at each place up to c: a start whose places
            # hold more gaps than there are wild cards makes no run (nor does any lower one)
            lowest = first = max(e.lo, v - self.run_max + 1)
            gaps = 0
            for place in range(v - 1, lowest - 1, -1):
                if rank_of_value[place] < 0 or not held.get(suit * stride + rank_of_value[place]):
                    gaps += 1
                    if gaps > w:
                        first = place + 1
                        break
            for start in range(first, v + 1):
                self._runs_from(start, v, c, suit, held, w, out)
        return out

    def _runs_from(self, start: int, v: int, c: int, suit: int, held: dict[int, int], w: int,
                   out: list[tuple[tuple[int, ...], int, Shape]]) -> None:
        """Add to ``out`` every run from ``start`` through ``c`` (at value ``v``), each
        other place a natural card ``held`` (each copy used once) or a wild card."""
        e = self.e
        hi = min(e.hi, start + self.run_max - 1)
        card_for, rank_of_value = e.cards.card_for, e.cards.rank_of_value
        run_min, adjacent = self.run_min, self.adjacent

        def extend(value: int, cards: list[int | None], used: list[int], wilds: int) -> None:
            size = len(cards)
            if value > v and size >= run_min:
                most, least = e.limits(size, True)
                if wilds <= most and size - wilds >= max(least, 1):
                    out.append((tuple(used), wilds, (RUN, tuple(cards))))
            if value > hi:
                return
            if value == v:
                extend(value + 1, cards + [c], used, wilds)
                return
            if rank_of_value[value] >= 0:
                x = card_for(suit, value)
                if held.get(x, 0) > used.count(x):
                    extend(value + 1, cards + [x], used + [x], wilds)
            if wilds < w and (adjacent or not cards or cards[-1] is not None):
                extend(value + 1, cards + [None], used, wilds + 1)

        extend(start, [], [], 0)
