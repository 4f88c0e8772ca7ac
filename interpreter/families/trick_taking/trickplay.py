"""Trick play: which cards may be played, why one may not, and who wins a trick."""

from __future__ import annotations

from typing import Callable, Sequence

from ...cards import NAMES
from .trump import LEAD_PASSES, NO_SUIT, TOP, describe


def legal_plays(hand: Sequence[int], led: int, suits: Sequence[int], trump: int | None,
                follow_suit: bool, must_trump: bool, unique: bool = False) -> list[int]:
    """Distinct cards of ``hand`` that may be played; ``led`` is -1 when leading.
    ``unique``: the hand cannot hold two identical cards (one deck), skip de-duplication."""
    cards: Sequence[int] = hand
    if led >= 0 and follow_suit:
        following = [c for c in hand if suits[c] == led]
        if following:
            cards = following
        elif must_trump and trump is not None:
            cards = [c for c in hand if suits[c] == trump] or hand
    return list(cards) if unique else list(dict.fromkeys(cards))


def play_refusal(hand: Sequence[int], card: int, led: int, suits: Sequence[int], trump: int | None,
                 must_trump: bool) -> str:
    """Why ``card`` may not be played, the caller having found it is not among the
    legal plays: the rule it breaks, in the player's words."""
    if card not in hand:
        return f"you do not hold {NAMES[card]}"
    if led >= 0 and suits[card] != led and any(suits[c] == led for c in hand):
        extra = ""
        if 0 <= suits[card] != card // 13:
            extra = f" ({NAMES[card]} counts as a {describe(suits[card]).rstrip('s')} this round)"
        return f"you must follow {describe(led)}{extra}"
    if must_trump and trump is not None and suits[card] != trump and any(suits[c] == trump for c in hand):
        return f"you have no {describe(led)}, so you must play a trump ({describe(trump)})"
    return f"you may not play {NAMES[card]} now"


def led_suit(trick: Sequence[tuple[int, int]], suits: Sequence[int]) -> int:
    """The suit to follow in ``trick`` (seat, card pairs): the first card's, or after a
    led lowest joker the first card's that has a suit; NO_SUIT when none does (or when
    a card of no suit that leaves the others free was led)."""
    for _, card in trick:
        s = suits[card]
        if s != LEAD_PASSES:
            return s
    return NO_SUIT


def trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                 trump: int | None) -> int:
    """The seat that wins: a highest joker (the first played), else the highest trump,
    else the highest card of the suit led; a trick of lowest jokers only goes to the
    first. Of two identical cards (several decks) the first played wins."""
    led = suits[plays[0][1]]
    if led == LEAD_PASSES:
        led = led_suit(plays, suits)
    best_seat, best_key = -1, -1
    for seat, card in plays:
        s = suits[card]
        if s == trump:
            key = 1000 + power[card]
        elif s < 0:  # a joker of no suit: a highest one (or a top-trump one without trump) wins,
            key = 2000 if s == NO_SUIT and power[card] == TOP else 0  # a lowest one only among jokers
        elif s == led:
            key = 500 + power[card]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def plain_trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                       trump: int | None) -> int:
    """:func:`trick_winner` for a pack without jokers (every card has a suit): the
    per-trick path of most games, kept free of the jokers' cases."""
    led = suits[plays[0][1]]
    best_seat, best_key = -1, -1
    for seat, card in plays:
        s = suits[card]
        if s == trump:
            key = 1000 + power[card]
        elif s == led:
            key = 500 + power[card]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


Winner = Callable[[Sequence[tuple[int, int]], Sequence[int], Sequence[int], "int | None"], int]


def _last_identical_wins(winner: Winner) -> Winner:
    """``winner`` with a tie of identical cards (several decks) going to the copy played
    last: the winning card's last copy in the trick wins."""
    def wins(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int], trump: int | None) -> int:
        seat = winner(plays, suits, power, trump)
        card = next(c for s, c in plays if s == seat)
        return [s for s, c in plays if c == card][-1]
    return wins


def winner_function(jokers: bool, last_identical: bool) -> Winner:
    """Who wins a trick under the rules: the plain function for a pack without jokers,
    and of identical cards the first played wins unless ``last_identical``."""
    winner: Winner = trick_winner if jokers else plain_trick_winner
    return _last_identical_wins(winner) if last_identical else winner
