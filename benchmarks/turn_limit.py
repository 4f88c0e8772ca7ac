"""How often bot games of contract rummy reach the turn limit: every bundled rummy
ruleset (or those named) at two player counts, a number of games each with `bot` seats,
counting the rounds that ended because the turn limit was reached (the record's
`exhausted` event with reason `turns`) rather than by someone going out or the stock.

    python benchmarks/turn_limit.py                 # every bundled rummy ruleset, 10 games a count
    python benchmarks/turn_limit.py --games 30 shanghai-isra king-rummy
    python benchmarks/turn_limit.py --seats random  # the same with random seats

Prints one line a ruleset and player count (rounds, rounds at the turn limit, rounds
the stock ran out) and the totals; exit status 1 if any bot round reached the limit."""

from __future__ import annotations

import argparse
import os
import sys
import time

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.loader import bundled_names


def counts(ruleset: str, players: int, games: int, kind: str) -> tuple[int, int, int]:
    rules = load_ruleset(ruleset)
    rounds = limit = stock = 0
    for seed in range(games):
        state = play_bots(rules, [kind] * players, seed)
        for event in state.events:
            if event["event"] == "score":
                rounds += 1
            elif event["event"] == "exhausted":
                limit += event.get("reason") == "turns"
                stock += event.get("reason") == "stock"
    return rounds, limit, stock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seats", default="bot")
    args = parser.parse_args()
    names = args.rulesets or [n for n in bundled_names() if load_ruleset(n).family.name == "contract-rummy"]
    print(f"load: {os.getloadavg()[0]:.2f}; {args.games} games a count, seats {args.seats}")
    all_rounds = all_limit = 0
    for name in names:
        rules = load_ruleset(name)
        low, high = rules.min_players, rules.max_players
        for players in sorted({max(low, min(3, high)), min(high, max(low, 4 if high >= 4 else high))}):
            start = time.perf_counter()
            rounds, limit, stock = counts(name, players, args.games, args.seats)
            all_rounds += rounds
            all_limit += limit
            print(f"{name:32} {players}p: {rounds:4} rounds, {limit:3} at the turn limit, {stock:3} stock spent"
                  f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"total: {all_rounds} rounds, {all_limit} at the turn limit")
    sys.exit(1 if all_limit and args.seats == "bot" else 0)


if __name__ == "__main__":
    main()
