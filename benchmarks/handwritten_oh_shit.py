"""A minimal hand-written Oh Shit random playout, written only as the benchmark's yardstick.

Same rules as rulesets/oh-shit.yaml (10 down to 1 and back up, turned trump, bowers,
the hook on the dealer, a point a trick plus 10 for an exact bid) and the same policy
(uniform over legal actions); no records, no checks, no generality.
"""

from __future__ import annotations

import random

SCHEDULE = list(range(10, 0, -1)) + list(range(2, 11))
PARTNER = {0: 3, 3: 0, 1: 2, 2: 1}


def play(rng: random.Random, players: int = 4) -> tuple[list[int], int]:
    totals = [0] * players
    decisions = 0
    dealer = 0
    deck = list(range(52))
    for size in SCHEDULE:
        rng.shuffle(deck)
        hands = [deck[i * size:(i + 1) * size] for i in range(players)]
        trump = deck[players * size] // 13
        suit = [c // 13 for c in range(52)]
        power = [c % 13 for c in range(52)]
        right, left = trump * 13 + 9, PARTNER[trump] * 13 + 9
        power[right], power[left] = 101, 100
        suit[left] = trump
        first = (dealer + 1) % players
        bids = []
        for k in range(players):
            options = list(range(size + 1))
            if k == players - 1:
                options = [b for b in options if sum(bids) + b != size]
            bids.append(options[rng.randrange(len(options))])
            decisions += 1
        bid_of = {(first + k) % players: b for k, b in enumerate(bids)}
        taken = [0] * players
        leader = first
        for _ in range(size):
            trick = []
            led = -1
            for k in range(players):
                seat = (leader + k) % players
                hand = hands[seat]
                legal = [c for c in hand if suit[c] == led] if led >= 0 else hand
                if not legal:
                    legal = hand
                card = legal[rng.randrange(len(legal))]
                hand.remove(card)
                decisions += 1
                if led < 0:
                    led = suit[card]
                trick.append((seat, card))
            best_seat, best_key = -1, -1
            for seat, card in trick:
                key = 1000 + power[card] if suit[card] == trump else (500 + power[card] if suit[card] == led else -1)
                if key > best_key:
                    best_seat, best_key = seat, key
            taken[best_seat] += 1
            leader = best_seat
        for seat in range(players):
            totals[seat] += taken[seat] + (10 if taken[seat] == bid_of[seat] else 0)
        dealer = (dealer + 1) % players
    return totals, decisions


def main(games: int) -> None:
    """Play ``games`` games (game i with seed i) and print each seat's mean total and
    wins, as `cardrules simulate` summarises a run: the whole-process yardstick of
    benchmarks/simulate_process.py."""
    sums, wins = [0] * 4, [0] * 4
    for seed in range(games):
        totals, _ = play(random.Random(seed))
        best = max(totals)
        for seat, total in enumerate(totals):
            sums[seat] += total
            wins[seat] += total == best
    for seat in range(4):
        print(f"seat {seat}: mean total {sums[seat] / games:.2f}, wins {wins[seat]}")


if __name__ == "__main__":
    import sys

    main(int(sys.argv[1]) if len(sys.argv) > 1 else 600)
