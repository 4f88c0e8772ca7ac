"""Every line cardrules prints, at the terminal or into a web room's log, passes here:
control characters escaped so a stranger's text cannot drive the terminal."""

from __future__ import annotations

import re
from typing import Any

import click


# Colours (SGR sequences, which cardrules itself writes for red suits) pass; every other
# control character is shown escaped, so text from a stranger's ruleset, record or save
# cannot move the cursor, clear the screen or retitle the terminal.
_SGR = re.compile(r"\x1b\[[0-9;]*m")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with control characters escaped (newlines, tabs and colours kept)."""
    def escape(part: str) -> str:
        return _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), part)

    out, pos = [], 0
    for match in _SGR.finditer(text):
        out.append(escape(text[pos:match.start()]))
        out.append(match.group(0))
        pos = match.end()
    out.append(escape(text[pos:]))
    return "".join(out).encode("utf-8", "backslashreplace").decode("utf-8")


def echo(message: Any = "", **kwargs: Any) -> None:
    """click.echo, through :func:`printable`: every line cardrules prints goes here."""
    click.echo(printable(str(message)), **kwargs)


def possessive(name: str) -> str:
    """"your" for the person called "you", else "Ann's", "bot-2's"."""
    return "your" if name == "you" else f"{name}'s"
