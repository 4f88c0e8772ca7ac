"""The go-down search: the ways a hand can meet the round's contract, in canonical
form (each meld of its least size, naturals before jokers), and fuller go-downs that
put down more of the hand (:class:`GoDownSearch`, a part of
:class:`~.melds.MeldEngine`; entry points :meth:`~GoDownSearch.go_down_options` and
:meth:`~GoDownSearch.fuller_go_downs`).

This runs for every play decision of a seat that is not down and most of the time
finds nothing, so it works on counts, bit masks and plain tuples (see
:meth:`~GoDownSearch.go_down_options`); tests/test_go_down_search.py checks it against
a brute-force enumeration.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...pack import STANDARD, Pack
from .meld_checks import Meld
from .meld_contracts import ContractReading
from .meld_layoffs import LayOffs
from .rules import EITHER, GROUP, RUN, SET, GoingDownRules, Like, MeldKind, MeldRules, MeldSpec

# For each rank, the bits of the run values it stands for (bit v for value v; the ace
# is both 1 and 14) are the pack's ``value_bits`` (:mod:`.cardset`): a suit's cards in
# hand become one int, and a run window's naturals are counted with a mask and
# int.bit_count().

# (lo, hi, jokers adjacent, wrap, the pack's ranks and ace) -> the go-down search caches of MeldEngine (windows,
# best window counts, runs in a suit), shared by every checker with those rules.
# A candidate meld of the search: its cards, then the Meld fields (kind, cards, suit,
# start, rank): a plain tuple, as the search makes many and builds a Meld only for an
# option found.
Candidate = tuple[tuple[int, ...], MeldKind, tuple[int, ...], int, int, int]

_SEARCH_CACHES: dict[tuple[int, int, bool, bool, int, bool], tuple[dict[int, list[tuple[int, int]]], dict[tuple[int, int], int],
                                                        dict[tuple[int, int, int, int, int], list[Candidate]]]] = {}


class GoDownSearch(ContractReading, LayOffs):
    """Searches a hand for the ways to meet a contract."""

    def __init__(self, rules: MeldRules, env: dict[str, Any], wild: frozenset[int] | None = None,
                 going_down: GoingDownRules = GoingDownRules(), pack: Pack = STANDARD,
                 ranks: Sequence[str] | None = None):
        super().__init__(rules, env, wild, going_down, pack, ranks)
        self._specs: dict[int, tuple[Sequence[MeldSpec], tuple[tuple[MeldSpec, ...], int, int, int, int, int]]] = {}
        # The go-down search caches (see _windows, _best_window, _candidates) depend only
        # on the run bounds and the joker-adjacency rule besides their keys, so every
        # checker with those rules shares them: a simulation plays many games, each with
        # its own checker, and each game used to warm the caches up again.
        shared = _SEARCH_CACHES.setdefault((self.lo, self.hi, rules.jokers_adjacent, rules.wrap, self.stride,
                                            self.cards.has_ace), ({}, {}, {}))
        self._window_cache: dict[int, list[tuple[int, int]]] = shared[0]
        self._best: dict[tuple[int, int], int] = shared[1]
        self._suit_runs: dict[tuple[int, int, int, int, int], list[Candidate]] = shared[2]  # see _candidates

    def go_down_options(self, hand: Sequence[int], contract: Sequence[MeldSpec], limit: int = 12) -> list[tuple[Meld, ...]]:
        """The ways to meet ``contract`` from ``hand`` (see :meth:`_go_down_options`);
        under melds.wild_natural also those that read the hand's wild cards of a rank as
        that rank (each way reads them all as wild or all as themselves)."""
        options = self._go_down_options(hand, contract, limit)
        if self.has_own_place_wilds(hand) and len(options) < limit:
            seen = {tuple(sorted(tuple(sorted(m.cards)) for m in o)) for o in options}
            for option in self.as_naturals().go_down_options(hand, contract, limit):
                key = tuple(sorted(tuple(sorted(m.cards)) for m in option))
                if key in seen:
                    continue
                try:
                    options.append(tuple(self.adopted(m) for m in option))
                except ValueError:
                    continue
                seen.add(key)
                if len(options) >= limit:
                    break
        return options

    def _go_down_options(self, hand: Sequence[int], contract: Sequence[MeldSpec], limit: int = 12) -> list[tuple[Meld, ...]]:
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
        if len(hand) < need or not specs:  # (no contract: see MeldingOut.melds_out)
            return []
        if self.general:  # kinds of the ruleset's own, or runs of any suits
            return self._general_options(hand, specs, limit)
        naturals = self.wild_naturals
        joker = self.joker
        if self.dead:  # special cards that are not wild go in no meld
            hand = [c for c in hand if c not in self.dead]
        held = [c for c in hand if c in naturals] if naturals else None
        if held:  # the search counts every wild card as a joker; the real ones go back in below
            hand = [joker if c in naturals else c for c in hand]
        counts, masks, deeper, ranks = self._count(hand, runs)
        if not self._could_meet(counts[joker], masks, deeper, ranks, sets, runs, least_set, least_run):
            return []
        options = self._search(specs, counts, masks, ranks, limit)
        if held:
            options = [self._with_wild_cards(option, hand.count(joker) - len(held), held) for option in options]
        return options

    # --- the general search: kinds of melds.kinds, runs of any suits ------------------------------
    def _general_options(self, hand: Sequence[int], specs: Sequence[MeldSpec], limit: int) -> list[tuple[Meld, ...]]:
        """go_down_options where the ruleset has kinds of its own or runs of any suits: a
        plain search over the hand's cards (by counts), each part's canonical candidates
        (:meth:`_general_candidates`) tried in turn; each option checked as a whole."""
        wild = self.wild
        cards = [c for c in hand if c not in self.dead]
        counts: dict[int, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        out: list[tuple[Meld, ...]] = []
        seen: set[tuple[tuple[int, ...], ...]] = set()
        chosen: list[Meld] = []
        initial_rules = self.rules.distinct_set_ranks or self.rules.no_consecutive_same_suit_runs

        def search(i: int) -> None:
            if i == len(specs):
                key = tuple(sorted(tuple(sorted(m.cards)) for m in chosen))
                if key not in seen and (not initial_rules or self.initial_problem(chosen) is None):
                    seen.add(key)
                    out.append(tuple(chosen))
                return
            wilds = sorted((c for c in counts if c in wild and counts[c]), reverse=True)  # jokers last
            pool = [c for c in wilds for _ in range(counts[c])]
            for meld in self._general_candidates(specs[i], counts, pool):
                for c in meld.cards:
                    counts[c] -= 1
                chosen.append(meld)
                search(i + 1)
                chosen.pop()
                for c in meld.cards:
                    counts[c] += 1
                if len(out) >= limit:
                    return

        search(0)
        return out

    def _general_candidates(self, spec: MeldSpec, counts: dict[int, int], pool: list[int]) -> list[Meld]:
        """The canonical melds of ``spec`` that the counted cards can make (``pool``: the
        wild cards held, in the order they are used): sets by rank, low to high, the
        naturals by suit and then wild cards (and, where that meets no rule of the
        kind, one natural of each suit first); runs by suit (one group of every suit for
        runs of any suits), then start, each value held as a natural, each gap a wild card;
        groups by colour or suit (or all the cards), the lowest naturals first, then wild
        cards.  Each is checked as a meld and against its kind's rule."""
        size = spec.min_size
        wild = self.wild
        stride, suits = self.stride, self.cards.suits
        kinds = (SET, RUN) if spec.kind is EITHER else (spec.kind,)
        out: list[Meld] = []
        for kind in kinds:
            most, least = self.limits(size, kind is RUN)
            spare = min(len(pool), most)
            tries: list[tuple[int, ...]] = []
            if kind is SET:
                for rank in range(stride):
                    held = [c for s in range(suits) for c in (s * stride + rank,) if c not in wild
                            for _ in range(min(counts.get(c, 0), 1 if self.rules.set_distinct_suits else 99))]
                    if not held:
                        continue
                    one_each = sorted(set(held))  # (one of each suit: for a kind's rule on the suits)
                    for naturals in ((held, one_each) if one_each != held else (held,)):
                        n = min(len(naturals), size)
                        if size - n <= spare and n >= max(least, 1):
                            tries.append(tuple(naturals[:n]) + tuple(pool[:size - n]))
                if least == 0 and len(pool) >= size and most >= size:
                    tries.append(tuple(pool[:size]))
            elif kind is RUN:
                groups = [list(range(suits))] if not self.same_suit else [[s] for s in range(suits)]
                for group in groups:
                    for start in range(self.lo, self.hi - size + 2):
                        run: list[int] = []
                        jokers = 0
                        for v in range(start, start + size):
                            r = self.cards.rank_of_value[v] if 0 <= v < len(self.cards.rank_of_value) else -1
                            card = next((s * stride + r for s in group if r >= 0 and s * stride + r not in wild and
                                         counts.get(s * stride + r, 0) > 0), None)
                            if card is None:
                                if jokers >= spare:
                                    break
                                run.append(pool[jokers])
                                jokers += 1
                            else:
                                run.append(card)
                        else:
                            if size - jokers >= max(least, 1):
                                tries.append(tuple(run))
            else:
                rule = self.kinds[spec.name]
                naturals = sorted((c for c in counts if c not in wild and c < self.suited and counts[c]),
                                  key=lambda c: (self.cards.pack.value_of[c], c))
                by: dict[int, list[int]] = {}
                for c in naturals:
                    key = -1 if rule.like is Like.ANY else self.colour_of[c // stride] if rule.like is Like.COLOUR \
                        else c // stride
                    by.setdefault(key, []).extend([c] * counts[c])
                for held in by.values():
                    n = min(len(held), size)
                    if size - n <= spare and n >= max(least, 1):
                        tries.append(tuple(held[:n]) + tuple(pool[:size - n]))
            for cards in dict.fromkeys(tries):
                if any(cards.count(c) > counts.get(c, 0) for c in set(cards)):
                    continue
                try:
                    meld = self.make_kind(spec.name, cards) if spec.name else self.make(kind, cards, size)
                except ValueError:
                    continue
                out.append(meld)
        return out

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

    def _with_wild_cards(self, option: tuple[Meld, ...], jokers: int, held: list[int]) -> tuple[Meld, ...]:
        """``option`` with the hand's wild cards in the joker places: the jokers first,
        then the other wild cards in the order held."""
        joker = self.joker
        pool = iter([joker] * jokers + held)
        return tuple(m._replace(cards=tuple(next(pool) if c == joker else c for c in m.cards))
                     if joker in m.cards else m for m in option)

    def _count(self, hand: Sequence[int], runs: int) -> tuple[list[int], list[int], list[list[int]], list[int]]:
        """``counts``, ``masks`` and ``ranks`` of the hand (see :meth:`go_down_options`),
        and ``deeper``: deeper[k - 2][suit] has the run values held at least k times,
        for k up to ``runs`` (two runs in one suit need two of each value they share)."""
        joker, stride, bits = self.joker, self.stride, self.cards.value_bits
        suits = self.cards.suits
        counts = [0] * (joker + 1)
        masks = [0] * suits
        ranks = [0] * stride
        deeper = [[0] * suits for _ in range(runs - 1)]
        for c in hand:
            n = counts[c] = counts[c] + 1
            if c != joker:
                r = c % stride
                ranks[r] += 1
                if n == 1:
                    masks[c // stride] |= bits[r]
                elif n <= runs:
                    deeper[n - 2][c // stride] |= bits[r]
        return counts, masks, deeper, ranks

    def _search(self, specs: tuple[MeldSpec, ...], counts: list[int], masks: list[int], ranks: list[int],
                limit: int) -> list[tuple[Meld, ...]]:
        """The search of :meth:`go_down_options`, from the counted hand."""
        # One function of about 80 lines, on purpose: the recursive search and its two
        # helpers are closures over the counted hand (counts, masks, ranks), which they
        # update in place at every step; as methods they would pass all of it at each of
        # the search's many calls, on the hottest path of a go-down decision.
        out: list[tuple[Meld, ...]] = []
        if limit <= 0:
            return out
        seen: set[tuple[tuple[int, ...], ...]] = set()
        chosen: list[Candidate] = []
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
        joker, stride, bits = self.joker, self.stride, self.cards.value_bits

        def take(cards: tuple[int, ...]) -> None:
            """Take ``cards`` out of the counts."""
            for c in cards:
                n = counts[c] = counts[c] - 1
                if c != joker:
                    r = c % stride
                    ranks[r] -= 1
                    if not n:
                        masks[c // stride] &= ~bits[r]

        def put_back(cards: tuple[int, ...]) -> None:
            """Put ``cards`` back into the counts."""
            for c in cards:
                n = counts[c] = counts[c] + 1
                if c != joker:
                    r = c % stride
                    ranks[r] += 1
                    if n == 1:
                        masks[c // stride] |= bits[r]

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
        # of its kind: a larger one lacks no fewer).  In games of three- and four-meld contracts this turns
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
                    ranks: list[int]) -> list[Candidate]:
        """The canonical melds of ``spec`` the counted cards can make, as tuples
        (cards, then the :class:`Meld` fields); ``most`` and ``least`` are the spec's
        :meth:`limits`.  Sets: by rank, low to high, the first naturals by suit then
        jokers, then an all-joker set where allowed.  Runs: by suit, then start, each
        value held as its natural, each gap a joker."""
        size = spec.min_size
        joker = self.joker
        jokers = counts[joker]
        spare = jokers if jokers < most else most
        out: list[Candidate] = []
        if spec.kind is SET:
            # a rank makes a set when it holds the naturals the jokers to spare leave
            # over, and at least ``least`` (and one)
            fewest = max(size - spare, least, 1)
            distinct = self.rules.set_distinct_suits
            if fewest <= size:
                stride = self.stride
                for rank in range(stride):
                    held = ranks[rank]
                    if distinct and held:  # one natural of each suit at most
                        held = sum(1 for c in range(rank, joker, stride) if counts[c])
                    if held >= fewest:
                        use: list[int] = []
                        for c in range(rank, joker, stride):
                            use += [c] * (counts[c] if not distinct else min(counts[c], 1))
                        cards = tuple(use[:size]) + (joker,) * (size - held if held < size else 0)
                        out.append((cards, SET, cards, -1, 0, rank))
            if least == 0 and jokers >= size and most >= size:
                cards = (joker,) * size
                out.append((cards, SET, cards, -1, 0, -1))
            return out
        top = self.cards.top
        for suit in range(len(masks)):
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
            if size == top and self.lo == 1:  # both ends are the ace: it must be held twice
                ace = self.cards.card_for(suit, top)
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
        joker, card_for = self.joker, self.cards.card_for
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
            out.append((tuple(card_for(suit, v) if mask >> v & 1 else joker for v in range(start, start + size)), start))
        return out
