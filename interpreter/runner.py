"""Run games to the end with a policy per seat (bots, or a human at a prompt)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .bots import Policy
from .ruleset import Ruleset
from .state import CHANCE, OVER, GameState, new_game


def play_out(state: GameState, policies: Sequence[Policy],
             on_event: Callable[[dict[str, Any]], None] | None = None) -> GameState:
    """Apply chance outcomes and the seats' choices until the game is over."""
    seen = len(state.events)
    while state.turn != OVER:
        turn = state.turn
        if turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[turn].act(state, turn))
        if on_event is not None:
            while seen < len(state.events):
                on_event(state.events[seen])
                seen += 1
    return state


def play_game(rules: Ruleset, policies: Sequence[Policy], seed: int, names: Sequence[str] | None = None,
              mode: str | None = None, ruleset_ref: str | None = None) -> GameState:
    state = new_game(rules, len(policies), seed, names, mode, ruleset_ref)
    return play_out(state, policies)
