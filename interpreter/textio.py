"""Reading what a person types, and showing cards and events as text.

Shared by the CLI prompt and the tests, so a line typed at the prompt is parsed by
the same code whatever drives it.  Nothing here trusts its input.
"""

from __future__ import annotations

import re
from typing import Any

from .actions import PLAYS, TRUMP_CHOICES, Bid
from .cards import SUIT_NAMES, SUITS, card
from .errors import IllegalActionError
from .state import GameState

MAX_INPUT = 500
NUMBER = re.compile(r"-?[0-9]{1,4}")  # ASCII digits only: str.isdigit() accepts '²'


def parse_trick_input(state: Any, text: str) -> Any:
    """An action from what a player typed: ``3``, ``bid 3``, ``QS``, ``10h``, ``play q♠``,
    ``trump hearts`` / ``trump none``.  Raises IllegalActionError with a hint."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalActionError("type a bid or a card (or 'help')")
    verb, rest = words[0], words[1:]
    phase = getattr(state, "phase", "")
    if verb == "bid" or (phase == "bidding" and NUMBER.fullmatch(verb) and not rest):
        value = rest[0] if verb == "bid" and rest else verb
        if not NUMBER.fullmatch(value):
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



def parse_input(state: GameState, text: str) -> Any:
    if len(text) > MAX_INPUT:
        raise IllegalActionError("that line is too long")
    return state.parse_input(text)


def parse_rummy_input(state: Any, text: str) -> Any:
    """An action from what a player typed at a rummy table: ``take``, ``draw``, ``buy``,
    ``pass``, ``claim 2``, ``meld 8h 8s jk | 5d 6d jk 8d``, ``layoff 2 9d`` (``layoff 2 jk
    low``), ``swap 2 7d``, ``discard ks`` (``discard ks call`` to protect it)."""
    from .actions import BUY, DRAW, PASS, TAKE, Claim, Discard, GoDown, LayOff, Swap

    words = text.strip().lower().replace(",", " , ").split()
    if not words:
        raise IllegalActionError("type what you do (or 'help')")
    verb, rest = words[0], words[1:]
    simple = {"take": TAKE, "pick": TAKE, "draw": DRAW, "stock": DRAW, "buy": BUY, "may": BUY,
              "pass": PASS, "no": PASS}
    if verb in simple and not rest or (verb == "may" and rest == ["i"]):
        return simple[verb]

    def cards(items: list[str]) -> tuple[int, ...]:
        try:
            return tuple(card(w) for w in items if w not in (",", "|"))
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None

    def meld_number(word: str) -> int:
        if not NUMBER.fullmatch(word) or word.startswith("-"):
            raise IllegalActionError(f"'{word}' is not a meld number (the melds on the table are numbered)")
        return int(word)

    call = state.rummy.fitting_discard_call.name  # what the ruleset calls the call
    if verb in ("claim", call) and len(rest) == 1 and NUMBER.fullmatch(rest[0]):
        return Claim(meld_number(rest[0]))
    if verb in ("meld", "down", "go"):
        if verb == "go" and rest[:1] == ["down"]:
            rest = rest[1:]
        groups: list[list[str]] = [[]]
        for w in " ".join(rest).replace("|", " | ").split():
            if w in ("|", "/", ";"):
                groups.append([])
            else:
                groups[-1].append(w)
        melds = tuple(cards(g) for g in groups if g)
        if not melds:
            raise IllegalActionError("meld which cards? e.g. 'meld 8h 8s jk | 5d 6d jk 8d'")
        return GoDown(melds)
    if verb in ("layoff", "lay", "add"):
        if verb == "lay" and rest[:1] == ["off"]:
            rest = rest[1:]
        if len(rest) < 2:
            raise IllegalActionError("lay off on which meld? e.g. 'layoff 2 9d'")
        at_low = None
        if rest[-1] in ("low", "high"):
            at_low = rest[-1] == "low"
            rest = rest[:-1]
        return LayOff(meld_number(rest[0]), cards(rest[1:]), at_low)
    if verb == "swap":
        if len(rest) != 2:
            raise IllegalActionError("swap which card into which meld? e.g. 'swap 2 7d'")
        return Swap(meld_number(rest[0]), cards(rest[1:])[0])
    if verb == "discard" or (verb == call and rest):
        calling = verb == call or rest[-1:] in (["call"], [call])
        items = [w for w in rest if w not in ("call", call)]
        if len(items) != 1:
            raise IllegalActionError("discard which card? e.g. 'discard ks'")
        return Discard(cards(items)[0], calling)
    raise IllegalActionError(f"'{text.strip()}' is not a move here: try take, draw, buy, pass, meld, "
                             "layoff, swap, discard (or 'help')")
