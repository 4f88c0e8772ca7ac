"""The bidding phase of a round: the bids a seat may make, the reason when a bid is
refused, the situations that leave a seat no bid (for `validate`), and the bidding
as part of the state (:class:`BiddingPhase`, opened by the deal at
:meth:`BiddingPhase._open_bidding`)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ...errors import EvaluationError, IllegalActionError
from ...expressions import DEFERRED, STATIC, Steps
from .actions import BIDS, Bid, Move
from .phases import _BIDDING
from .round import RoundState
from .rules import BiddingRules, BidOrder


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

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _raise
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _raise
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __abs__ = _raise
    __index__ = __int__ = __bool__ = __hash__ = _raise


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


def dead_ends(bidding: BiddingRules, setup: Any, simultaneous: bool, steps: Steps,
              rng: Any, counters: Callable[[int], Mapping[str, int]] | None = None,
              contract: int | None = None, step: int = 1) -> list[tuple[tuple[str | int, ...], str]]:
    """Bidding situations in which the restrictions leave a seat no legal bid: for every
    round of ``setup`` and every dealer, every sequence of legal bids before each seat
    (all of them where they are few; else the lowest, the highest and random ones),
    within ``steps``, one a seat's legal bids worked out (counted, so that what is found
    does not depend on the machine's speed); ``counters(position)`` gives the counters' values of the seat at
    each place in the bidding order; ``contract``: after an auction, the tricks of the
    contract the first bidder is taken to have won (the lowest call, which may be 0;
    None: no auction);
    ``step``: the direction of play (1 clockwise, -1 counter-clockwise).
    Returns (path, message) for the first dead end of each kind."""
    if not bidding.restrictions or bidding.reads_hand:  # (a hand's bids need its cards: the playouts find those)
        return []
    players = setup.players
    names = frozenset().union(*(r.rule.names for r in bidding.restrictions))
    dealers = range(players) if names & {"seat", "is_dealer"} else range(1)  # else the dealer does not matter
    # the smallest rounds first (cheap to walk whole), the later of two alike first
    for index in sorted(range(len(setup.hand_sizes)), key=lambda i: (setup.hand_sizes[i], -i)):
        size = setup.hand_sizes[index]
        base = setup.round_env(index)
        candidates = candidate_bids(bidding, base)
        for dealer in dealers:
            order = [(dealer + step * (1 + k)) % players for k in range(players)]

            def legal(position: int, made: list[int]) -> list[int]:
                env = dict(base)
                if counters is not None:
                    env.update(counters(position))
                seat = order[position]
                env.update(seat=seat, position=position, is_dealer=seat == dealer, bids=[] if simultaneous else made,
                           is_first=position == 0 and not simultaneous,
                           is_last=position == players - 1 and not simultaneous,
                           contract=contract or 0, contract_suit=-1, contract_rank=-1 if contract is None else 0,
                           declarer=-1 if contract is None else order[0],
                           is_declarer=contract is not None and position == 0)
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
                    if steps.left <= 0:
                        return []
                    steps.left -= 1
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


def _bid_event(round_number: int, seat: int, bid: int) -> dict[str, Any]:
    return {"event": "bid", "round": round_number, "seat": seat, "bid": bid}


def _blind_bid_event(round_number: int, seat: int, bid: int) -> dict[str, Any]:
    return {"event": "bid", "round": round_number, "seat": seat, "bid": bid, "blind": True}


class BiddingPhase(RoundState):
    """The bidding: in turn from the first to act (``deal.first_to_act``) or all at
    once, each seat's bids those of the round's range that every restriction allows
    (:meth:`BiddingPhase._legal_bids`: what is listed and what verifies)."""

    __slots__ = ()

    def _init_bidding(self) -> None:
        self.bids = [None] * self.players
        self.bid_order = []
        self.constrained_bids = 0
        self._candidates = []
        self._candidate_actions = []
        self._candidate_action = {}
        # per round: the bids its range allows, their actions, bid -> action (shared by every game of the setup)
        self._candidate_cache = self.setup.cache.setdefault("candidate_bids", {})
        self._bid_env = {}
        self._made = []
        # Rule flags read on every move, copied out of their frozen rule objects.
        self._simultaneous = self.tricks.bidding.order is BidOrder.SIMULTANEOUS
        self._laid_bids = self.tricks.bids_laid_aside
        self._hand_bids = self.tricks.bidding.reads_hand
        self._first_offset = self.rules.deal.first_to_act.offset
        self._restricted = bool(self.tricks.bidding.restrictions)
        # (round, dealer) -> bids made -> the legal bids of the next bidder (for every game of the setup)
        self._bids_memo = self.setup.cache.setdefault("legal_bids", {})
        self._round_bids = {}
        self._made_key = ()

    def _open_bidding(self) -> None:
        """After the deal: no bid made yet, the bidding order from the first to act,
        and the bids the round's range allows."""
        players = self.players
        self.bids = [None] * players
        first = (self.dealer + self._first_offset) % players
        step = self.step
        self.bid_order = [(first + k * step) % players for k in range(players)]  # seat_after(first, k)
        if self.absent:  # a seat sitting the hand out does not bid
            self.bid_order = [s for s in self.bid_order if s not in self.absent]
        round_index = self.round_index
        self._bid_env = self.setup.round_env(round_index)  # a fresh dict each round: bids and scores fill it in
        if self.setup.drawable:  # a hand size drawn by chance: this size's setup keeps its own (game.py)
            self._candidate_cache = self.setup.cache.setdefault("candidate_bids", {})
            self._bids_memo = self.setup.cache.setdefault("legal_bids", {})
        cached = self._candidate_cache.get(round_index)
        if cached is None:
            try:
                candidates = candidate_bids(self.tricks.bidding, self._bid_env)
            except EvaluationError as exc:
                raise EvaluationError(f"the bids allowed in round {self.round}: {exc}", ("bidding", "range")) from None
            actions: list[Move] = [BIDS[b] if 0 <= b < len(BIDS) else Bid(b) for b in candidates]
            # the candidates, their actions, and bid -> action to map filtered bids in C
            cached = self._candidate_cache[round_index] = (candidates, actions, dict(zip(candidates, actions)))
        self._candidates, self._candidate_actions, self._candidate_action = cached
        self._made = []
        self._made_key = ()
        if self._restricted:
            memo = self._bids_memo
            if len(memo) >= 2_000:
                memo.clear()
            self._round_bids = memo.setdefault((round_index, self.dealer), {})

    def _start_bidding(self) -> None:
        """Once the trump is made (or before it is named by the highest bidder); with
        bidding.first, the bidding order starts at the seat it names."""
        self.phase = _BIDDING
        rule = self.tricks.bidding_first
        if rule is not None:
            env = self.setup.round_env(self.round_index)
            env["dealer"] = self.dealer
            env["first"] = self.bid_order[0]
            env.update(self.contract_names())
            first = int(self._evaluated(rule, env, ("bidding", "first"))) % self.players
            self.bid_order = [s for s in (self.seat_after(first, k) for k in range(self.players))
                              if s not in self.absent]
        self.turn = self.bid_order[0]
        if self.tricks.blind is not None:
            self._offer_blind()

    def _legal_bids(self, seat: int) -> list[int]:
        """The bids ``seat`` may make now (what is listed and what verifies).  They
        follow from the round, the dealer, the seat and the bids made before (nothing
        else is in the restrictions' names), and evaluation is pure, so they are kept
        for every game of the setup: simulations meet the same situations again and again."""
        if not self._restricted:
            return self._candidates
        if self.counters or self._auctioning or self._hand_bids:
            # the bids may depend on the counters, the contract or the hand: not kept
            fresh = legal_bids(self.tricks.bidding, self._env_for_bid(seat), self._candidates)
            if not fresh:
                raise EvaluationError(f"the bidding restrictions leave seat {seat} no legal bid in round "
                                      f"{self.round}", ("bidding", "restrictions"))
            return fresh
        memo = self._round_bids  # this round and dealer's: the bids made say whose bid it is
        made = self._made_key
        bids = memo.get(made)
        if bids is None:
            bids = legal_bids(self.tricks.bidding, self._env_for_bid(seat), self._candidates)
            if len(memo) >= 20_000:
                memo.clear()
            memo[made] = bids
        if not bids:
            raise EvaluationError(f"the bidding restrictions leave seat {seat} no legal bid in round {self.round}",
                                  ("bidding", "restrictions"))
        return bids

    def _env_for_bid(self, seat: int) -> dict[str, Any]:
        env = self._bid_env
        simultaneous = self._simultaneous
        position = self.bid_order.index(seat)
        # item assignment: no keyword dict is built per decision, as update(**kw) would
        env["seat"] = seat
        env["position"] = position
        env["is_dealer"] = seat == self.dealer
        env["bids"] = [] if simultaneous else self._made
        env["is_first"] = position == 0 and not simultaneous
        env["is_last"] = position == len(self.bid_order) - 1 and not simultaneous
        for name, values in self.counters.items():
            env[name] = values[seat]
        env["contract"] = self.contract
        env["contract_suit"] = self.contract_suit
        env["contract_rank"] = self.contract_rank
        env["declarer"] = self.declarer
        env["is_declarer"] = seat == self.declarer
        if self._hand_bids:
            self._hand_names(seat, env)
        return env

    def _hand_names(self, seat: int, env: dict[str, Any]) -> None:
        """The bidder's hand as it sees it (nothing while it bids without seeing it) and the
        trump (no_trump while it is hidden), each card's suit as it counts in play."""
        obs = self.observation(seat)
        suits = obs.suits
        ranks = self.setup.pack.value_of
        env["hand_suits"] = [suits[c] if suits else self.setup.pack.suit_of[c] for c in obs.hand]
        env["hand_ranks"] = [ranks[c] for c in obs.hand]
        env["trump"] = -1 if obs.trump is None else obs.trump

    def _verify_bid(self, action: Move, turn: int) -> None:
        if not isinstance(action, Bid):
            raise IllegalActionError(f"it is time to bid, not '{action}'")
        if action.bid not in self._legal_bids(turn):
            raise IllegalActionError(bid_refusal(self.tricks.bidding, self._env_for_bid(turn), self._candidates,
                                                 action.bid))

    def _bid(self, bid: int, blind: bool = False) -> None:
        seat = self.turn
        if self._restricted and len(self._keys(seat) if self._keys_at != self.moves else self._legal_keys) < \
                len(self._candidates):
            self.constrained_bids += 1
        self.bids[seat] = bid
        made = self._made
        if self._simultaneous and not made:
            self.hold_events()  # bids made at once: none is seen before all are made
        made.append(bid)
        self._made_key += (bid,)
        self._log.append((_blind_bid_event if blind else _bid_event, self.round_index + 1, seat, bid))
        position = len(made)  # the next bidder's place in the bidding order
        if position < len(self.bid_order):
            self.turn = self.bid_order[position]
            if self.tricks.blind is not None:
                self._offer_blind()
            return
        if self._simultaneous:
            self.release_events()
        self._end_bidding()
