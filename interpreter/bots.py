"""Seat policies: ``random`` (uniform over the legal actions) for every family, and
the kinds each family adds (its heuristic ``bot``).

A policy sees what a player sees: the rules, its seat's observation and the legal
actions (see :class:`cardrules.interpreter.family.Policy`).  Each policy has its own
RNG, seeded from the game seed and its seat, so the deal never depends on how bots
choose.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any, Callable, Sequence

from . import search
from .family import Policy, encodable, searchable
from .rules import Ruleset


class RandomBot:
    """Chooses uniformly among the legal actions."""

    kind = "random"
    needs_observation = False

    def __init__(self, rules: Ruleset | None = None, seed: int | str = 0):
        self.rng = random.Random(seed)
        # choose_index(count): the same choice as act(), by place (the same RNG draw).
        # It is the RNG's own randrange (the public one, as the hand-written benchmark
        # yardstick uses, so the speed comparison stays like for like), bound here so
        # that a move costs no call of ours around it.
        self.choose_index: Callable[[int], int] = self.rng.randrange

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[self.choose_index(len(legal))]


ISMCTS = "ismcts"  # OpenSpiel's IS-MCTS, through cardrules.openspiel (the `openspiel` extra)
ISMCTS_MISSING = "seat kind '{kind}' needs OpenSpiel: pip install 'cardrules[openspiel]'"


def is_ismcts_kind(kind: str) -> bool:
    return kind == ISMCTS or kind.startswith(ISMCTS + ":")


def _has_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def _has_ismcts(rules: Ruleset) -> bool:
    family = rules.family
    return encodable(family) is not None and searchable(family) is not None


def seat_kinds(rules: Ruleset) -> tuple[str, ...]:
    """The bot kinds that can take a seat in games of ``rules`` (``search`` also takes a
    budget: ``search:300`` playouts or ``search:0.5s`` a decision).  The kinds of an
    extra (:func:`extra_seat_kinds`) are not among them: a web room never offers one."""
    kinds = ("random",) + tuple(k for k in rules.family.policies if k != "random")
    return kinds + ((search.KIND,) if search.has_search(rules) else ())


def extra_seat_kinds(rules: Ruleset) -> tuple[str, ...]:
    """The seat kinds an installed extra adds for games of ``rules``, at the command line:
    ``ismcts`` where OpenSpiel is installed (``ismcts:100`` simulations, ``ismcts:0.5s``)."""
    return (ISMCTS,) if _has_ismcts(rules) and _has_openspiel() else ()


def check_seat_kind(rules: Ruleset, kind: str) -> None:
    """Raise ValueError, saying why, unless ``kind`` can take a seat in games of ``rules``."""
    if is_ismcts_kind(kind):
        if not _has_ismcts(rules):
            raise ValueError(f"the {rules.family.name} family has no ismcts seat "
                             f"(kinds: {', '.join(seat_kinds(rules) + extra_seat_kinds(rules))})")
        if not _has_openspiel():
            raise ValueError(ISMCTS_MISSING.format(kind=kind))
        _openspiel(kind).parse_budget(kind)
        return
    if search.is_search_kind(kind):
        search.parse_budget(kind)
        if not search.has_search(rules):
            raise ValueError(f"the {rules.family.name} family has no search bot "
                             f"(kinds: {', '.join(seat_kinds(rules))})")
        return
    if kind not in seat_kinds(rules):
        raise ValueError(f"no seat kind '{kind}' for {rules.family.name} games "
                         f"(kinds: {', '.join(seat_kinds(rules))})")


def make_policy(rules: Ruleset, kind: str, seed: int, seat: int) -> Policy:
    """A bot of ``kind`` for ``seat`` with its own RNG seeded from the game seed."""
    rng_seed = seed * 64 + seat
    if kind == "random":
        return RandomBot(rules, rng_seed)
    if search.is_search_kind(kind):
        check_seat_kind(rules, kind)
        return search.make_search(rules, kind, rng_seed)
    if is_ismcts_kind(kind):
        check_seat_kind(rules, kind)
        seat_policy: Policy = _openspiel(kind).make_ismcts(rules, kind, rng_seed)
        return seat_policy
    factory = rules.family.policies.get(kind)
    if factory is None:
        raise ValueError(f"no seat kind '{kind}' for {rules.family.name} games "
                         f"(kinds: {', '.join(seat_kinds(rules))})")
    policy: Policy = factory(rules, rng_seed)
    return policy


def make_policies(rules: Ruleset, kinds: Sequence[str], seed: int) -> list[Policy]:
    return [make_policy(rules, kind, seed, seat) for seat, kind in enumerate(kinds)]


def _openspiel(kind: str) -> Any:
    """cardrules.openspiel, imported only for a seat that needs it."""
    try:
        from .. import openspiel
    except ImportError:
        raise ValueError(ISMCTS_MISSING.format(kind=kind)) from None
    return openspiel
