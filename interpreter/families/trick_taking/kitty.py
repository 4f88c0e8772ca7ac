"""The kitty (``kitty``, with ``kitty`` in ``phases``): ``kitty.cards`` cards dealt face
down aside with the hands; in the kitty phase the seat ``kitty.taker`` names (the
auction's declarer, by default) takes them into its hand and then discards as many
face down, one a move; or (``kitty.to_trick``, no kitty phase) they go face down with
a trick of the round to its winner, as cards it took.  The other seats see that it took them and that it discarded,
never the cards; the discards count for nobody, or (``kitty.discards_as_trick``) as a
trick the taker took (:class:`KittyPhase`, entered at :meth:`KittyPhase._start_kitty`)."""

from __future__ import annotations

from typing import Any

from ...errors import EvaluationError, IllegalActionError
from .actions import Discard, Move, discards
from .making import _discard_event
from .phases import _KITTY
from .round import RoundState


def _kitty_event(round_number: int, seat: int, cards: list[str]) -> dict[str, Any]:
    return {"event": "kitty", "round": round_number, "seat": seat, "cards": cards}


def kitty_size(state: Any) -> int:
    """The cards dealt aside this round (0 without a kitty)."""
    kitty = state.tricks.kitty
    if kitty is None:
        return 0
    env = state.setup.round_env(state.round_index)
    env["dealer"] = state.dealer
    env["first"] = (state.dealer + state.rules.deal.first_to_act.offset) % state.players
    return max(0, int(state._evaluated(kitty.cards, env, ("kitty", "cards"))))


class KittyPhase(RoundState):
    """The kitty: dealt aside, taken, and as many cards discarded."""

    __slots__ = ()

    def _init_kitty(self) -> None:
        self.kitty = []
        self.kitty_taker = -1
        self.kitty_taken = []
        self.kitty_discards = []
        self._kitty_trick = 0

    def _deal_kitty(self, stock: tuple[int, ...]) -> None:
        """At the deal: the kitty's cards, off the top of what the hands leave."""
        self.kitty_taker = -1
        self.kitty_taken = []
        self.kitty_discards = []
        size = kitty_size(self)
        self.kitty = list(stock[:size]) if size else []
        self._kitty_trick = 0
        to_trick = self.tricks.kitty.to_trick if self.tricks.kitty is not None else None
        if to_trick is not None and self.kitty:  # the trick whose winner takes it
            env = self.setup.round_env(self.round_index)
            env["dealer"] = self.dealer
            env["first"] = (self.dealer + self.rules.deal.first_to_act.offset) % self.players
            self._kitty_trick = int(self._evaluated(to_trick, env, ("kitty", "to_trick")))

    def _start_kitty(self) -> None:
        """The taker takes the kitty into its hand, and discards as many cards."""
        kitty = self.tricks.kitty
        assert kitty is not None and kitty.taker is not None
        if not self.kitty:
            self._advance("kitty")
            return
        env = self.setup.round_env(self.round_index)
        env["dealer"] = self.dealer
        env["first"] = self.bid_order[0]
        env.update(self.contract_names())
        taker = int(self._evaluated(kitty.taker, env, ("kitty", "taker")))
        if taker < 0:
            raise EvaluationError(f"kitty.taker '{kitty.taker.source}' gave {taker} in round {self.round}: no seat "
                                  "(is there a declarer?)", ("kitty", "taker"))
        taker %= self.players
        self.kitty_taker = taker
        self.kitty_taken = self.kitty
        self.kitty = []
        self.hands[taker] += self.kitty_taken
        codes = self.setup.pack.codes
        self._log.append((_kitty_event, self.round_index + 1, taker, [codes[c] for c in self.kitty_taken]))
        self.phase = _KITTY
        self.turn = taker

    def _legal_kitty_discards(self, seat: int) -> list[Move]:
        of = discards(self.setup.pack)
        return [of[c] for c in dict.fromkeys(self.hands[seat])]

    def _verify_kitty_discard(self, action: Move, turn: int) -> None:
        left = len(self.kitty_taken) - len(self.kitty_discards)
        if not isinstance(action, Discard):
            raise IllegalActionError(f"you took the kitty: discard {left} more card{'s' if left != 1 else ''} face "
                                     f"down, not '{action}'")
        if action.card not in self.hands[turn]:
            code = self.setup.pack.codes[action.card] if 0 <= action.card < self.setup.pack.size else action.card
            raise IllegalActionError(f"you do not hold {code}")

    def _kitty_discard(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.kitty_discards.append(card)
        self._log.append((_discard_event, self.round_index + 1, seat, self.setup.pack.codes[card]))
        if len(self.kitty_discards) < len(self.kitty_taken):
            return
        self._end_kitty()

    def _end_kitty(self) -> None:
        kitty = self.tricks.kitty
        assert kitty is not None
        if kitty.discards_as_trick:  # the discards are a trick the taker took
            seat = self.kitty_taker
            self.taken[seat] += 1
            if self._counting:
                values = self._values_of_cards()
                self.won[seat] += self.kitty_discards
                if values is not None:
                    self.card_points[seat] += sum(values[c] for c in self.kitty_discards)
        self._advance("kitty")

    def _kitty_with_trick(self, winner: int) -> None:
        """kitty.to_trick: the kitty goes face down with the trick just taken to its winner,
        as cards it took (its card points and counts too); the winner alone sees it."""
        cards = self.kitty
        self.kitty_taker = winner
        self.kitty_taken = cards
        self.kitty = []
        self._kitty_trick = 0
        self._log.append((_kitty_event, self.round_index + 1, winner, [self.setup.pack.codes[c] for c in cards]))
        if self._counting:
            self.won[winner] += cards
            values = self._card_values
            if values is not None:
                self.card_points[winner] += sum(values[c] for c in cards)

    def _skip_kitty(self, discarded: tuple[int, ...]) -> None:
        """Leave the kitty as if discarded, the hands as they are (the search's sampled
        state, whose hands are dealt as they stand after it); ``discarded``: the
        discards, when this seat made them."""
        self.kitty_discards = list(discarded) if discarded else list(self.kitty_taken)
        self._end_kitty()
