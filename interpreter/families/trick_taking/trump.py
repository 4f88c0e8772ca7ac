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

from ...errors import EvaluationError, IllegalActionError
from ...pack import STANDARD, Pack
from .actions import ChooseTrump, Move, trump_choices
from .phases import _CHOOSE_TRUMP
from .power import round_power as power_of_round
from .round import RoundState
from .names import CHOSEN
from .rules import JokerRank, TrumpKind, TrumpRules

_UPCARD, _ROTATION = TrumpKind.UPCARD, TrumpKind.ROTATION


def same_colour(pack: Pack, suit: int) -> int | None:
    """The other suit of ``suit``'s colour, when exactly one other has it (the left
    bower's suit: spades and clubs, hearts and diamonds in the standard pack)."""
    colour = pack.suits[suit].colour
    others = [s for s, other in enumerate(pack.suits) if s != suit and other.colour == colour]
    return others[0] if len(others) == 1 else None


def round_trump(trump: TrumpRules, round_number: int, upcard: int | None, pack: Pack = STANDARD) -> int | None:
    """The trump suit or None, for trump kinds fixed before bidding (a turned card of no
    suit, such as a joker, means no trump)."""
    kind = trump.kind
    if kind is _UPCARD:
        if upcard is None:
            return None
        suit = pack.suit_of[upcard]
        return suit if suit >= 0 else None
    if kind is _ROTATION:
        return trump.rotation[(round_number - 1) % len(trump.rotation)]
    return None


TOP = 102  # a top-trump or highest joker's power: above both bowers
HIGH_CARDS = 90  # trump.high_cards: the first listed card's power (above the ace, below the bowers)
# The suit in play of a card that has none: NO_SUIT (a highest joker, or a top-trump joker in a
# no-trump round) leaves the others free when led; LEAD_PASSES (a lowest joker) leaves the
# suit to follow to the next card played.
NO_SUIT, LEAD_PASSES = -1, -2


def card_order(trump: TrumpRules, trump_suit: int | None, ace_high: bool,
               pack: Pack = STANDARD) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(suit_in_play, power) tables for every card of the pack (shared and immutable)."""
    return _card_order(trump.bowers, trump_suit, ace_high, trump.jokers, trump.high_cards, pack)


@lru_cache(maxsize=256)
def _card_order(has_bowers: bool, trump_suit: int | None, ace_high: bool, jokers: JokerRank | None = None,
                high_cards: tuple[int, ...] = (), pack: Pack = STANDARD) -> tuple[tuple[int, ...], tuple[int, ...]]:
    suits = [s if s >= 0 else NO_SUIT for s in pack.suit_of]
    low_ace = -1 if ace_high else next((r for r, rank in enumerate(pack.ranks) if rank.code == "A"), -1)
    # a suited card's power is its rank's place (an ace low below the two); a special card's
    # is decided by trick.order (a special card it does not place never wins)
    power = [-2 if r < 0 else -1 if r == low_ace else r for r in pack.rank_of]
    joker = pack.special("JK")
    if trump_suit is not None:
        for i, c in enumerate(high_cards):  # trumps above the ace, highest first
            power[c] = HIGH_CARDS - i
            suits[c] = trump_suit
    jack = next((r for r, rank in enumerate(pack.ranks) if rank.code == "J"), None)
    left_suit = same_colour(pack, trump_suit) if trump_suit is not None else None
    if has_bowers and trump_suit is not None and jack is not None:
        right = pack.suited(trump_suit, jack)
        power[right] = 101
        if left_suit is not None:
            left = pack.suited(left_suit, jack)
            power[left] = 100
            suits[left] = trump_suit
    if jokers is JokerRank.TOP_TRUMP:
        # a joker is a trump above all; in a no-trump round it keeps a suit of its own
        # (NO_SUIT) and trick_winner lets it win whatever is led
        power[joker] = TOP
        if trump_suit is not None:
            suits[joker] = trump_suit
    elif jokers is JokerRank.HIGHEST:
        power[joker] = TOP  # no suit in any round: it wins whatever is led
    elif jokers is JokerRank.LOWEST:
        suits[joker] = LEAD_PASSES  # no suit, below every card
    return tuple(suits), tuple(power)


def describe(suit: int | None, pack: Pack = STANDARD) -> str:
    return "no trump" if suit is None else pack.suits[suit].name


def trump_env(setup: Any, round_index: int, dealer: int, up: int | None) -> dict[str, Any]:
    """The names of trump.suit, trump.chooser and trick.order's rules: the round's, the
    dealer and the turned card's (``up``: its card, or None)."""
    env: dict[str, Any] = setup.round_env(round_index)
    pack = setup.pack
    env["dealer"] = dealer
    env["chosen"] = CHOSEN
    env["has_upcard"] = up is not None
    env["upcard"] = -1 if up is None else up
    env["upcard_is_joker"] = up is not None and up == pack.special("JK")
    env["upcard_is_special"] = up is not None and pack.special_of[up] >= 0
    env["upcard_suit"] = -1 if up is None or pack.suit_of[up] < 0 else pack.suit_of[up]
    env["upcard_rank"] = 0 if up is None or pack.suit_of[up] < 0 else pack.value_of[up]
    return env


def _plain_evaluated(compiled: Any, env: dict[str, Any], path: tuple[Any, ...]) -> Any:
    return compiled(env)


def round_order(tricks: Any, setup: Any, ace_high: bool, suit: int | None, env: dict[str, Any],
                evaluated: Any = _plain_evaluated) -> tuple[Any, ...]:
    """(suits, power, the round's trick order or None) of a round whose trump is ``suit``
    and whose names (:func:`trump_env`) are ``env``: what the state plays by, and what a
    table works out from what it has seen (who is winning the trick)."""
    pack = setup.pack
    suits, power = card_order(tricks.trump, suit, ace_high, pack)
    order_rules = tricks.order
    if order_rules is None:
        return suits, power, None
    env = dict(env)
    env["trump"] = -1 if suit is None else suit

    def picks(tier: Any, card: int) -> bool:
        env["card"] = card
        env["card_suit"] = pack.suit_of[card] if pack.suit_of[card] >= 0 else -1
        env["card_rank"] = pack.value_of[card]
        env["card_is_special"] = pack.special_of[card] >= 0
        return bool(evaluated(tier.rule, env, tier.path + ("rule",)))

    adjusted = list(suits)
    rp = power_of_round(order_rules, pack.size, adjusted, suit, picks)
    return tuple(adjusted), power, rp


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
        self._ordering = self.tricks.trump.kind is TrumpKind.ORDER_UP
        self._trump_due = None

    def _make_trump(self) -> None:
        """After the deal: this round's trump, or the seat that names it first; then the
        next phase starts (the bidding, by default; a trump named by the highest bidder
        waits for it)."""
        self.maker = -1
        if self._ordering:  # made at the table: ordered up or named (making.py)
            self._start_making()
            return
        if self._auctioning:  # won at an auction (contracts.py)
            self._start_auction()
            return
        if self.tricks.trump.suit is not None:
            suit = self._rule_trump()
            if suit == CHOSEN:  # a seat names it, before the bidding
                self.trump = None
                self._use_order(None)
                self.phase = _CHOOSE_TRUMP
                self.turn = self._chooser()
                return
            self._set_trump(suit, None)
        elif not self._named_trump:
            self._set_trump(round_trump(self.tricks.trump, self.rules_round, self.upcard, self.setup.pack), None)
        else:  # no trump until it is named: cards rank as in a no-trump round meanwhile
            self.trump = None
            self._use_order(None)
        self._advance("trump")

    def _chooser(self) -> int:
        """The seat that names a `chosen` trump: trump.chooser, or the dealer."""
        rule = self.tricks.trump.chooser
        if rule is None:
            return self.dealer
        env = self._trump_env()
        return int(self._evaluated(rule, env, ("trump", "chooser"))) % self.players

    def _trump_env(self) -> dict[str, Any]:
        """The names of trump.suit and trump.chooser: the round's and the turned card's,
        and each counter as a list by seat."""
        env = trump_env(self.setup, self.round_index, self.dealer, self.upcard)
        for name, values in self.counters.items():
            env[name] = values[:]
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
        suits = self.setup.pack.suits
        if not 0 <= value < len(suits):
            names = ", ".join(suit.name for suit in suits)
            raise EvaluationError(f"trump.suit '{rule.source}' gave {value} in round "
                                  f"{self.round}: a suit is {names}, no_trump or chosen", ("trump", "suit"))
        return int(value)

    def _order(self, suit: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The card order (suit in play and power of each card) when ``suit`` is trump."""
        return self._full_order(suit)[:2]

    def _full_order(self, suit: int | None) -> tuple[Any, ...]:
        """(suits, power, the round's trick order or None) when ``suit`` is trump: kept for
        every game of the setup, by the trump (and by the turned card, when a tier of
        trick.order picks its cards by a rule that may read it)."""
        order_rules = self.tricks.order
        key: Any = suit if order_rules is None or not order_rules.predicate_tiers else (suit, self.upcard)
        order = self._orders.get(key)
        if order is None:
            order = self._orders[key] = round_order(self.tricks, self.setup, self.ace_high, suit,
                                                    self._trump_env(), self._evaluated)
        return order

    def _use_order(self, suit: int | None) -> None:
        """Play the round with ``suit`` as trump: its card order and trick order."""
        self.suits, self.power, self._round_power = self._full_order(suit)

    def _set_trump(self, suit: int | None, seat: int | None, alone: bool = False) -> None:
        self.trump = suit
        self._use_order(suit)
        pack = self.setup.pack
        event: dict[str, Any] = {"event": "trump", "round": self.round_index + 1,
                                 "suit": None if suit is None else pack.suits[suit].code}
        if seat is not None:
            event["seat"] = seat
        if alone:
            event["alone"] = True
        if seat is None and self.picked_up and self.tricks.trump.dealer_last and self.upcard is not None:
            event["upcard"] = pack.codes[self.upcard]  # the dealer's own last card, turned (trump.no_upcard)
        if self._trump_hidden and seat is None:
            # shown after the bidding: logged then, with the card turned (hidden in the deal's views)
            event["upcard"] = None if self.upcard is None else pack.codes[self.upcard]
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
        self._advance("bidding")

    def _legal_trumps(self) -> list[Move]:
        choices = trump_choices(self.setup.pack)
        return [choices[-1 if suit is None else suit] for suit in self.tricks.trump.choices]

    def _verify_trump(self, action: Move, turn: int) -> None:
        choices = self.tricks.trump.choices
        if not isinstance(action, ChooseTrump) or action.suit not in choices:
            who = "the highest bidder" if self._named_trump else f"seat {turn}"
            allowed = ", ".join("none" if c is None else self.setup.pack.suits[c].name for c in choices)
            raise IllegalActionError(f"{who} names the trump now ({allowed}), not '{action}'")

    def _choose_trump(self, suit: int | None) -> None:
        self.maker = self.turn
        if self._auctioning:  # the auction's winner names the suit of a call that left it to them
            self.contract_suit = -1 if suit is None else suit
        self._set_trump(suit, self.turn)
        if self._named_trump:  # the highest bidder, after the bidding
            self._advance("bidding")
        else:  # trump.suit gave `chosen`: the next phase (the bidding, by default) starts
            self._advance("trump")
