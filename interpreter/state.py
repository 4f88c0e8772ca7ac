"""What every game has, whatever its family: seats, rounds, the deal, totals, events.

A game state is made by :func:`new_game`; the family's state class (looked up in
:data:`FAMILIES`, never by variant name) adds its phases.  The API is small:

- ``state.turn``: the seat to act, :data:`CHANCE` or :data:`OVER`;
- ``state.legal_actions()``, ``state.can_apply(a)``, ``state.verify(a)``, ``state.apply(a)``;
- ``state.chance_action()``: the next chance outcome, from the game's own RNG;
- ``state.observation(seat)``: what that seat may see (never another seat's hand);
- ``state.totals``, ``state.winners``, and ``state.events``: the append-only history,
  which is the game record (``../shared/spec/game-record.md``).

>>> from cardrules.interpreter.ruleset import EXAMPLE, ruleset_from_text
>>> state = new_game(ruleset_from_text(EXAMPLE), players=4, seed=7)
>>> state.turn == CHANCE
True
>>> state.apply(state.chance_action())
>>> state.turn, len(state.observation(1)["hand"])
(1, 10)
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Sequence

from .actions import Deal
from .cards import NAMES, make_deck
from .deal import deal_cards, verify_deal
from .errors import IllegalActionError
from .ruleset import Family, Ruleset, Setup
from .scoring import winners

CHANCE = -1
OVER = -2
RECORD_FORMAT = 1


class GameState(ABC):
    """The state shared by every family; subclasses implement the phases."""

    family: ClassVar[Family]

    def __init__(self, rules: Ruleset, players: int, seed: int, names: Sequence[str] | None = None,
                 mode: str | None = None, ruleset_ref: str | None = None):
        if not rules.min_players <= players <= rules.max_players:
            raise IllegalActionError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                                     f"players, not {players}")
        self.rules = rules
        self.setup: Setup = rules.setup(players, mode)
        self.players = players
        self.seed = seed
        self.mode = mode or rules.mode
        self.names = list(names) if names else [f"seat-{i}" for i in range(players)]
        if len(self.names) != players:
            raise ValueError("one name per seat")
        self.deck = make_deck(self.setup.decks, self.setup.jokers, rules.deck.ranks)
        self.totals = [0] * players
        self.round_index = 0
        self.turn = CHANCE
        self.moves = 0  # actions applied, chance included
        self.decisions = 0  # actions applied by seats
        first = rules.deal.first_dealer
        self.dealer = random.Random(f"{seed}/dealer").randrange(players) if first is None else first % players
        self._pending: Deal | None = None
        self._pending_round = 0
        self._legal: tuple[int, list[Any]] = (-1, [])  # (moves, legal actions) cache
        self._deal_rng = random.Random(seed)
        self.events: list[dict[str, Any]] = []
        header: dict[str, Any] = {"event": "game", "format": RECORD_FORMAT, "ruleset": rules.name,
                                  "ruleset_sha256": rules.sha256, "players": self.names, "seed": seed}
        if self.mode:
            header["mode"] = self.mode
        if ruleset_ref and ruleset_ref != rules.name:
            header["ruleset_path"] = ruleset_ref
        self.events.append(header)

    # --- rounds ------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The 1-based number of the round being played (in this game)."""
        return self.round_index + 1

    @property
    def rules_round(self) -> int:
        """The round's number in the ruleset's full game (differs under a mode)."""
        return self.setup.round_numbers[self.round_index]

    @property
    def hand_size(self) -> int:
        return self.setup.hand_sizes[self.round_index]

    @property
    def is_over(self) -> bool:
        return self.turn == OVER

    @property
    def is_chance(self) -> bool:
        return self.turn == CHANCE

    @property
    def winners(self) -> list[int]:
        return winners(self.totals, self.rules.winner, self.setup.teams)

    def seat_after(self, seat: int, steps: int = 1) -> int:
        return (seat + steps) % self.players

    def seat_from_dealer(self, where: str) -> int:
        offset = {"left-of-dealer": 1, "dealer": 0, "right-of-dealer": -1}[where]
        return (self.dealer + offset) % self.players

    def round_env(self) -> dict[str, Any]:
        env = self.setup.env
        env.update(round=self.rules_round, hand_size=self.hand_size)
        return env

    # --- chance: the deal ------------------------------------------------------------------
    def chance_action(self) -> Deal:
        """The deal for this round, from the game's own deal RNG (seeded by the game
        seed alone), so the same seed deals the same cards whatever the seats do."""
        if self.turn != CHANCE:
            raise IllegalActionError("it is not chance's turn")
        if self._pending is None or self._pending_round != self.round:
            self._pending_round = self.round
            self._pending = deal_cards(self.deck, self._deal_rng, self.players, self.hand_size,
                                       self.rules.deal.upcard, self.seat_from_dealer("left-of-dealer"))
        return self._pending

    def _verify_deal(self, deal: Deal) -> None:
        if deal is self._pending:  # made by chance_action from our own deck
            return
        verify_deal(deal, self.deck, self.players, self.hand_size, self._expects_upcard())

    def _expects_upcard(self) -> bool:
        return self.rules.deal.upcard and self.hand_size * self.players < len(self.deck)

    def _deal_event(self, deal: Deal) -> None:
        self.events.append({
            "event": "deal", "round": self.round, "dealer": self.dealer, "hand_size": self.hand_size,
            "hands": [[NAMES[c] for c in hand] for hand in deal.hands],
            "upcard": None if deal.upcard is None else NAMES[deal.upcard],
            "stock": len(deal.stock),
            **({"rules_round": self.rules_round} if self.rules_round != self.round else {}),
        })

    def _score_round(self, points: list[int]) -> None:
        for seat, p in enumerate(points):
            self.totals[seat] += p
        self.events.append({"event": "score", "round": self.round, "points": points,
                            "totals": list(self.totals)})
        self.round_index += 1
        if self.round_index >= len(self.setup.hand_sizes):
            self.turn = OVER
            end: dict[str, Any] = {"event": "end", "totals": list(self.totals), "winners": self.winners}
            if self.setup.teams:
                end["teams"] = list(self.setup.teams)
            self.events.append(end)
            return
        rotation = self.rules.deal.rotation
        if rotation == "left":
            self.dealer = self.seat_after(self.dealer)
        elif rotation == "right":
            self.dealer = self.seat_after(self.dealer, -1)
        self.turn = CHANCE

    # --- the action API -------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action the player (or chance) to act may take now."""

    @abstractmethod
    def verify(self, action: Any) -> None:
        """Raise IllegalActionError, quoting the rule, unless ``action`` is legal now."""

    @abstractmethod
    def _apply(self, action: Any) -> None:
        """Apply a verified action and record its events."""

    def can_apply(self, action: Any) -> bool:
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Any) -> None:
        """Verify ``action``, apply it and record it (raises IllegalActionError)."""
        if self.turn == OVER:
            raise IllegalActionError("the game is over")
        cached_at, cached = self._legal
        # an action taken from the listed legal actions needs no check; identity is the
        # cheap test (comparing dataclasses field by field is not)
        if cached_at != self.moves or not any(a is action for a in cached):
            self.verify(action)
        if self.turn >= 0:
            self.decisions += 1
        self._apply(action)
        self.moves += 1  # after: a family may still read the legal actions it cached

    @abstractmethod
    def parse_input(self, text: str) -> Any:
        """The action a line typed by a player means (IllegalActionError if none)."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand and everything public."""

    def _public(self, seat: int, phase: str) -> dict[str, Any]:
        """The part of an observation every family shares."""
        over = self.turn == OVER
        return {
            "family": self.family.value,
            "seat": seat,
            "players": self.players,
            "round": self.round,
            "rounds": len(self.setup.hand_sizes),
            "hand_size": 0 if over else self.hand_size,
            "dealer": self.dealer,
            "phase": "over" if over else phase,
            "turn": self.turn,
            "totals": list(self.totals),
        }


FAMILIES: dict[Family, Callable[..., GameState]] = {}


def register(cls: type[GameState]) -> type[GameState]:
    """Class decorator: the state class that plays one family of rulesets."""
    FAMILIES[cls.family] = cls
    return cls


def new_game(rules: Ruleset, players: int, seed: int = 0, names: Sequence[str] | None = None,
             mode: str | None = None, ruleset_ref: str | None = None) -> GameState:
    """A new game of ``rules`` for ``players`` seats; the same seed deals the same cards."""
    from . import rummy_game, trick_game  # noqa: F401 - each registers its family

    factory = FAMILIES.get(rules.family)
    if factory is None:
        raise IllegalActionError(f"no interpreter for the {rules.family.value} family yet")
    return factory(rules, players, seed, names, mode, ruleset_ref)
