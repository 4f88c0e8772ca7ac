"""Legality has one source: over random playouts of every bundled ruleset, the listed
actions are exactly the candidate actions that ``verify`` accepts.

Candidates, at each sampled decision: every card as a play, every bid from -1 to the
hand size + 2 and every trump choice (trick-taking); take, draw, buy, pass, a claim of
every meld (and of one that is not there), a discard of every card held (and of one
not held) with and without a call, a lay-off of every card held on every meld (a joker
at either end of a run), a swap of every card held into every meld, and every go-down the
listing gives (contract rummy).  A listed action must verify; a candidate that is not
listed must be refused.  (Go-downs are listed in canonical form: each meld of its
least size, naturals before jokers; tests/test_go_down_search.py checks that search
against a brute-force enumeration.)
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.cards import JOKER
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.contract_rummy.actions import (ALLOW, BUY, DRAW, PASS, REFUSE, TAKE, Claim,
                                                                   Discard, LayOff, Swap)
from cardrules.interpreter.families.trick_taking.actions import TRUMP_CHOICES, Bid, Play
from cardrules.interpreter.loader import bundled_names

from helpers import DATA

# every bundled ruleset, and the example house rules (jokers, partnerships, named trump,
# swaps before going down)
RULESETS = bundled_names() + sorted(str(p) for p in (DATA / "good").glob("*.yaml"))


def trick_candidates(state):
    return [Play(c) for c in range(JOKER + 1)] + [Bid(b) for b in range(-1, state.hand_size + 3)] + \
        list(TRUMP_CHOICES)


def rummy_candidates(state):
    seat = state.turn
    held = list(dict.fromkeys(state.hands[seat]))
    not_held = next(c for c in range(JOKER) if c not in held)
    ids = list(state.melds) + [len(state.melds) + 1]
    out = [TAKE, DRAW, BUY, PASS, ALLOW, REFUSE] + [Claim(m) for m in ids]
    out += [Discard(c, call) for c in held + [not_held] for call in (False, True)]
    for m in ids:
        meld = state.melds.get(m)
        for c in held:
            if c in state.meld_engine.wild:  # its canonical forms: an end of a run, or no end on a set
                ends = (None,) if meld is not None and meld.kind == "set" else (False, True)
                out += [LayOff(m, (c,), end) for end in ends]
            else:
                out.append(LayOff(m, (c,), None))
                out.append(Swap(m, c))
    return out + [a for a in state.legal_actions() if type(a).__name__ == "GoDown"]


CANDIDATES = {"trick-taking": trick_candidates, "contract-rummy": rummy_candidates}


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
        for action in CANDIDATES[state.rules.family.name](state):
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
        every = 4 if rules.family.name == "trick-taking" else 12
        seats = [Checking(p, state, every, rng) for p in make_policies(rules, kinds, game)]
        play_out(state, seats)
        checked += sum(s.checked for s in seats)
    assert checked > 20
