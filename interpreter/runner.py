"""Run games to the end with a policy per seat (bots, or a human at a prompt)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .bots import Policy
from .ruleset import Ruleset
from .state import CHANCE, OVER, GameState, new_game


def play_out(state: GameState, policies: Sequence[Policy],
             on_event: Callable[[dict[str, Any]], None] | None = None) -> GameState:
    """Apply chance outcomes and the seats' choices until the game is over."""
    # Bound methods are looked up once, not on every move: this loop runs for every
    # action of the game, and the lookups were a measurable share of a playout.
    apply = state.apply
    chance_action = state.chance_action
    acts = [policy.act for policy in policies]
    if on_event is None:  # the simulation case: nothing to report between moves
        while True:
            turn = state.turn  # read once per move, not twice
            if turn == CHANCE:
                apply(chance_action())
            elif turn == OVER:
                return state
            else:
                apply(acts[turn](state, turn))
    seen = len(state.events)
    while state.turn != OVER:
        turn = state.turn
        if turn == CHANCE:
            apply(chance_action())
        else:
            apply(acts[turn](state, turn))
        events = state.events
        while seen < len(events):
            on_event(events[seen])
            seen += 1
    return state


def play_game(rules: Ruleset, policies: Sequence[Policy], seed: int, names: Sequence[str] | None = None,
              mode: str | None = None, ruleset_ref: str | None = None) -> GameState:
    state = new_game(rules, len(policies), seed, names, mode, ruleset_ref)
    return play_out(state, policies)
