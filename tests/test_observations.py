"""A seat never sees what it may not see, and bots play from what they see.

Over playouts of every bundled ruleset (and the example house rules), at sampled
moments: for every seat, the hidden information is changed in a copy of the game
(cards swapped between other seats' hands, or between a hand and the stock, and the
stock shuffled; never the cards a seat is known to hold), and the seat's observation
must not change; for the seat to act, the legal actions must not change either, and
the heuristic bot must choose the same action from the copy's observation.  An
observation is a frozen value with no RNG in it.  Copies are independent: a game and
its clone, played on with the same bots, end the same, and neither touches the other.
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

RULESETS = bundled_names() + sorted(str(p) for p in (DATA / "good").glob("*.yaml"))


def load(name):
    return load_ruleset(Path(name) if "/" in name else name)


def hide_differently(state, seat, rng):
    """A clone of ``state`` whose information hidden from ``seat`` differs, if it has any."""
    other = state.clone()
    known = getattr(other, "known", [[] for _ in other.hands])
    # what the rules show this seat this round: its own hand, every other hand
    own, others = state.sees(seat) if hasattr(state, "sees") else (True, False)
    hidden = [(s, i) for s, hand in enumerate(other.hands) if (s != seat and not others) or (s == seat and not own)
              for i, c in enumerate(hand) if c not in known[s]]
    if len(hidden) >= 2:
        (s1, i1), (s2, i2) = rng.sample(hidden, 2)
        other.hands[s1][i1], other.hands[s2][i2] = other.hands[s2][i2], other.hands[s1][i1]
    if hidden and other.stock:
        s1, i1 = rng.choice(hidden)
        j = rng.randrange(len(other.stock))
        other.hands[s1][i1], other.stock[j] = other.stock[j], other.hands[s1][i1]
    rng.shuffle(other.stock)
    return other


class Watching:
    def __init__(self, policy, state, rng):
        self.policy, self.state, self.rng = policy, state, rng
        self.kind, self.needs_observation = policy.kind, policy.needs_observation
        self.checked = 0

    def act(self, observation, legal):
        if self.rng.randrange(6) == 0:
            self.check()
        return self.policy.act(observation, legal)

    def check(self):
        state, turn = self.state, self.state.turn
        for seat in range(state.players):
            seen = state.observation(seat)
            assert isinstance(seen, tuple) and not any(isinstance(v, random.Random) for v in seen)
            with pytest.raises(AttributeError):
                seen.hand = ()  # frozen
            own, others = state.sees(seat) if hasattr(state, "sees") else (True, False)
            assert sorted(seen.hand) == (sorted(state.hands[seat]) if own else [])
            if others:
                assert [sorted(h) for s, h in enumerate(seen.others) if s != seat] == \
                    [sorted(h) for s, h in enumerate(state.hands) if s != seat]
            other = hide_differently(state, seat, self.rng)
            assert other.observation(seat) == seen, f"seat {seat} sees a change in what is hidden from it"
            if seat == turn:
                legal = state.legal_actions()
                assert other.legal_actions() == legal
                if self.policy.kind == "bot":
                    assert self.policy.act(other.observation(seat), other.legal_actions()) == \
                        self.policy.act(seen, legal)
        self.checked += 1


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: n.rsplit("/", 1)[-1])
def test_no_seat_sees_hidden_cards_and_bots_play_from_what_they_see(name):
    rules = load(name)
    rng = random.Random(name.rsplit("/", 1)[-1])  # the same checks in every checkout
    players = rules.min_players + 1 if rules.min_players < rules.max_players else rules.min_players
    state = new_game(rules, players, seed=3)
    kinds = ["bot" if s % 2 == 0 else "random" for s in range(players)]
    seats = [Watching(p, state, rng) for p in make_policies(rules, kinds, 3)]
    play_out(state, seats)
    assert sum(s.checked for s in seats) > min(10, state.decisions // 12)  # one decision in six, about


@pytest.mark.parametrize("name", ["oh-hell", "shanghai-isra"])
def test_a_clone_plays_on_alone(name):
    rules = load(name)
    state = new_game(rules, 4, seed=5)
    play_out(state, make_policies(rules, ["bot"] * 4, 5), on_action=_stop_after(40))
    assert not state.is_over
    before = list(state.events)
    copy = state.clone()
    play_out(copy, make_policies(rules, ["bot"] * 4, 9))
    assert copy.is_over and state.events == before and not state.is_over
    again = state.clone()
    play_out(again, make_policies(rules, ["bot"] * 4, 9))
    play_out(state, make_policies(rules, ["bot"] * 4, 9))
    assert again.events == state.events == copy.events


def _stop_after(moves):
    from cardrules.interpreter.driver import Stop

    count = [0]

    def hook(seat, action):
        count[0] += 1
        if count[0] >= moves:
            raise Stop

    return hook
