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
from .intervals import mean_interval_of, wilson
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
    """Every game's summary, in game order (see :func:`iter_games`)."""
    return list(iter_games(ref, seats, games, seed, jobs, mode, record_dir, progress, cluster, rules))


def iter_games(ref: str, seats: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
              mode: str | None = None, record_dir: Path | None = None,
              progress: Any = None, cluster: Any = None, rules: Ruleset | None = None) -> Iterator[GameSummary]:
    """Play ``games`` games, giving each one's summary in game order as it is known (a
    run need not keep them: see :class:`Tally`); ``progress(n)`` is called as games finish.  ``cluster``: a
    Dask client from :func:`open_cluster`, to play them on its workers instead of
    ``jobs`` local processes (the results are the same).  ``rules``: ``ref`` already
    built (by the command that checked it), so this process does not build it again; a
    forked worker inherits it, a spawned one or a cluster's builds it once."""
    if rules is not None:
        _RULES.setdefault(ref, rules)
    kinds, folder = tuple(seats), str(record_dir) if record_dir else None
    work = ((ref, kinds, seed + i, mode, folder) for i in range(games))  # made as they are played
    if cluster is not None or jobs > 1:
        _workers_find_family(ref)
    if cluster is not None:
        yield from _run_on_cluster(cluster, list(work), progress)
        return
    if jobs <= 1:
        for job in work:
            summary = _play_one(job)
            if progress:
                progress(1)
            yield summary
        return
    chunk = max(1, min(64, games // (jobs * 8) or 1))
    # The platform's own way to start workers (fork here, spawn on macOS and Windows): a
    # worker finds the families as any process does, through their entry points (a family
    # registered by hand in this process only was refused above, however they start).
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(_play_one, work, chunksize=chunk):
            if progress:
                progress(1)
            yield summary


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


def statistics(results: Sequence[GameSummary], seats: Sequence[str], rules: Ruleset,
               mode: str | None = None) -> dict[str, Any]:
    """The run's figures, as plain data (the CLI prints them or dumps them as JSON)."""
    tally = Tally(len(seats), rules, mode)
    for summary in results:
        tally.add(summary)
    return tally.statistics(seats)


def _sum_into(into: Any, more: Any) -> Any:
    """``more`` added into ``into``: numbers add, lists element by element, objects key by
    key (a key of one only is taken as it is).  ValueError if they are not alike."""
    if isinstance(into, bool) or isinstance(more, bool):
        raise ValueError("a true-or-false does not add up")
    if isinstance(into, (int, float)) and isinstance(more, (int, float)):
        return into + more
    if isinstance(into, list) and isinstance(more, list) and len(into) == len(more):
        return [_sum_into(a, b) for a, b in zip(into, more)]
    if isinstance(into, dict) and isinstance(more, dict):
        out = dict(into)
        for key, value in more.items():
            out[key] = _sum_into(out[key], value) if key in out else value
        return out
    raise ValueError(f"{type(into).__name__} and {type(more).__name__} do not add up")


class _Moments:
    """A running count, sum, sum of squares, least and greatest of whole numbers: their
    mean and sample standard deviation exactly (integer arithmetic, one rounding)."""

    __slots__ = ("n", "total", "squares", "least", "most")

    def __init__(self) -> None:
        self.n = self.total = self.squares = 0
        self.least: int | None = None
        self.most: int | None = None

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value
        self.least = value if self.least is None else min(self.least, value)
        self.most = value if self.most is None else max(self.most, value)

    def mean_sd(self) -> tuple[float, float]:
        n = self.n
        if n < 2:
            return self.total / n, 0.0
        return self.total / n, math.sqrt((n * self.squares - self.total * self.total) / (n * (n - 1)))

    def interval(self) -> tuple[float, float]:
        return mean_interval_of(self.n, *self.mean_sd())


class Tally:
    """What :func:`statistics` reports, gathered game by game in memory that does not grow
    with the games: each seat's (and team's) totals as running sums, its wins, the
    decisions and rounds, and the family's figures summed as they come when the family
    says its summaries add up (``summaries_add_up``; else they are kept, one a game)."""

    def __init__(self, players: int, rules: Ruleset, mode: str | None = None):
        self.players = players
        self.rules = rules
        self.games = 0
        self.seats = [_Moments() for _ in range(players)]
        self.wins = [0] * players
        self.shared = [0.0] * players
        teams = rules.setup(players, mode).teams if rules.team is not None else ()
        self.teams = {team: [seat for seat, t in enumerate(teams) if t == team] for team in sorted(set(teams))}
        self.team_totals = {team: _Moments() for team in self.teams}
        self.decisions = 0
        self.rounds = 0
        self.additive = bool(rules.family.summaries_add_up)
        self.summed: dict[str, Any] | None = None
        self.extras: list[dict[str, Any]] = []

    def add(self, summary: GameSummary) -> None:
        self.games += 1
        for seat, moments in enumerate(self.seats):
            moments.add(summary.totals[seat])
        share = 1.0 / len(summary.winners) if summary.winners else 0.0
        for seat in set(summary.winners):
            self.wins[seat] += 1
            self.shared[seat] += share
        for team, members in self.teams.items():
            self.team_totals[team].add(sum(summary.totals[s] for s in members))
        self.decisions += summary.decisions
        self.rounds += summary.rounds
        if self.additive:
            try:
                self.summed = dict(summary.extra) if self.summed is None else _sum_into(self.summed, summary.extra)
                return
            except ValueError:  # (a family that said they add up, wrongly): keep them instead
                self.additive = False
                self.extras = [self.summed] if self.summed is not None else []
                self.summed = None
        self.extras.append(summary.extra)

    def statistics(self, seats: Sequence[str]) -> dict[str, Any]:
        n = self.games
        out: dict[str, Any] = {
            "games": n,
            "decisions": self.decisions,
            "rounds": self.rounds,
            "mean_decisions_per_game": self.decisions / n,
            "mean_rounds_per_game": self.rounds / n,
            "seats": [],
        }
        for seat, moments in enumerate(self.seats):
            mean, sd = moments.mean_sd()
            wins = self.wins[seat]
            out["seats"].append({
                "seat": seat, "kind": seats[seat], "wins": wins, "win_rate": wins / n,
                "win_share": self.shared[seat] / n, "mean_total": mean, "sd_total": sd,
                "min_total": moments.least, "max_total": moments.most,
                # 95% intervals: Wilson for the win rate (a shared first place is a win for
                # each tied seat), Student's t for the mean total
                "win_rate_ci95": list(wilson(wins, n)), "mean_total_ci95": list(moments.interval()),
            })
        if self.teams:  # partnerships: a team's total is its seats' summed, and all its seats win together
            out["teams"] = []
            for team, members in self.teams.items():
                moments = self.team_totals[team]
                mean, sd = moments.mean_sd()
                wins = self.wins[members[0]]
                out["teams"].append({"team": team, "seats": members, "wins": wins, "win_rate": wins / n,
                                     "mean_total": mean, "sd_total": sd, "win_rate_ci95": list(wilson(wins, n)),
                                     "mean_total_ci95": list(moments.interval())})
        rules = self.rules
        players = self.players
        extras = [self.summed] if self.summed is not None else self.extras
        per_seat, overall = rules.family.aggregate(extras, players)
        for entry, extra in zip(out["seats"], per_seat):
            entry.update(extra)
        out.update(overall)
        return out
