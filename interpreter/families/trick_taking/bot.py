"""The heuristic trick-taking bot: it bids what its hand is worth and then tries to
take exactly that many tricks.  It sees what a player sees: its observation (its hand,
the bids, the trick, the round's card order) and the legal actions."""

from __future__ import annotations

import random
from typing import Sequence

from ...cards import JOKER
from ...rules import Ruleset
from .actions import Bid, ChooseTrump, Play, TrickAction
from .observation import TrickObservation
from .trickplay import led_suit
from .trump import LEAD_PASSES, NO_SUIT


class TrickBot:
    """Bids its hand's worth in tricks, then plays to make exactly its bid."""

    kind = "bot"
    needs_observation = True

    def __init__(self, rules: Ruleset, seed: int | str = 0):
        self.rng = random.Random(seed)

    def act(self, obs: TrickObservation, legal: Sequence[TrickAction]) -> TrickAction:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        # the legal moves are all of one kind, the first's
        if isinstance(first, Bid):
            return _choose_bid(obs, [a.bid for a in legal], legal)  # type: ignore[union-attr]
        if isinstance(first, Play):
            return _choose_play(obs, [a.card for a in legal], legal)  # type: ignore[union-attr]
        return _choose_trump(obs, legal)


def estimate_tricks(hand: Sequence[int], suits: Sequence[int], power: Sequence[int], trump: int | None,
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


def _choose_bid(obs: TrickObservation, bids: list[int], actions: Sequence[TrickAction]) -> TrickAction:
    if obs.hand_hidden:
        target = _blind_estimate(obs)
    else:
        target = estimate_tricks(obs.hand, obs.suits, obs.power, obs.trump, obs.players)
    best = min(range(len(bids)), key=lambda i: (abs(bids[i] - target), bids[i]))
    return actions[best]


def _blind_estimate(obs: TrickObservation) -> float:
    """Tricks to expect from a hand this seat cannot see: its share of the round, less
    for every strong card it sees in the others' hands (an Indian round)."""
    share = obs.hand_size / max(obs.players, 2)
    seen = [c for hand in obs.others for c in hand]
    if not seen:
        return share
    strong = sum(1 for c in seen if c == JOKER or obs.suits[c] == obs.trump or obs.power[c] >= 11)
    return max(0.0, share * (1 - strong / len(seen)))


def _beats(card: int, best: int, led: int, suits: Sequence[int], power: Sequence[int], trump: int | None) -> bool:
    def key(c: int) -> int:
        s = suits[c]
        if s == trump:
            return 1000 + power[c]
        if s == led:
            return 500 + power[c]
        if s == NO_SUIT and power[c] >= 100:  # a highest joker
            return 2000
        return 0 if s == LEAD_PASSES else -1

    return key(card) > key(best)


def _choose_play(obs: TrickObservation, cards: list[int], actions: Sequence[TrickAction]) -> TrickAction:
    suits, power, trump = obs.suits, obs.power, obs.trump
    seat = obs.seat
    bid = obs.bids[seat] or 0
    need = bid - obs.taken[seat]
    by_power = sorted(range(len(cards)), key=lambda i: (suits[cards[i]] == trump, power[cards[i]]))
    if not obs.trick:
        if need > 0:
            # lead the strongest card: a side ace first, else the highest trump
            side = [i for i in by_power if suits[cards[i]] != trump]
            top_side = side[-1] if side else None
            if top_side is not None and power[cards[top_side]] >= 12:
                return actions[top_side]
            return actions[by_power[-1]]
        return actions[by_power[0]]
    led = led_suit(obs.trick, suits)
    best = obs.trick[0][1]
    for _, c in obs.trick[1:]:
        if _beats(c, best, led, suits, power, trump):
            best = c
    winners = [i for i in by_power if _beats(cards[i], best, led, suits, power, trump)]
    losers = [i for i in by_power if i not in winners]
    if need > 0:
        if winners:
            last_to_play = len(obs.trick) == obs.players - 1
            return actions[winners[0] if last_to_play else winners[-1]]
        return actions[by_power[0]]
    if losers:
        return actions[losers[-1]]
    return actions[by_power[-1]]


def _choose_trump(obs: TrickObservation, actions: Sequence[TrickAction]) -> TrickAction:
    hand = obs.hand
    counts = [0, 0, 0, 0]
    for c in hand:
        if c != JOKER:
            counts[c // 13] += 1
    best_suit = max(range(4), key=lambda s: (counts[s], -s))
    for a in actions:
        if isinstance(a, ChooseTrump) and a.suit == best_suit:
            return a
    return actions[0]
