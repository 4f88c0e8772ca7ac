"""Whether a go-down meets the round's contract (:class:`ContractReading`, a part of
:class:`~.melds.MeldEngine`): a go-down as written read meld by meld
(:meth:`~ContractReading.read_contract`), or with its kinds given
(:meth:`~ContractReading.make_contract`), and checked against the contract and the
rules of the initial meld (:meth:`~ContractReading.contract_problem`)."""

from __future__ import annotations

import itertools
from typing import Sequence

from .meld_checks import Meld, MeldChecks
from .rules import EITHER, GROUP, RUN, SET, MeldKind, MeldSpec


def describe_contract(contract: Sequence[MeldSpec]) -> str:
    return ", ".join(str(s) for s in contract)


class ContractReading(MeldChecks):
    """Reads a go-down's melds and checks them against a contract."""

    def read_contract(self, written: Sequence[Sequence[int]], contract: Sequence[MeldSpec]) -> list[Meld]:
        """The melds of a go-down as written, each read as a set or a run so that together
        they meet ``contract`` when some reading does (ValueError naming the meld when one
        is no meld; the contract's problem with the first reading when none meets it)."""
        options = []
        for i, cards in enumerate(written, 1):
            try:
                options.append(self.readings(cards))
            except ValueError as exc:
                shown = " ".join(self.codes[c] for c in cards)
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
                    return self.named(melds, contract)
            problem = self.contract_problem(first, contract)
        if problem:
            raise ValueError(problem)
        return self.named(first, contract)

    def make_contract(self, written: Sequence[Sequence[int]], kinds: Sequence[str],
                      contract: Sequence[MeldSpec]) -> list[Meld]:
        """The melds of a go-down whose kinds are given (a listed or recorded one), checked
        against ``contract`` (ValueError naming the meld or the contract's problem)."""
        if len(kinds) != len(written):
            raise ValueError(f"{len(written)} melds but {len(kinds)} kinds")
        melds = []
        for i, (cards, kind) in enumerate(zip(written, kinds), 1):
            if kind not in ("set", "run") and kind not in self.kinds:
                raise ValueError(f"meld {i} is a '{kind}': a meld is a set or a run"
                                 + (f", or {', '.join(self.kinds)}" if self.kinds else ""))
            try:
                melds.append(self.make(MeldKind(kind), cards) if kind in ("set", "run") else self.make_kind(kind, cards))
            except ValueError as exc:
                shown = " ".join(self.codes[c] for c in cards)
                raise ValueError(f"meld {i} ({shown}) is not a {kind}: {exc}") from None
        problem = self.contract_problem(melds, contract)
        if problem:
            raise ValueError(problem)
        return self.named(melds, contract)

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
        return self._match(melds, contract)[0]

    def named(self, melds: Sequence[Meld], contract: Sequence[MeldSpec]) -> list[Meld]:
        """``melds`` (which meet ``contract``), each that meets a part of a kind of the
        ruleset's own named so, so that lay-offs keep to its rule."""
        if not self.kinds:
            return list(melds)
        names = self._match(melds, contract)[1]
        return [m._replace(name=names[i]) if names.get(i) and not m.name else m for i, m in enumerate(melds)]

    def _match(self, melds: Sequence[Meld], contract: Sequence[MeldSpec]) -> tuple[str | None, dict[int, str]]:
        """contract_problem's answer, and the kind's name of each meld (by place) matched
        to a part of a kind of the ruleset's own."""
        extra, exact = self.going_down.extra_melds, self.going_down.exact_sizes
        if len(melds) < len(contract) or (len(melds) > len(contract) and not extra):
            return (f"the contract is {'at least' if extra else 'exactly'} {describe_contract(contract)}; "
                    f"you put down {len(melds)} meld(s)"), {}
        # Match each part to a meld: the parts of one kind first, each taking the smallest
        # meld that meets it (so the largest are left for the parts that may be either
        # kind), smallest parts first; then the parts of either kind, the same way.  (The
        # parts of a kind of the ruleset's own come first: a meld of one meets a plain part too.)
        remaining = sorted(range(len(melds)), key=lambda i: len(melds[i].cards))
        ordered = sorted(contract, key=lambda s: (not s.name, s.kind is EITHER, s.min_size))
        names: dict[int, str] = {}
        for spec in ordered:
            size = spec.min_size
            name = spec.name
            match = next((i for i in remaining if ((spec.kind is EITHER and melds[i].kind is not GROUP) or
                                                   (melds[i].kind is spec.kind and
                                                    (not name or self.is_kind(name, melds[i]))))
                          and (len(melds[i].cards) == size if exact else len(melds[i].cards) >= size)), None)
            if match is None:
                kind = "set or run" if spec.kind is EITHER else name or spec.kind.value
                return (f"the contract is {describe_contract(contract)}: no {kind} of "
                        f"{size if exact else f'{size} or more'}" + (" (contract melds go down at exactly "
                                                                     "their size)" if exact else "")), {}
            if name:
                names[match] = name
            remaining.remove(match)
        return self.initial_problem(melds), names
