"""How long the `cardrules` command takes to start: `cardrules --version` and
`cardrules list`, against a bare `python -c pass` run the same way (the yardstick).

    python benchmarks/startup.py            # 15 runs of each
    python benchmarks/startup.py --runs 40

Prints, for each command, the median and the best wall-clock time and the processor time
(user + system of the child) over the runs, and the same less the yardstick's: what
cardrules itself costs.  Say the machine's load (`uptime`) with any figure quoted."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def measure(args: list[str], runs: int) -> tuple[float, float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    return statistics.median(walls), min(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    python = sys.executable
    base = measure([python, "-c", "pass"], runs)
    print(f"load: {os.getloadavg()[0]:.2f}; {runs} runs each")
    print(f"{'python -c pass':28} wall median {base[0]:.3f} s, best {base[1]:.3f} s, processor {base[2]:.3f} s")
    for label, args in (("cardrules --version", ["--version"]), ("cardrules list", ["list"])):
        wall, best, cpu = measure([python, "-m", "cardrules", *args], runs)
        print(f"{label:28} wall median {wall:.3f} s, best {best:.3f} s, processor {cpu:.3f} s"
              f"  (cardrules' own: {wall - base[0]:.3f} s wall, {cpu - base[2]:.3f} s processor)")


if __name__ == "__main__":
    main()
