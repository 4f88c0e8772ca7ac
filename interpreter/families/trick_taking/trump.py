"""The trump phase of a round: the trump (turned, by rotation, by the rule
``trump.suit``, chosen by a seat, or named by the highest bidder) and the order of
cards in tricks that follows from it (:class:`TrumpPhase`, entered from the deal at
:meth:`TrumpPhase._make_trump`).

A round's card order is two tables indexed by card: the suit the card *belongs to*
in play (with bowers the jack of the same colour belongs to trump) and its power
within that suit.  Computed once per round; trick play only looks them up.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...cards import JOKER, NAMES, RANKS, SUIT_NAMES, SUITS
from ...errors import EvaluationError, IllegalActionError
from .actions import TRUMP_CHOICES, ChooseTrump, Move
from .phases import _CHOOSE_TRUMP
from .round import RoundState
from .rules import CHOSEN, JokerRank, TrumpKind, TrumpRules

JACK = RANKS.index("J")
SAME_COLOUR = {0: 3, 3: 0, 1: 2, 2: 1}  # spades<->clubs, hearts<->diamonds


_UPCARD, _ROTATION = TrumpKind.UPCARD, TrumpKind.ROTATION


def round_trump(trump: TrumpRules, round_number: int, upcard: int | None) -> int | None:
    """The trump suit (0..3) or None, for trump kinds fixed before bidding."""
    kind = trump.kind
    if kind is _UPCARD:
        return None if upcard is None or upcard == JOKER else upcard // 13
    if kind is _ROTATION:
        return trump.rotation[(round_number - 1) % len(trump.rotation)]
    return None


TOP = 102  # a top-trump or highest joker's power: above both bowers
HIGH_CARDS = 90  # trump.high_cards: the first listed card's power (above the ace, below the bowers)
# The suit in play of a card that has none: NO_SUIT (a highest joker, or a top-trump joker in a
# no-trump round) leaves the others free when led; LEAD_PASSES (a lowest joker) leaves the
# suit to follow to the next card played.
NO_SUIT, LEAD_PASSES = -1, -2


def card_order(trump: TrumpRules, trump_suit: int | None, ace_high: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(suit_in_play, power) tables for every card id (shared and immutable)."""
    return _card_order(trump.bowers, trump_suit, ace_high, trump.jokers, trump.high_cards)


@lru_cache(maxsize=64)
def _card_order(has_bowers: bool, trump_suit: int | None, ace_high: bool, jokers: JokerRank | None = None,
                high_cards: tuple[int, ...] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
    suits = [c // 13 for c in range(len(NAMES) - 1)] + [NO_SUIT]
    power = []
    for c in range(len(NAMES) - 1):
        r = c % 13
        power.append(r if ace_high or r != 12 else -1)
    power.append(-2)
    if trump_suit is not None:
        for i, c in enumerate(high_cards):  # trumps above the ace, highest first
            power[c] = HIGH_CARDS - i
            suits[c] = trump_suit
    if has_bowers and trump_suit is not None:
        right = trump_suit * 13 + JACK
        left = SAME_COLOUR[trump_suit] * 13 + JACK
        power[right] = 101
        power[left] = 100
        suits[left] = trump_suit
    if jokers is JokerRank.TOP_TRUMP:
        # a joker is a trump above all; in a no-trump round it keeps a suit of its own
        # (NO_SUIT) and trick_winner lets it win whatever is led
        power[JOKER] = TOP
        if trump_suit is not None:
            suits[JOKER] = trump_suit
    elif jokers is JokerRank.HIGHEST:
        power[JOKER] = TOP  # no suit in any round: it wins whatever is led
    elif jokers is JokerRank.LOWEST:
        suits[JOKER] = LEAD_PASSES  # no suit, below every card
    return tuple(suits), tuple(power)


def describe(suit: int | None) -> str:
    return "no trump" if suit is None else SUIT_NAMES[SUITS[suit]]


class TrumpPhase(RoundState):
    """The round's trump: turned, by rotation, by the rule ``trump.suit``, chosen by a
    seat before the bidding (``trump.chooser``) or named by the highest bidder after it;
    and the card order that follows from it."""

    __slots__ = ()

    def _init_trump(self) -> None:
        self.ace_high = self.rules.deck.ace != "low"
        self.trump = None
        self.suits = ()
        self.power = ()
        # trump -> the card order (shared by every game of the setup)
        self._orders = self.setup.cache.setdefault("card_orders", {})
        self._named_trump = self.tricks.trump.kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER
        self._trump_due = None

    def _make_trump(self) -> None:
        """After the deal: this round's trump, or the seat that names it first; then the
        bidding starts (a trump named by the highest bidder waits for it)."""
        if self.tricks.trump.suit is not None:
            suit = self._rule_trump()
            if suit == CHOSEN:  # a seat names it, before the bidding
                self.trump = None
                self.suits, self.power = self._order(None)
                self.phase = _CHOOSE_TRUMP
                self.turn = self._chooser()
                return
            self._set_trump(suit, None)
        elif not self._named_trump:
            self._set_trump(round_trump(self.tricks.trump, self.rules_round, self.upcard), None)
        else:  # no trump until it is named: cards rank as in a no-trump round meanwhile
            self.trump = None
            self.suits, self.power = self._order(None)
        self._start_bidding()

    def _chooser(self) -> int:
        """The seat that names a `chosen` trump: trump.chooser, or the dealer."""
        rule = self.tricks.trump.chooser
        if rule is None:
            return self.dealer
        env = self._trump_env()
        return int(self._evaluated(rule, env, ("trump", "chooser"))) % self.players

    def _trump_env(self) -> dict[str, Any]:
        """The names of trump.suit and trump.chooser: the round's and the turned card's."""
        env = self.setup.round_env(self.round_index)
        up = self.upcard
        env["dealer"] = self.dealer
        env["chosen"] = CHOSEN
        env["has_upcard"] = up is not None
        env["upcard_is_joker"] = up == JOKER
        env["upcard_suit"] = -1 if up is None or up == JOKER else up // 13
        env["upcard_rank"] = 0 if up is None or up == JOKER else up % 13 + 2
        return env

    def _rule_trump(self) -> int | None:
        """This round's trump by trump.suit: a suit, None for no trump, or CHOSEN."""
        env = self._trump_env()
        rule = self.tricks.trump.suit
        assert rule is not None
        value = self._evaluated(rule, env, ("trump", "suit"))
        if value == -1:
            return None
        if value == CHOSEN and "chosen" in rule.names:
            return CHOSEN
        if not 0 <= value <= 3:
            raise EvaluationError(f"trump.suit '{rule.source}' gave {value} in round "
                                  f"{self.round}: a suit is spades, hearts, diamonds, clubs, no_trump "
                                  "or chosen", ("trump", "suit"))
        return int(value)

    def _order(self, suit: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The card order (suit in play and power of each card) when ``suit`` is trump."""
        order = self._orders.get(suit)
        if order is None:
            order = self._orders[suit] = card_order(self.tricks.trump, suit, self.ace_high)
        return order

    def _set_trump(self, suit: int | None, seat: int | None) -> None:
        self.trump = suit
        self.suits, self.power = self._order(suit)
        event: dict[str, Any] = {"event": "trump", "round": self.round_index + 1,
                                 "suit": None if suit is None else SUITS[suit]}
        if seat is not None:
            event["seat"] = seat
        if self._trump_hidden and seat is None:
            # shown after the bidding: logged then, with the card turned (hidden in the deal's views)
            event["upcard"] = None if self.upcard is None else NAMES[self.upcard]
            self._trump_due = event
            return
        self._log.append(event)

    def _end_bidding(self) -> None:
        """After the last bid: a trump hidden during the bidding is revealed, and the
        highest bidder names one (the first of equal bids in the bidding order), or
        the play starts."""
        if self._trump_due is not None:
            self._log.append(self._trump_due)
            self._trump_due = None
        if self._named_trump:
            high = max(b for b in self.bids if b is not None)
            self.phase = _CHOOSE_TRUMP
            self.turn = next(s for s in self.bid_order if self.bids[s] == high)
            return
        self._start_play()

    def _legal_trumps(self) -> list[Move]:
        return [TRUMP_CHOICES[4 if suit is None else suit] for suit in self.tricks.trump.choices]

    def _verify_trump(self, action: Move, turn: int) -> None:
        choices = self.tricks.trump.choices
        if not isinstance(action, ChooseTrump) or action.suit not in choices:
            who = "the highest bidder" if self._named_trump else f"seat {turn}"
            allowed = ", ".join("none" if c is None else SUIT_NAMES[SUITS[c]] for c in choices)
            raise IllegalActionError(f"{who} names the trump now ({allowed}), not '{action}'")

    def _choose_trump(self, suit: int | None) -> None:
        self._set_trump(suit, self.turn)
        if self._named_trump:  # the highest bidder, after the bidding
            self._start_play()
        else:  # trump.suit gave `chosen`: the bidding starts
            self._start_bidding()
