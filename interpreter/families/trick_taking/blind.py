"""Blind bids (``bidding.blind``): a seat whose turn to bid comes, and whom
``bidding.blind.when`` allows, chooses first between one of the blind bids, made before it
looks at its hand, and looking at its hand (and then bidding as usual).  Until that
choice its hand is hidden from it (the deal's views hide every hand, and the
observation shows the seat its hand once it has looked or bid); every seat sees who
looked and who bid blind (:class:`BlindPhase`, offered at :meth:`BlindPhase._offer_blind`)."""

from __future__ import annotations

from typing import Any

from ...errors import EvaluationError, IllegalActionError
from .actions import LOOK, BlindBid, Look, Move
from .phases import _BIDDING, _BLIND
from .round import RoundState


def _look_event(round_number: int, seat: int) -> dict[str, Any]:
    return {"event": "look", "round": round_number, "seat": seat}


class BlindPhase(RoundState):
    """Choosing to bid blind, or to look first."""

    __slots__ = ()

    def _init_blind(self) -> None:
        self.looked = [True] * self.players
        self.blind_bids = [False] * self.players
        self._blind_offer = []

    def _open_blind(self) -> None:
        """After the deal: no seat has looked at its hand (with bidding.blind)."""
        self.looked = [False] * self.players
        self.blind_bids = [False] * self.players

    def _offer_blind(self) -> None:
        """The bidding's turn has come to a seat: the blind bids it may make, if any (then
        it chooses first), else it looks at its hand."""
        seat = self.turn
        if self.looked[seat]:
            return
        blind = self.tricks.blind
        assert blind is not None
        env = self._env_for_bid(seat)
        env.pop("bid", None)
        allowed = True
        if blind.when is not None:
            totals = self.totals
            teams = self.setup.teams
            env["totals"] = totals[:]
            env["team_totals"] = [sum(t for s, t in enumerate(totals) if teams[s] == teams[other])
                                  for other in range(self.players)] if teams else totals[:]
            allowed = bool(self._evaluated(blind.when, env, ("bidding", "blind", "when")))
        offer: list[Move] = []
        if allowed:
            try:
                bids = list(blind.bids(env))
            except EvaluationError as exc:
                raise EvaluationError(f"bidding.blind.bids '{blind.bids.source}': {exc}",
                                      ("bidding", "blind", "bids")) from None
            legal = self._legal_bids(seat)
            offer = [BlindBid(b) for b in dict.fromkeys(bids) if b in legal]
        if not offer:
            self.looked[seat] = True
            return
        self._blind_offer = offer + [LOOK]
        self.phase = _BLIND

    def _legal_blind(self, seat: int) -> list[Move]:
        return self._blind_offer

    def _verify_blind(self, action: Move, turn: int) -> None:
        if action in self._blind_offer:
            return
        shown = ", ".join(str(a) for a in self._blind_offer[:-1])
        if isinstance(action, BlindBid):
            raise IllegalActionError(f"you may not bid {action.bid} blind: the blind bids open to you are {shown}")
        raise IllegalActionError(f"before you look at your hand: bid blind ({shown}) or 'look', not '{action}'")

    def _choose_blind(self, action: Move) -> None:
        seat = self.turn
        self.looked[seat] = True
        self.phase = _BIDDING
        if isinstance(action, Look):
            self._log.append((_look_event, self.round_index + 1, seat))
            return
        assert isinstance(action, BlindBid)
        self.blind_bids[seat] = True
        self._bid(action.bid, True)
