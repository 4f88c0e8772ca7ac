"""How each family's table looks in the browser.  A family names its web view in its
``views`` (``"web": "package.module:Class"``); a family without one gets
:class:`GenericWebView`: the hand, and every legal move as a button.

A view is made once per room (``web_view_for(rules)``) and turns one seat's
observation into plain JSON the page renders without knowing the family:

- ``panels(obs, names, spectator)``: a list of panels, each ``{"kind": "facts" | "plays" |
  "melds" | "hands", ...}`` (see ``docs/web.md``).  ``spectator``: the observation is
  some seat's, shown to someone at no seat: leave out that seat's private part.
- ``seat_notes(obs, spectator)``: a short public note for each seat ("bid 3, took 1").
- ``controls(obs, legal, names)``: what the seat in turn may do (``names``: the seats'
  names, for moves that name a seat): the hand with the move each
  card makes (``None``: not now) or ``try`` (a move the engine will refuse, so the
  page can say why), ``select`` (cards are picked, then a composer sends them),
  ``buttons`` and ``composers``.

It reads only the observation, the legal actions and the rules: never the state.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...interpreter.cards import NAMES
from ...interpreter.rules import Ruleset
from ...interpreter.families import view as family_view

MAX_BUTTONS = 60


class GenericWebView:
    """The table of a family that brings no web view: the hand and the legal moves."""

    def __init__(self, rules: Ruleset):
        self.rules = rules

    def panels(self, obs: Any, names: Sequence[str], spectator: bool) -> list[dict[str, Any]]:
        return []

    def seat_notes(self, obs: Any, spectator: bool) -> list[str]:
        return ["" for _ in range(obs.players)]

    def controls(self, obs: Any, legal: Sequence[Any], names: Sequence[str] = ()) -> dict[str, Any]:
        return {"hand": [{"card": NAMES[c], "move": None} for c in sorted(obs.hand)], "select": False,
                "buttons": [{"label": str(a), "move": str(a), "group": "Your move"} for a in legal[:MAX_BUTTONS]],
                "composers": [], "prompt": "your move"}


def web_view_for(rules: Ruleset) -> Any:
    """The web view the ruleset's family names (``views["web"]``), or the generic one."""
    return (family_view(rules.family, "web") or GenericWebView)(rules)
