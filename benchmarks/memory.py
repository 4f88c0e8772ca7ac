"""Peak memory of `cardrules simulate` as the number of games grows: a run of --small
games and one of --large games (default 1,000 and 100,000), each a process of its own,
their peak resident set sizes and the ratio (the target: within 1.10).

    python benchmarks/memory.py                          # oh-shit, four random seats
    python benchmarks/memory.py --ruleset oh-hell --small 200 --large 20000

The large run takes a while (100,000 games of oh-shit: a few minutes on one core).
Linux only: it reads the children's peak from getrusage (ru_maxrss, kilobytes)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def peak(ruleset: str, games: int, seats: str) -> tuple[float, float]:
    """A fresh process's peak RSS in MB, and its seconds, for one simulate run."""
    script = ("import resource, sys\n"
              "from cardrules.cli.main import main\n"
              "try:\n"
              f"    main(['simulate', {ruleset!r}, '--games', '{games}', '--seats', {seats!r}, '--quiet', '--json'],"
              " prog_name='cardrules')\n"
              "except SystemExit:\n"
              "    pass\n"
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="oh-shit")
    parser.add_argument("--seats", default="random,random,random,random")
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}; {args.ruleset}, seats {args.seats}")
    small, t_small = peak(args.ruleset, args.small, args.seats)
    print(f"{args.small:>8} games: peak {small:.1f} MB ({t_small:.0f} s)")
    large, t_large = peak(args.ruleset, args.large, args.seats)
    print(f"{args.large:>8} games: peak {large:.1f} MB ({t_large:.0f} s)")
    print(f"ratio {large / small:.3f} (target: at most 1.10)")


if __name__ == "__main__":
    main()
