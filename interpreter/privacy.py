"""Who may see what: each event field's audience, and each seat's view of the history.

The record is the whole story: every hand, every card drawn blind, the seed. A seat at
the table, a spectator, a terminal narration or a browser page gets *views* of it that
the engine makes, never the record itself, so a view can only draw what its seat may
know (the observation is the other half: a seat's present, where the views are its
past).

Each event kind declares, field by field, who sees it (:class:`Seen`); the core
declares its own kinds (:data:`CORE_EVENTS`) and every family its own
(``GameFamily.event_visibility``). A field that no declaration names is seen by
nobody, and an event kind nobody declares shows only its kind, round and seat: a
family that forgets a declaration shows too little, never too much. A game may
narrow a declaration for one event as it logs it (``GameState.log(event, seen=...)``:
the turned card of a round whose trump stays hidden), and may hold back every event
from a point on until it is revealed (``GameState.hold_events``: bids made at once).

A hidden value is shown as ``None`` (a hidden list as that many ``None``: how many
cards moved is public, which ones is not); a field seen by nobody is left out.

>>> view_event({"event": "draw", "seat": 1, "from": "stock", "card": "9C"},
...            {"seat": Seen.ALL, "from": Seen.ALL, "card": Seen.ACTOR}, 2)
{'event': 'draw', 'seat': 1, 'from': 'stock', 'card': None}
>>> view_event({"event": "deal", "round": 1, "hands": [["AS", "KS"], ["2C", "3C"]]},
...            {"hands": Seen.OWN}, 0)
{'event': 'deal', 'round': 1, 'hands': [['AS', 'KS'], [None, None]]}
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable, Mapping, Union


class Seen(StrEnum):
    """Who sees one field of an event."""

    ALL = "all"  # every seat and every spectator
    ACTOR = "actor"  # only the seat the event names (its "seat" field)
    OWN = "own"  # a list by seat: each seat its own entry (a deal's hands)
    NOBODY = "nobody"  # only the record (a referee, a replay): never a seat or spectator


# A field's audience: one of Seen, or the seats that see it (a card given from one
# player to another is seen by both).
Audience = Union[Seen, frozenset[int]]
Visibility = Mapping[str, Audience]
# An event kind's declaration: fixed, or worked out from the event (a card drawn from
# the discard pile is public, one drawn from the stock is the drawer's).
Declaration = Union[Visibility, Callable[[Mapping[str, Any]], Visibility]]

ALWAYS = frozenset({"event", "round"})  # every view of an event has these
UNDECLARED: Visibility = {"seat": Seen.ALL}  # an event kind nobody declared: who acted, and when

CORE_EVENTS: dict[str, Declaration] = {
    # the seed is the whole deal: nobody at the table may know it
    "game": {"format": Seen.ALL, "ruleset": Seen.ALL, "ruleset_sha256": Seen.ALL, "players": Seen.ALL,
             "mode": Seen.ALL, "ruleset_path": Seen.ALL, "seed": Seen.NOBODY},
    "deal": {"dealer": Seen.ALL, "hand_size": Seen.ALL, "hands": Seen.OWN, "upcard": Seen.ALL,
             "stock": Seen.ALL, "rules_round": Seen.ALL},
    # hands: each seat's cards left, where the family records them (score_round): the
    # record's proof that no move is missing, not a showing of the hands at the table
    "score": {"points": Seen.ALL, "totals": Seen.ALL, "hands": Seen.NOBODY},
    "end": {"totals": Seen.ALL, "winners": Seen.ALL, "teams": Seen.ALL},
    "reshuffle": {"stock": Seen.ALL},
}


def _hidden(value: Any) -> Any:
    if isinstance(value, list):
        return [None] * len(value)
    return None


def sees(audience: Audience, viewer: int | None, actor: Any) -> bool:
    """Whether ``viewer`` (a seat, or None for a spectator) sees a field of this audience."""
    if audience is Seen.ALL:
        return True
    if audience is Seen.ACTOR:
        return viewer is not None and viewer == actor
    if isinstance(audience, frozenset):
        return viewer in audience
    return False


def view_event(event: Mapping[str, Any], visibility: Visibility, viewer: int | None) -> dict[str, Any]:
    """``event`` as ``viewer`` (a seat, or None for a spectator) may see it."""
    actor = event.get("seat")
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key in ALWAYS:
            out[key] = value
            continue
        audience = visibility.get(key, Seen.NOBODY)
        if audience is Seen.NOBODY:
            continue
        if audience is Seen.OWN:
            if isinstance(value, list):
                out[key] = [v if seat == viewer else _hidden(v) for seat, v in enumerate(value)]
            else:
                out[key] = _hidden(value)
        else:
            out[key] = value if sees(audience, viewer, actor) else _hidden(value)
    return out


def visibility_of(event: Mapping[str, Any], declarations: Mapping[str, Declaration],
                  override: Visibility | None = None) -> Visibility:
    """The visibility of one event: its kind's declaration, narrowed by ``override``."""
    declared = declarations.get(event["event"], UNDECLARED)
    fields = declared(event) if callable(declared) else declared
    if override:
        fields = {**fields, **override}
    return fields
