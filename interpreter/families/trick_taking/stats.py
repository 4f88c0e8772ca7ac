"""What `simulate` and `compare` measure in trick-taking games: exact bids, bids a
restriction constrained, and points by hand size."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .state import TrickTakingState


def summarize(state: TrickTakingState) -> dict[str, Any]:
    """Per seat, the rounds bid exactly and the bids made; the constrained bids; and
    per hand size, the points scored and the seat-rounds played."""
    rounds = state.round_index
    return {"exact_bids": list(state.exact_bids), "bids": [rounds] * state.players,
            "constrained_bids": state.constrained_bids,
            "by_hand_size": {size: list(cell) for size, cell in state.points_by_hand_size.items()}}


def aggregate(summaries: Sequence[dict[str, Any]], players: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seats = []
    for seat in range(players):
        bids = sum(s["bids"][seat] for s in summaries)
        seats.append({"exact_bid_rate": sum(s["exact_bids"][seat] for s in summaries) / bids if bids else 0.0})
    bids = sum(sum(s["bids"]) for s in summaries)
    cells: dict[int, list[int]] = {}
    for s in summaries:
        for size, (points, count) in s["by_hand_size"].items():
            cell = cells.setdefault(size, [0, 0])
            cell[0] += points
            cell[1] += count
    return seats, {
        "constrained_bid_rate": sum(s["constrained_bids"] for s in summaries) / bids if bids else 0.0,
        "points_per_round_by_hand_size": {str(size): points / count for size, (points, count) in sorted(cells.items())},
    }


def _exact_rate(s: dict[str, Any]) -> float | None:
    bids = sum(s["bids"])
    return sum(s["exact_bids"]) / bids if bids else None


def _constrained(s: dict[str, Any]) -> float | None:
    bids = sum(s["bids"])
    return s["constrained_bids"] / bids if bids else None


METRICS: list[tuple[str, Callable[[dict[str, Any]], float | None]]] = [
    ("exact-bid rate", _exact_rate),
    ("share of bids constrained by a restriction", _constrained),
]
