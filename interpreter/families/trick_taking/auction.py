"""Bidding: the bids a seat may make, and the reason when a bid is refused."""

from __future__ import annotations

from typing import Any, Callable, Mapping

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
    for i, restriction in enumerate(bidding.restrictions):
        try:
            ok = restriction.rule(env)
        except EvaluationError as exc:
            raise EvaluationError(f"bidding restriction '{restriction.rule.source}': {exc}",
                                  ("bidding", "restrictions", i, "rule")) from None
        if not ok:
            try:
                return restriction.message.render(env)
            except EvaluationError as exc:  # the refusal stands; only its words could not be made
                return (f"you may not bid {env.get('bid')}: the rule '{restriction.rule.source}' forbids it (its "
                        f"message could not be shown: {exc})")
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
    for i, restriction in enumerate(bidding.restrictions):
        compiled = restriction.rule
        try:
            out = _allowed(compiled, env, out)
        except EvaluationError as exc:
            raise EvaluationError(str(exc), ("bidding", "restrictions", i, "rule")) from None
        if not out:
            return out
    return out


def _allowed(compiled: Any, env: dict[str, Any], bids: list[int]) -> list[int]:
    """The bids of ``bids`` the restriction ``compiled`` allows (``bids`` itself when its
    value does not depend on the bid and is true); see :func:`legal_bids`."""
    kind, value = compiled.staged("bid")(env)
    if kind == STATIC:
        return bids if value else []
    if kind == DEFERRED:  # staging cannot tell: evaluate with the bid unknown, as always
        env["bid"] = UNKNOWN_BID
        try:
            ok = compiled.program(env)
        except _NeedsBid:
            pass
        except EvaluationError as exc:
            raise EvaluationError(f"bidding restriction '{compiled.source}': {exc}") from None
        else:
            return bids if ok else []
    kept = []
    for b in bids:
        env["bid"] = b
        if value(env):
            kept.append(b)
    return kept


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


def dead_ends(bidding: BiddingRules, setup: Any, simultaneous: bool, seconds: float,
              rng: Any, counters: Callable[[int], Mapping[str, int]] | None = None
              ) -> list[tuple[tuple[str | int, ...], str]]:
    """Bidding situations in which the restrictions leave a seat no legal bid: for every
    round of ``setup`` and every dealer, every sequence of legal bids before each seat
    (all of them where they are few; else the lowest, the highest and random ones),
    within ``seconds``; ``counters(position)`` gives the counters' values of the seat at
    each place in the bidding order.  Returns (path,
    message) for the first dead end of each kind."""
    import time

    if not bidding.restrictions:
        return []
    players = setup.players
    deadline = time.process_time() + seconds
    names = frozenset().union(*(r.rule.names for r in bidding.restrictions))
    dealers = range(players) if names & {"seat", "is_dealer"} else range(1)  # else the dealer does not matter
    # the smallest rounds first (cheap to walk whole), the later of two alike first
    for index in sorted(range(len(setup.hand_sizes)), key=lambda i: (setup.hand_sizes[i], -i)):
        size = setup.hand_sizes[index]
        base = setup.round_env(index)
        candidates = candidate_bids(bidding, base)
        for dealer in dealers:
            order = [(dealer + 1 + k) % players for k in range(players)]

            def legal(position: int, made: list[int]) -> list[int]:
                env = dict(base)
                if counters is not None:
                    env.update(counters(position))
                seat = order[position]
                env.update(seat=seat, position=position, is_dealer=seat == dealer, bids=[] if simultaneous else made,
                           is_first=position == 0 and not simultaneous,
                           is_last=position == players - 1 and not simultaneous)
                return legal_bids(bidding, env, candidates)

            sequences: list[list[int] | None] = []
            if len(candidates) ** (players - 1) <= 512:
                sequences.append(None)  # every sequence, by a search
            else:
                sequences += [[min(candidates)] * players, [max(candidates)] * players]
                sequences += [[rng.choice(candidates) for _ in range(players)] for _ in range(200)]
            for wanted in sequences:
                stack: list[list[int]] = [[]]
                while stack:
                    if time.process_time() > deadline:
                        return []
                    made = stack.pop()
                    position = len(made)
                    if position == players:
                        continue
                    allowed = legal(position, made)
                    if not allowed:
                        who = "the dealer" if order[position] == dealer else f"seat {order[position]}"
                        return [(("bidding", "restrictions"), f"with {players} players, in round "
                                 f"{setup.round_numbers[index]} ({size} card{'s' if size != 1 else ''}), after the bids "
                                 f"{made or 'none'}, the bidding restrictions leave {who} no legal bid")]
                    if wanted is None:
                        stack.extend(made + [b] for b in allowed)
                    else:
                        pick = wanted[position] if wanted[position] in allowed else allowed[len(allowed) // 2]
                        stack.append(made + [pick])
    return []
