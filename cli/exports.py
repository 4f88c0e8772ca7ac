"""`--csv FILE` and `--plot FILE` of `simulate` and `compare`: the games as a table a
spreadsheet reads, and a picture of the totals.

Both are checked before any game is played (a run of an hour is not lost to a typo),
and written atomically: a file the user already has is never overwritten unless
``--force`` says so, and never left half written.  matplotlib is an optional extra
(``cardrules[plot]``), imported only when a plot is asked for, with the Agg backend
(no window ever opens).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Sequence

from ..interpreter.compare import Row
from ..interpreter.files import FileRefused, check_writable, write_atomic
from ..interpreter.simulate import GameSummary
from .common import InvalidInput, UsageProblem

PLOT_FORMATS = {".png": "png", ".svg": "svg"}
MISSING_MATPLOTLIB = "--plot needs matplotlib: pip install 'cardrules[plot]'"
COLUMNS = ["ruleset", "game", "seed", "seat", "kind", "total", "won", "rounds", "decisions"]


def check_output(path: Path, option: str, force: bool) -> None:
    """Refuse, before playing, a file that exists (unless ``force``) or cannot be written."""
    try:
        check_writable(path, f"{option} file", replace=force)
    except FileRefused as exc:
        raise InvalidInput(f"{exc}" + (" or add --force to replace it" if exc.exists else "")) from None


def plot_format(path: Path) -> str:
    """png or svg, from the file's suffix; any other is a usage error."""
    fmt = PLOT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise UsageProblem(f"--plot {path}: the file must end in .png or .svg (the suffix chooses the format)")
    return fmt


def need_matplotlib() -> None:
    """Fail at once, with how to install it, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InvalidInput(MISSING_MATPLOTLIB) from None


def write_output(path: Path, option: str, data: bytes, force: bool) -> None:
    try:
        write_atomic(path, data, replace=force)
    except FileExistsError:
        raise InvalidInput(f"{option} {path}: the file appeared while the games were played; it was not replaced "
                           "(add --force to replace it)") from None
    except OSError as exc:
        raise InvalidInput(f"{option} {path}: cannot write it: {exc.strerror or exc}") from None


def _seat_extras(runs: Sequence[tuple[str, Sequence[GameSummary]]], players: int) -> list[str]:
    """The family's per-seat figures that are one number a seat (a list of ``players``
    numbers in every game's summary), in the order the family gives them."""
    keys: list[str] = []
    for _, results in runs:
        for summary in results[:1]:
            for key, value in summary.extra.items():
                if key not in keys and key not in COLUMNS and isinstance(value, list) and len(value) == players \
                        and all(isinstance(v, (int, float)) for v in value):
                    keys.append(key)
    return keys


def csv_bytes(runs: Sequence[tuple[str, Sequence[GameSummary]]], kinds: Sequence[str]) -> bytes:
    """One row per game and seat, for each (ruleset name, games) run."""
    players = len(kinds)
    extras = _seat_extras(runs, players)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS + extras)
    for name, results in runs:
        for game, summary in enumerate(results):
            for seat in range(players):
                cells: list[Any] = [name, game, summary.seed, seat, kinds[seat], summary.totals[seat],
                                    int(seat in summary.winners), summary.rounds, summary.decisions]
                for key in extras:
                    value = summary.extra.get(key)
                    cells.append(value[seat] if isinstance(value, list) and len(value) == players else "")
                writer.writerow(cells)
    return buffer.getvalue().encode("utf-8")


def _figure() -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 5), layout="constrained")
    FigureCanvasAgg(figure)  # draw off screen: no window, whatever backend is configured
    return figure


def _save(figure: Any, fmt: str) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt)
    return buffer.getvalue()


def plot_totals(results: Sequence[GameSummary], kinds: Sequence[str], title: str, fmt: str) -> bytes:
    """The distribution of each seat's total over the games: a histogram a seat, on
    shared bins, each seat's mean marked."""
    figure = _figure()
    axes = figure.add_subplot()
    totals = [[summary.totals[seat] for summary in results] for seat in range(len(kinds))]
    low = min(min(t) for t in totals)
    high = max(max(t) for t in totals)
    bins = min(40, max(1, len({v for t in totals for v in t})))
    step = (high - low) / bins if high > low else 1.0
    edges = [low + i * step for i in range(bins + 1)] if high > low else [low - 0.5, low + 0.5]
    for seat, values in enumerate(totals):
        label = f"{kinds[seat]}-{seat}"
        _, _, patches = axes.hist(values, bins=edges, histtype="step", linewidth=1.5, label=label)
        color = patches[0].get_edgecolor()
        axes.axvline(sum(values) / len(values), color=color, linestyle="--", linewidth=1)
    axes.set_xlabel("total at the end of the game (dashed: the seat's mean)")
    axes.set_ylabel("games")
    axes.set_title(title)
    axes.legend()
    return _save(figure, fmt)


def plot_differences(rows: Sequence[Row], labels: Sequence[str], title: str, fmt: str) -> bytes:
    """Each seat's mean difference of totals B - A, with its 95% interval."""
    figure = _figure()
    axes = figure.add_subplot()
    positions = list(range(len(rows)))
    axes.errorbar([row.difference for row in rows], positions,
                  xerr=[[row.difference - row.low for row in rows], [row.high - row.difference for row in rows]],
                  fmt="o", capsize=4)
    axes.axvline(0, color="grey", linewidth=1)
    axes.set_yticks(positions, list(labels))
    axes.invert_yaxis()
    axes.set_xlabel("difference of the total, B - A (bars: 95% interval from the paired games)")
    axes.set_title(title)
    return _save(figure, fmt)
