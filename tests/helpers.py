"""Paths and helpers shared by the tests."""

from functools import cache
from pathlib import Path

from cardrules.interpreter.families.contract_rummy.actions import GoDown
from cardrules.interpreter.families.contract_rummy.textio import parse_input

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent


@cache
def bundled(name):
    """The bundled ruleset ``name``, loaded once a process: for the lists tests are
    parametrized over (each worker of a parallel run collects every module, and the lists
    read the same rulesets' families and player counts again and again). A test that
    plays loads its own."""
    from cardrules.interpreter import load_ruleset

    return load_ruleset(name)


def stacked_rummy_round(rules, hands, upcard, stock=(), players=4, dealer=0):
    """Round 1 of a contract-rummy game of ``rules`` dealt exactly ``hands`` (card texts,
    seat 0 first), the flip card ``upcard`` and a stock whose top cards are ``stock``."""
    from cardrules.interpreter.cards import card
    from cardrules.interpreter.game import new_game

    state = new_game(rules, players, seed=0)
    state.dealer = dealer
    state.stack_deal(tuple(tuple(card(c) for c in h.split()) for h in hands), card(upcard),
                     tuple(card(c) for c in " ".join(stock).split()))
    return state


def rummy_draw(state):
    """The player in turn declines the discard; every seat asked to buy passes; the stock card."""
    from cardrules.interpreter.families.contract_rummy.actions import DRAW, PASS
    from cardrules.interpreter.game import CHANCE

    state.apply(DRAW)
    while state.turn != CHANCE:
        state.apply(PASS)
    state.apply(state.chance_action())


def play_until(state, policies, stop):
    """Play ``state`` on, chance's deals included, with ``policies`` (one a seat) until
    ``stop(state)`` holds or the game is over."""
    from cardrules.interpreter.game import CHANCE

    while not state.is_over and not stop(state):
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    return state


def play_checking(state, policies, check):
    """Play ``state`` to its end with ``policies``, calling ``check(state)`` after each
    seat's move that leaves a seat to act (an invariant: every card somewhere)."""
    from cardrules.interpreter.game import CHANCE

    while not state.is_over:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
            continue
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
        if state.turn >= 0:
            check(state)
    return state


class SayingRenderer:
    """A stand-in for the terminal's renderer that a family's view narrates to: seats named
    Ann, Bob, Cy and Di, cards as their codes, and what is said kept in ``said``."""

    names = ["Ann", "Bob", "Cy", "Di"]

    def __init__(self):
        self.round, self.said = {}, []

    def card(self, name):
        return name

    def cards(self, names):
        return " ".join(names)

    def say(self, text):
        self.said.append(text)


class TypedBack:
    """A seat's bot that types back every go-down listed to it (its text, as a player
    types it) and checks it is the same move, read the same way."""

    def __init__(self, policy, state):
        self.policy, self.state = policy, state
        self.kind, self.needs_observation = policy.kind, policy.needs_observation
        self.checked = 0

    def act(self, observation, legal):
        state = self.state
        for action in legal:
            if isinstance(action, GoDown):
                typed = parse_input("call", str(action), pack=state.setup.pack)
                assert typed.kinds == action.kinds and typed.melds == action.melds, str(action)
                assert [m.cards for m in state.verify(typed)] == [m.cards for m in state.verify(action)]
                self.checked += 1
        return self.policy.act(observation, legal)
