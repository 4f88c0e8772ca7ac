"""Scores: running totals and who wins under the ruleset's rule."""

from __future__ import annotations

from typing import Sequence


def winners(totals: Sequence[int], rule: str, teams: Sequence[int] = ()) -> list[int]:
    """Every seat tied for the best total (``rule`` is ``highest`` or ``lowest``); with
    ``teams`` (each seat's team), every seat of the team(s) whose summed total is best.

    >>> winners([150, 122, 150, 131], "highest"), winners([40, 12, 12], "lowest")
    ([0, 2], [1, 2])
    >>> winners([10, 50, 30, 20], "highest", teams=[0, 1, 0, 1])
    [1, 3]
    """
    if teams:
        sums: dict[int, int] = {}
        for seat, total in enumerate(totals):
            sums[teams[seat]] = sums.get(teams[seat], 0) + total
        best_team = max(sums.values()) if rule == "highest" else min(sums.values())
        return [seat for seat in range(len(totals)) if sums[teams[seat]] == best_team]
    best = max(totals) if rule == "highest" else min(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
