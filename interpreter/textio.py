"""Reading what a person types, and showing cards and events as text.

Shared by the CLI prompt and the tests, so a line typed at the prompt is parsed by
the same code whatever drives it.  Nothing here trusts its input.
"""

from __future__ import annotations

from typing import Any

from .actions import PLAYS, TRUMP_CHOICES, Bid, Play
from .cards import SUIT_NAMES, SUITS, card, pretty
from .errors import IllegalActionError
from .state import GameState

MAX_INPUT = 500


def parse_trick_input(state: Any, text: str) -> Any:
    """An action from what a player typed: ``3``, ``bid 3``, ``QS``, ``10h``, ``play q♠``,
    ``trump hearts`` / ``trump none``.  Raises IllegalActionError with a hint."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalActionError("type a bid or a card (or 'help')")
    verb, rest = words[0], words[1:]
    phase = getattr(state, "phase", "")
    if verb == "bid" or (phase == "bidding" and verb.lstrip("-").isdigit() and not rest):
        value = rest[0] if verb == "bid" and rest else verb
        if not value.lstrip("-").isdigit() or len(value) > 4:
            raise IllegalActionError(f"'{text.strip()}' is not a bid: type a number, e.g. 'bid 3'")
        return Bid(int(value))
    if verb in ("trump", "name"):
        if not rest:
            raise IllegalActionError("name a suit: 'trump hearts', 'trump s' or 'trump none'")
        word = rest[0]
        if word in ("none", "no", "nt", "notrump", "no-trump"):
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


def describe_action(action: Any, *, ascii_only: bool = False) -> str:
    if isinstance(action, Play):
        return pretty(action.card, ascii_only=ascii_only)
    return str(action)


def parse_input(state: GameState, text: str) -> Any:
    if len(text) > MAX_INPUT:
        raise IllegalActionError("that line is too long")
    return state.parse_input(text)
