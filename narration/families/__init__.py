"""How each family's table looks at the terminal.  A family names its view in its
``views`` (``"terminal": "package.module:Class"``); a family without one gets
:class:`GenericView`, which still narrates (from the engine's views of the events, so
only what the seat may see), shows the hand and lists the legal moves.

A view is made for one game's renderer (``view_for(rules, renderer)``) and answers:
``event(event)`` (narrate a family event), ``round_header()`` and
``score_sheet(event)`` (the round's summary), ``show_table(obs)``, ``hand_text(obs)``,
``prompt(obs, legal)``, ``last_lines()`` (what `last` shows; ``last_help`` says
what that is), ``hint_reason(obs, action)`` (why the bot would make that move, in a few words,
or None), ``forced(obs, legal)`` (the move, named for people, when
there is only one and it is played for the person; else None), ``help_text()``; and, for `simulate`, ``seat_columns()``,
``seat_cells(entry)`` and ``summary_lines(stats)``.
"""

from __future__ import annotations

from typing import Any, Sequence


from ...interpreter.rules import Ruleset
from ..output import echo
from ...interpreter.families import view as family_view


class GenericView:
    """The table of a family that brings no view of its own."""

    def __init__(self, rules: Ruleset, renderer: Any):
        self.rules = rules
        self.r = renderer

    def event(self, event: dict[str, Any]) -> None:
        if "seat" in event and event["event"] not in ("deal",):
            detail = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("event", "round", "seat"))
            self.r.say(f"{self.r.names[event['seat']]}: {event['event']}" + (f" ({detail})" if detail else ""))
            self.r.end_turn()  # each move is a turn of its own here

    last_help = "the last turn"

    def last_lines(self) -> list[str]:
        return self.r.last_turn_lines()

    def round_header(self) -> str:
        return ""

    sheet_legend = "each round's points"

    def sheet_cell(self, seat: int, event: dict[str, Any]) -> str:
        """One seat's entry in the score sheet for the round ``event`` scores."""
        return f"{event['points'][seat]:+d}"

    def score_sheet(self, event: dict[str, Any]) -> None:
        w = self.r.width
        echo(f"  {'':{w}} {'points':>7} {'total':>6}")
        for seat, name in enumerate(self.r.names):
            echo(f"  {name:{w}} {event['points'][seat]:>7} {event['totals'][seat]:>6}")

    def show_table(self, obs: Any) -> None:
        pass

    def hand_text(self, obs: Any) -> str:
        return self.r.hand_text([self.r.pack.codes[c] for c in sorted(obs.hand)])

    def prompt(self, obs: Any, legal: Sequence[Any]) -> str:
        return f"your move ({' / '.join(str(a) for a in legal[:12])}{' ...' if len(legal) > 12 else ''})"

    def hint_reason(self, obs: Any, action: Any) -> str | None:
        return None  # the bot's move is shown without a reason

    def forced(self, obs: Any, legal: Sequence[Any]) -> str | None:
        return None  # every choice here is the player's own

    def help_text(self) -> str:
        return "  Type a move as it is listed at the prompt."

    def seat_columns(self) -> str:
        return ""

    def seat_cells(self, entry: dict[str, Any]) -> str:
        return ""

    def summary_lines(self, stats: dict[str, Any]) -> list[str]:
        return []


def view_for(rules: Ruleset, renderer: Any) -> Any:
    """The terminal view the ruleset's family names (``views["terminal"]``), or the generic one."""
    return (family_view(rules.family, "terminal") or GenericView)(rules, renderer)
