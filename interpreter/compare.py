"""Compare two rulesets on the same deals: what does a house rule change?

Both rulesets play games with seeds ``S .. S+N-1``; where they share a deck and a
deal schedule, game ``i`` deals the same cards under both (common random numbers),
so the difference of a figure is measured game by game, and its confidence interval
comes from those paired differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from .ruleset import Family
from .simulate import GameSummary

Metric = Callable[[GameSummary], float | None]


def _exact_rate(r: GameSummary) -> float | None:
    bids = sum(r.bids)
    return sum(r.exact_bids) / bids if bids else None


def _rummy(key: str, per: str) -> Metric:
    def get(r: GameSummary) -> float | None:
        rounds = r.extra.get("rounds", 0)
        if not rounds:
            return None
        value = r.extra.get(key, 0)
        return value / rounds / (len(r.totals) if per == "seat-round" else 1)

    return get


COMMON: list[tuple[str, Metric]] = [
    ("mean total", lambda r: sum(r.totals) / len(r.totals)),
    ("score spread (best - worst total)", lambda r: max(r.totals) - min(r.totals)),
    ("seat 0 total", lambda r: r.totals[0]),
    ("seat 0 wins (share of first place)", lambda r: 1 / len(r.winners) if 0 in r.winners else 0.0),
    ("player decisions", lambda r: r.decisions),
    ("rounds", lambda r: r.rounds),
]
TRICKS: list[tuple[str, Metric]] = [
    ("exact-bid rate", _exact_rate),
    ("share of bids constrained by a restriction",
     lambda r: r.constrained_bids / sum(r.bids) if sum(r.bids) else None),
]
RUMMY: list[tuple[str, Metric]] = [
    ("share of rounds someone went out", _rummy("rounds_gone_out", "round")),
    ("penalty per seat per round", _rummy("penalty_points", "seat-round")),
    ("buys per round", _rummy("buys", "round")),
    ("share of rounds no one went down", _rummy("rounds_nobody_down", "round")),
]


@dataclass
class Row:
    metric: str
    a: float
    b: float
    difference: float
    low: float
    high: float
    pairs: int

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def compare(a: Sequence[GameSummary], b: Sequence[GameSummary], family_a: Family, family_b: Family,
            z: float = 1.96) -> list[Row]:
    """One row per figure both rulesets have: means, B - A, and a 95% interval."""
    metrics = list(COMMON)
    if family_a is family_b is Family.TRICK_TAKING:
        metrics += TRICKS
    if family_a is family_b is Family.CONTRACT_RUMMY:
        metrics += RUMMY
    rows = []
    for name, get in metrics:
        pairs = [(x, y) for x, y in ((get(ra), get(rb)) for ra, rb in zip(a, b)) if x is not None and y is not None]
        if not pairs:
            continue
        diffs = [y - x for x, y in pairs]
        mean = _mean(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0.0
        half = z * sd / math.sqrt(len(diffs))
        rows.append(Row(name, _mean([x for x, _ in pairs]), _mean([y for _, y in pairs]), mean, mean - half,
                        mean + half, len(pairs)))
    return rows
