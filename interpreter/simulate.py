"""Many games at once: seeds, processes, and the statistics a designer compares.

Game ``i`` of a run with seed ``S`` is played with seed ``S + i`` whatever the number
of processes, and results are gathered in game order, so a run's numbers depend only
on the ruleset, the seats, ``S`` and the number of games.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .driver import play_bots
from .files import is_file
from .game import GameState
from .intervals import mean_interval, wilson
from .record import save_record
from .rules import Ruleset
from .ruleset import load_ruleset


@dataclass
class GameSummary:
    """What one finished game contributes to the statistics (``extra``: the family's
    own figures, see :meth:`cardrules.interpreter.family.GameFamily.summarize`)."""

    seed: int
    totals: list[int]
    winners: list[int]
    decisions: int
    rounds: int
    extra: dict[str, Any] = field(default_factory=dict)


def summarize(state: GameState) -> GameSummary:
    return GameSummary(state.seed, list(state.totals), state.winners, state.decisions,
                       state.round_index, state.rules.family.summarize(state))  # rounds played


def _play_one(job: tuple[str, Sequence[str], int, str | None, str | None]) -> GameSummary:
    ref, seats, seed, mode, record_dir = job
    rules = _cached_rules(ref)
    names = [f"{kind}-{i}" for i, kind in enumerate(seats)]
    state = play_bots(rules, seats, seed, names, mode, ref if ref != rules.name else None)
    if record_dir is not None:
        save_record(state, Path(record_dir) / f"game-{seed}.jsonl")
    return summarize(state)


_RULES: dict[str, Ruleset] = {}


def _cached_rules(ref: str) -> Ruleset:
    rules = _RULES.get(ref)
    if rules is None:
        path = Path(ref)
        rules = _RULES[ref] = load_ruleset(path if is_file(path) else ref)
    return rules


def run_games(ref: str, seats: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
              mode: str | None = None, record_dir: Path | None = None,
              progress: Any = None) -> list[GameSummary]:
    """Play ``games`` games; ``progress(n)`` is called as games finish (in order)."""
    work = [(ref, tuple(seats), seed + i, mode, str(record_dir) if record_dir else None) for i in range(games)]
    results: list[GameSummary] = []
    if jobs <= 1:
        for job in work:
            results.append(_play_one(job))
            if progress:
                progress(1)
        return results
    chunk = max(1, min(64, games // (jobs * 8) or 1))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(_play_one, work, chunksize=chunk):
            results.append(summary)
            if progress:
                progress(1)
    return results


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def statistics(results: Sequence[GameSummary], seats: Sequence[str], rules: Ruleset) -> dict[str, Any]:
    """The run's figures, as plain data (the CLI prints them or dumps them as JSON)."""
    n = len(results)
    players = len(seats)
    out: dict[str, Any] = {
        "games": n,
        "decisions": sum(r.decisions for r in results),
        "rounds": sum(r.rounds for r in results),
        "mean_decisions_per_game": sum(r.decisions for r in results) / n,
        "mean_rounds_per_game": sum(r.rounds for r in results) / n,
        "seats": [],
    }
    for seat in range(players):
        totals = [r.totals[seat] for r in results]
        mean, sd = _mean_sd(totals)
        wins = sum(1 for r in results if seat in r.winners)
        shared = sum(1.0 / len(r.winners) for r in results if seat in r.winners)
        entry: dict[str, Any] = {
            "seat": seat, "kind": seats[seat], "wins": wins, "win_rate": wins / n,
            "win_share": shared / n, "mean_total": mean, "sd_total": sd,
            "min_total": min(totals), "max_total": max(totals),
            # 95% intervals: Wilson for the win rate (a shared first place is a win for
            # each tied seat), Student's t for the mean total
            "win_rate_ci95": list(wilson(wins, n)), "mean_total_ci95": list(mean_interval(totals)),
        }
        out["seats"].append(entry)
    per_seat, overall = rules.family.aggregate([r.extra for r in results], players)
    for entry, extra in zip(out["seats"], per_seat):
        entry.update(extra)
    out.update(overall)
    return out
