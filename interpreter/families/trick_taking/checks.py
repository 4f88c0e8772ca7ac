"""Candidate moves for the shared legality check (tests/test_legality.py): a superset
of every move that could be legal at a decision, so that the check can confirm that
exactly the listed ones are accepted by ``verify``."""

from __future__ import annotations

from ...cards import JOKER
from ...game import GameState
from .actions import DECLINE, LOOK, TRUMP_CHOICES, Bid, BlindBid, Call, Discard, Pass, Play, TrickAction


def candidate_actions(state: GameState) -> list[TrickAction]:
    """Every card of the pack as a play, every bid from -1 to the hand size + 2, and
    every trump choice, every card passed, every call of an auction (a suit, no trump or
    one named after it) from 0 to the hand size + 1 tricks."""
    return [Play(c) for c in range(JOKER + 1)] + [Bid(b) for b in range(-1, state.hand_size + 3)] + \
        list(TRUMP_CHOICES) + [Pass(c) for c in range(JOKER + 1)] + [DECLINE] + \
        [Discard(c) for c in range(JOKER + 1)] + \
        [Call(n, s) for n in range(0, state.hand_size + 2) for s in (0, 1, 2, 3, None)] + \
        [Call(n, None, "", True) for n in range(0, state.hand_size + 2)] + \
        [BlindBid(b) for b in range(-1, state.hand_size + 3)] + [LOOK]
