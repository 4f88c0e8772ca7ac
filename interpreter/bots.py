"""Seat policies: ``random`` (uniform over legal actions) and ``bot`` (heuristic).

A policy is ``act(state, seat) -> action``.  Bots see what a player sees: the
seat's observation, the legal actions, and the rules (including the round's card
order, which follows from the public trump).  Each bot has its own RNG, seeded from
the game seed and its seat, so the deal never depends on how bots choose.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol

from .actions import Bid, Play
from .cards import JOKER
from .ruleset import Family
from .state import GameState


class Policy(Protocol):
    def act(self, state: GameState, seat: int) -> Any: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    kind = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def act(self, state: GameState, seat: int) -> Any:
        actions = state.legal_actions()
        # the public randrange, as the hand-written benchmark yardstick uses: the speed
        # comparison stays like for like
        return actions[self.rng.randrange(len(actions))]


class HeuristicBot:
    """Plays toward the contract of its family: in trick-taking games it bids what its
    hand is worth and then tries to take exactly that many tricks."""

    kind = "bot"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)
        self._rummy: Any = None

    def act(self, state: GameState, seat: int) -> Any:
        if state.family is Family.TRICK_TAKING:
            return _trick_act(state, seat)
        if self._rummy is None:
            from .rummy_bot import RummyStrategy

            self._rummy = RummyStrategy(self.rng)
        return self._rummy.act(state, seat)


KINDS: dict[str, Callable[[int | str], Policy]] = {"random": RandomBot, "bot": HeuristicBot}


# --- trick-taking heuristics --------------------------------------------------------------
def _trick_act(state: Any, seat: int) -> Any:
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    first = actions[0]
    if isinstance(first, Bid):
        return _choose_bid(state, seat, [a.bid for a in actions], actions)
    if isinstance(first, Play):
        return _choose_play(state, seat, [a.card for a in actions], actions)
    return _choose_trump(state, seat, actions)


def estimate_tricks(hand: list[int], suits: list[int], power: list[int], trump: int | None,
                    players: int) -> float:
    """What a hand is worth in tricks: high trumps and bowers, side aces and guarded
    kings, and trumps that can ruff a short side suit."""
    by_suit: dict[int, int] = {}
    for c in hand:
        by_suit[suits[c]] = by_suit.get(suits[c], 0) + 1
    trumps = by_suit.get(trump, 0) if trump is not None else 0
    crowd = 4 / max(players, 2)  # high cards win less often at a bigger table
    value = 0.0
    for c in hand:
        s, p = suits[c], power[c]
        if c == JOKER:
            value += 1.0 if p >= 100 else 0.0  # a top-trump joker wins its trick
            continue
        if trump is not None and s == trump:
            if p >= 100 or p == 12:
                value += 0.95
            elif p == 11:
                value += 0.8
            elif p >= 9:
                value += 0.55
            else:
                value += 0.3 + 0.1 * max(0, trumps - 3)
        else:
            length = by_suit[s]
            if p == 12:
                value += (0.85 if length <= 4 else 0.6) * crowd
            elif p == 11 and length >= 2:
                value += (0.45 if length <= 4 else 0.25) * crowd
            elif p == 10 and length >= 3:
                value += 0.15 * crowd
    if trump is not None and trumps:
        voids = sum(1 for s in range(4) if s != trump and by_suit.get(s, 0) == 0)
        singles = sum(1 for s in range(4) if s != trump and by_suit.get(s, 0) == 1)
        value += min(trumps, voids * 0.6 + singles * 0.3)
    return value


def _choose_bid(state: Any, seat: int, bids: list[int], actions: list[Any]) -> Any:
    hand = state.hands[seat]
    target = estimate_tricks(hand, state.suits, state.power, state.trump, state.players)
    best = min(range(len(bids)), key=lambda i: (abs(bids[i] - target), bids[i]))
    return actions[best]


def _beats(card: int, best: int, led: int, suits: list[int], power: list[int], trump: int | None) -> bool:
    def key(c: int) -> int:
        s = suits[c]
        if s == trump:
            return 1000 + power[c]
        if s == led:
            return 500 + power[c]
        return 2000 if c == JOKER and power[c] >= 100 else -1

    return key(card) > key(best)


def _choose_play(state: Any, seat: int, cards: list[int], actions: list[Any]) -> Any:
    suits, power, trump = state.suits, state.power, state.trump
    bid = state.bids[seat] or 0
    need = bid - state.taken[seat]
    by_power = sorted(range(len(cards)), key=lambda i: (suits[cards[i]] == trump, power[cards[i]]))
    if not state.trick:
        if need > 0:
            # lead the strongest card: a side ace first, else the highest trump
            side = [i for i in by_power if suits[cards[i]] != trump]
            top_side = side[-1] if side else None
            if top_side is not None and power[cards[top_side]] >= 12:
                return actions[top_side]
            return actions[by_power[-1]]
        return actions[by_power[0]]
    led = suits[state.trick[0][1]]
    best = state.trick[0][1]
    for _, c in state.trick[1:]:
        if _beats(c, best, led, suits, power, trump):
            best = c
    winners = [i for i in by_power if _beats(cards[i], best, led, suits, power, trump)]
    losers = [i for i in by_power if i not in winners]
    if need > 0:
        if winners:
            last_to_play = len(state.trick) == state.players - 1
            return actions[winners[0] if last_to_play else winners[-1]]
        return actions[by_power[0]]
    if losers:
        return actions[losers[-1]]
    return actions[by_power[-1]]


def _choose_trump(state: Any, seat: int, actions: list[Any]) -> Any:
    hand = state.hands[seat]
    counts = [0, 0, 0, 0]
    for c in hand:
        if c != JOKER:
            counts[c // 13] += 1
    best_suit = max(range(4), key=lambda s: (counts[s], -s))
    for a in actions:
        if a.suit == best_suit:
            return a
    return actions[0]


def make_policy(kind: str, seed: int, seat: int) -> Policy:
    """A bot of ``kind`` for ``seat`` with its own RNG seeded from the game seed."""
    return KINDS[kind](seed * 64 + seat)
