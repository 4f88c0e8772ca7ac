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

from .bots import make_policy
from .record import save_record
from .ruleset import Family, Ruleset, load_ruleset
from .runner import play_game


@dataclass
class GameSummary:
    """What one finished game contributes to the statistics."""

    seed: int
    totals: list[int]
    winners: list[int]
    decisions: int
    rounds: int
    exact_bids: list[int] = field(default_factory=list)  # per seat: rounds bid exactly (tricks)
    bids: list[int] = field(default_factory=list)  # per seat: bids made (tricks)
    constrained_bids: int = 0
    by_hand_size: dict[int, list[int]] = field(default_factory=dict)  # size -> [points, seat-rounds]
    extra: dict[str, Any] = field(default_factory=dict)


def summarize(state: Any) -> GameSummary:
    players = state.players
    summary = GameSummary(state.seed, list(state.totals), state.winners, state.decisions,
                          len(state.setup.hand_sizes))
    if state.family is Family.TRICK_TAKING:
        exact = [0] * players
        made = [0] * players
        bids: dict[int, int] = {}
        taken = [0] * players
        size = 0
        for event in state.events:
            kind = event["event"]
            if kind == "deal":
                bids, taken, size = {}, [0] * players, event["hand_size"]
            elif kind == "bid":
                bids[event["seat"]] = event["bid"]
            elif kind == "trick":
                taken[event["winner"]] += 1
            elif kind == "score":
                for seat in range(players):
                    made[seat] += 1
                    exact[seat] += bids.get(seat) == taken[seat]
                cell = summary.by_hand_size.setdefault(size, [0, 0])
                cell[0] += sum(event["points"])
                cell[1] += players
        summary.exact_bids, summary.bids = exact, made
        summary.constrained_bids = state.constrained_bids
    else:
        summary.extra = state.statistics() if hasattr(state, "statistics") else {}
    return summary


def _play_one(job: tuple[str, Sequence[str], int, str | None, str | None]) -> GameSummary:
    ref, seats, seed, mode, record_dir = job
    rules = _cached_rules(ref)
    names = [f"{kind}-{i}" for i, kind in enumerate(seats)]
    state = play_game(rules, [make_policy(kind, seed, i) for i, kind in enumerate(seats)], seed,
                      names, mode, ref if ref != rules.name else None)
    if record_dir is not None:
        save_record(state, Path(record_dir) / f"game-{seed}.jsonl")
    return summarize(state)


_RULES: dict[str, Ruleset] = {}


def _cached_rules(ref: str) -> Ruleset:
    rules = _RULES.get(ref)
    if rules is None:
        path = Path(ref)
        rules = _RULES[ref] = load_ruleset(path if path.is_file() else ref)
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


def statistics(results: Sequence[GameSummary], seats: Sequence[str], family: Family) -> dict[str, Any]:
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
        }
        if family is Family.TRICK_TAKING:
            bids = sum(r.bids[seat] for r in results)
            entry["exact_bid_rate"] = sum(r.exact_bids[seat] for r in results) / bids if bids else 0.0
        out["seats"].append(entry)
    if family is Family.TRICK_TAKING:
        bids = sum(sum(r.bids) for r in results)
        out["constrained_bid_rate"] = sum(r.constrained_bids for r in results) / bids if bids else 0.0
        cells: dict[int, list[int]] = {}
        for r in results:
            for size, (points, count) in r.by_hand_size.items():
                cell = cells.setdefault(size, [0, 0])
                cell[0] += points
                cell[1] += count
        out["points_per_round_by_hand_size"] = {str(size): points / count
                                                for size, (points, count) in sorted(cells.items())}
    else:
        rounds = sum(r.extra.get("rounds", 0) for r in results) or 1
        for seat, entry in enumerate(out["seats"]):
            entry["went_out_rate"] = sum(r.extra["seat_went_out"][seat] for r in results) / rounds
            entry["mean_penalty_per_round"] = sum(r.extra["seat_penalty"][seat] for r in results) / rounds
        counts = sorted({k for r in results for k, v in r.extra.items() if isinstance(v, int)})
        summed = {k: sum(r.extra.get(k, 0) for r in results) for k in counts}
        out["rummy"] = {
            "rounds": rounds,
            "gone_out_rate": summed.get("rounds_gone_out", 0) / rounds,
            "mean_penalty_per_round": summed.get("penalty_points", 0) / rounds / players,
            "buys_per_round": summed.get("buys", 0) / rounds,
            "nobody_down_rate": summed.get("rounds_nobody_down", 0) / rounds,
            "counts": summed,
        }
    return out
