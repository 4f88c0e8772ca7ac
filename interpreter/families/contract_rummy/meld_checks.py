"""What makes a meld: a set or a run, checked card by card with the reason when it is
not one (:class:`MeldChecks`, the base of :class:`~.melds.MeldEngine`; entry points
:meth:`~MeldChecks.make`, :meth:`~MeldChecks.classify` and :meth:`~MeldChecks.readings`),
and :class:`Meld`, a meld on the table or proposed.

A run is kept in order, low to high, with each joker in the place it stands for;
``start`` is the value of its first place (2..13 for two to king, 1 or 14 for the ace;
in a pack of the ruleset's own, the rank at place r of the pack's order has the value
r + 2: see :mod:`.cardset`).  The round's wild cards (``melds.wild``: the joker, and cards such as the deuces where
the ruleset says so) count as jokers for every limit.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple, Sequence

from ...cards import NAMES
from ...errors import EvaluationError
from ...pack import STANDARD, Pack
from ...rules import Ace
from .cardset import RummyPack, rummy_pack
from .rules import GROUP, RUN, SET, GoingDownRules, Like, MeldKind, MeldKindRule, MeldRules


def values_of(card: int, ace_low: bool, ace_high: bool, stride: int = 13) -> tuple[int, ...]:
    """The run values a natural card can take (the ace, the highest rank, may be 1, the
    top value ``stride + 1`` or both: a pack without an ace has ``ace_low`` false and
    ``ace_high`` true)."""
    r = card % stride
    if r == stride - 1:
        return tuple(v for v, ok in ((1, ace_low), (stride + 1, ace_high)) if ok)
    return (r + 2,)


def card_for(suit: int, value: int) -> int:
    """The standard pack's card of ``suit`` for run value ``value`` (see
    :meth:`.cardset.RummyPack.card_for` for any pack)."""
    return suit * 13 + (12 if value in (1, 14) else value - 2)


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
    name: str = ""  # its kind of melds.kinds, if it is one (a set, run or group that meets the kind's rule)

    def names(self, codes: Sequence[str] = NAMES) -> list[str]:
        """The cards' codes (``codes``: the pack's, by card; the standard pack's by default)."""
        return [codes[c] for c in self.cards]

    def stands_for(self, index: int) -> int | None:
        """The natural card the place ``index`` of a run stands for (the standard pack;
        :meth:`MeldChecks.stands_for` for the engine's own)."""
        if self.kind is not RUN:
            return None
        return card_for(self.suit, self.start + index)


class MeldChecks:
    """The meld rules of one ruleset for one round (its wild cards): whether cards make
    a set or a run, and why not (joker limits evaluated lazily, cached)."""

    def __init__(self, rules: MeldRules, env: dict[str, Any], wild: frozenset[int] | None = None,
                 going_down: GoingDownRules = GoingDownRules(), pack: Pack = STANDARD,
                 ranks: Sequence[str] | None = None):
        self.rules = rules
        self.env = env
        self.going_down = going_down
        cards: RummyPack = rummy_pack(pack)
        self.cards = cards
        self.codes = cards.codes
        self.stride = cards.stride
        self.joker = joker = cards.joker
        self.suited = cards.suited  # the special cards are numbered from here
        # The round's wild cards (melds.wild): the jokers, and natural cards such as the
        # deuces (or special cards) where the ruleset says so.  A wild card is wild in
        # every meld, even in the place of its own rank; the go-down search counts them
        # all as jokers.
        self.wild = wild if wild is not None else frozenset((joker,))
        self.wild_naturals = frozenset(c for c in self.wild if c != joker)
        # melds.wild_natural: a wild card in its own place counts as the natural card it is
        # (the suited wild cards only: a joker or a special card has no rank of its own)
        self.own_place = rules.wild_natural and any(c < cards.suited for c in self.wild_naturals)
        self._made_with = (rules, env, going_down, pack, ranks)  # (for as_naturals)
        self._as_naturals: MeldChecks | None = None
        if not self.own_place:  # the searches need not try the natural reading: no wrapper call on the hot path
            for name in ("go_down_options", "best_melding"):
                plain = getattr(self, "_" + name, None)
                if plain is not None:
                    setattr(self, name, plain)
        # special cards that are not wild: they go in no meld
        self.dead = frozenset(c for c in range(cards.suited, cards.size) if c not in self.wild)
        # Runs stand within the deck's ranks (``ranks``, its codes; all the pack's by
        # default): a joker never stands for a rank the deck leaves out at either end.
        # The ace rules apply where the deck holds the ace as its highest rank (below
        # the lowest only where the deck starts at the pack's lowest rank).
        places = sorted(cards.rank_index[r] for r in ranks) if ranks else [0, cards.stride - 1]
        low, high = places[0], places[-1]
        if cards.has_ace and high == cards.stride - 1:
            self.ace_low = rules.run_ace in (Ace.LOW, Ace.EITHER) and low == 0
            self.ace_high = rules.run_ace in (Ace.HIGH, Ace.EITHER)
        else:  # no ace: the highest rank is only the highest
            self.ace_low, self.ace_high = False, True
        self.lo = 1 if self.ace_low else low + 2
        self.hi = high + 2 if self.ace_high else high + 1
        # a run that turns the corner goes round the deck's ranks: from the highest to the lowest
        self.wrap_base, self.wrap_span = low + 2, high - low + 1
        self._limits: dict[tuple[int, bool], tuple[int, int]] = {}
        # melds.run.same_suit: false lets a run's cards be of any suits; melds.kinds: kinds of
        # the ruleset's own (their melds carry the kind's name).  Either takes the general
        # go-down search (meld_search) instead of the one tuned for sets and same-suit runs.
        self.same_suit = rules.run_same_suit
        self.kinds = rules.kinds
        self.general = bool(rules.kinds) or not rules.run_same_suit
        colours: dict[str, int] = {}
        self.colour_of = tuple(colours.setdefault(s.colour, len(colours)) for s in pack.suits)  # by suit
        self._kind_verdicts: dict[tuple[str, tuple[int, ...]], bool] = {}

    def as_naturals(self) -> Any:
        """melds.wild_natural: an engine of the same rules and class that reads the wild
        cards of a rank as the natural cards they are (jokers and wild special cards stay
        wild): the searches try a hand both ways, as its melds are valid here either way."""
        if self._as_naturals is None:
            rules, env, going_down, pack, ranks = self._made_with
            wild = frozenset(c for c in self.wild if c == self.joker or c >= self.suited)
            self._as_naturals = type(self)(rules, env, wild, going_down, pack, ranks)
        return self._as_naturals

    def has_own_place_wilds(self, hand: Sequence[int]) -> bool:
        """Whether ``hand`` holds a wild card that melds.wild_natural may read as itself."""
        naturals, suited = self.wild_naturals, self.suited
        return self.own_place and any(c in naturals and c < suited for c in hand)

    def adopted(self, meld: Meld) -> Meld:
        """A meld of :meth:`as_naturals` as this engine reads it (ValueError if it is none here)."""
        if meld.name:
            return self.make_kind(meld.name, meld.cards)
        return self.make(meld.kind, meld.cards)

    def stands_for(self, meld: Meld, index: int) -> int | None:
        """The natural card the place ``index`` of a run stands for."""
        if meld.kind is not RUN:
            return None
        return self.cards.card_for(meld.suit, self.in_ranks(meld.start + index))

    def in_ranks(self, value: int) -> int:
        """A run value as a rank's value: past the ace (or below the lowest rank) a run
        turning the corner (melds.run.wrap) goes round the deck's ranks."""
        if self.rules.wrap:
            return (value - self.wrap_base) % self.wrap_span + self.wrap_base
        return value

    def _dead_card(self, cards: Sequence[int]) -> str | None:
        """Why ``cards`` make no meld when one is a special card that is not wild."""
        dead = self.dead
        if dead:
            for c in cards:
                if c in dead:
                    return f"{self.codes[c]} is a special card that goes in no meld (it is not wild)"
        return None

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
    def why_not_set(self, cards: Sequence[int], least: int | None = None) -> str | None:
        """Why ``cards`` are no set (None when they are one); ``least``: its least size, for
        a kind of melds.kinds (default melds.set.min_size)."""
        size = len(cards)
        least = self.rules.set_min if least is None else least
        if size < least:
            return f"a set needs at least {least} cards"
        dead = self._dead_card(cards)
        if dead:
            return dead
        naturals = [c for c in cards if c not in self.wild]
        stride = self.stride
        if len({c % stride for c in naturals}) > 1:
            return "a set's cards must all be of one rank"
        if self.own_place:
            naturals += self.own_rank_wilds(cards, naturals)
        if self.rules.set_distinct_suits and len({c // stride for c in naturals}) < len(naturals):
            return "a set's natural cards must all be of different suits"
        return self._joker_problem(size, size - len(naturals), False)

    def why_not_run(self, cards: Sequence[int], least: int | None = None) -> str | None:
        """Why ``cards`` in this order are no run (None when they are one); ``least`` as for
        :meth:`why_not_set`."""
        size = len(cards)
        least = self.rules.run_min if least is None else least
        if size < least:
            return f"a run needs at least {least} cards"
        if size > self.rules.run_max:
            return f"a run holds at most {self.rules.run_max} cards"
        dead = self._dead_card(cards)
        if dead:
            return dead
        naturals = [(i, c) for i, c in enumerate(cards) if c not in self.wild]
        if self.own_place:
            return self._why_not_run_own_place(cards, naturals)
        problem = self._joker_problem(size, size - len(naturals), True)
        if problem:
            return problem
        if not naturals:
            return "a run needs a natural card, to fix its suit and its values"
        if self.same_suit and len({c // self.stride for _, c in naturals}) > 1:
            return "a run's cards must all be of one suit"
        if not self.rules.jokers_adjacent and _jokers_side_by_side(cards, self.wild):
            return "two jokers may not stand side by side in a run"
        if self.run_start(cards) is None:
            return self._not_in_sequence(cards)
        return None

    def _why_not_run_own_place(self, cards: Sequence[int], naturals: Sequence[tuple[int, int]]) -> str | None:
        """why_not_run under melds.wild_natural: the run read first (from its naturals, or
        from a wild card in its own place), then its wild cards counted but those in their
        own place."""
        if self.same_suit and len({c // self.stride for _, c in naturals}) > 1:
            return "a run's cards must all be of one suit"
        start = self.run_start(cards)
        if start is None:
            if not naturals and not any(c in self.wild_naturals and c < self.suited for c in cards):
                return "a run needs a natural card, to fix its suit and its values"
            return self._not_in_sequence(cards)
        return self.run_limits_problem(cards, start, self.run_suit(cards))

    def run_limits_problem(self, cards: Sequence[int], start: int, suit: int) -> str | None:
        """melds.wild_natural: why a run of ``cards`` from ``start`` (in ``suit``; -1 for
        any) breaks the jokers' limits or their adjacency, counting only the wild cards out
        of their own place (None when it does not)."""
        places = self.wild_places(cards, start, suit)
        problem = self._joker_problem(len(cards), len(places), True)
        if problem:
            return problem
        if not self.rules.jokers_adjacent and any(b - a == 1 for a, b in zip(places, places[1:])):
            return "two jokers may not stand side by side in a run"
        return None

    def wild_places(self, cards: Sequence[int], start: int, suit: int) -> list[int]:
        """The places of a run's wild cards that stand for another card (under
        melds.wild_natural a wild card in its own place is a natural there)."""
        wild = self.wild
        if not self.own_place:
            return [i for i, c in enumerate(cards) if c in wild]
        rank_of_value, stride = self.cards.rank_of_value, self.stride
        wrap = self.rules.wrap
        out = []
        for i, c in enumerate(cards):
            if c in wild:
                value = start + i
                if wrap:
                    value = (value - self.wrap_base) % self.wrap_span + self.wrap_base
                if c in self.wild_naturals and c < self.suited and 0 <= value < len(rank_of_value) and \
                        rank_of_value[value] == c % stride and (suit < 0 or c // stride == suit) and \
                        (value != 1 or self.ace_low) and (value != stride + 1 or self.ace_high or wrap):
                    continue  # its own place
                out.append(i)
        return out

    def run_suit(self, cards: Sequence[int]) -> int:
        """The suit of a run of ``cards`` (-1 for runs of any suits): its naturals', or with
        none, under melds.wild_natural, the suit of the wild card it is read from."""
        if not self.same_suit:
            return -1
        wild = self.wild
        first = next((c for c in cards if c not in wild), None)
        if first is None:
            first = next(c for c in cards if c in self.wild_naturals and c < self.suited)
        return first // self.stride

    def own_rank_wilds(self, cards: Sequence[int], naturals: Sequence[int]) -> list[int]:
        """melds.wild_natural: the wild cards of a set of ``cards`` that count as naturals
        of its rank (its naturals' rank; with none, the rank most of its wild cards share,
        the lowest of a tie)."""
        mine = [c for c in cards if c in self.wild_naturals and c < self.suited]
        if not mine:
            return []
        stride = self.stride
        if naturals:
            rank = naturals[0] % stride
        else:
            counts: dict[int, int] = {}
            for c in mine:
                counts[c % stride] = counts.get(c % stride, 0) + 1
            rank = max(sorted(counts), key=lambda r: counts[r])
        return [c for c in mine if c % stride == rank]

    def _not_in_sequence(self, cards: Sequence[int]) -> str:
        """Why cards that are no run in this order are not: the ace's place when it would
        be one with the ace at its other end, else the corner."""
        top = self.stride - 1
        if self.cards.has_ace and not self.rules.wrap and not (self.ace_low and self.ace_high) and \
                any(c % self.stride == top for c in cards if c not in self.wild):
            probe = copy.copy(self)
            probe.ace_low = probe.ace_high = True
            probe.lo, probe.hi = 1, self.cards.top
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
            if not self.own_place:
                return None
            # melds.wild_natural: a run of wild cards only is read from one in its own place
            first = next(((i, c) for i, c in enumerate(cards) if c in self.wild_naturals and c < self.suited), None)
            if first is None:
                return None
            index, card = first
            for value in values_of(card, self.ace_low, self.ace_high, self.stride):
                if self._fits(cards, value - index) and index in self._own_places(cards, value - index, card):
                    return value - index
            return None
        index, card = first
        for value in values_of(card, self.ace_low, self.ace_high, self.stride):
            start = value - index
            if self._fits(cards, start):
                return start
        return None

    def _fits(self, cards: Sequence[int], start: int) -> bool:
        wrap = self.rules.wrap
        wild = self.wild
        stride = self.stride
        if len(cards) > self.rules.run_max:
            return False
        if wrap:
            if len(cards) > self.wrap_span:
                return False
        elif start < self.lo or start + len(cards) - 1 > self.hi:
            return False
        want = start
        rank_of_value = self.cards.rank_of_value
        top = stride + 1
        for c in cards:
            if c not in wild:
                if wrap:
                    want = (want - self.wrap_base) % self.wrap_span + self.wrap_base
                # (the rank a run value stands for, looked up: this runs for every card
                # of every lay-off tried)
                if c % stride != rank_of_value[want] or (want == 1 and not self.ace_low) or \
                        (want == top and not self.ace_high and not wrap):
                    return False
            want += 1
        return True

    def _own_places(self, cards: Sequence[int], start: int, anchor: int) -> set[int]:
        """The places of ``cards`` (a run from ``start`` in the suit of ``anchor``) whose
        wild card stands in its own place."""
        suit = anchor // self.stride if self.same_suit else -1
        return set(range(len(cards))) - set(self.wild_places(cards, start, suit))

    def make(self, kind: MeldKind, cards: Sequence[int], least: int | None = None) -> Meld:
        """A checked meld (ValueError with the reason if it is not one); ``least`` as for
        :meth:`why_not_set`."""
        cards = tuple(cards)
        if kind is SET:
            problem = self.why_not_set(cards, least)
            if problem:
                raise ValueError(problem)
            naturals = [c for c in cards if c not in self.wild]
            if not naturals and self.own_place:  # a set of wild cards in their own rank: that rank
                naturals = self.own_rank_wilds(cards, naturals)
            return Meld(kind, cards, -1, 0, naturals[0] % self.stride if naturals else -1)
        if kind is GROUP:
            raise ValueError("a group of cards is a kind of melds.kinds: make it by its name")
        problem = self.why_not_run(cards, least)
        if problem:
            raise ValueError(problem)
        suit = self.run_suit(cards) if self.own_place else \
            next(c // self.stride for c in cards if c not in self.wild) if self.same_suit else -1
        return Meld(kind, cards, suit, self.run_start(cards) or 0)

    # --- kinds of the ruleset's own (melds.kinds) ------------------------------------------------
    def make_run(self, cards: Sequence[int], least: int | None = None) -> Meld:
        """A checked run of ``cards`` written low to high, or else high to low (ValueError
        with the reason the cards as written are no run)."""
        cards = tuple(cards)
        try:
            return self.make(RUN, cards, least)
        except ValueError:
            if self.why_not_run(cards[::-1], least) is not None:
                raise
            return self.make(RUN, cards[::-1], least)

    def make_kind(self, name: str, cards: Sequence[int]) -> Meld:
        """A checked meld of the kind ``name`` of melds.kinds (ValueError with the reason
        if the cards are not one): a set or a run (in this order, or high to low) that
        meets the kind's rule, or cards of one colour, of one suit, or any."""
        kind = self.kinds.get(name)
        if kind is None:
            raise ValueError(f"'{name}' is no kind of meld here")
        cards = tuple(cards)
        if len(cards) < kind.min_size:
            raise ValueError(f"a {name} needs at least {kind.min_size} cards")
        if kind.like is Like.SET or kind.like is Like.RUN:
            meld = (self.make(SET, cards, kind.min_size) if kind.like is Like.SET
                    else self.make_run(cards, kind.min_size))._replace(name=name)
        else:
            meld = Meld(GROUP, cards, self._group_of(kind, cards), 0, -1, name)
        if not self.meets_rule(kind, meld.cards):
            raise ValueError(f"the cards are no {name}" + (f" ({kind.description})" if kind.description else "")
                             + (f": {kind.rule.source}" if kind.rule is not None and not kind.description else ""))
        return meld

    def _group_of(self, kind: MeldKindRule, cards: Sequence[int]) -> int:
        """The colour or suit a group's natural cards share (-1 for ``like: any``);
        ValueError when they do not, or a card goes in no meld or the jokers' limits."""
        dead = self._dead_card(cards)
        if dead:
            raise ValueError(dead)
        naturals = [c for c in cards if c not in self.wild]
        problem = self._joker_problem(len(cards), len(cards) - len(naturals), False)
        if problem:
            raise ValueError(problem.replace("a set", f"a {kind.name}"))
        if kind.like is Like.ANY:
            return -1
        stride = self.stride
        groups = {self.colour_of[c // stride] if kind.like is Like.COLOUR else c // stride for c in naturals}
        if len(groups) > 1:
            raise ValueError(f"a {kind.name}'s natural cards must all be of one {kind.like.value}")
        return groups.pop() if groups else -1

    def meets_rule(self, kind: MeldKindRule, cards: Sequence[int]) -> bool:
        """Whether ``cards`` meet the rule of ``kind`` (true without one); kept per cards."""
        if kind.rule is None:
            return True
        key = (kind.name, tuple(sorted(cards)))
        got = self._kind_verdicts.get(key)
        if got is None:
            stride = self.stride
            naturals = [c for c in cards if c not in self.wild]
            ranks = [self.cards.pack.value_of[c] for c in naturals]
            suits = [c // stride for c in naturals]
            colours = [self.colour_of[s] for s in suits]
            env = {**self.env, "size": len(cards), "naturals": len(naturals), "wilds": len(cards) - len(naturals),
                   "ranks": ranks, "suits": suits, "colours": colours, "distinct_ranks": len(set(ranks)),
                   "distinct_suits": len(set(suits)), "distinct_colours": len(set(colours))}
            try:
                got = bool(kind.rule(env))
            except EvaluationError as exc:
                raise EvaluationError(f"melds.kinds.{kind.name}.rule '{kind.rule.source}': {exc}",
                                      ("melds", "kinds", kind.name, "rule")) from None
            if len(self._kind_verdicts) > 65536:
                self._kind_verdicts.clear()
            self._kind_verdicts[key] = got
        return got

    def is_kind(self, name: str, meld: Meld) -> bool:
        """Whether ``meld`` is a meld of the kind ``name`` (already named so, or a set or
        run like it that meets its rule)."""
        if meld.name == name:
            return True
        kind = self.kinds.get(name)
        if kind is None or meld.kind is not kind.kind or meld.kind is GROUP or len(meld.cards) < kind.min_size:
            return False
        return self.meets_rule(kind, meld.cards)

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
        dead = self._dead_card(cards)
        if dead:
            raise ValueError(dead)
        naturals = [c for c in cards if c not in self.wild]
        if len({c % self.stride for c in naturals}) <= 1:
            raise ValueError(set_problem)
        if len({c // self.stride for c in naturals}) == 1:
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
        for name, own in self.kinds.items():  # a group of cards is one only as a kind of the ruleset's
            if own.kind is GROUP:
                try:
                    out.append(self.make_kind(name, cards))
                except ValueError:
                    pass
        if not out:
            self.classify(cards)  # raises with the reason
        return out
