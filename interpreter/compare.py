"""Compare two rulesets on the same deals: what does a house rule change?

Both rulesets play games with seeds ``S .. S+N-1``; where they share a deck and a
deal schedule, game ``i`` deals the same cards under both (common random numbers),
so the difference of a figure is measured game by game, and its confidence interval
comes from those paired differences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .intervals import mean_interval
from .rules import Ruleset
from .simulate import GameSummary

Metric = Callable[[GameSummary], float | None]


COMMON: list[tuple[str, Metric]] = [
    ("mean total", lambda r: sum(r.totals) / len(r.totals)),
    ("score spread (best - worst total)", lambda r: max(r.totals) - min(r.totals)),
    ("seat 0 total", lambda r: r.totals[0]),
    ("seat 0 wins (share of first place)", lambda r: 1 / len(r.winners) if 0 in r.winners else 0.0),
    ("player decisions", lambda r: r.decisions),
    ("rounds", lambda r: r.rounds),
]

# Figures of a game's length, which the rules alone may fix: with a fixed schedule of
# rounds, every hand played out and one bid a seat a round, each game of a trick-taking
# ruleset has the same rounds and decisions whatever the cards.
LENGTH = {"player decisions", "rounds"}


@dataclass
class Row:
    metric: str
    a: float
    b: float
    difference: float
    low: float
    high: float
    pairs: int
    constant: bool = False  # one and the same value in every game under both: it cannot differ

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _family_metric(get: Callable[[dict[str, Any]], float | None]) -> Metric:
    return lambda r: get(r.extra)


def compare(a: Sequence[GameSummary], b: Sequence[GameSummary], rules_a: Ruleset, rules_b: Ruleset,
            confidence: float = 0.95) -> list[Row]:
    """One row per figure both rulesets have: means, B - A, and its interval (Student's
    t over the paired differences, 95% by default)."""
    metrics = list(COMMON)
    if rules_a.family is rules_b.family:
        metrics += [(name, _family_metric(get)) for name, get in rules_a.family.metrics()]
    rows = []
    for name, get in metrics:
        row = _row(name, get, a, b, confidence)
        if row is not None:
            row.constant = name in LENGTH and row.constant
            rows.append(row)
    return rows


def seat_differences(a: Sequence[GameSummary], b: Sequence[GameSummary], confidence: float = 0.95) -> list[Row]:
    """Each seat's total under both rulesets, B - A and its interval (paired, as in
    :func:`compare`)."""
    players = len(a[0].totals) if a else 0
    rows = [_row(f"seat {seat} total", _seat_total(seat), a, b, confidence) for seat in range(players)]
    return [row for row in rows if row is not None]


def _seat_total(seat: int) -> Metric:
    return lambda r: r.totals[seat]


def _row(name: str, get: Metric, a: Sequence[GameSummary], b: Sequence[GameSummary],
         confidence: float) -> Row | None:
    pairs = [(x, y) for x, y in ((get(ra), get(rb)) for ra, rb in zip(a, b)) if x is not None and y is not None]
    if not pairs:
        return None
    diffs = [y - x for x, y in pairs]
    low, high = mean_interval(diffs, confidence)
    constant = len({value for pair in pairs for value in pair}) == 1
    return Row(name, _mean([x for x, _ in pairs]), _mean([y for _, y in pairs]), _mean(diffs), low, high,
               len(pairs), constant)
