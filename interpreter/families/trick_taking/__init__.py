"""The trick-taking family (bid your tricks, then take them, or take what the cards are
worth): deal -> trump -> (exchange) -> bidding -> trick play -> scoring by default, the
round's phases and each rule from the ruleset.  :data:`FAMILY` is what the core
talks to (see :mod:`cardrules.interpreter.family`)."""

from __future__ import annotations

import itertools
import random

import json
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

from ...expressions import Steps, Type
from ...family import DeadEnd, EncodableFamily, FamilyDefaults, SearchableFamily
from ...game import GameState
from ...privacy import Declaration, Seen
from ...rules import RulesBuilder, Ruleset, Setup
from . import auction, checks, determinize, encoding, explain, rules, stats, textio
from . import names as bound
from .actions import Move, TrickAction
from .bot import TrickBot
from .state import state_class


_PUBLIC_EVENTS: Mapping[str, Declaration] = {
    "trump": {"suit": Seen.ALL, "seat": Seen.ALL, "upcard": Seen.ALL, "alone": Seen.ALL},
    "bid": {"seat": Seen.ALL, "bid": Seen.ALL, "blind": Seen.ALL},
    "look": {"seat": Seen.ALL},  # a seat that might have bid blind looked at its hand
    "play": {"trick": Seen.ALL, "seat": Seen.ALL, "card": Seen.ALL, "as": Seen.ALL},
    "trick": {"trick": Seen.ALL, "winner": Seen.ALL},
    # the exchange: who passes to whom is public, the card only its passer's; the cards
    # received only the receiver's (the event names the receiving seat); a card laid aside
    # (exchange.direction: aside) its owner's, and with exchange.bid shown to all at the
    # round's end (laid_aside: the cards and the bid they make)
    "pass": {"seat": Seen.ALL, "to": Seen.ALL, "card": Seen.ACTOR, "aside": Seen.ALL},
    "receive": {"seat": Seen.ALL, "from": Seen.ALL, "cards": Seen.ACTOR},
    "laid_aside": {"seat": Seen.ALL, "cards": Seen.ALL, "bid": Seen.ALL},
    # trump made at the table: a pass, the turned card taken (public), the card laid aside
    # (its discarder's only)
    "decline": {"seat": Seen.ALL},
    "pickup": {"seat": Seen.ALL, "card": Seen.ALL},
    "discard": {"seat": Seen.ALL, "card": Seen.ACTOR},
    # an auction: every call (a pass is a decline) and the contract it made are public
    "call": {"seat": Seen.ALL, "tricks": Seen.ALL, "suit": Seen.ALL},
    "contract": {"seat": Seen.ALL, "tricks": Seen.ALL, "suit": Seen.ALL},
    # the kitty: who took it is public, its cards the taker's only
    "kitty": {"seat": Seen.ALL, "cards": Seen.ACTOR},
    # a seat sitting the hand out by sits_out (public; its laid-aside hand is in no event)
    "sit_out": {"seat": Seen.ALL},
}


class TrickTaking(FamilyDefaults):
    """The family object registered under ``trick-taking``."""

    name = "trick-taking"
    any_pack = True  # it reads every card through the ruleset's pack (deck.suits, ranks, specials)
    # names a let may not take (those of bidding and scoring); the names of the other
    # places (play, trump, the leader, counters) hide a let of the same spelling there
    bound_names = frozenset(bound.BID_NAMES) | frozenset(bound.SCORE_NAMES)
    record_events: tuple[str, ...] = ("trump", "decline", "pickup", "discard", "pass", "receive", "call", "contract",
                                      "kitty", "look", "bid", "play", "trick", "sit_out", "laid_aside")
    derived_events = frozenset({"trump", "trick", "receive", "pickup", "contract", "kitty", "sit_out", "laid_aside"})
    optional_fields: frozenset[str] = frozenset()
    policies: Mapping[str, Callable[..., Any]] = {"bot": TrickBot}
    # the table views, imported only by what draws them (the interpreter never imports cli or web)
    summaries_add_up = True  # every figure of summarize() is a count or a sum: simulate adds them as it goes
    views: Mapping[str, str] = {"terminal": "cardrules.narration.families.trick_taking:TrickView",
                                "web": "cardrules.web.families.trick_taking:TrickWebView"}

    def __init__(self) -> None:
        text = resources.files(__package__).joinpath("schema.json").read_text("utf-8")
        self.schema = json.loads(text)

    def default_upcard(self, builder: RulesBuilder) -> bool:
        return rules.default_upcard(builder)

    def event_visibility(self, ruleset: Ruleset) -> Mapping[str, Declaration]:
        """Every field of this family's events is public once logged: a trump hidden
        during the bidding is logged when it is revealed, and bids made at once are held
        back until all are made (see state.py)."""
        return _PUBLIC_EVENTS

    def build_section(self, builder: RulesBuilder) -> rules.TrickRules:
        return rules.build_section(builder)

    def schedule(self, section: Any, sizes: int | list[int]) -> list[int]:
        return rules.schedule(section, sizes)

    def check_setup(self, ruleset: Ruleset, setup: Setup, report: Callable[..., None]) -> None:
        rules.check_setup(ruleset, setup, report)

    def counter_names(self, section: Any) -> list[str]:
        """The counters' names (``rounds.end_when`` reads them as lists by seat, ``winner_by``
        as each seat's value)."""
        return [c.name for c in section.counters]

    def names(self) -> Mapping[str, Type]:
        return {**bound.BID_NAMES, **bound.SCORE_NAMES, **bound.PLAY_NAMES, **bound.TRUMP_NAMES, **bound.LEADER_NAMES,
                **bound.COUNTER_NAMES}

    def dead_ends(self, ruleset: Ruleset, setup: Setup, steps: Steps, rng: Any) -> list[DeadEnd]:
        section: rules.TrickRules = ruleset.section
        simultaneous = section.bidding.order is rules.BidOrder.SIMULTANEOUS
        read = frozenset().union(*(r.rule.names for r in section.bidding.restrictions))
        counters = [c for c in section.counters if c.name in read]
        contract = None
        calls_none = False  # a call of 0 tricks may win the auction
        if section.auction is not None:  # the estimates after an auction: its lowest call won by the first bidder
            calls = list(section.auction.tricks(setup.round_env(0)))
            contract = min((n for n in calls if n > 0), default=None)
            calls_none = 0 in calls
        if not counters:
            step = ruleset.deal.direction.step
            # (the two searches share the budget: the second gets what the first left)
            ends: list[DeadEnd] = list(auction.dead_ends(section.bidding, setup, simultaneous, steps, rng,
                                                         contract=contract, step=step))
            if calls_none and not ends:  # (a warning: such a file validated when a call of 0 was taken for a pass)
                ends = [(path, f"{message}, when a call of 0 tricks wins the auction", False) for path, message in
                        auction.dead_ends(section.bidding, setup, simultaneous, steps, rng, contract=0,
                                          step=step)]
            return ends
        # The bids depend on what earlier rounds left in the counters: try each counter at
        # its starting values and at 0, 1 and 2, the last (or the first) bidder holding one
        # combination and the others another. Such a dead end may need values the game
        # never reaches, so it is a warning; the playouts find the ones that happen.
        values: list[list[int]] = []
        for counter in counters:
            found = {0, 1, 2}
            for seat in range(setup.players):
                found.add(int(counter.initial({**setup.round_env(0), "seat": seat})))
            values.append(sorted(found)[:5])
        names = [c.name for c in counters]
        combinations = [dict(zip(names, c)) for c in itertools.islice(itertools.product(*values), 6)]
        tries = [(target, own, rest) for target in (setup.players - 1, 0)  # the last bidder, the first
                 for own in combinations for rest in combinations]
        budget = Steps(steps.left // 4)  # a quarter of the budget, an eighth of that for each try
        for target, own, rest in tries:
            if budget.left <= 0:
                break
            tried = Steps(min(budget.left, budget.limit // 8))
            found_ends = auction.dead_ends(section.bidding, setup, simultaneous, tried, rng,
                                           lambda position: own if position == target else rest, contract,
                                           ruleset.deal.direction.step)
            budget.left -= tried.limit - tried.left
            steps.left -= tried.limit - tried.left
            for path, message in found_ends:
                held = ", ".join(f"`{name}` {value}" for name, value in own.items())
                others = ", ".join(f"`{name}` {value}" for name, value in rest.items())
                return [(path, f"{message}, when that seat holds {held} and the others {others} (the game may "
                         "never reach these values)", False)]
        return []

    def new_state(self, ruleset: Ruleset, players: int, seed: int, names: Sequence[str] | None,
                  mode: str | None, ruleset_ref: str | None) -> GameState:
        return state_class(ruleset)(ruleset, players, seed, names, mode, ruleset_ref)

    def parse_input(self, ruleset: Ruleset, observation: Any, text: str) -> TrickAction:
        section: rules.TrickRules = ruleset.section
        roles = section.order.roles if section.order is not None else None
        if observation.phase == "auction":
            return textio.parse_call(text, ruleset.deck.pack)
        return textio.parse_input(observation.phase, text, ruleset.deck.pack, roles,
                                  observation.upcard if observation.making_round == 1 else None)

    def determinize(self, ruleset: Ruleset, observation: Any, memory: dict[str, Any], rng: random.Random) -> GameState:
        return determinize.determinize(ruleset, observation, memory, rng)

    def steps_per_line(self, players: int) -> int:
        """The most actions one record line stands for: every action is a line of its own."""
        return 1

    def action_codec(self, ruleset: Ruleset, players: int) -> encoding.TrickCodec:
        return encoding.TrickCodec(ruleset, players)

    def observation_encoder(self, ruleset: Ruleset, players: int) -> encoding.TrickEncoder:
        return encoding.TrickEncoder(ruleset, players)

    def candidate_actions(self, state: Any) -> list[TrickAction]:
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


FAMILY = TrickTaking()
# mypy --strict checks the object against every protocol it plays by (tests/test_types.py)
_PLAYS_BY: tuple[SearchableFamily, EncodableFamily] = (FAMILY, FAMILY)

EXAMPLE = """
family: trick-taking
players: {min: 3, max: 6}
let: {first: "if players <= 5 then 10 else 8"}
deal: {hand_size: "[first..1, 2..first]"}
trump: {kind: upcard}
bidding:
  restrictions:
    - {rule: "not (is_last and sum(bids) + bid == hand_size)", message: "the dealer may not bid {bid}"}
scoring: {points: "tricks + (if tricks == bid then 10 else 0)"}
winner: highest
"""  # a small trick-taking ruleset, for the examples in docstrings
