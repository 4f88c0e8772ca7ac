"""Trump for a round, and the order of cards in tricks that follows from it.

A round's card order is two tables indexed by card: the suit the card *belongs to*
in play (with bowers the jack of the same colour belongs to trump) and its power
within that suit.  Computed once per round; trick play only looks them up.
"""

from __future__ import annotations

from functools import lru_cache

from ...cards import JOKER, NAMES, RANKS, SUIT_NAMES, SUITS
from .rules import JokerRank, TrumpKind, TrumpRules

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

