"""What `simulate` and `compare` measure in contract-rummy games: rounds gone out,
penalty points, buys, rounds no one went down, and the ruleset's own events."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .state import RummyState


def summarize(state: RummyState) -> dict[str, Any]:
    """The game's counters (rounds, buys, bonuses, ...) and, per seat, the rounds gone
    out and the penalty points."""
    return {**state.counters, "seat_went_out": list(state.went_out), "seat_penalty": list(state.penalties)}


def aggregate(summaries: Sequence[dict[str, Any]], players: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rounds = sum(s.get("rounds", 0) for s in summaries) or 1
    seats = [{"went_out_rate": sum(s["seat_went_out"][seat] for s in summaries) / rounds,
              "mean_penalty_per_round": sum(s["seat_penalty"][seat] for s in summaries) / rounds}
             for seat in range(players)]
    counts = sorted({k for s in summaries for k, v in s.items() if isinstance(v, int)})
    summed = {k: sum(s.get(k, 0) for s in summaries) for k in counts}
    return seats, {"rummy": {
        "rounds": rounds,
        "gone_out_rate": summed.get("rounds_gone_out", 0) / rounds,
        "mean_penalty_per_round": summed.get("penalty_points", 0) / rounds / players,
        "buys_per_round": summed.get("buys", 0) / rounds,
        "nobody_down_rate": summed.get("rounds_nobody_down", 0) / rounds,
        "counts": summed,
    }}


def _per_round(key: str, per_seat: bool) -> Callable[[dict[str, Any]], float | None]:
    def get(s: dict[str, Any]) -> float | None:
        rounds = s.get("rounds", 0)
        if not rounds:
            return None
        share: float = s.get(key, 0) / rounds / (len(s["seat_penalty"]) if per_seat else 1)
        return share

    return get


METRICS: list[tuple[str, Callable[[dict[str, Any]], float | None]]] = [
    ("share of rounds someone went out", _per_round("rounds_gone_out", False)),
    ("penalty per seat per round", _per_round("penalty_points", True)),
    ("buys per round", _per_round("buys", False)),
    ("share of rounds no one went down", _per_round("rounds_nobody_down", False)),
]

