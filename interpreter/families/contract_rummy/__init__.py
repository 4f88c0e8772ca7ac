"""The contract-rummy family (a contract of melds each round): a contract per round, draw
or take the discard (others may buy it), go down with exactly the contract, lay off,
swap jokers, go out; penalty points for cards left in hand.  :data:`FAMILY` is what
the core talks to (see :mod:`cardrules.interpreter.family`)."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

from ...expressions import Steps, Type
from ...family import DeadEnd, EncodableFamily, FamilyDefaults, SearchableFamily
from ...game import GameState
from ...privacy import Declaration
from ...rules import RulesBuilder, Ruleset, Setup
from . import checks, determinize, encoding, events, explain, rules, setup_checks, stats, textio
from .actions import RummyAction
from .bot import RummyBot
from .state import Move, RummyState


class ContractRummy(FamilyDefaults):
    """The family object registered under ``contract-rummy``."""

    name = "contract-rummy"
    any_pack = True  # it reads every card through the ruleset's pack (deck.suits, ranks, specials)
    bound_names = frozenset(rules.MELD_NAMES) | frozenset(rules.BONUS_NAMES)
    record_events: tuple[str, ...] = rules.RECORD_EVENTS
    # (bury and choose are outcomes and moves, read where they belong; anywhere else they are refused)
    derived_events = frozenset({"out", "reshuffle", "exhausted", "bonus", "laydown", "contracts", "skip", "bury",
                                "choose"})
    # a reshuffle that a buy's penalty cards call for is written before the buy (records of
    # earlier releases wrote it after; replay reads both)
    leading_events: Mapping[str, str] = {"reshuffle": "buy"}
    optional_fields = frozenset({"cards_after", "refused"})  # (refused: records of earlier releases lack it)
    policies: Mapping[str, Callable[..., Any]] = {"bot": RummyBot}
    # the table views, imported only by what draws them (the interpreter never imports cli or web)
    summaries_add_up = True  # every figure of summarize() is a count or a sum: simulate adds them as it goes
    views: Mapping[str, str] = {"terminal": "cardrules.narration.families.contract_rummy:RummyView",
                                "web": "cardrules.web.families.contract_rummy:RummyWebView"}

    def __init__(self) -> None:
        text = resources.files(__package__).joinpath("schema.json").read_text("utf-8")
        self.schema = json.loads(text)

    def default_upcard(self, builder: RulesBuilder) -> bool:
        return True  # the flip card starts the discard pile

    def event_visibility(self, ruleset: Ruleset) -> Mapping[str, Declaration]:
        """Who sees each field of this family's events (:func:`.events.visibility`)."""
        return events.visibility(ruleset.section)

    def build_section(self, builder: RulesBuilder) -> rules.RummyRules:
        return rules.build_section(builder)

    def schedule(self, section: Any, sizes: int | list[int]) -> list[int]:
        return rules.schedule(section, sizes)

    def check_setup(self, ruleset: Ruleset, setup: Setup, report: Callable[..., None]) -> None:
        setup_checks.check_setup(ruleset, setup, report)

    def counter_names(self, section: Any) -> list[str]:
        """The counters' names (``rounds.end_when`` reads them as lists by seat, ``winner_by``
        as each seat's value)."""
        return [c.name for c in section.counters]

    def names(self) -> Mapping[str, Type]:
        return {**rules.MELD_NAMES, **rules.BONUS_NAMES}

    def dead_ends(self, ruleset: Ruleset, setup: Setup, steps: Steps, rng: Any) -> list[DeadEnd]:
        return []  # the engine's rules keep every turn able to end; games played test the rest

    def new_state(self, ruleset: Ruleset, players: int, seed: int, names: Sequence[str] | None,
                  mode: str | None, ruleset_ref: str | None) -> GameState:
        return RummyState(ruleset, players, seed, names, mode, ruleset_ref)

    def parse_input(self, ruleset: Ruleset, observation: Any, text: str) -> RummyAction:
        return textio.parse_input(ruleset.section.fitting_discard_call.name, text,
                                  getattr(observation, "phase", None) == "veto", ruleset.deck.pack)

    def remember(self, ruleset: Ruleset, observation: Any, memory: dict[str, Any]) -> None:
        determinize.remember(ruleset, observation, memory)

    def determinize(self, ruleset: Ruleset, observation: Any, memory: dict[str, Any], rng: random.Random) -> GameState:
        return determinize.determinize(ruleset, observation, memory, rng)

    def steps_per_line(self, players: int) -> int:
        """The most actions one record line stands for: a draw after a buying window is the decline, every seat's pass and the card off the stock; with a veto, the request and the answer; a buy also its penalty cards."""
        return 4 * players + 8

    def action_codec(self, ruleset: Ruleset, players: int) -> encoding.RummyCodec:
        return encoding.RummyCodec(ruleset, players)

    def observation_encoder(self, ruleset: Ruleset, players: int) -> encoding.RummyEncoder:
        return encoding.RummyEncoder(ruleset, players)

    def candidate_actions(self, state: Any) -> list[Move]:
        return checks.candidate_actions(state)

    def action_from_event(self, state: Any, event: dict[str, Any]) -> Move | None:
        return textio.action_from_event(state, event)

    def summarize(self, state: Any) -> dict[str, Any]:
        return stats.summarize(state)

    def aggregate(self, summaries: Sequence[dict[str, Any]], players: int) -> tuple[list[dict[str, Any]],
                                                                                 dict[str, Any]]:
        return stats.aggregate(summaries, players)

    def metrics(self) -> Sequence[tuple[str, Callable[[dict[str, Any]], float | None]]]:
        return stats.METRICS

    def explain(self, ruleset: Ruleset, notes: bool = False) -> list[str]:
        return explain.explain(ruleset, notes)


FAMILY = ContractRummy()
# mypy --strict checks the object against every protocol it plays by (tests/test_types.py)
_PLAYS_BY: tuple[SearchableFamily, EncodableFamily] = (FAMILY, FAMILY)
