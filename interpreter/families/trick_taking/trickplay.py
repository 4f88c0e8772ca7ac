"""Trick play: which cards may be played, why one may not, and who wins a trick."""

from __future__ import annotations

from typing import Sequence

from ...cards import JOKER, NAMES
from .trump import TOP, describe


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
        if suits[card] != card // 13:
            extra = f" ({NAMES[card]} counts as a {describe(suits[card]).rstrip('s')} this round)"
        return f"you must follow {describe(led)}{extra}"
    if must_trump and trump is not None and suits[card] != trump and any(suits[c] == trump for c in hand):
        return f"you have no {describe(led)}, so you must play a trump ({describe(trump)})"
    return f"you may not play {NAMES[card]} now"


def trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                 trump: int | None) -> int:
    """The seat that wins: the highest trump, else the highest card of the suit led.
    Of two identical cards (several decks) the first played wins."""
    led = suits[plays[0][1]]
    best_seat, best_key = -1, -1
    for seat, card in plays:
        s = suits[card]
        if s == trump:
            key = 1000 + power[card]
        elif s == led:
            key = 500 + power[card]
        elif card == JOKER and power[card] == TOP:  # a top joker in a no-trump round
            key = 2000
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat
