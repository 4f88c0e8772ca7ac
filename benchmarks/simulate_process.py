"""`cardrules simulate oh-shit` with four random seats as a whole process, against the
hand-written playout (benchmarks/handwritten_oh_shit.py) playing and summarising the same
number of games as a process of its own: the figure a user sees, start-up included.

    python benchmarks/simulate_process.py              # 600 games, 5 runs of each
    python benchmarks/simulate_process.py --games 2000 --runs 9

The runs alternate (so that a change in machine load touches both alike); each run's
processor time (user + system of the child) is taken, and the ratio is the hand-written
playout's median time over cardrules' (target: >= 0.7).  Say the machine's load
(`uptime`) with any figure quoted."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def cpu_seconds(args: list[str]) -> float:
    before = os.times()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cardrules = [sys.executable, "-m", "cardrules", "simulate", "oh-shit", "--games", str(args.games),
                 "--seats", "random,random,random,random", "--quiet", "--jobs", "1"]
    hand = [sys.executable, str(HERE / "handwritten_oh_shit.py"), str(args.games)]
    ours, theirs = [], []
    for _ in range(args.runs):
        ours.append(cpu_seconds(cardrules))
        theirs.append(cpu_seconds(hand))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"cardrules simulate oh-shit, {args.games} games, 4 random: median {a:.2f} s of processor time "
          f"(min {min(ours):.2f}, max {max(ours):.2f})")
    print(f"hand-written playout, same games as a process:    median {b:.2f} s "
          f"(min {min(theirs):.2f}, max {max(theirs):.2f})")
    print(f"ratio hand-written/cardrules: {b / a:.2f} (target >= 0.7)")


if __name__ == "__main__":
    main()
