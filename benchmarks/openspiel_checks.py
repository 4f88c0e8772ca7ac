"""OpenSpiel's and PettingZoo's own checks on every bundled ruleset, in full size: the
size the test suite cannot afford (tests/test_openspiel.py and tests/test_pettingzoo.py
run the first round, with a horizon).

    python benchmarks/openspiel_checks.py [--sims 2] [--pettingzoo] [--cycles 100000] [RULESET ...]

For each ruleset (default: every bundled one) at two player counts (its least and one
more, where it allows), ``pyspiel.random_sim_test`` plays ``--sims`` whole games with
every check it makes, serialization included; ``--pettingzoo`` also runs PettingZoo's
``api_test`` on the whole game (``--cycles`` steps of each agent at most).  It prints
one line per case with its processor time and exits 1 if any case fails.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from typing import Sequence

import pyspiel

from cardrules import openspiel
from cardrules.interpreter import load_ruleset
from cardrules.interpreter.loader import bundled_names


def counts(name: str) -> list[int]:
    rules = load_ruleset(name)
    low = rules.min_players
    return [low, low + 1] if low < rules.max_players else [low]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--sims", type=int, default=2)
    parser.add_argument("--pettingzoo", action="store_true")
    parser.add_argument("--cycles", type=int, default=100_000)
    args = parser.parse_args(argv)
    failed = 0
    for name in args.rulesets or bundled_names():
        for players in counts(name):
            start = time.process_time()
            try:
                game = openspiel.load(name, players)
                pyspiel.random_sim_test(game, num_sims=args.sims, serialize=True, verbose=False)
                if args.pettingzoo:
                    from pettingzoo.test import api_test

                    from cardrules.pettingzoo import env

                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        api_test(env(ruleset=name, players=players), num_cycles=args.cycles)
                status = "ok"
            except Exception as exc:  # noqa: BLE001 - every failure is reported and counted
                status = f"FAILED: {type(exc).__name__}: {exc}"
                failed += 1
            print(f"{name} {players} players: {status} ({time.process_time() - start:.1f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
