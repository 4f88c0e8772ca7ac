"""A third game family, small enough to read in one sitting: "high card".  Each seat
lays a card, the highest rank takes the trick (the first laid of equal ranks), the
taker leads the next, and each trick scores the ruleset's ``high_card.points``.

It is a package of its own (its pyproject.toml publishes ``FAMILY`` under the
``cardrules.families`` entry point) and uses only cardrules' public protocol: installed,
it validates, plays, records, replays, simulates (in worker processes too), explains and
serves with no line of cardrules changed (tests/test_plugin_family.py). It brings no
table views, so the terminal and the browser use their generic ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from cardrules.interpreter.cards import NAMES, card
from cardrules.interpreter.deal import Deal, deal_from_event
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.expressions import Compiled, Type
from cardrules.interpreter.family import FamilyDefaults, GameFamily, PolicyFactory
from cardrules.interpreter.game import CHANCE, OVER, GameState
from cardrules.interpreter.privacy import Seen
from cardrules.interpreter.rules import ROUND_NAMES

SCHEMA = {"properties": {"high_card": {"type": "object", "additionalProperties": False, "properties": {
    "points": {"type": ["integer", "string"], "description": "Points a trick scores: an expression of round."}}}},
    "required": []}


@dataclass(frozen=True)
class HighCardRules:
    points: Compiled


@dataclass(frozen=True, slots=True)
class Lay:
    card: int

    def __str__(self) -> str:
        return f"lay {NAMES[self.card]}"


class HighCardObservation(NamedTuple):
    seat: int
    players: int
    round: int
    rounds: int
    hand_size: int
    dealer: int
    phase: str
    turn: int
    totals: tuple[int, ...]
    hand: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    taken: tuple[int, ...]


class HighCardState(GameState):
    def __init__(self, *args: Any):
        super().__init__(*args)
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.trick: list[tuple[int, int]] = []
        self.taken = [0] * self.players

    def legal_actions(self) -> list[Any]:
        if self.turn == CHANCE:
            return [self.chance_action()]
        return [] if self.turn == OVER else [Lay(c) for c in dict.fromkeys(self.hands[self.turn])]

    def verify(self, action: Any) -> None:
        if self.turn == CHANCE:
            self.verify_deal(action)
        elif self.turn == OVER:
            raise IllegalActionError("the game is over")
        elif not isinstance(action, Lay) or action.card not in self.hands[self.turn]:
            raise IllegalActionError(f"you do not hold that card: '{action}'")

    def _do(self, action: Any, checked: Any) -> None:
        if isinstance(action, Deal):
            self.hands = [list(h) for h in action.hands]
            self.taken = [0] * self.players
            self.log_deal(action)
            self.turn = (self.dealer + 1) % self.players
            return
        seat = self.turn
        self.hands[seat].remove(action.card)
        self.trick.append((seat, action.card))
        self.log({"event": "lay", "round": self.round, "seat": seat, "card": NAMES[action.card]})
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            return
        winner = max(self.trick, key=lambda play: (play[1] % 13, -self.trick.index(play)))[0]
        self.taken[winner] += 1
        self.log({"event": "take", "round": self.round, "winner": winner})
        self.trick, self.turn = [], winner
        if not self.hands[winner]:
            points = self.rules.section.points(self.round_env())
            self.score_round([t * points for t in self.taken])

    def observation(self, seat: int | None) -> HighCardObservation:
        return HighCardObservation(-1 if seat is None else seat, self.players, self.round, self.rounds,
                                   self.hand_size if self.turn != OVER else 0, self.dealer,
                                   "over" if self.turn == OVER else "play", self.turn, tuple(self.totals),
                                   () if seat is None else tuple(self.hands[seat]), tuple(self.trick),
                                   tuple(self.taken))

    def _copy_into(self, new: Any) -> None:
        new.hands = [h[:] for h in self.hands]
        new.trick, new.taken = self.trick[:], self.taken[:]


class HighestCardBot:
    kind, needs_observation = "bot", True

    def __init__(self, rules: Any, seed: int) -> None:
        pass

    def act(self, observation: Any, legal: Any) -> Any:
        return max(legal, key=lambda lay: lay.card % 13)


class HighCard(FamilyDefaults):
    name = "high-card"
    schema: Mapping[str, Any] = SCHEMA
    bound_names: frozenset[str] = frozenset()
    record_events: tuple[str, ...] = ("lay", "take")
    derived_events = frozenset({"take"})
    optional_fields: frozenset[str] = frozenset()
    policies: Mapping[str, PolicyFactory] = {"bot": HighestCardBot}

    def event_visibility(self, rules: Any) -> dict[str, Any]:
        # every card is laid face up
        return {"lay": {"seat": Seen.ALL, "card": Seen.ALL}, "take": {"winner": Seen.ALL}}

    def default_upcard(self, builder: Any) -> bool:
        return False

    def build_section(self, builder: Any) -> HighCardRules:
        return HighCardRules(builder.expr(("high_card", "points"), ROUND_NAMES, Type.INT, 1))

    def schedule(self, section: Any, sizes: Any) -> list[int]:
        return sizes if isinstance(sizes, list) else [sizes]

    def check_setup(self, rules: Any, setup: Any, report: Any) -> None:
        if max(setup.hand_sizes) * setup.players > setup.deck_size:
            report(("deal", "hand_size"), f"with {setup.players} players the deck is too small")

    def names(self) -> dict[str, Type]:
        return dict(ROUND_NAMES)

    def dead_ends(self, rules: Any, setup: Any, steps: Any, rng: Any) -> list[Any]:
        return []

    def new_state(self, rules: Any, players: int, seed: int, names: Any, mode: Any, ref: Any) -> GameState:
        return HighCardState(rules, players, seed, names, mode, ref)

    def parse_input(self, rules: Any, observation: Any, text: str) -> Any:
        words = text.lower().split()
        try:
            return Lay(card(words[-1]))
        except (ValueError, IndexError):
            raise IllegalActionError("type a card, e.g. 'lay QS'") from None

    def candidate_actions(self, state: Any) -> list[Any]:
        return [Lay(c) for c in range(53)]  # every card of the pack, and the joker

    def action_from_event(self, state: Any, event: dict[str, Any]) -> Any:
        if event["event"] == "deal":
            return deal_from_event(event, state.deck)
        return Lay(card(event["card"])) if event["event"] == "lay" else None

    def summarize(self, state: Any) -> dict[str, Any]:
        return {"rounds": state.round_index}

    def aggregate(self, summaries: Any, players: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [{} for _ in range(players)], {"high_card": {"rounds": sum(s["rounds"] for s in summaries)}}

    def metrics(self) -> list[Any]:
        return []

    def explain(self, rules: Any, notes: bool = False) -> list[str]:
        return ["## Play", "", "Each player lays a card; the highest rank takes the trick, which scores "
                f"`{rules.section.points.source}`.", ""]


FAMILY: GameFamily = HighCard()  # mypy --strict checks it against the protocol (tests/test_types.py)
