"""Cards as small integers, and their notation in game records and at the prompt.

A card is ``suit * 13 + rank`` with ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0..12) and
suits ``S H D C`` (0..3); every joker is :data:`JOKER` (52).  With several decks the
identical cards are the same integer, as they are the same string in a record.

>>> card("TS"), card("AH"), card("JK")
(8, 25, 52)
>>> name(card("10h")), name(card("Q♠")), name(52)
('TH', 'QS', 'JK')
"""

from __future__ import annotations

from typing import Sequence

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKER = 52
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()} | {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}

NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + ("JK",)
_BY_NAME = {n: i for i, n in enumerate(NAMES)}


def suit(c: int) -> int:
    """The printed suit (0..3) of a card; -1 for a joker."""
    return c // 13 if c != JOKER else -1


def rank(c: int) -> int:
    """The rank index (0 for a two .. 12 for an ace); -1 for a joker."""
    return c % 13 if c != JOKER else -1


def name(c: int) -> str:
    return NAMES[c]


def card(text: str) -> int:
    """Parse a card as people and records write it: ``TS``, ``10s``, ``q♠``, ``JK`` (or
    ``Jkr``, as the table shows it).

    Raises ValueError with a readable reason.
    """
    t = text.strip().upper().replace(" ", "")
    exact = _BY_NAME.get(t)
    if exact is not None:
        return exact
    if t in ("JOKER", "JKR", "JO", "*"):  # "Jkr" is how the table shows it
        return JOKER
    if not t:
        raise ValueError("no card given")
    s = _SYMBOL_TO_SUIT.get(t[-1], t[-1])
    r = t[:-1]
    if r == "10":
        r = "T"
    if r == "1":
        r = "A"
    if len(r) != 1 or r not in RANKS:
        raise ValueError(f"'{text}' is not a card (write rank then suit, e.g. TS, 10h, Q♠, JK)")
    if s not in SUITS:
        raise ValueError(f"'{text}' has no suit (S, H, D or C)")
    return SUITS.index(s) * 13 + RANKS.index(r)



def make_deck(decks: int, jokers: int, ranks: Sequence[str], removed: Sequence[int] = ()) -> list[int]:
    """Every card of the deck, in order (shuffle it with an injected RNG); ``removed``
    cards are left out of every pack."""
    keep = [RANKS.index(r) for r in ranks]
    one = [s * 13 + r for s in range(4) for r in keep if s * 13 + r not in removed]
    return one * decks + [JOKER] * jokers



def pretty(c: int, *, ascii_only: bool = False) -> str:
    """A card for people: ``10♥`` (or ``10H``)."""
    if c == JOKER:
        return "Jkr"
    r = RANKS[rank(c)]
    r = "10" if r == "T" else r
    s = SUITS[suit(c)]
    return r + (s if ascii_only else SUIT_SYMBOLS[s])
