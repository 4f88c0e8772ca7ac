"""`cardrules simulate` and `compare`: many games with bots, and their statistics."""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import click

from ..interpreter.bots import check_seat_kind
from ..interpreter.files import FileRefused, check_folder, is_file
from ..interpreter.simulate import ClusterUnavailable, GameSummary, Tally, iter_games, open_cluster, run_games
from .common import InvalidInput, UsageProblem, Whole, echo, examples, json_option, open_ruleset
from .exports import (check_output, csv_bytes, need_matplotlib, plot_differences, plot_format, plot_totals,
                      write_output)
from ..narration.families import view_for
from ..narration.render import Renderer
from .table import SEED, parse_seats, refuse_unplayable


def prepare_record_dir(folder: Path, seed: int, games: int) -> None:
    """Make the folder for simulate's records, refusing (before any game is played) one
    that cannot be written or that already holds a record this run would write."""
    try:
        if folder.exists() and not folder.is_dir():
            raise UsageProblem(f"{folder} is not a folder; choose another --record-dir")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    try:
        check_folder(folder)
    except FileRefused as exc:
        raise UsageProblem(str(exc)) from None
    taken = [seed + i for i in range(games) if (folder / f"game-{seed + i}.jsonl").exists()]
    if taken:
        raise UsageProblem(f"{folder / f'game-{taken[0]}.jsonl'} already exists"
                           + (f" (and {len(taken) - 1} more)" if len(taken) > 1 else "")
                           + "; choose another --record-dir or --seed")


class Progress:
    """A progress bar on stderr, only where stderr is a terminal (and not --quiet)."""

    def __init__(self, total: int, label: str, quiet: bool):
        self.bar = None
        if not quiet and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr)
            self.bar.__enter__()

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def output_options(what: str) -> Any:
    """--csv, --plot and --force, as simulate and compare take them."""
    def decorate(command: Any) -> Any:
        for option in reversed([
            click.option("--csv", "csv_file", type=click.Path(dir_okay=False, path_type=Path),
                         help="Write one row per game and seat to this CSV file."),
            click.option("--plot", "plot_file", type=click.Path(dir_okay=False, path_type=Path),
                         help=f"Draw {what} to this file (.png or .svg; needs matplotlib: "
                              "pip install 'cardrules[plot]')."),
            click.option("--force", is_flag=True, help="Replace the --csv or --plot file if it exists."),
        ]):
            command = option(command)
        return command
    return decorate


def check_outputs(csv_file: Path | None, plot_file: Path | None, force: bool) -> str | None:
    """Check the output files before any game is played; the plot's format."""
    fmt = plot_format(plot_file) if plot_file is not None else None
    if csv_file is not None and plot_file is not None and csv_file.resolve() == plot_file.resolve():
        raise UsageProblem("--csv and --plot must be two files")
    if plot_file is not None:
        need_matplotlib()
    for path, option in ((csv_file, "--csv"), (plot_file, "--plot")):
        if path is not None:
            check_output(path, option, force)
    return fmt


CLUSTER_HELP = ("Play the games on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for one "
                "on this machine (--jobs workers, default one a core). Needs pip install 'cardrules[cluster]'; "
                "the results are those of --jobs 1.")


@contextmanager
def cluster_client(address: str | None, jobs: int) -> Iterator[Any]:
    """The Dask client of --cluster (None without it); a missing Dask is exit 1, one line."""
    if address is None:
        yield None
        return
    try:
        with open_cluster(address, jobs if jobs > 1 else 0) as client:
            yield client
    except ClusterUnavailable as exc:
        raise InvalidInput(str(exc)) from None


def _interval(bounds: Sequence[float], scale: float = 1, unit: str = "") -> str:
    return f"[{scale * bounds[0]:.1f}{unit}, {scale * bounds[1]:.1f}{unit}]"


@click.command(short_help="Play many games with bots; statistics.", epilog=examples(
    "cardrules simulate oh-shit --games 1000 --jobs 2",
    "cardrules simulate shanghai-isra --seats bot,random,random,random --json",
    "cardrules simulate oh-hell --games 500 --csv games.csv --plot totals.png"))
@click.argument("ruleset")
@click.option("--games", type=Whole(1, 1_000_000), default=100, show_default=True)
@click.option("--seats", help="Comma-separated seat kinds (bot, random, search; search:N plays N playouts a "
              "decision, search:Xs thinks X seconds). Default: bots.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i.")
@click.option("--jobs", type=Whole(1, 64), default=1, show_default=True,
              help="Processes to spread the games over (results do not depend on it).")
@click.option("--mode", help="Play one of the ruleset's modes.")
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@json_option("the statistics")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write every game's record into this folder.")
@output_options("the distribution of each seat's total")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(ruleset: str, games: int, seats: str | None, seed: int, jobs: int, mode: str | None,
             cluster: str | None, as_json: bool, record_dir: Path | None, csv_file: Path | None,
             plot_file: Path | None, force: bool, quiet: bool) -> None:
    """Play many games of RULESET with bots and report what happens."""
    rules = open_ruleset(ruleset)
    kinds = parse_seats(seats, rules, default_human=False)
    if "human" in kinds:
        raise UsageProblem("simulate plays bots only (seat kinds: bot, random)")
    if mode is not None and mode not in rules.modes:
        raise UsageProblem(f"{rules.name} has no mode '{mode}'")
    refuse_unplayable(rules, len(kinds), mode)
    fmt = check_outputs(csv_file, plot_file, force)
    if record_dir is not None:
        prepare_record_dir(record_dir, seed, games)
    ref = ruleset if is_file(ruleset) else rules.name
    start = time.perf_counter()
    progress = Progress(games, rules.name, quiet)
    try:
        # the games' figures are tallied as they come; each game's summary is kept only
        # for --csv and --plot, so memory stays flat in --games without them
        tally = Tally(len(kinds), rules, mode)
        results: list[GameSummary] = []
        keep = csv_file is not None or plot_file is not None
        with cluster_client(cluster, jobs) as client:
            for summary in iter_games(ref, kinds, games, seed, jobs, mode, record_dir, progress, client, rules=rules):
                tally.add(summary)
                if keep:
                    results.append(summary)
    finally:
        progress.close()
    elapsed = time.perf_counter() - start
    stats = tally.statistics(kinds)
    stats.update(ruleset=rules.name, seed=seed, seconds=round(elapsed, 3))
    if csv_file is not None:
        write_output(csv_file, "--csv", csv_bytes([(rules.name, results)], kinds), force)
    if plot_file is not None and fmt is not None:
        title = f"{rules.name}: totals over {games} games (seed {seed})"
        write_output(plot_file, "--plot", plot_totals(results, kinds, title, fmt), force)
    if as_json:
        echo(json.dumps(stats, indent=2))
        return
    echo(f"{rules.title}: {games} games, {len(kinds)} seats ({', '.join(kinds)}), seed {seed}; "
               f"{stats['decisions']} decisions in {elapsed:.1f}s")
    view = view_for(rules, Renderer(kinds, rules))
    win_cells = [_interval(entry["win_rate_ci95"], 100, "%") for entry in stats["seats"]]
    mean_cells = [_interval(entry["mean_total_ci95"]) for entry in stats["seats"]]
    win_width = max(len(cell) for cell in win_cells + ["95% interval"])
    mean_width = max(len(cell) for cell in mean_cells + ["95% interval"])
    header = (f"  {'seat':10} {'wins':>6} {'win%':>6} {'95% interval':{win_width}} {'mean':>8} "
              f"{'95% interval':{mean_width}} {'sd':>7} {'min':>6} {'max':>6}")
    echo(header + view.seat_columns())
    for entry, win_cell, mean_cell in zip(stats["seats"], win_cells, mean_cells):
        line = (f"  {entry['kind'] + '-' + str(entry['seat']):10} {entry['wins']:6d} "
                f"{100 * entry['win_rate']:5.1f}% {win_cell:{win_width}} {entry['mean_total']:8.1f} "
                f"{mean_cell:{mean_width}} {entry['sd_total']:7.1f} {entry['min_total']:6d} {entry['max_total']:6d}")
        echo(line + view.seat_cells(entry))
    for team in stats.get("teams", []):  # partnerships: what decides the game
        echo(f"  team {team['team']} (seats {', '.join(map(str, team['seats']))}): wins {100 * team['win_rate']:.1f}% "
             f"{_interval(team['win_rate_ci95'], 100, '%')}, mean total {team['mean_total']:.1f} "
             f"{_interval(team['mean_total_ci95'])}")
    echo(f"  game length: {stats['mean_rounds_per_game']:.1f} rounds, "
               f"{stats['mean_decisions_per_game']:.0f} player decisions")
    for text in view.summary_lines(stats):
        echo(text)
    echo("  (win% counts a shared first place as a win for each tied seat; 95% intervals: Wilson score for "
         "win%, Student's t for the mean)")


@click.command(name="compare", short_help="Play the same deals under two rulesets.", epilog=examples(
    "cardrules compare oh-hell oh-hell-penalty --games 500",
    "cardrules compare oh-hell my-variant.yaml --seats bot,bot,random,random --json",
    "cardrules compare oh-hell oh-hell-penalty --csv games.csv --plot differences.svg"))
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", type=Whole(2, 1_000_000), default=200, show_default=True)
@click.option("--seats", help="Comma-separated seat kinds (bot, random, search; search:N plays N playouts a "
              "decision, search:Xs thinks X seconds). Default: bots.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i under both rulesets.")
@click.option("--jobs", type=Whole(1, 64), default=1, show_default=True)
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@json_option("the comparison")
@output_options("each seat's difference of totals B - A with its 95% interval")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def compare_command(ruleset_a: str, ruleset_b: str, games: int, seats: str | None, seed: int, jobs: int,
                    cluster: str | None, as_json: bool, csv_file: Path | None, plot_file: Path | None, force: bool,
                    quiet: bool) -> None:
    """What does a house rule do? Play the same deals under RULESET_A and RULESET_B.

    Reports each figure under both, the difference B - A, and its 95% confidence
    interval from the game-by-game (paired) differences.
    """
    from ..interpreter.compare import compare, seat_differences

    rules_a, rules_b = open_ruleset(ruleset_a), open_ruleset(ruleset_b)
    kinds = parse_seats(seats, rules_a, default_human=False)
    if not rules_b.min_players <= len(kinds) <= rules_b.max_players:
        raise UsageProblem(f"{rules_b.name} is for {rules_b.min_players} to {rules_b.max_players} players; "
                           f"the seats give {len(kinds)}")
    if "human" in kinds:
        raise UsageProblem("compare plays bots only (seat kinds: bot, random)")
    for rules in (rules_a, rules_b):
        refuse_unplayable(rules, len(kinds), None)
    for kind in kinds:
        try:
            check_seat_kind(rules_b, kind)
        except ValueError:
            raise UsageProblem(f"{rules_b.name} has no seat kind '{kind}'") from None
    fmt = check_outputs(csv_file, plot_file, force)
    refs = [r if is_file(r) else rules.name for r, rules in ((ruleset_a, rules_a), (ruleset_b, rules_b))]
    progress = Progress(2 * games, "comparing", quiet)
    try:
        with cluster_client(cluster, jobs) as client:
            results_a = run_games(refs[0], kinds, games, seed, jobs, progress=progress, cluster=client, rules=rules_a)
            results_b = run_games(refs[1], kinds, games, seed, jobs, progress=progress, cluster=client, rules=rules_b)
    finally:
        progress.close()
    same_deals = (rules_a.setup(len(kinds)).hand_sizes == rules_b.setup(len(kinds)).hand_sizes
                  and rules_a.setup(len(kinds)).deck_size == rules_b.setup(len(kinds)).deck_size)
    rows = compare(results_a, results_b, rules_a, rules_b)
    seat_rows = seat_differences(results_a, results_b)
    hidden = [row.metric for row in rows if row.constant]
    if csv_file is not None:
        names = [rules_a.name, rules_b.name] if rules_a.name != rules_b.name else ["A", "B"]
        write_output(csv_file, "--csv", csv_bytes([(names[0], results_a), (names[1], results_b)], kinds), force)
    if plot_file is not None and fmt is not None:
        title = f"{rules_b.name} (B) against {rules_a.name} (A): {games} games, seed {seed}"
        write_output(plot_file, "--plot", plot_differences(seat_rows, [f"{kind}-{seat}" for seat, kind in enumerate(kinds)],
                                                              title, fmt), force)
    if as_json:
        echo(json.dumps({"a": rules_a.name, "b": rules_b.name, "games": games, "seats": kinds, "seed": seed,
                         "same_deals": same_deals,
                         "rows": [{**row.__dict__, "significant": row.significant} for row in rows],
                         "hidden": hidden,
                         "seat_totals": [{**row.__dict__, "significant": row.significant} for row in seat_rows]},
                        indent=2))
        return
    echo(f"{rules_a.name} (A) against {rules_b.name} (B): {games} games each, seats {', '.join(kinds)}, "
               f"seed {seed}; " + ("the same deals under both" if same_deals else
                                   "different decks or schedules, so not the same deals"))
    shown = [row for row in rows if not row.constant]
    width = max([len(row.metric) for row in shown] or [0])
    echo(f"  {'':{width}} {'A':>10} {'B':>10} {'B - A':>10}   95% interval")
    for row in shown:
        mark = "  *" if row.significant else ""
        echo(f"  {row.metric:{width}} {row.a:10.3f} {row.b:10.3f} {row.difference:+10.3f}   "
                   f"[{row.low:+.3f}, {row.high:+.3f}]{mark}")
    echo("  (* the interval excludes 0: a difference these games show beyond chance)")
    if hidden:
        echo(f"  (left out: {', '.join(hidden)}: the same in every game under both rulesets, "
             "fixed by the rules, so they cannot differ)")
