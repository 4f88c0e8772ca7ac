"""Whether a go-down meets the round's contract (:class:`ContractReading`, a part of
:class:`~.melds.MeldEngine`): a go-down as written read meld by meld
(:meth:`~ContractReading.read_contract`), or with its kinds given
(:meth:`~ContractReading.make_contract`), and checked against the contract and the
rules of the initial meld (:meth:`~ContractReading.contract_problem`)."""

from __future__ import annotations

import itertools
from typing import Sequence

from .meld_checks import Meld, MeldChecks
from .rules import EITHER, RUN, SET, MeldKind, MeldSpec


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
                shown = " ".join(self.codes[c] for c in cards)
                raise ValueError(f"meld {i} ({shown}) is not a {kind}: {exc}") from None
        problem = self.contract_problem(melds, contract)
        if problem:
            raise ValueError(problem)
        return melds

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

