"""Melds for contract rummy: what makes a set or a run, where a card can be laid off,
which joker a natural card can replace, and how a hand can meet a contract.

A run is kept in order, low to high, with each joker in the place it stands for;
``start`` is the value of its first place (2..13 for two to king, 1 or 14 for the ace).
Every rule that varies between tables comes from :class:`MeldRules` in the ruleset.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ...cards import JOKER, NAMES, RANKS
from ...errors import EvaluationError
from ...rules import Ace
from .rules import EITHER, RUN, SET, GoingDownRules, MeldKind, MeldRules, MeldSpec


def values_of(card: int, ace_low: bool, ace_high: bool) -> tuple[int, ...]:
    """The run values a natural card can take (the ace may be 1, 14 or both)."""
    r = card % 13
    if r == 12:
        return tuple(v for v, ok in ((1, ace_low), (14, ace_high)) if ok)
    return (r + 2,)


def card_for(suit: int, value: int) -> int:
    return suit * 13 + (12 if value in (1, 14) else value - 2)


# For each rank, the bits of the run values it stands for (bit v for value v; the ace
# is both 1 and 14): a suit's cards in hand become one int, and a run window's naturals
# are counted with a mask and int.bit_count().
_VALUE_BITS: tuple[int, ...] = tuple(1 << (r + 2) for r in range(12)) + ((1 << 14) | (1 << 1),)

# _RANK_OF_VALUE[v]: the rank that stands for run value v (1 to 14; the ace is 1 and 14)
_RANK_OF_VALUE: tuple[int, ...] = (-1, 12) + tuple(range(12)) + (12,)

# (lo, hi, jokers adjacent, wrap) -> the go-down search caches of MeldEngine (windows,
# best window counts, runs in a suit), shared by every checker with those rules.
_SEARCH_CACHES: dict[tuple[int, int, bool, bool], tuple[dict, dict, dict]] = {}


def _jokers_side_by_side(cards: Sequence[int], wild: frozenset[int]) -> bool:
    """Whether two wild cards stand side by side in ``cards``."""
    return any(a in wild and b in wild for a, b in zip(cards, cards[1:]))


class Meld(NamedTuple):
    """A meld on the table (or proposed): its kind, cards in order, and for a run its
    suit and the value of its first place.  (Immutable; a named tuple, as melds are
    made for every lay-off tried and a tuple is made fastest.)"""

    kind: MeldKind
    cards: tuple[int, ...]
    suit: int = -1
    start: int = 0
    rank: int = -1  # a set's rank (-1 while it is all jokers)

    def names(self) -> list[str]:
        return [NAMES[c] for c in self.cards]

    def stands_for(self, index: int) -> int | None:
        """The natural card the place ``index`` of a run stands for."""
        if self.kind is not RUN:
            return None
        return card_for(self.suit, self.start + index)


class MeldEngine:
    """The meld rules of one ruleset for one game: it makes and checks melds, lays off,
    swaps jokers, and searches a hand for ways to meet a contract (joker limits
    evaluated lazily, cached)."""

    def __init__(self, rules: MeldRules, env: dict[str, Any], wild: frozenset[int] = frozenset((JOKER,)),
                 going_down: GoingDownRules = GoingDownRules()):
        self.rules = rules
        self.env = env
        self.going_down = going_down
        # The round's wild cards (melds.wild): the jokers, and natural cards such as the
        # deuces where the ruleset says so.  A wild card is wild in every meld, even in
        # the place of its own rank; the go-down search counts them all as jokers.
        self.wild = wild
        self.wild_naturals = frozenset(c for c in wild if c != JOKER)
        self.ace_low = rules.run_ace in (Ace.LOW, Ace.EITHER)
        self.ace_high = rules.run_ace in (Ace.HIGH, Ace.EITHER)
        self.lo = 1 if self.ace_low else 2
        self.hi = 14 if self.ace_high else 13
        self._limits: dict[tuple[int, bool], tuple[int, int]] = {}
        self._accepts: dict[int, tuple[Meld, frozenset[int]]] = {}
        self._joker_ends: dict[int, tuple[Meld, tuple[bool | None, ...]]] = {}
        self._swappable: dict[int, tuple[Meld, frozenset[int]]] = {}
        self._specs: dict[int, tuple[Sequence[MeldSpec], tuple[tuple[MeldSpec, ...], int, int, int, int, int]]] = {}
        # The go-down search caches (see _windows, _best_window, _candidates) depend only
        # on the run bounds and the joker-adjacency rule besides their keys, so every
        # checker with those rules shares them: a simulation plays many games, each with
        # its own checker, and each game used to warm the caches up again.
        shared = _SEARCH_CACHES.setdefault((self.lo, self.hi, rules.jokers_adjacent, rules.wrap), ({}, {}, {}))
        self._window_cache: dict[int, list[tuple[int, int]]] = shared[0]
        self._best: dict[tuple[int, int], int] = shared[1]
        self._suit_runs: dict[tuple[int, int, int, int, int], list[tuple]] = shared[2]  # candidates, see _candidates

    def limits(self, size: int, is_run: bool) -> tuple[int, int]:
        """(most jokers, least naturals) for a meld of ``size``."""
        key = (size, is_run)
        got = self._limits.get(key)
        if got is None:
            env = {**self.env, "size": size, "is_run": is_run, "is_set": not is_run}
            values = []
            for name, compiled in (("per_meld", self.rules.jokers_per_meld), ("min_natural", self.rules.min_natural)):
                try:
                    values.append(compiled(env))
                except EvaluationError as exc:
                    raise EvaluationError(f"melds.jokers.{name} '{compiled.source}' for a {'run' if is_run else 'set'} "
                                          f"of {size}: {exc}", ("melds", "jokers", name)) from None
            got = self._limits[key] = (values[0], values[1])
        return got

    # --- validity ---------------------------------------------------------------------------
    def why_not_set(self, cards: Sequence[int]) -> str | None:
        size = len(cards)
        if size < self.rules.set_min:
            return f"a set needs at least {self.rules.set_min} cards"
        naturals = [c for c in cards if c not in self.wild]
        if len({c % 13 for c in naturals}) > 1:
            return "a set's cards must all be of one rank"
        if self.rules.set_distinct_suits and len({c // 13 for c in naturals}) < len(naturals):
            return "a set's natural cards must all be of different suits"
        return self._joker_problem(size, size - len(naturals), False)

    def why_not_run(self, cards: Sequence[int]) -> str | None:
        size = len(cards)
        if size < self.rules.run_min:
            return f"a run needs at least {self.rules.run_min} cards"
        if size > self.rules.run_max:
            return f"a run holds at most {self.rules.run_max} cards"
        naturals = [(i, c) for i, c in enumerate(cards) if c not in self.wild]
        problem = self._joker_problem(size, size - len(naturals), True)
        if problem:
            return problem
        if not naturals:
            return "a run needs a natural card, to fix its suit and its values"
        if len({c // 13 for _, c in naturals}) > 1:
            return "a run's cards must all be of one suit"
        if not self.rules.jokers_adjacent and _jokers_side_by_side(cards, self.wild):
            return "two jokers may not stand side by side in a run"
        if self.run_start(cards) is None:
            return self._not_in_sequence(cards)
        return None

    def _not_in_sequence(self, cards: Sequence[int]) -> str:
        """Why cards that are no run in this order are not: the ace's place when it would
        be one with the ace at its other end, else the corner."""
        if not self.rules.wrap and not (self.ace_low and self.ace_high) and any(c % 13 == 12 for c in cards
                                                                                if c not in self.wild):
            probe = copy.copy(self)
            probe.ace_low = probe.ace_high = True
            probe.lo, probe.hi = 1, 14
            if probe.run_start(cards) is not None:
                if self.ace_high:
                    return "an ace is high in runs here (above the king), so it cannot stand below the 2"
                return "an ace is low in runs here (below the 2), so it cannot stand above the king"
        return "those cards are not in sequence" + ("" if self.rules.wrap else " (a run may not turn the corner)")

    def _joker_problem(self, size: int, jokers: int, is_run: bool) -> str | None:
        most, least = self.limits(size, is_run)
        kind = "run" if is_run else "set"
        if jokers > most:
            return f"a {kind} of {size} may hold at most {most} joker{'s' if most != 1 else ''}"
        if size - jokers < least:
            return f"a {kind} needs at least {least} natural card{'s' if least != 1 else ''}"
        return None

    def run_start(self, cards: Sequence[int]) -> int | None:
        """The value of the first place of a run in this order, or None if it is not one."""
        first = next(((i, c) for i, c in enumerate(cards) if c not in self.wild), None)
        if first is None:
            return None
        index, card = first
        for value in values_of(card, self.ace_low, self.ace_high):
            start = value - index
            if self._fits(cards, start):
                return start
        return None

    def _fits(self, cards: Sequence[int], start: int) -> bool:
        wrap = self.rules.wrap
        wild = self.wild
        if len(cards) > self.rules.run_max:
            return False
        if wrap:
            if len(cards) > 13:
                return False
        elif start < self.lo or start + len(cards) - 1 > self.hi:
            return False
        want = start
        for c in cards:
            if c not in wild:
                if wrap:
                    want = (want - 2) % 13 + 2
                # (the rank a run value stands for, looked up: this runs for every card
                # of every lay-off tried)
                if c % 13 != _RANK_OF_VALUE[want] or (want == 1 and not self.ace_low) or \
                        (want == 14 and not self.ace_high and not wrap):
                    return False
            want += 1
        return True

    def make(self, kind: MeldKind, cards: Sequence[int]) -> Meld:
        """A checked meld (ValueError with the reason if it is not one)."""
        cards = tuple(cards)
        if kind is SET:
            problem = self.why_not_set(cards)
            if problem:
                raise ValueError(problem)
            naturals = [c for c in cards if c not in self.wild]
            return Meld(kind, cards, -1, 0, naturals[0] % 13 if naturals else -1)
        problem = self.why_not_run(cards)
        if problem:
            raise ValueError(problem)
        suit = next(c // 13 for c in cards if c not in self.wild)
        return Meld(kind, cards, suit, self.run_start(cards) or 0)

    def classify(self, cards: Sequence[int]) -> Meld:
        """A meld from cards as written: a set if it is one, else a run in the given order
        (or written high to low). ValueError with the reason of the kind the cards look
        like: a set's when the natural cards share a rank, a run's when they share a suit,
        else both."""
        set_problem = self.why_not_set(cards)
        if set_problem is None:
            return self.make(SET, cards)
        run_problem = self.why_not_run(cards)
        if run_problem is None:
            return self.make(RUN, cards)
        if self.why_not_run(cards[::-1]) is None:
            return self.make(RUN, cards[::-1])
        naturals = [c for c in cards if c not in self.wild]
        if len({c % 13 for c in naturals}) <= 1:
            raise ValueError(set_problem)
        if len({c // 13 for c in naturals}) == 1:
            raise ValueError(run_problem)
        raise ValueError(f"it is neither a set ({set_problem}) nor a run ({run_problem})")

    def readings(self, cards: Sequence[int]) -> list[Meld]:
        """Every meld the cards as written can be: a set, a run in the given order, or
        both (``JK JK JK QS`` is a set of queens and the run 9-10-J-Q of spades).
        ValueError with the reason (as :meth:`classify` gives it) when neither."""
        out = []
        for kind in (SET, RUN):
            try:
                out.append(self.make(kind, cards))
            except ValueError:
                if kind is RUN:  # a run written high to low: the engine orders it
                    try:
                        out.append(self.make(RUN, tuple(cards)[::-1]))
                    except ValueError:
                        pass
        if not out:
            self.classify(cards)  # raises with the reason
        return out

    def read_contract(self, written: Sequence[Sequence[int]], contract: Sequence[MeldSpec]) -> list[Meld]:
        """The melds of a go-down as written, each read as a set or a run so that together
        they meet ``contract`` when some reading does (ValueError naming the meld when one
        is no meld; the contract's problem with the first reading when none meets it)."""
        options = []
        for i, cards in enumerate(written, 1):
            try:
                options.append(self.readings(cards))
            except ValueError as exc:
                shown = " ".join(NAMES[c] for c in cards)
                raise ValueError(f"meld {i} ({shown}) is not a meld: {exc}") from None
        first = [o[0] for o in options]
        ambiguous = sum(len(o) > 1 for o in options)
        # (a meld that is both a set and a run is mostly jokers: a real go-down has one or
        # two; the bound keeps a hostile record from asking for 2**n readings)
        if not ambiguous or ambiguous > 10 or (len(options) != len(contract) and not self.going_down.extra_melds):
            problem = self.contract_problem(first, contract)
        else:
            for melds in itertools.product(*options):
                if self.contract_problem(melds, contract) is None:
                    return list(melds)
            problem = self.contract_problem(first, contract)
        if problem:
            raise ValueError(problem)
        return first

    def make_contract(self, written: Sequence[Sequence[int]], kinds: Sequence[str],
                      contract: Sequence[MeldSpec]) -> list[Meld]:
        """The melds of a go-down whose kinds are given (a listed or recorded one), checked
        against ``contract`` (ValueError naming the meld or the contract's problem)."""
        if len(kinds) != len(written):
            raise ValueError(f"{len(written)} melds but {len(kinds)} kinds")
        melds = []
        for i, (cards, kind) in enumerate(zip(written, kinds), 1):
            if kind not in ("set", "run"):
                raise ValueError(f"meld {i} is a '{kind}': a meld is a set or a run")
            try:
                melds.append(self.make(MeldKind(kind), cards))
            except ValueError as exc:
                shown = " ".join(NAMES[c] for c in cards)
                raise ValueError(f"meld {i} ({shown}) is not a {kind}: {exc}") from None
        problem = self.contract_problem(melds, contract)
        if problem:
            raise ValueError(problem)
        return melds

    # --- lay-offs and swaps -------------------------------------------------------------------
    def lay_off(self, meld: Meld, card: int, at_low: bool | None = None) -> Meld | None:
        """``meld`` with ``card`` added, or None if it does not fit.  For a run the card
        goes where its value belongs; a wild card goes to the high end unless ``at_low``."""
        size = len(meld.cards) + 1
        wild = self.wild
        is_wild = card in wild
        jokers = meld.cards.count(JOKER) if not self.wild_naturals else self.wilds(meld)
        if meld.kind is SET:
            if is_wild:
                if self._joker_problem(size, jokers + 1, False):
                    return None
            elif meld.rank >= 0 and card % 13 != meld.rank:
                return None
            elif self._joker_problem(size, jokers, False):
                return None
            elif self.rules.set_distinct_suits and any(c // 13 == card // 13 for c in meld.cards if c not in wild):
                return None
            rank = meld.rank if meld.rank >= 0 or is_wild else card % 13
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
        if card // 13 != meld.suit or self._joker_problem(size, jokers, True):
            return None
        for value in values_of(card, self.ace_low, self.ace_high):
            if value == low or (self.rules.wrap and (value - 2) % 13 == (low - 2) % 13):
                cards = (card,) + meld.cards
                if self._fits(cards, meld.start - 1):
                    return Meld(meld.kind, cards, meld.suit, meld.start - 1)
            if value == high or (self.rules.wrap and (value - 2) % 13 == (high - 2) % 13):
                cards = meld.cards + (card,)
                if self._fits(cards, meld.start):
                    return Meld(meld.kind, cards, meld.suit, meld.start)
        return None

    def wilds(self, meld: Meld) -> int:
        """How many wild cards ``meld`` holds (each counts as a joker for the limits)."""
        if not self.wild_naturals:
            return meld.cards.count(JOKER)
        wild = self.wild
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
        if meld.kind is RUN:
            for i, c in enumerate(meld.cards):
                if c in wild and meld.stands_for(i) == card:
                    return Meld(meld.kind, meld.cards[:i] + (card,) + meld.cards[i + 1:], meld.suit, meld.start)
            return None
        if meld.rank >= 0 and card % 13 == meld.rank:
            i = next(i for i, c in enumerate(meld.cards) if c in wild)  # a set frees its first wild card
            return Meld(meld.kind, meld.cards[:i] + (card,) + meld.cards[i + 1:], -1, 0, meld.rank)
        return None

    # --- meeting a contract ------------------------------------------------------------------
    def initial_problem(self, melds: Sequence[Meld]) -> str | None:
        """Rules that apply only to going down (the initial meld)."""
        if self.rules.distinct_set_ranks:
            ranks = [m.rank for m in melds if m.kind is SET and m.rank >= 0]
            if len(ranks) != len(set(ranks)):
                return "you may not go down with two sets of the same rank"
        if self.rules.no_consecutive_same_suit_runs:
            runs = [m for m in melds if m.kind is RUN]
            for a in runs:
                for b in runs:
                    if a is not b and a.suit == b.suit and a.start + len(a.cards) == b.start:
                        return "you may not go down with two runs of one suit that join end to end"
        return None

    def contract_problem(self, melds: Sequence[Meld], contract: Sequence[MeldSpec]) -> str | None:
        """Why ``melds`` do not meet ``contract`` (None when they do): exactly its melds,
        or at least them where ``going_down.extra_melds`` allows more; each of at least
        its size, or exactly where ``going_down.exact_sizes`` says so."""
        extra, exact = self.going_down.extra_melds, self.going_down.exact_sizes
        if len(melds) < len(contract) or (len(melds) > len(contract) and not extra):
            return (f"the contract is {'at least' if extra else 'exactly'} {describe_contract(contract)}; "
                    f"you put down {len(melds)} meld(s)")
        # Match each part to a meld: the parts of one kind first, each taking the smallest
        # meld that meets it (so the largest are left for the parts that may be either
        # kind), smallest parts first; then the parts of either kind, the same way.
        remaining = sorted(melds, key=lambda m: len(m.cards))
        ordered = sorted(contract, key=lambda s: (s.kind is EITHER, s.min_size))
        for spec in ordered:
            size = spec.min_size
            match = next((m for m in remaining if (spec.kind is EITHER or m.kind is spec.kind)
                          and (len(m.cards) == size if exact else len(m.cards) >= size)), None)
            if match is None:
                kind = "set or run" if spec.kind is EITHER else spec.kind.value
                return (f"the contract is {describe_contract(contract)}: no {kind} of "
                        f"{size if exact else f'{size} or more'}" + (" (contract melds go down at exactly "
                                                                     "their size)" if exact else ""))
            remaining.remove(match)
        return self.initial_problem(melds)

    def go_down_options(self, hand: Sequence[int], contract: Sequence[MeldSpec], limit: int = 12) -> list[tuple[Meld, ...]]:
        """Ways to meet ``contract`` from ``hand`` in canonical form (each meld of its least
        size, naturals before jokers), at most ``limit`` of them, found by a bounded search.

        This runs for every play decision of a seat that is not down, and most of the time
        finds nothing, so a cheap necessary condition (:meth:`_could_meet`) turns most
        hands away first, and the search works on plain lists and ints: ``counts`` (how
        many of each card, the joker last), ``masks`` (per suit, bit v set when the hand
        holds the run value v; the ace sets bits 1 and 14) and ``ranks`` (naturals per
        rank), all updated in place as candidate melds take cards.  Candidates are plain
        tuples and a :class:`Meld` is built only for an option found.  The order of
        candidates, and so of the options, is that of the plain search described in
        :meth:`_candidates`."""
        specs, need, sets, least_set, least_run, runs = self._sorted_specs(contract)
        if len(hand) < need:
            return []
        naturals = self.wild_naturals
        held = [c for c in hand if c in naturals] if naturals else None
        if held:  # the search counts every wild card as a joker; the real ones go back in below
            hand = [JOKER if c in naturals else c for c in hand]
        counts, masks, deeper, ranks = self._count(hand, runs)
        if not self._could_meet(counts[JOKER], masks, deeper, ranks, sets, runs, least_set, least_run):
            return []
        options = self._search(specs, counts, masks, ranks, limit)
        if held:
            options = [self._with_wild_cards(option, hand.count(JOKER) - len(held), held) for option in options]
        return options

    def fuller_go_downs(self, hand: Sequence[int], options: Sequence[tuple[Meld, ...]],
                        contract: Sequence[MeldSpec], keep: int = 0) -> list[tuple[Meld, ...]]:
        """For each go-down of ``options``, the one that puts down as many more of
        ``hand``'s cards as a greedy pass finds: further sets and runs of the least sizes
        where ``going_down.extra_melds`` allows them, then cards added to the melds going
        down (not where ``going_down.exact_sizes`` holds them to their size).  Only those
        that put down more than their option; a typed go-down may be any other.  At
        least ``keep`` cards stay in hand (1 where the round is won by a final discard)."""
        out = []
        for option in options:
            left = list(hand)
            for m in option:
                for c in m.cards:
                    left.remove(c)
            melds = list(option)
            if self.going_down.extra_melds:
                while len(left) >= min(self.rules.set_min, self.rules.run_min):
                    found = next((o[0] for spec in (MeldSpec(SET, self.rules.set_min), MeldSpec(RUN, self.rules.run_min))
                                  for o in self.go_down_options(left, (spec,), 1)), None)
                    if found is None or len(left) - len(found.cards) < keep:
                        break
                    melds.append(found)
                    for c in found.cards:
                        left.remove(c)
            if not self.going_down.exact_sizes:
                grown = True
                while grown and len(left) > keep:
                    grown = False
                    for c in sorted(set(left), key=lambda c: c in self.wild):  # naturals first
                        for i, m in enumerate(melds):
                            bigger = self.lay_off(m, c)
                            if bigger is not None:
                                melds[i] = bigger
                                left.remove(c)
                                grown = True
                                break
                        if grown:
                            break
            if len(left) < len(hand) - sum(len(m.cards) for m in option) and \
                    self.contract_problem(melds, contract) is None:
                out.append(tuple(melds))
        return out

    @staticmethod
    def _with_wild_cards(option: tuple[Meld, ...], jokers: int, held: list[int]) -> tuple[Meld, ...]:
        """``option`` with the hand's wild cards in the joker places: the jokers first,
        then the other wild cards in the order held."""
        pool = iter([JOKER] * jokers + held)
        return tuple(m._replace(cards=tuple(next(pool) if c == JOKER else c for c in m.cards))
                     if JOKER in m.cards else m for m in option)

    @staticmethod
    def _count(hand: Sequence[int], runs: int) -> tuple[list[int], list[int], list[list[int]], list[int]]:
        """``counts``, ``masks`` and ``ranks`` of the hand (see :meth:`go_down_options`),
        and ``deeper``: deeper[k - 2][suit] has the run values held at least k times,
        for k up to ``runs`` (two runs in one suit need two of each value they share)."""
        counts = [0] * (JOKER + 1)
        masks = [0, 0, 0, 0]
        ranks = [0] * 13
        deeper = [[0, 0, 0, 0] for _ in range(runs - 1)]
        for c in hand:
            n = counts[c] = counts[c] + 1
            if c != JOKER:
                r = c % 13
                ranks[r] += 1
                if n == 1:
                    masks[c // 13] |= _VALUE_BITS[r]
                elif n <= runs:
                    deeper[n - 2][c // 13] |= _VALUE_BITS[r]
        return counts, masks, deeper, ranks

    def _search(self, specs: tuple[MeldSpec, ...], counts: list[int], masks: list[int], ranks: list[int],
                limit: int) -> list[tuple[Meld, ...]]:
        """The search of :meth:`go_down_options`, from the counted hand."""
        out: list[tuple[Meld, ...]] = []
        if limit <= 0:
            return out
        seen: set[tuple[tuple[int, ...], ...]] = set()
        chosen: list[tuple] = []
        last = len(specs) - 1
        initial_rules = self.rules.distinct_set_ranks or self.rules.no_consecutive_same_suit_runs
        # per place in the search, worked out once: the spec's joker limits, and whether
        # it is the same spec as the one before
        limits = [self.limits(spec.min_size, spec.kind is RUN) for spec in specs]
        same = [i > 0 and specs[i - 1] == spec for i, spec in enumerate(specs)]
        # a part of either kind: the candidates of a set and of a run of its size
        either = [((MeldSpec(SET, spec.min_size), self.limits(spec.min_size, False)),
                   (MeldSpec(RUN, spec.min_size), self.limits(spec.min_size, True)))
                  if spec.kind is EITHER else None for spec in specs]

        def take(cards: tuple[int, ...]) -> None:
            """Take ``cards`` out of the counts."""
            for c in cards:
                n = counts[c] = counts[c] - 1
                if c != JOKER:
                    r = c % 13
                    ranks[r] -= 1
                    if not n:
                        masks[c // 13] &= ~_VALUE_BITS[r]

        def put_back(cards: tuple[int, ...]) -> None:
            """Put ``cards`` back into the counts."""
            for c in cards:
                n = counts[c] = counts[c] + 1
                if c != JOKER:
                    r = c % 13
                    ranks[r] += 1
                    if n == 1:
                        masks[c // 13] |= _VALUE_BITS[r]

        def search(i: int, floor: tuple[int, ...]) -> None:
            same_as_previous = same[i]
            both = either[i]
            if both is None:
                candidates = self._candidates(specs[i], *limits[i], counts, masks, ranks)
            else:
                candidates = [c for spec, lim in both for c in self._candidates(spec, *lim, counts, masks, ranks)]
            if i == last:
                # the last meld: each candidate completes an option (no cards need taking)
                for candidate in candidates:
                    cards = candidate[0]
                    if same_as_previous and cards < floor:
                        continue  # identical specs: take candidates in order, not every permutation
                    chosen.append(candidate)
                    key = tuple(sorted([m[0] for m in chosen]))
                    if key not in seen:
                        melds = [Meld(*m[1:]) for m in chosen]
                        if not initial_rules or self.initial_problem(melds) is None:
                            seen.add(key)
                            out.append(tuple(melds))
                    chosen.pop()
                    if len(out) >= limit:
                        return
                return
            for candidate in candidates:
                cards = candidate[0]
                if same_as_previous and cards < floor:
                    continue
                take(cards)
                chosen.append(candidate)
                search(i + 1, cards)
                chosen.pop()
                put_back(cards)
                if len(out) >= limit:
                    return

        search(0, ())
        return out

    def _sorted_specs(self, contract: Sequence[MeldSpec]) -> tuple[tuple[MeldSpec, ...], int, int, int, int, int]:
        """The contract's specs in search order (runs first, smaller first), the cards they
        need at least, how many sets, the least set and the least run (0 if none), and how
        many runs (a part of either kind is neither a set nor a run here); cached,
        as every turn of a round asks for the same contract.  The cache is keyed by the
        contract object, as the per-meld caches are (see _cached): hashing a tuple of
        specs hashes each dataclass in Python, and the state asks with the round's own
        contract tuple each time."""
        got = self._specs.get(id(contract))
        if got is None or got[0] is not contract:
            specs = tuple(sorted(contract, key=lambda s: (s.kind is SET, s.min_size), reverse=False))
            sets = [s.min_size for s in specs if s.kind is SET]
            runs = [s.min_size for s in specs if s.kind is RUN]
            if len(self._specs) > 64:
                self._specs.clear()
            got = self._specs[id(contract)] = (contract, (specs, sum(s.min_size for s in specs), len(sets),
                                                          min(sets, default=0), min(runs, default=0), len(runs)))
        return got[1]

    def _could_meet(self, jokers: int, masks: list[int], deeper: list[list[int]], ranks: list[int], sets: int,
                    runs: int, least_set: int, least_run: int) -> bool:
        """A cheap necessary condition, so most turns skip the search (the caller has
        checked that the hand holds enough cards): enough ranks for the sets, each with
        jokers to spare (a rank can give as many sets as it has their least naturals), a
        suit with enough values for the least run, and enough jokers for the naturals the
        melds lack together."""
        if sets:
            most_j, least_n = self.limits(least_set, False)
            floor, spare = max(least_n, 1), min(jokers, most_j)
            # a set holds at least this many naturals of its rank, so a rank of n naturals
            # gives at most n // need sets (several, with several decks)
            need = max(floor, least_set - spare)
            usable = sum(n // need for n in ranks if n >= need)
            if usable < sets and not (jokers >= least_set and least_n == 0):
                return False
        if runs:
            most_j, least_n = self.limits(least_run, True)
            need = max(least_n, 1, least_run - min(jokers, most_j))
            bests = [self._best_window(mask, least_run) if mask else 0 for mask in masks]
            if max(bests) < need:
                return False
        # No joker serves two melds, and a meld lacks the naturals it does not hold: the
        # hand needs at least as many jokers as the melds lack together, counted with the
        # most naturals any choice of melds could hold (each meld taken at the least size
        # of its kind: a larger one lacks no fewer).  In shanghai-isra games this turns
        # away seven in ten of the hands the checks above let through, all of which the
        # search finds nothing in.
        short = 0
        if sets:
            # A rank with n naturals holds naturals for n // least_set whole sets and
            # n % least_set toward one more: the sets hold at most the whole sets' worth,
            # then the largest remainders.
            whole = sum(n // least_set for n in ranks)
            if whole < sets:
                rests = sorted([n % least_set for n in ranks], reverse=True)
                short += (sets - whole) * least_set - sum(rests[:sets - whole])
        if runs:
            # k runs in one suit hold at most k times its best window's values, and at
            # most each value as often as it is held (up to k times): a most that grows
            # by less with each further run, so the runs hold at most the largest of
            # those growths over the suits.
            gains = []
            for suit, best in enumerate(bests):
                if not best:
                    continue
                gains.append(best)
                held = masks[suit].bit_count()
                most = best
                for k, layer in enumerate(deeper, 2):
                    held += layer[suit].bit_count()
                    more = min(k * best, held) - most
                    if more <= 0:
                        break
                    gains.append(more)
                    most += more
            gains.sort(reverse=True)
            short += runs * least_run - sum(gains[:runs])
        return short <= jokers

    def _best_window(self, mask: int, size: int) -> int:
        """The most run values in ``mask`` any window of ``size`` holds (kept per mask)."""
        key = (mask, size)
        got = self._best.get(key)
        if got is None:
            if len(self._best) > 65536:
                self._best.clear()
            got = self._best[key] = max((mask & window).bit_count() for _, window in self._windows(size))
        return got

    def _windows(self, size: int) -> list[tuple[int, int]]:
        """(start, bit mask of its values) for each place a run of ``size`` can start;
        at least the lowest start, as a best-window count always looks at one."""
        got = self._window_cache.get(size)
        if got is None:
            ones = (1 << size) - 1
            got = self._window_cache[size] = [(start, ones << start)
                                              for start in range(self.lo, max(self.lo + 1, self.hi - size + 2))]
        return got

    def _candidates(self, spec: MeldSpec, most: int, least: int, counts: list[int], masks: list[int],
                    ranks: list[int]) -> list[tuple]:
        """The canonical melds of ``spec`` the counted cards can make, as tuples
        (cards, then the :class:`Meld` fields); ``most`` and ``least`` are the spec's
        :meth:`limits`.  Sets: by rank, low to high, the first naturals by suit then
        jokers, then an all-joker set where allowed.  Runs: by suit, then start, each
        value held as its natural, each gap a joker."""
        size = spec.min_size
        jokers = counts[JOKER]
        spare = jokers if jokers < most else most
        out: list[tuple] = []
        if spec.kind is SET:
            # a rank makes a set when it holds the naturals the jokers to spare leave
            # over, and at least ``least`` (and one)
            fewest = max(size - spare, least, 1)
            distinct = self.rules.set_distinct_suits
            if fewest <= size:
                for rank in range(13):
                    held = ranks[rank]
                    if distinct and held:  # one natural of each suit at most
                        held = sum(1 for c in range(rank, JOKER, 13) if counts[c])
                    if held >= fewest:
                        use: list[int] = []
                        for c in range(rank, JOKER, 13):
                            use += [c] * (counts[c] if not distinct else min(counts[c], 1))
                        cards = tuple(use[:size]) + (JOKER,) * (size - held if held < size else 0)
                        out.append((cards, SET, cards, -1, 0, rank))
            if least == 0 and jokers >= size and most >= size:
                cards = (JOKER,) * size
                out.append((cards, SET, cards, -1, 0, -1))
            return out
        for suit in range(4):
            mask = masks[suit]
            if not mask:
                continue
            key = (mask, suit, size, spare, least)  # least: the cache is shared across rulesets
            runs = self._suit_runs.get(key)
            if runs is None:
                if len(self._suit_runs) > 65536:
                    self._suit_runs.clear()
                runs = self._suit_runs[key] = [(cards, RUN, cards, suit, start, -1) for cards, start
                                               in self._runs_in_suit(mask, suit, size, spare)]
            if size == 14:  # both ends are the ace: it must be held twice
                ace = card_for(suit, 14)
                out += [run for run in runs if run[4] != 1 or counts[ace] >= 2]
            else:
                out += runs
        return out

    def _runs_in_suit(self, mask: int, suit: int, size: int, allowed: int) -> list[tuple[tuple[int, ...], int]]:
        """(cards, start) of each run of ``size`` in ``suit`` from the run values in
        ``mask``, with at most ``allowed`` jokers in the gaps, by start.  This depends on
        nothing else, and a few cards of a suit make few masks, so the caller keeps it."""
        most, least = self.limits(size, True)
        fewest = max(least, 1)
        top = self.hi - size + 2
        adjacent_ok = self.rules.jokers_adjacent
        out = []
        for start, window in self._windows(size):
            if start >= top:
                break  # (the lowest start is listed even where no run fits)
            have = (mask & window).bit_count()
            if size - have > allowed or have < fewest:
                continue
            gaps = window & ~mask
            if not adjacent_ok and gaps & (gaps >> 1):
                continue  # two jokers side by side
            out.append((tuple(card_for(suit, v) if mask >> v & 1 else JOKER for v in range(start, start + size)), start))
        return out

    # Per-meld answers are cached by the meld object itself: a meld on the table is one
    # object until a play replaces it, so the same object is asked about for turn after
    # turn.  The key is id(meld) (hashing a Meld hashes all its fields, every call) and the
    # entry keeps the meld, so the id cannot be reused while the entry lives; an entry is
    # used only if it holds this very object.  A meld equal to a cached one but another
    # object is merely computed again.
    def _cached(self, cache: dict[int, tuple[Meld, Any]], meld: Meld, compute: Callable[[Meld], Any]) -> Any:
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
        return tuple(low for low in ends if self.lay_off(meld, JOKER, low) is not None)  # (any wild card fits alike)

    def swappable(self, meld: Meld) -> frozenset[int]:
        """The natural cards :meth:`swap` can put in the place of a joker of ``meld``
        (cached per meld): most melds hold no joker, and most cards free none."""
        return self._cached(self._swappable, meld, self._compute_swappable)

    def _compute_swappable(self, meld: Meld) -> frozenset[int]:
        wild = self.wild
        if not any(c in wild for c in meld.cards):
            return frozenset()
        if meld.kind is RUN:
            return frozenset(n for n in (card_for(meld.suit, meld.start + i) for i, c in enumerate(meld.cards) if c in wild)
                             if n not in wild)
        return frozenset(s * 13 + meld.rank for s in range(4) if s * 13 + meld.rank not in wild) \
            if meld.rank >= 0 else frozenset()

    def _lay_off_candidates(self, meld: Meld) -> list[int]:
        if meld.kind is SET:
            return [s * 13 + meld.rank for s in range(4)] if meld.rank >= 0 else list(range(52))
        values = (meld.start - 1, meld.start + len(meld.cards))
        out = []
        for v in values:
            if self.rules.wrap:
                v = (v - 2) % 13 + 2
            if 1 <= v <= 14:
                out.append(card_for(meld.suit, v))
        return out

    def fits(self, meld: Meld, c: int) -> bool:
        """Whether ``c`` can be laid off on ``meld`` (a wild card: at either end)."""
        if c in self.wild:
            return bool(self.joker_ends(meld))
        return c in self.accepts(meld)


def describe_contract(contract: Sequence[MeldSpec]) -> str:
    return ", ".join(str(s) for s in contract)


def card_points(cards: Sequence[int], table: Mapping[str, int]) -> int:
    return sum(table["JK" if c == JOKER else RANKS[c % 13]] for c in cards)

