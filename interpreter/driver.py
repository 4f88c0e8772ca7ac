"""The one loop that drives a game, for every caller: simulations, the table at the
terminal, saves being resumed, and records being replayed.  What differs between
them is given as hooks: where chance outcomes come from, what happens after each
action (saving, pausing), and who watches the events (a renderer, a record checker).

A seat is played by a policy (:class:`cardrules.interpreter.family.Policy`), which
gets its observation (when it asks for one) and the legal actions, never the state.
A policy that can be told why a move was refused (a person) has ``refused(action,
error)``; it is then asked again.  Any hook or policy may raise :class:`Stop` to
leave the game where it is.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .bots import make_policies
from .errors import IllegalActionError
from .family import Event, Policy
from .game import CHANCE, OVER, GameState, new_game
from .rules import Ruleset


class Stop(Exception):
    """Raised by a hook or a policy to end the loop early."""


def play_out(state: GameState, policies: Sequence[Policy], *,
             chance: Callable[[GameState], Any] | None = None,
             on_action: Callable[[int, Any], None] | None = None,
             on_event: Callable[[Event], None] | None = None) -> GameState:
    """Apply chance outcomes and the seats' choices until the game is over (or a hook
    raises :class:`Stop`).  ``chance(state)`` gives chance's outcomes (default: the
    game's own RNG); ``on_action(seat, action)`` runs after each seat's action is
    applied; ``on_event(event)`` sees every event as the game produces it."""
    # Bound methods are looked up once, not on every move: this loop runs for every
    # action of the game, and the lookups were a measurable share of a playout.
    apply = state.apply
    legal_actions = state.legal_actions
    observation = state.observation
    acts = [policy.act for policy in policies]
    needs = [policy.needs_observation for policy in policies]
    try:
        if chance is None and on_action is None and on_event is None:  # a simulation: nothing else to do
            chance_action = state.chance_action
            chooses = [getattr(policy, "choose_index", None) for policy in policies]
            if all(chooses):  # every seat picks by place: no action objects are made
                legal_count, apply_index = state.legal_count, state.apply_index
                while True:
                    turn = state.turn
                    if turn >= 0:
                        apply_index(chooses[turn](legal_count()))  # type: ignore[misc]
                    elif turn == CHANCE:
                        apply(chance_action())
                    else:
                        return state
            # a forced move of a seat that would only return it is played without asking
            # (a third of a bot game's decisions: no observation built for them)
            skips = [getattr(policy, "skips_forced", False) for policy in policies]
            legal_count, apply_index = state.legal_count, state.apply_index
            while True:
                turn = state.turn  # read once per move, not twice
                if turn >= 0:
                    if skips[turn] and legal_count() == 1:
                        apply_index(0)
                    else:
                        apply(acts[turn](observation(turn) if needs[turn] else None, legal_actions()))
                elif turn == CHANCE:
                    apply(chance_action())
                else:
                    return state
        refusals = [getattr(policy, "refused", None) for policy in policies]
        seen = state.event_count
        while state.turn != OVER:
            turn = state.turn
            if turn == CHANCE:
                apply(chance(state) if chance is not None else state.chance_action())
            else:
                action = acts[turn](observation(turn) if needs[turn] else None, legal_actions())
                try:
                    apply(action)
                except IllegalActionError as exc:
                    refused = refusals[turn]
                    if refused is None:
                        raise
                    refused(action, exc)
                    continue
                if on_action is not None:
                    on_action(turn, action)
            if on_event is not None and state.event_count > seen:
                events = state.events
                while seen < len(events):
                    seen += 1
                    on_event(events[seen - 1])
    except Stop:
        pass
    return state


def play_game(rules: Ruleset, policies: Sequence[Policy], seed: int, names: Sequence[str] | None = None,
              mode: str | None = None, ruleset_ref: str | None = None) -> GameState:
    """A whole game of ``rules`` with one policy per seat."""
    state = new_game(rules, len(policies), seed, names, mode, ruleset_ref)
    return play_out(state, policies)


def play_bots(rules: Ruleset, kinds: Sequence[str], seed: int, names: Sequence[str] | None = None,
              mode: str | None = None, ruleset_ref: str | None = None) -> GameState:
    """A whole game of ``rules`` with a bot of each of ``kinds`` (``random``, ``bot``...)."""
    return play_game(rules, make_policies(rules, kinds, seed), seed, names, mode, ruleset_ref)


__all__ = ["OVER", "Stop", "play_bots", "play_game", "play_out"]
