"""Bidding: the bids a seat may make, and the reason when a bid is refused."""

from __future__ import annotations

from typing import Any

from .errors import EvaluationError, IllegalActionError
from .ruleset import Bidding


def candidate_bids(bidding: Bidding, env: dict[str, Any]) -> list[int]:
    """The bidding range for this round (before restrictions), without duplicates."""
    seen: dict[int, None] = {}
    for b in bidding.range(env):
        seen.setdefault(b, None)
    return list(seen)


def refusal(bidding: Bidding, env: dict[str, Any]) -> str | None:
    """Why ``env['bid']`` may not be bid, or None when it may.  ``env`` is mutated
    by the caller between candidates (one dict per decision, not one per bid)."""
    for restriction in bidding.restrictions:
        try:
            ok = restriction.rule(env)
        except EvaluationError as exc:
            raise EvaluationError(f"bidding restriction '{restriction.rule.source}': {exc}") from None
        if not ok:
            return restriction.message.render(env)
    return None


class _NeedsBid(Exception):
    pass


class _Unknown:
    """Stands for the bid while a rule is tried without one: any use of its value raises."""

    __slots__ = ()

    def _raise(self, *args: Any) -> Any:
        raise _NeedsBid

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _raise  # type: ignore[assignment]
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _raise
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __abs__ = _raise
    __index__ = __int__ = __bool__ = __hash__ = _raise  # type: ignore[assignment]


UNKNOWN_BID = _Unknown()


def legal_bids(bidding: Bidding, env: dict[str, Any], candidates: list[int]) -> list[int]:
    """The candidates every restriction allows.  Each rule is first tried with an
    unknown bid: if it gives an answer without using the bid's value (the hook's
    ``is_last and ...`` is false for all but the last bidder) that answer holds for
    every candidate.  Evaluation is pure, so this is exact, and it saves most work."""
    out = candidates
    for restriction in bidding.restrictions:
        rule = restriction.rule.program
        env["bid"] = UNKNOWN_BID
        try:
            ok = rule(env)
        except _NeedsBid:
            kept = []
            for b in out:
                env["bid"] = b
                if rule(env):
                    kept.append(b)
            out = kept
            continue
        except EvaluationError as exc:
            raise EvaluationError(f"bidding restriction '{restriction.rule.source}': {exc}") from None
        if not ok:
            return []
    return out


def verify_bid(bidding: Bidding, env: dict[str, Any], candidates: list[int], bid: int) -> None:
    if bid not in candidates:
        lo, hi = min(candidates), max(candidates)
        if candidates == list(range(lo, hi + 1)):
            raise IllegalActionError(f"you may not bid {bid}: bids run from {lo} to {hi}")
        raise IllegalActionError(f"you may not bid {bid}: the bids allowed are {', '.join(map(str, candidates))}")
    env["bid"] = bid
    reason = refusal(bidding, env)
    if reason is not None:
        raise IllegalActionError(reason)
