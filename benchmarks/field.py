"""The search seat against OpenSpiel's IS-MCTS, at equal processor time a decision.

    python benchmarks/field.py RULESET [--deals 40] [--seconds 0.1] [--players 4]
                               [--seed 1] [--jobs 2] [--json] [--out deals.jsonl]
    python benchmarks/field.py RULESET --report deals.jsonl [--json]

``--out`` appends each deal's results to a file as it finishes (a long run stopped
part-way keeps what it played); ``--report`` gives the figures of such a file.

Every deal (seeds ``S .. S+N-1``) is played twice: once with ``search`` in the even
seats and IS-MCTS (the seat kind ``ismcts``: OpenSpiel's IS-MCTS with random rollouts,
through cardrules.openspiel) in the odd ones, once the other way round.  So each seat of
each deal is played by both, on the same cards: the paired difference of a deal is the
mean over its seats of (search's result - IS-MCTS's result) in that seat, for the win
(a shared first place counts as a win, as in ``simulate``) and for the final total
(turned round where the lowest total wins, so that more is better).  The figures are
the means over the deals with Student's t 95% intervals
(:func:`cardrules.interpreter.intervals.mean_interval`), and each kind's win rate with
its Wilson interval.

Both seats get the same budget, ``--seconds`` of processor time a decision
(``search:Xs`` and ``ismcts:Xs``): a search seat counts its time with
``time.perf_counter``, so this script makes it count processor time instead, which the
two other programs on a shared machine do not eat into.  A forced move (one legal)
costs neither anything.  IS-MCTS runs at least two simulations a decision (its first
only expands the root), so where two random rollouts to the end of the game take more
than the budget it spends more: the report gives each kind's measured processor time a
decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Sequence

from cardrules.interpreter import load_ruleset, search
from cardrules.interpreter.bots import make_policy
from cardrules.interpreter.driver import play_game
from cardrules.interpreter.files import is_file
from cardrules.interpreter.intervals import mean_interval, wilson

# search:Xs on processor time (see the module)
search.time = types.SimpleNamespace(perf_counter=time.process_time)  # type: ignore[attr-defined]


class Timed:
    """A seat's policy, timing its decisions that had a choice (processor time)."""

    def __init__(self, policy: Any):
        self.policy = policy
        self.kind = policy.kind
        self.needs_observation = policy.needs_observation
        self.seconds: list[float] = []
        self.runs: list[int] = []  # search's playouts, IS-MCTS's simulations, a decision

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        start = time.process_time()
        action = self.policy.act(observation, legal)
        if len(legal) > 1:
            self.seconds.append(time.process_time() - start)
            self.runs.append(getattr(self.policy, "last_playouts", None) or getattr(self.policy, "last_simulations", 0))
        return action


def play_deal(job: tuple[str, int, int, float]) -> dict[str, Any]:
    """Both games of one deal: per seat, each kind's win and total, and decision times."""
    ref, players, seed, seconds = job
    rules = load_ruleset(Path(ref) if is_file(Path(ref)) else ref)
    kinds = {"search": f"search:{seconds:g}s", "ismcts": f"ismcts:{seconds:g}s"}
    sign = 1 if rules.winner == "highest" else -1
    out: dict[str, Any] = {"seed": seed, "search": {}, "ismcts": {}, "seconds": {"search": [], "ismcts": []},
                           "runs": {"search": [], "ismcts": []}}
    for first in ("search", "ismcts"):
        second = "ismcts" if first == "search" else "search"
        names = [first if s % 2 == 0 else second for s in range(players)]
        policies = [Timed(make_policy(rules, kinds[name], seed, s)) for s, name in enumerate(names)]
        state = play_game(rules, policies, seed, ruleset_ref=ref)
        for s, name in enumerate(names):
            out[name][s] = {"win": 1.0 if s in state.winners else 0.0, "total": sign * state.totals[s]}
            out["seconds"][name] += policies[s].seconds
            out["runs"][name] += policies[s].runs
    return out


def play_deals(ref: str, deals: int, seconds: float, players: int, seed: int, jobs: int,
               out: Path | None) -> list[dict[str, Any]]:
    jobs_list = [(ref, players, seed + d, seconds) for d in range(deals)]
    results = []

    def keep(result: dict[str, Any]) -> None:
        results.append(result)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps({**result, "seconds_a_decision": seconds}) + "\n")

    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(play_deal, jobs_list):
                keep(result)
    else:
        for job in jobs_list:
            keep(play_deal(job))
    return results


def field(ref: str, results: list[dict[str, Any]], seconds: float, players: int, seed: int,
          wall: float) -> dict[str, Any]:
    rules = load_ruleset(Path(ref) if is_file(Path(ref)) else ref)
    deals = len(results)
    for r in results:  # (read back from JSON, the seats are strings)
        for kind in ("search", "ismcts"):
            r[kind] = {int(s): v for s, v in r[kind].items()}
    report: dict[str, Any] = {"ruleset": ref, "title": rules.title, "players": players, "deals": deals,
                              "games": 2 * deals, "seconds_a_decision": seconds, "seed": seed, "wall_seconds": wall}
    for figure in ("win", "total"):
        diffs = [statistics.fmean(r["search"][s][figure] - r["ismcts"][s][figure] for s in range(players))
                 for r in results]
        low, high = mean_interval(diffs)
        report[figure] = {
            "search": statistics.fmean(r["search"][s][figure] for r in results for s in range(players)),
            "ismcts": statistics.fmean(r["ismcts"][s][figure] for r in results for s in range(players)),
            "difference": statistics.fmean(diffs), "ci95": [low, high]}
    for kind in ("search", "ismcts"):
        wins = sum(int(r[kind][s]["win"]) for r in results for s in range(players))
        report["win"][f"{kind}_ci95"] = list(wilson(wins, deals * players))
        times = [t for r in results for t in r["seconds"][kind]]
        runs = [n for r in results for n in r.get("runs", {}).get(kind, [])]
        report[f"{kind}_decision_seconds"] = {"mean": statistics.fmean(times) if times else 0.0,
                                              "median": statistics.median(times) if times else 0.0,
                                              "decisions": len(times),
                                              "runs_median": statistics.median(runs) if runs else None}
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.report is not None:
        results = [json.loads(line) for line in args.report.read_text().splitlines() if line.strip()]
        args.seconds = results[0]["seconds_a_decision"]
        args.players = len(results[0]["search"])
        args.deals = len(results)
        seeds = sorted(r["seed"] for r in results)
        args.seed = seeds[0]
    else:
        results = play_deals(args.ruleset, args.deals, args.seconds, args.players, args.seed, args.jobs, args.out)
    report = field(args.ruleset, results, args.seconds, args.players, args.seed, time.perf_counter() - started)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    win, total = report["win"], report["total"]
    print(f"{report['title']} ({args.ruleset}), {args.players} players, {args.deals} deals, {report['games']} games, "
          f"{args.seconds:g} s of processor time a decision")
    print(f"win rate: search {100 * win['search']:.1f}% [{100 * win['search_ci95'][0]:.1f}, "
          f"{100 * win['search_ci95'][1]:.1f}] / IS-MCTS {100 * win['ismcts']:.1f}% "
          f"[{100 * win['ismcts_ci95'][0]:.1f}, {100 * win['ismcts_ci95'][1]:.1f}]; difference "
          f"{100 * win['difference']:+.1f} points [{100 * win['ci95'][0]:+.1f}, {100 * win['ci95'][1]:+.1f}]")
    print(f"mean total: search {total['search']:.1f} / IS-MCTS {total['ismcts']:.1f}; difference "
          f"{total['difference']:+.1f} [{total['ci95'][0]:+.1f}, {total['ci95'][1]:+.1f}]")
    for kind in ("search", "ismcts"):
        t = report[f"{kind}_decision_seconds"]
        runs = "" if t["runs_median"] is None else (f", a median of {t['runs_median']:g} "
                                                    + ("playouts" if kind == "search" else "simulations"))
        print(f"{kind}: {t['mean']:.3f} s a decision (median {t['median']:.3f}), {t['decisions']} decisions{runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
