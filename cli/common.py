"""What every command shares: loading a RULESET argument, and the outcomes a command
ends with.  Commands raise an outcome; ``cli/main.py`` turns it into an exit code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..narration.output import echo, printable
from ..interpreter.errors import Problem, RulesetError
from ..interpreter.files import is_file

if TYPE_CHECKING:
    from ..interpreter.rules import Ruleset


def examples(*lines: str) -> str:
    """A command's epilog: its examples, kept line by line in ``--help``."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def json_option(what: str) -> Any:
    """``--json``: one spelling on every command that reports."""
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as JSON.")


def _set_color(ctx: click.Context, param: Any, value: bool | None) -> None:
    if value is not None:
        ctx.color = value


def color_option() -> Any:
    """``--color/--no-color`` on a command that shows cards, as well as on the group
    (``cardrules play oh-shit --no-color`` reads as naturally as ``cardrules --no-color play``)."""
    return click.option("--color/--no-color", default=None, expose_value=False, callback=_set_color,
                        help="Red hearts and diamonds even when not at a terminal, or never (default: at a "
                             "terminal, unless NO_COLOR is set).")


def prompt(text: str, **kwargs: Any) -> Any:
    return click.prompt(printable(text), **kwargs)


class Whole(click.ParamType):
    """A whole number written in ASCII digits (int() would also take '1_0' and other
    scripts' digits), within [lo, hi]."""

    name = "integer"

    def __init__(self, lo: int | None = None, hi: int | None = None, hint: str = "", *, shown_hi: str = ""):
        self.lo, self.hi, self.hint = lo, hi, hint  # hint: said after a number out of bounds
        self.shown_hi = shown_hi or str(hi)  # the bound as a message says it ("2^255")
        # at most as many digits as the bound has (never int() of a thousand digits)
        self._pattern = re.compile(r"-?[0-9]{1,%d}" % max(19, len(str(abs(hi))) if hi is not None else 19))

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and self._pattern.fullmatch(value.strip()):
            number = int(value.strip())
        else:
            self.fail(f"{value!r} is not a whole number (digits 0-9)", param, ctx)
        if (self.lo is not None and number < self.lo) or (self.hi is not None and number > self.hi):
            bounds = f"{self.lo} to {self.shown_hi}" if self.hi is not None else f"at least {self.lo}"
            self.fail(f"{number} is not in {bounds}{self.hint}", param, ctx)
        return number


class Outcome(Exception):
    """How a command ended, when not with success; ``message`` (if any) is printed as
    ``cardrules: message`` on stderr."""

    def __init__(self, message: str = ""):
        self.message = message
        super().__init__(message)


class InvalidInput(Outcome):
    """The user's input is wrong (a ruleset, record, save or file): exit 1."""


class Interrupted(Outcome):
    """Ctrl-C: exit 130, with at most one short line."""


class UsageProblem(Outcome):
    """The command was called wrongly (options, seat kinds, player counts): exit 2."""


def report_problems(problems: list[Problem], limit: int = 100) -> None:
    """Every problem (the first ``limit``, then how many more)."""
    for problem in problems[:limit]:
        echo(problem.format(), err=True)
    if len(problems) > limit:
        echo(f"and {len(problems) - limit} more problems", err=True)


def open_ruleset(ref: str) -> Ruleset:
    """Load RULESET (a bundled name or a path), or print every problem and end with
    InvalidInput."""
    from ..interpreter.loader import load_document  # the loader and the schema only when a command loads rules
    from ..interpreter.ruleset import build_ruleset

    try:
        return build_ruleset(load_document(Path(ref) if is_file(ref) else ref))
    except RulesetError as exc:
        report_problems(exc.problems)
        raise InvalidInput() from None
