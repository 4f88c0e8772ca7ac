"""The pack's mechanics, shared by every family: the deal (a chance event that gives
each seat its hand and turns the upcard), checking a deal read from a record, and the
stock with its reshuffle of the discard pile."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from .pack import STANDARD, Pack
from .errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the cards dealt to each seat, the upcard (or None) and the stock order."""

    hands: tuple[tuple[int, ...], ...]
    upcard: int | None
    stock: tuple[int, ...]

    def __str__(self) -> str:
        return "deal"


def deal_cards(deck: Sequence[int], rng: random.Random, players: int, hand_size: int,
               upcard: bool, first: int) -> Deal:
    """Shuffle ``deck`` and deal ``hand_size`` cards to each seat, starting from
    ``first``; turn the next card up when ``upcard`` and a card is left."""
    cards = list(deck)
    rng.shuffle(cards)
    # The shuffle is uniform, so a block per seat deals as fairly: seat (first + k) gets
    # block k, i.e. seat s gets block (s - first) mod players.  (Tuples built directly,
    # not via per-seat lists: this runs once a round in every simulated game.)
    blocks = [(seat - first) % players for seat in range(players)]
    hands = tuple([tuple(cards[k * hand_size:(k + 1) * hand_size]) for k in blocks])
    at = players * hand_size
    turned = cards[at] if upcard and at < len(cards) else None
    if turned is not None:
        at += 1
    return Deal(hands, turned, tuple(cards[at:]))


def verify_deal(deal: Deal, deck: Sequence[int], players: int, hand_size: int, upcard: bool,
                pack: Pack = STANDARD) -> None:
    """Raise unless ``deal`` could come from ``deck`` under this round's rules."""
    if len(deal.hands) != players:
        raise IllegalActionError(f"the deal has {len(deal.hands)} hands for {players} players")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != hand_size:
            raise IllegalActionError(f"seat {seat} is dealt {len(hand)} cards; this round deals {hand_size}")
    dealt = Counter(c for hand in deal.hands for c in hand)
    if deal.upcard is not None:
        dealt[deal.upcard] += 1
    available = Counter(deck)
    for c, n in dealt.items():
        if n > available[c]:
            raise IllegalActionError(f"the deal holds {n} x {pack.code(c)}, but the deck has {available[c]}")
    left = len(deck) - sum(dealt.values())
    if upcard and deal.upcard is None and left > 0:
        raise IllegalActionError("this round turns an upcard, but the deal has none")
    if not upcard and deal.upcard is not None:
        raise IllegalActionError("this ruleset turns no upcard, but the deal has one")


def deal_from_event(event: dict[str, Any], deck: Sequence[int], pack: Pack = STANDARD) -> Deal:
    """The Deal action a record's "deal" line describes.  The record holds no stock
    order (a replay never depends on an RNG): the stock is the rest of the deck, and
    draws from the stock name their cards."""
    hands = tuple(tuple(pack.card(c) for c in hand) for hand in event["hands"])
    upcard = event.get("upcard")
    turned = pack.card(upcard) if upcard is not None else None
    rest = Counter(deck)
    rest.subtract(c for hand in hands for c in hand)
    if turned is not None:
        rest[turned] -= 1
    stock = []
    for c in deck:
        if rest[c] > 0:
            stock.append(c)
            rest[c] -= 1
    return Deal(hands, turned, tuple(stock))


def reshuffle_pile(stock: list[int], pile: list[int], rng: random.Random) -> list[int] | None:
    """A new stock from the discard pile but its top card, shuffled with ``rng`` (the
    pile keeps its top card); None when the pile has no card to spare.  The stock's
    top is the end of the list."""
    if len(pile) <= 1:
        return None
    top = pile.pop()
    new_stock = pile[:]
    rng.shuffle(new_stock)
    pile[:] = [top]
    return new_stock


def take_from_stock(stock: list[int], wanted: int | None, pack: Pack = STANDARD) -> int:
    """The top card of ``stock`` or, when a replay names it, the card ``wanted`` from
    wherever it lies in the (unknown) order (IllegalActionError if the stock has none)."""
    if wanted is None or (stock and stock[-1] == wanted):  # the top card: no need to look for it
        return stock.pop()
    if wanted not in stock:
        raise IllegalActionError(f"the stock holds no {pack.code(wanted)}")
    index = len(stock) - 1 - stock[::-1].index(wanted)
    return stock.pop(index)
