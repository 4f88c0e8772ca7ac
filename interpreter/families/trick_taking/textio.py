"""What a player types at a trick-taking table, and what a record line means."""

from __future__ import annotations

from typing import Any

from ...cards import SUIT_NAMES, SUITS, card
from ...deal import deal_from_event
from ...errors import IllegalActionError
from ...textio import DIGITS
from .actions import PLAYS, TRUMP_CHOICES, Bid, ChooseTrump, Move, TrickAction
from .phases import Phase
from .state import TrickTakingState


def parse_input(phase: str, text: str) -> TrickAction:
    """An action from what a player typed: ``3``, ``bid 3``, ``QS``, ``10h``, ``play q♠``,
    ``trump hearts`` / ``trump none``.  Raises IllegalActionError with a hint."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalActionError("type a bid or a card (or 'help')")
    verb, rest = words[0], words[1:]
    if verb == "bid" or (phase == Phase.BIDDING and DIGITS.fullmatch(verb)):
        numbers = rest if verb == "bid" else words
        if len(numbers) != 1 or not DIGITS.fullmatch(numbers[0]):
            raise IllegalActionError(f"'{text.strip()}' is not a bid: type one number, e.g. 'bid 3'")
        if len(numbers[0].lstrip("-")) > 6:
            raise IllegalActionError(f"{numbers[0][:20]} is far beyond any bid")
        return Bid(int(numbers[0]))  # a bid out of range is refused by the rules, with the range
    if phase == Phase.BIDDING and verb not in ("trump", "name", "play"):
        raise IllegalActionError(f"'{text.strip()}' is not a bid: type a number, e.g. '3' or 'bid 3'")
    if verb in ("trump", "name") or phase == Phase.CHOOSE_TRUMP:
        if phase == Phase.CHOOSE_TRUMP and verb not in ("trump", "name"):
            rest = words  # at the trump prompt a suit alone names it: 'hearts', 'h', 'none'
        if not rest:
            raise IllegalActionError("name a suit: 'trump hearts', 'trump s' or 'trump none'")
        word = " ".join(rest) if rest[0] == "no" and len(rest) > 1 else rest[0]
        if word in ("none", "no", "nt", "notrump", "no-trump", "no trump", "no trumps", "notrumps"):
            return TRUMP_CHOICES[4]
        for i, s in enumerate(SUITS):
            if word in (s.lower(), SUIT_NAMES[s], SUIT_NAMES[s].rstrip("s")):
                return TRUMP_CHOICES[i]
        raise IllegalActionError(f"'{word}' is not a suit (spades, hearts, diamonds, clubs or none)")
    target = " ".join(rest) if verb == "play" else " ".join(words)
    try:
        return PLAYS[card(target)]
    except ValueError as exc:
        raise IllegalActionError(str(exc)) from None


def action_from_event(state: TrickTakingState, event: dict[str, Any]) -> Move | None:
    """The action a trick-taking record line stands for (None: not an action)."""
    kind = event["event"]
    if kind == "deal":
        return deal_from_event(event, state.deck)
    if kind in ("bid", "play", "trump") and "seat" in event and event["seat"] != state.turn:
        raise IllegalActionError(f"seat {event['seat']} acts out of turn (it is {state.whose_turn()})")
    if kind == "bid":
        value = event["bid"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"bid {value!r} is not a number")
        return Bid(value)
    if kind == "play":
        return PLAYS[card(event["card"])]
    if kind == "trump" and state.phase is Phase.CHOOSE_TRUMP:
        suit = event["suit"]
        if suit is not None and (not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS):
            raise ValueError(f"{suit!r} is not a suit")
        return ChooseTrump(None if suit is None else SUITS.index(suit))
    return None
