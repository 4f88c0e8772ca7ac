"""Melds for contract rummy: what makes a set or a run, where a card can be laid off,
which joker a natural card can replace, and how a hand can meet a contract.

:class:`MeldEngine` is the one object the state and the bots ask; it is composed of one
class a concern, each in its own module:

- :mod:`.meld_checks`: :class:`Meld`, and whether cards make a set or a run (and why
  not): ``make``, ``classify``, ``readings``, ``limits``;
- :mod:`.meld_contracts`: whether a go-down meets the contract: ``read_contract``,
  ``make_contract``, ``contract_problem``;
- :mod:`.meld_layoffs`: lay-offs and joker swaps on the table's melds, and the per-meld
  answers the listing of moves asks: ``lay_off``, ``swap``, ``accepts``, ``fits``;
- :mod:`.meld_search`: the go-down search: ``go_down_options``, ``fuller_go_downs``;
- :mod:`.meld_out`: the best melding of a whole hand: ``best_melding``, ``melds_out``.

A run is kept in order, low to high, with each joker in the place it stands for;
``start`` is the value of its first place (2..13 for two to king, 1 or 14 for the ace).
Every rule that varies between tables comes from :class:`~.rules.MeldRules` in the ruleset.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ...cards import JOKER, RANKS
from .meld_checks import Meld, MeldChecks, card_for, values_of
from .meld_contracts import ContractReading, describe_contract
from .meld_layoffs import LayOffs
from .meld_out import MeldingOut
from .meld_search import GoDownSearch

__all__ = ["Meld", "MeldEngine", "card_for", "card_points", "describe_contract", "values_of"]


class MeldEngine(GoDownSearch, ContractReading, LayOffs, MeldingOut, MeldChecks):
    """The meld rules of one ruleset for one game: it makes and checks melds, lays off,
    swaps jokers, and searches a hand for ways to meet a contract (joker limits
    evaluated lazily, cached).  ``MeldEngine(rules, env, wild, going_down, pack)``: the
    ruleset's ``melds`` and ``going_down`` rules, the game's names, the round's wild
    cards, the game's pack (the standard one by default)."""


def card_points(cards: Sequence[int], table: Mapping[str, int] | Sequence[int]) -> int:
    """The penalty points of ``cards``: ``table`` is a round's points by card (see
    :func:`.rules.round_card_points`), or a standard pack's ``card_points`` mapping of
    rank codes (and ``JK``)."""
    if not isinstance(table, Mapping):
        return sum(table[c] for c in cards)
    return sum(table["JK" if c == JOKER else RANKS[c % 13]] for c in cards)
