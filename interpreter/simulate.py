"""Many games at once: seeds, processes, and the statistics a designer compares.

Game ``i`` of a run with seed ``S`` is played with seed ``S + i`` whatever the number
of processes, and results are gathered in game order, so a run's numbers depend only
on the ruleset, the seats, ``S`` and the number of games.  The games may also run on a
Dask cluster (:func:`open_cluster`; the optional extra ``cardrules[cluster]``), with
the same results.
"""

from __future__ import annotations

import logging
import math
import os
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from . import families
from .driver import play_bots
from .errors import CardrulesError
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


def _play_batch(batch: Sequence[tuple[str, Sequence[str], int, str | None, str | None]]) -> list[GameSummary]:
    return [_play_one(job) for job in batch]


_RULES: dict[str, Ruleset] = {}


def _cached_rules(ref: str) -> Ruleset:
    rules = _RULES.get(ref)
    if rules is None:
        path = Path(ref)
        rules = _RULES[ref] = load_ruleset(path if is_file(path) else ref)
    return rules


def run_games(ref: str, seats: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
              mode: str | None = None, record_dir: Path | None = None,
              progress: Any = None, cluster: Any = None, rules: Ruleset | None = None) -> list[GameSummary]:
    """Play ``games`` games; ``progress(n)`` is called as games finish.  ``cluster``: a
    Dask client from :func:`open_cluster`, to play them on its workers instead of
    ``jobs`` local processes (the results are the same).  ``rules``: ``ref`` already
    built (by the command that checked it), so this process does not build it again; a
    forked worker inherits it, a spawned one or a cluster's builds it once."""
    if rules is not None:
        _RULES.setdefault(ref, rules)
    work = [(ref, tuple(seats), seed + i, mode, str(record_dir) if record_dir else None) for i in range(games)]
    results: list[GameSummary] = []
    if cluster is not None or jobs > 1:
        _workers_find_family(ref)
    if cluster is not None:
        return _run_on_cluster(cluster, work, progress)
    if jobs <= 1:
        for job in work:
            results.append(_play_one(job))
            if progress:
                progress(1)
        return results
    chunk = max(1, min(64, games // (jobs * 8) or 1))
    # The platform's own way to start workers (fork here, spawn on macOS and Windows): a
    # worker finds the families as any process does, through their entry points (a family
    # registered by hand in this process only was refused above, however they start).
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(_play_one, work, chunksize=chunk):
            results.append(summary)
            if progress:
                progress(1)
    return results


class FamilyNotInstalled(CardrulesError):
    """The ruleset's family is registered in this process only, so worker processes
    (``--jobs``, a cluster) cannot find it."""


def _workers_find_family(ref: str) -> None:
    name = _cached_rules(ref).family.name
    if not families.is_installed(name):
        raise FamilyNotInstalled(
            f"the game family '{name}' is registered in this process only, so worker processes cannot find "
            f"it: install its package (with a '{families.GROUP}' entry point) to play it with --jobs or "
            "--cluster, or play with --jobs 1")


class ClusterUnavailable(Exception):
    """Dask is not installed, or the cluster cannot be reached."""


CONNECT_TIMEOUT = "10s"  # how long to wait for a scheduler to answer
CLUSTER_EXTRA = "--cluster needs Dask: pip install 'cardrules[cluster]'"


@contextmanager
def open_cluster(address: str, workers: int = 0) -> Iterator[Any]:
    """A Dask client for ``address`` (``tcp://host:8786``, a scheduler started with
    ``dask scheduler``), or for ``local``: a cluster of ``workers`` processes on this
    machine (0: one a core).  Closed (and a local cluster stopped) on leaving."""
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailable(CLUSTER_EXTRA) from None
    dask: Any = distributed  # Dask ships no type annotations for these
    Client, LocalCluster = dask.Client, dask.LocalCluster
    if address == "local":
        count = workers or os.cpu_count() or 1
        try:
            local = LocalCluster(n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None,
                                 silence_logs=logging.ERROR)
        except Exception as exc:  # a local cluster that cannot start (ports, processes): say why
            raise ClusterUnavailable(f"cannot start a local Dask cluster: {exc}") from None
        with local, Client(local) as client:
            yield client
        return
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # distributed raises OSError, TimeoutError, ValueError for a bad address
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        yield client


def _run_on_cluster(client: Any, work: Sequence[tuple[str, Sequence[str], int, str | None, str | None]],
                    progress: Any) -> list[GameSummary]:
    """Play ``work`` in batches on the cluster's workers; the progress counts each batch as it
    finishes, wherever it ran, and the results are put back in game order."""
    import distributed

    as_completed: Any = distributed.as_completed  # Dask ships no type annotations for it

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    size = max(1, min(16, len(work) // (workers * 8) or 1))
    batches = [list(work[i:i + size]) for i in range(0, len(work), size)]
    futures = client.map(_play_batch, batches, pure=False)
    place = {future.key: i for i, future in enumerate(futures)}
    done: list[list[GameSummary] | None] = [None] * len(batches)
    for future in as_completed(futures):
        batch = future.result()
        done[place[future.key]] = batch
        if progress:
            progress(len(batch))
    return [summary for batch in done if batch is not None for summary in batch]


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def statistics(results: Sequence[GameSummary], seats: Sequence[str], rules: Ruleset,
               mode: str | None = None) -> dict[str, Any]:
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
    teams = rules.setup(players, mode).teams if rules.team is not None else ()
    if teams:  # partnerships: a team's total is its seats' summed, and all its seats win together
        out["teams"] = []
        for team in sorted(set(teams)):
            members = [seat for seat, t in enumerate(teams) if t == team]
            totals = [sum(r.totals[s] for s in members) for r in results]
            mean, sd = _mean_sd(totals)
            wins = sum(1 for r in results if members[0] in r.winners)
            out["teams"].append({"team": team, "seats": members, "wins": wins, "win_rate": wins / n,
                                 "mean_total": mean, "sd_total": sd, "win_rate_ci95": list(wilson(wins, n)),
                                 "mean_total_ci95": list(mean_interval(totals))})
    per_seat, overall = rules.family.aggregate([r.extra for r in results], players)
    for entry, extra in zip(out["seats"], per_seat):
        entry.update(extra)
    out.update(overall)
    return out
