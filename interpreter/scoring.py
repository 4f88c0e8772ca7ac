"""Scores: running totals and who wins under the ruleset's rule."""

from __future__ import annotations

from typing import Sequence


def winners(totals: Sequence[int], rule: str) -> list[int]:
    """Every seat tied for the best total (``rule`` is ``highest`` or ``lowest``).

    >>> winners([150, 122, 150, 131], "highest"), winners([40, 12, 12], "lowest")
    ([0, 2], [1, 2])
    """
    best = max(totals) if rule == "highest" else min(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
