"""Benchmark the interpreter, in one run, against yardsticks on the same machine.

    python benchmarks/bench.py [--seconds S]

1. oh-shit with four random seats through the public engine (`play_game`: chance
   deals, `legal_actions`, `apply`, full event records) against the minimal
   hand-written playout in benchmarks/handwritten_oh_shit.py (same rules, same
   random policy): games/s, decisions/s and the ratio (target: >= 0.5).
2. shanghai-isra with four heuristic bot seats, and with four random seats:
   games/s and player decisions/s.
3. The copy a search bot makes of a game at every step: `state.clone()` of a
   mid-game state of each ruleset, microseconds per clone.
4. If the `open_spiel` package is installed (`pip install open_spiel`; never a
   dependency of cardrules): OpenSpiel's `oh_hell` (4 players) and `gin_rummy` driven
   from Python with uniform random actions, decisions/s.

Runs are interleaved in slices so that a change in machine speed during the run
touches every measurement alike.  Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).parent))

import handwritten_oh_shit  # noqa: E402

from cardrules.interpreter import load_ruleset, new_game  # noqa: E402
from cardrules.interpreter.bots import make_policies  # noqa: E402
from cardrules.interpreter.driver import Stop, play_bots, play_out  # noqa: E402

Runner = Callable[[int], int]  # plays game number i, returns its player decisions


def rates(runners: dict[str, Runner], seconds: float, slices: int = 10) -> dict[str, tuple[float, float]]:
    """Games/s and decisions/s for each runner, measured in interleaved slices."""
    totals = {name: [0, 0, 0.0] for name in runners}
    for _ in range(slices):
        for name, run_one in runners.items():
            games, decisions, spent = totals[name]
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / slices:
                decisions += run_one(games)
                games += 1
            totals[name] = [games, decisions, spent + time.perf_counter() - start]
    return {name: (g / t, d / t) for name, (g, d, t) in totals.items()}


def cardrules_runner(name: str, kind: str) -> Runner:
    rules = load_ruleset(name)

    def run(seed: int) -> int:
        return play_bots(rules, [kind] * 4, seed).decisions

    return run


def handwritten(seed: int) -> int:
    return handwritten_oh_shit.play(random.Random(seed))[1]


def clone_microseconds(name: str, decisions: int, repeat: int = 20000) -> float:
    """Microseconds per clone of a game of ``name`` after ``decisions`` bot decisions."""
    rules = load_ruleset(name)
    state = new_game(rules, 4, 1)
    count = [0]

    def stop(seat: int, action: object) -> None:
        count[0] += 1
        if count[0] >= decisions:
            raise Stop

    play_out(state, make_policies(rules, ["bot"] * 4, 1), on_action=stop)
    start = time.perf_counter()
    for _ in range(repeat):
        state.clone()
    return (time.perf_counter() - start) / repeat * 1e6


def openspiel_runner(game_name: str, **params: int) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(game_name, params)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
        return decisions

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.seconds:g}s per measurement")
    runners: dict[str, Runner] = {
        "hand-written oh-shit, 4 random": handwritten,
        "cardrules oh-shit, 4 random": cardrules_runner("oh-shit", "random"),
        "cardrules shanghai-isra, 4 bots": cardrules_runner("shanghai-isra", "bot"),
        "cardrules shanghai-isra, 4 random": cardrules_runner("shanghai-isra", "random"),
    }
    for label, runner in (("OpenSpiel oh_hell, 4 random", openspiel_runner("oh_hell", players=4)),
                          ("OpenSpiel gin_rummy, 2 random", openspiel_runner("gin_rummy"))):
        if runner is not None:
            runners[label] = runner
    measured = rates(runners, args.seconds)
    for label, (games, decisions) in measured.items():
        print(f"  {label:36} {games:9.1f} games/s {decisions:10.0f} decisions/s")
    for name, decisions in (("oh-shit", 40), ("shanghai-isra", 60)):
        print(f"  clone of a {name} game after {decisions} decisions: {clone_microseconds(name, decisions):6.1f} us")
    hand = measured["hand-written oh-shit, 4 random"][0]
    ours = measured["cardrules oh-shit, 4 random"][0]
    print(f"  ratio cardrules/hand-written oh-shit: {ours / hand:.2f} (target >= 0.5)")
    if "OpenSpiel gin_rummy, 2 random" in measured:
        gin = measured["OpenSpiel gin_rummy, 2 random"][1]
        isra = measured["cardrules shanghai-isra, 4 bots"][1]
        print(f"  ratio shanghai-isra bots / OpenSpiel gin_rummy, decisions/s: {isra / gin:.2f} (target >= 1)")
    else:
        print("  (pip install open_spiel to measure OpenSpiel's oh_hell and gin_rummy in the same run)")


if __name__ == "__main__":
    main()
