"""Bidding: the bids a seat may make, and the reason when a bid is refused."""

from __future__ import annotations

from typing import Any

from ...errors import EvaluationError
from ...expressions import DEFERRED, STATIC
from .rules import BiddingRules


def candidate_bids(bidding: BiddingRules, env: dict[str, Any]) -> list[int]:
    """The bidding range for this round (before restrictions), without duplicates."""
    seen: dict[int, None] = {}
    for b in bidding.range(env):
        seen.setdefault(b, None)
    return list(seen)


def refusal(bidding: BiddingRules, env: dict[str, Any]) -> str | None:
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


def legal_bids(bidding: BiddingRules, env: dict[str, Any], candidates: list[int]) -> list[int]:
    """The candidates every restriction allows (``candidates`` itself when all are).

    Each rule is first evaluated without the bid, in two stages (see
    :func:`~.expressions.stage`): if its value does not depend on the bid (the hook's
    ``is_last and ...`` is false for all but the last bidder) that answer holds for
    every candidate; otherwise the residual program, in the bid alone, is tried on each
    candidate.  Evaluation is pure, so this is exact.  Errors are reported as a plain
    evaluation with an unknown bid (:data:`UNKNOWN_BID`) reports them: with the rule's
    source when they arise before the bid is used, bare when a candidate causes them;
    where staging cannot tell which (DEFERRED), that evaluation decides."""
    out = candidates
    for restriction in bidding.restrictions:
        compiled = restriction.rule
        kind, value = compiled.staged("bid")(env)
        if kind == STATIC:
            if not value:
                return []
            continue
        if kind == DEFERRED:  # staging cannot tell: evaluate with the bid unknown, as always
            env["bid"] = UNKNOWN_BID
            try:
                ok = compiled.program(env)
            except _NeedsBid:
                pass
            except EvaluationError as exc:
                raise EvaluationError(f"bidding restriction '{compiled.source}': {exc}") from None
            else:
                if not ok:
                    return []
                continue
        kept = []
        for b in out:
            env["bid"] = b
            if value(env):
                kept.append(b)
        out = kept
    return out


def bid_refusal(bidding: BiddingRules, env: dict[str, Any], candidates: list[int], bid: int) -> str:
    """Why ``bid`` may not be made, the caller having found it is not a legal bid: the
    range, or the message of the first restriction it breaks."""
    if bid not in candidates:
        lo, hi = min(candidates), max(candidates)
        if candidates == list(range(lo, hi + 1)):
            return f"you may not bid {bid}: bids run from {lo} to {hi}"
        return f"you may not bid {bid}: the bids allowed are {', '.join(map(str, candidates))}"
    env["bid"] = bid
    return refusal(bidding, env) or f"you may not bid {bid} now"
