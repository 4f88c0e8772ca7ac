"""Benchmark: the interpreter against a hand-written playout, in one run.

    python benchmarks/bench.py [--seconds S]

Plays oh-shit with four random seats through the public engine API
(`new_game`, `legal_actions`, `apply`, chance deals, full event records) and the
hand-written playout in benchmarks/handwritten_oh_shit.py, and prints games/s,
decisions/s and the ratio.  Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import handwritten_oh_shit  # noqa: E402

from cardrules.interpreter import load_ruleset  # noqa: E402
from cardrules.interpreter.bots import make_policy  # noqa: E402
from cardrules.interpreter.runner import play_game  # noqa: E402


def rates(runners: dict[str, object], seconds: float, slices: int = 10) -> dict[str, tuple[float, float]]:
    """Games/s and decisions/s for each runner, measured in interleaved slices so
    that a change in machine speed during the run affects every runner alike."""
    totals = {name: [0, 0, 0.0] for name in runners}
    for _ in range(slices):
        for name, run_one in runners.items():
            games, decisions, spent = totals[name]
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / slices:
                decisions += run_one(games)  # type: ignore[operator]
                games += 1
            totals[name] = [games, decisions, spent + time.perf_counter() - start]
    return {name: (g / t, d / t) for name, (g, d, t) in totals.items()}


def interpreter_oh_shit(seed: int) -> int:
    rules = load_ruleset("oh-shit") if not hasattr(interpreter_oh_shit, "rules") else interpreter_oh_shit.rules
    interpreter_oh_shit.rules = rules
    state = play_game(rules, [make_policy("random", seed, s) for s in range(4)], seed)
    return state.decisions


def handwritten(seed: int) -> int:
    return handwritten_oh_shit.play(random.Random(seed))[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.seconds:g}s each")
    measured = rates({"hand": handwritten, "interp": interpreter_oh_shit}, args.seconds)
    hand_games, hand_dec = measured["hand"]
    interp_games, interp_dec = measured["interp"]
    print(f"oh-shit, 4 random seats   hand-written: {hand_games:8.1f} games/s {hand_dec:10.0f} decisions/s")
    print(f"                          interpreter:  {interp_games:8.1f} games/s {interp_dec:10.0f} decisions/s")
    print(f"                          ratio interpreter/hand-written: {interp_games / hand_games:.2f}")


if __name__ == "__main__":
    main()
