"""The deal of a trick-taking round and its information rules: the hands and the
turned card, who sees which hand this round (``information.own_hand``,
``information.others_hands``) and whether the trump is known while bidding
(``information.trump_while_bidding``).  The deal is chance's move; it opens the
bidding and the play, and makes the trump (:meth:`DealPhase._deal`)."""

from __future__ import annotations

from typing import Any

from ...deal import Deal
from ...errors import EvaluationError
from ...game import OVER
from ...privacy import Seen
from .phases import _PLAYING
from .round import RoundState


def _sit_out_event(round_number: int, seat: int) -> dict[str, Any]:
    return {"event": "sit_out", "round": round_number, "seat": seat}


class DealPhase(RoundState):
    """The deal and the round's information rules."""

    __slots__ = ()

    def _init_deal(self) -> None:
        self.hands = [[] for _ in range(self.players)]
        self.upcard = None
        self._own_hidden = False
        self._others_shown = False
        self._trump_hidden = False

    def _deal(self, deal: Deal) -> None:
        """Chance's move: the hands and the turned card, the deal logged under the
        round's information rules; then the bidding and the play are opened and the
        next phase started (the trump made, by default, which sets the phase and the turn)."""
        self.hands = [list(h) for h in deal.hands]
        self.upcard = deal.upcard
        if self.tricks.trump.dealer_last:  # trump.no_upcard: dealer-last (Whist)
            # no card left to turn: the dealer's own last card is turned up; it stays in
            # their hand, seen by all until it is played (the observation's upcard, picked_up)
            self.picked_up = deal.upcard is None and bool(self.hands[self.dealer])
            if self.picked_up:
                self.upcard = self.hands[self.dealer][-1]
        tricks = self.tricks
        self.sitting_out = -1
        self.absent = ()
        self.laid_aside = []
        if tricks.sits_out is not None:
            self.absent = self._sitting_out_now()
        if tricks.own_hand is not None or tricks.others_hands is not None or tricks.trump_while_bidding is not None:
            env = self.setup.round_env(self.round_index)
            self._trump_hidden = tricks.trump_while_bidding is not None and \
                not self._evaluated(tricks.trump_while_bidding, env, ("information", "trump_while_bidding"))
            self._own_hidden = tricks.own_hand is not None and \
                not self._evaluated(tricks.own_hand, env, ("information", "own_hand"))
            self._others_shown = tricks.others_hands is not None and \
                bool(self._evaluated(tricks.others_hands, env, ("information", "others_hands")))
            # what the information rules hide this round, the deal's views hide too: the
            # turned card until the trump is revealed (its event then names it), and the
            # hands when a seat may not see its own or sees the others' (the
            # observation says which)
            hidden: dict[str, Seen] = {}
            if self._trump_hidden:
                hidden["upcard"] = Seen.NOBODY
            if self._own_hidden or self._others_shown:
                hidden["hands"] = Seen.NOBODY
            if tricks.blind is not None or self.absent:
                hidden["hands"] = Seen.NOBODY
            self.log_deal(deal, hidden)
        elif tricks.blind is not None or self.absent:
            # a seat may bid blind: its hand shows in its observation once it looks; a seat
            # sitting out: its hand is laid aside unseen, even by it (each seat in play sees
            # its own in its observation)
            self.log_deal(deal, {"hands": Seen.NOBODY})
        else:
            self.log_deal(deal)
        if self.absent:
            self._lay_aside()
        if self.tricks.kitty is not None:
            self._deal_kitty(deal.stock)
        if self.tricks.blind is not None:
            self._open_blind()
        self._open_bidding()
        self._open_play()
        self._open_exchange()
        self._advance("deal")

    def _sitting_out_now(self) -> tuple[int, ...]:
        """sits_out: the seats for which it holds at this deal (at least two must play)."""
        rule = self.tricks.sits_out
        assert rule is not None
        env = self.setup.round_env(self.round_index)
        env["dealer"] = self.dealer
        out = []
        for seat in range(self.players):
            env["seat"] = seat
            for name, values in self.counters.items():
                env[name] = values[seat]
            if self._evaluated(rule, env, ("sits_out",)):
                out.append(seat)
        if self.players - len(out) < 2:
            raise EvaluationError(f"sits_out '{rule.source}' leaves {self.players - len(out)} player"
                                  f"{'' if self.players - len(out) == 1 else 's'} in round {self.round}: at least "
                                  "two must play (end the game first with rounds.end_when)", ("sits_out",))
        return tuple(out)

    def _lay_aside(self) -> None:
        """The hands of the seats sitting out are laid aside unseen (the record's
        ``sit_out`` lines)."""
        for seat in self.absent:
            self.laid_aside = self.laid_aside + self.hands[seat]
            self.hands[seat] = []
            self._log.append((_sit_out_event, self.round_index + 1, seat))

    def sees(self, seat: int) -> tuple[bool, bool]:
        """(whether ``seat`` sees its own hand now, whether it sees every other hand)."""
        own = not (self._own_hidden and self.phase is not _PLAYING and self.turn != OVER)
        if own and self.tricks.blind is not None and not self.looked[seat] and self.phase is not _PLAYING and \
                self.turn != OVER:
            own = False  # it has not looked at its hand yet: it may still bid blind
        return own, self._others_shown and self.turn != OVER
