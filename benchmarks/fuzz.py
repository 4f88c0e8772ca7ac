"""Fuzz cardrules with thousands of mutants of the things strangers hand it.

    python benchmarks/fuzz.py [--mutants 10000] [--jobs 2] [--seed 0]

Mutants of the bundled rulesets, of the golden game records and of saves of bot games
(tests/fuzzing.py makes them) are run through `validate`, `replay` and `resume` as a
user would run them, and odd command lines through every command but `serve`, in
worker processes.  Prints the count of each outcome by kind of input: exit 0 and exit
1 are clean ends (and exit 2, a usage error, for a command line); an internal error, a
traceback, a message over several lines, a mutant that takes more than 10 seconds of
processor time (or 60 s of the clock: a hang) or a worker past 1 GB are findings,
printed with the mutant that caused them.  Processor time, as validate's own budget
counts it, so that a busy machine does not make findings.  Not a
test: the suite runs a few dozen of each (tests/test_fuzz_inputs.py).
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

import fuzzing  # noqa: E402

LIMIT_SECONDS = 10  # of processor time
LIMIT_WALL = 60  # of the clock: a mutant waiting on something (a FIFO, a prompt) uses no processor time
LIMIT_BYTES = 1 << 30

_saves: list[Path] = []
_folder: Path | None = None


class _Timeout(BaseException):
    """Raised by an alarm; a BaseException, so that cardrules' own handling of
    unexpected errors does not take it for one."""

    def __init__(self, outcome: str):
        super().__init__(outcome)
        self.outcome = outcome


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout(f"over {LIMIT_SECONDS} s" if signum == signal.SIGPROF else f"over {LIMIT_WALL} s of the clock")


def _start() -> None:
    global _folder, _saves
    _folder = Path(tempfile.mkdtemp(prefix="cardrules-fuzz-"))
    _saves = fuzzing.make_saves(_folder)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)


def _run(job: tuple[str, int]) -> tuple[str, str, float, str]:
    kind, seed = job
    assert _folder is not None
    rng = random.Random(seed)
    if kind == "args":
        folder = _folder / "args"
        folder.mkdir(exist_ok=True)
        args = fuzzing.random_arguments(rng, folder)
        text = " ".join(repr(a[:200]) for a in args)
    else:
        text = (fuzzing.mutate_ruleset(rng) if kind == "ruleset" else fuzzing.mutate_record(rng) if kind == "record"
                else fuzzing.mutate_save(rng, _saves))
    start = time.process_time()
    signal.alarm(LIMIT_WALL)
    signal.setitimer(signal.ITIMER_PROF, LIMIT_SECONDS)
    try:
        outcome, output = (fuzzing.run_arguments(args, folder) if kind == "args" else
                           fuzzing.run_mutant(kind, text, _folder))
    except _Timeout as exc:
        outcome, output = exc.outcome, ""
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
    if resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 > LIMIT_BYTES:
        outcome = "over 1 GB"
    clean = ("exit 0", "exit 1", "exit 2") if kind == "args" else ("exit 0", "exit 1")
    finding = "" if outcome in clean else f"--- {kind} mutant {seed}: {outcome}\n{output[-2000:]}\n{text[:2000]}"
    return kind, outcome, time.process_time() - start, finding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    kinds = ["ruleset", "record", "save", "args"]
    jobs = [(kinds[i % len(kinds)], args.seed + i) for i in range(args.mutants)]
    counts: Counter[tuple[str, str]] = Counter()
    slowest = (0.0, "")
    findings = []
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=_start) as pool:
        for (kind, seed), (_, outcome, seconds, finding) in zip(jobs, pool.map(_run, jobs, chunksize=16)):
            counts[(kind, outcome)] += 1
            slowest = max(slowest, (seconds, f"{kind} mutant {seed}"))
            if finding:
                findings.append(finding)
    for finding in findings[:20]:
        print(finding)
    print(f"{args.mutants} mutants in {time.monotonic() - start:.0f} s with {args.jobs} processes; "
          f"the slowest ({slowest[1]}) took {slowest[0]:.1f} s of processor time")
    for kind in kinds:
        by = {o: n for (k, o), n in sorted(counts.items()) if k == kind}
        print(f"  {kind:8} " + ", ".join(f"{outcome}: {n}" for outcome, n in by.items()))
    bad = sum(n for (k, o), n in counts.items() if o not in ("exit 0", "exit 1") and not (k == "args" and o == "exit 2"))
    print(f"  findings: {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
