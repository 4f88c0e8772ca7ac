"""Benchmark the interpreter, in one run, against yardsticks on the same machine.

    python benchmarks/bench.py [--seconds S]

1. oh-shit with four random seats through the public engine (`play_game`: chance
   deals, `legal_actions`, `apply`, full event records) against the minimal
   hand-written playout in benchmarks/handwritten_oh_shit.py (same rules, same
   random policy): games/s, decisions/s and the ratio (target: >= 0.5).
2. shanghai-isra with four heuristic bot seats, and with four random seats:
   games/s and player decisions/s.
3. What the search bot (`search` seats) spends its time on: `state.clone()` of a
   mid-game state of each ruleset (microseconds per clone), sampling a full state from
   a seat's observation (`determinize`), a playout of the rest of the round with four
   heuristic bots from there (milliseconds), and a whole search decision at the
   default budget for the first bid of `oh-hell` with 10 cards (mean and slowest of
   several deals).
4. If the `open_spiel` package is installed (`pip install open_spiel`; never a
   dependency of cardrules): OpenSpiel's `oh_hell` (4 players) and `gin_rummy` driven
   from Python with uniform random actions, decisions/s.

Runs are interleaved in 30 slices so that a change in machine speed during the run
touches every measurement alike; each ratio is the median, over the slices, of the
two rates measured side by side in that slice (the ratio of the totals is printed
beside it).  Not a test: the figures depend on the machine.
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
from cardrules.interpreter.bots import make_policies, make_policy  # noqa: E402
from cardrules.interpreter.driver import Stop, play_bots, play_out  # noqa: E402
from cardrules.interpreter.game import GameState  # noqa: E402
from cardrules.interpreter.search import DEFAULT_PLAYOUTS, playout_value  # noqa: E402

Runner = Callable[[int], int]  # plays game number i, returns its player decisions


Slices = dict[str, list[tuple[int, int, float]]]  # runner -> (games, decisions, seconds) per slice


def rates(runners: dict[str, Runner], seconds: float, slices: int = 30) -> tuple[dict[str, tuple[float, float]], Slices]:
    """Games/s and decisions/s for each runner, measured in interleaved slices (so that
    a change in machine speed touches every runner alike), and the slices themselves."""
    per_slice: Slices = {name: [] for name in runners}
    counts = {name: 0 for name in runners}
    for _ in range(slices):
        for name, run_one in runners.items():
            games = decisions = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / slices:
                decisions += run_one(counts[name])
                counts[name] += 1
                games += 1
            per_slice[name].append((games, decisions, time.perf_counter() - start))
    totals = {}
    for name, rows in per_slice.items():
        g, d, t = (sum(r[i] for r in rows) for i in range(3))
        totals[name] = (g / t, d / t)
    return totals, per_slice


def paired_ratio(per_slice: Slices, ours: str, theirs: str, column: int) -> float:
    """The median, over slices, of our rate over the yardstick's in the same slice
    (column 0: games/s, 1: decisions/s): a burst of machine slowness in one slice moves
    one pair, not the figure."""
    ratios = sorted((a[column] / a[2]) / (b[column] / b[2]) for a, b in zip(per_slice[ours], per_slice[theirs]))
    middle = len(ratios) // 2
    return ratios[middle] if len(ratios) % 2 else (ratios[middle - 1] + ratios[middle]) / 2


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


def _mid_game(name: str, decisions: int) -> GameState:
    rules = load_ruleset(name)
    state = new_game(rules, 4, 1)
    count = [0]

    def stop(seat: int, action: object) -> None:
        count[0] += 1
        if count[0] >= decisions:
            raise Stop

    play_out(state, make_policies(rules, ["bot"] * 4, 1), on_action=stop)
    return state


def search_costs(name: str, decisions: int, seconds: float) -> tuple[float, float]:
    """(microseconds per sampled state, milliseconds per playout of the rest of the
    round with four heuristic bots) from a game of ``name`` after ``decisions`` decisions."""
    state = _mid_game(name, decisions)
    rules = state.rules
    obs = state.observation(state.turn)
    memory: dict[str, object] = {}
    rng = random.Random(1)
    bots = make_policies(rules, ["bot"] * 4, 1)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        rules.family.determinize(rules, obs, memory, rng)
        count += 1
    sample = (time.perf_counter() - start) / count * 1e6
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        playout_value(state.clone(), bots, state.turn)
        count += 1
    return sample, (time.perf_counter() - start) / count * 1e3


def search_decision_seconds(name: str, kind: str, deals: int = 10) -> tuple[float, float]:
    """(mean, slowest) seconds of a ``kind`` seat's first decision of a game of ``name``
    (oh-hell: the first bid, 10 cards), over ``deals`` deals."""
    rules = load_ruleset(name)
    times = []
    for seed in range(deals):
        state = new_game(rules, 4, seed)
        state.apply(state.chance_action())
        policy = make_policy(rules, kind, seed, state.turn)
        obs, legal = state.observation(state.turn), state.legal_actions()
        start = time.perf_counter()
        policy.act(obs, legal)
        times.append(time.perf_counter() - start)
    return sum(times) / len(times), max(times)


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
    measured, per_slice = rates(runners, args.seconds)
    for label, (games, decisions) in measured.items():
        print(f"  {label:36} {games:9.1f} games/s {decisions:10.0f} decisions/s")
    for name, decisions in (("oh-shit", 40), ("shanghai-isra", 60)):
        print(f"  clone of a {name} game after {decisions} decisions: {clone_microseconds(name, decisions):6.1f} us")
    for name, decisions in (("oh-hell", 1), ("oh-hell", 20), ("shanghai-isra", 1), ("shanghai-isra", 60)):
        sample, playout = search_costs(name, decisions, args.seconds / 2)
        print(f"  search, {name} after {decisions} decisions: a sampled state {sample:6.1f} us, "
              f"a playout to the round's end {playout:6.2f} ms")
    mean, slowest = search_decision_seconds("oh-hell", "search")
    print(f"  search decision (default {DEFAULT_PLAYOUTS} playouts), oh-hell first bid with 10 cards: "
          f"mean {mean:.3f} s, slowest {slowest:.3f} s of 10 deals (target <= 0.5 s)")
    hand = measured["hand-written oh-shit, 4 random"][0]
    ours = measured["cardrules oh-shit, 4 random"][0]
    paired = paired_ratio(per_slice, "cardrules oh-shit, 4 random", "hand-written oh-shit, 4 random", 0)
    print(f"  ratio cardrules/hand-written oh-shit: {paired:.2f} (target >= 0.5; median of the slices' ratios; "
          f"of the totals: {ours / hand:.2f})")
    if "OpenSpiel gin_rummy, 2 random" in measured:
        gin = measured["OpenSpiel gin_rummy, 2 random"][1]
        isra = measured["cardrules shanghai-isra, 4 bots"][1]
        paired = paired_ratio(per_slice, "cardrules shanghai-isra, 4 bots", "OpenSpiel gin_rummy, 2 random", 1)
        print(f"  ratio shanghai-isra bots / OpenSpiel gin_rummy, decisions/s: {paired:.2f} (target >= 1; median of "
              f"the slices' ratios; of the totals: {isra / gin:.2f})")
    else:
        print("  (pip install open_spiel to measure OpenSpiel's oh_hell and gin_rummy in the same run)")


if __name__ == "__main__":
    main()
