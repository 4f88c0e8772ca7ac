"""Legality has one source: over random playouts of every bundled ruleset, the listed
actions are exactly the candidate actions that ``verify`` accepts.

Candidates, at each sampled decision, are what the family's ``candidate_actions`` gives:
a superset of the moves that could be legal there (each family's ``checks.py`` says
which).  A listed action must verify; a candidate that is not listed must be refused.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.loader import bundled_names

from helpers import DATA

# every bundled ruleset, and the example house rules (jokers, partnerships, named trump,
# swaps before going down)
RULESETS = bundled_names() + sorted(str(p) for p in (DATA / "good").glob("*.yaml"))


class Checking:
    """Wraps a seat's policy: before each of its decisions (one in ``every``), every
    candidate action is verified, and accepted exactly when it is listed."""

    def __init__(self, policy, state, every, rng):
        self.policy, self.state, self.every, self.rng = policy, state, every, rng
        self.kind, self.needs_observation = policy.kind, policy.needs_observation
        self.checked = 0

    def act(self, observation, legal):
        if self.rng.randrange(self.every) == 0:
            self.check(legal)
        return self.policy.act(observation, legal)

    def check(self, legal):
        state = self.state
        listed = list(legal)
        for action in state.rules.family.candidate_actions(state):
            accepted = state.can_apply(action)
            assert accepted == (action in listed), (
                f"{state.rules.name} round {state.round} seat {state.turn} phase {state.phase}: {action!r} is "
                f"{'accepted' if accepted else 'refused'} by verify but {'' if action in listed else 'not '}listed")
        for action in listed:
            state.verify(action)
        self.checked += 1


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: n.rsplit("/", 1)[-1])
def test_listed_actions_are_exactly_the_ones_verify_accepts(name):
    rules = load_ruleset(name if "/" not in name else Path(name))
    rng = random.Random(name)
    checked = 0
    for game in range(3):
        players = rng.randint(rules.min_players, rules.max_players)
        state = new_game(rules, players, seed=game)
        kinds = [rng.choice(["bot", "random"]) for _ in range(players)]
        every = 6  # one decision in six is checked: enough to meet every phase over three games
        seats = [Checking(p, state, every, rng) for p in make_policies(rules, kinds, game)]
        play_out(state, seats)
        checked += sum(s.checked for s in seats)
    assert checked > 20
