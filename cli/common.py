"""What every command shares: loading a RULESET argument, and the outcomes a command
ends with.  Commands raise an outcome; ``cli/main.py`` turns it into an exit code."""

from __future__ import annotations

from pathlib import Path

import click

from ..interpreter.errors import Problem, RulesetError
from ..interpreter.loader import load_document
from ..interpreter.rules import Ruleset
from ..interpreter.ruleset import build_ruleset


class Outcome(Exception):
    """How a command ended, when not with success; ``message`` (if any) is printed as
    ``cardrules: message`` on stderr."""

    def __init__(self, message: str = ""):
        self.message = message
        super().__init__(message)


class InvalidInput(Outcome):
    """The user's input is wrong (a ruleset, record, save or file): exit 1."""


class UsageProblem(Outcome):
    """The command was called wrongly (options, seat kinds, player counts): exit 2."""


def report_problems(problems: list[Problem]) -> None:
    for problem in problems:
        click.echo(problem.format(), err=True)


def open_ruleset(ref: str) -> Ruleset:
    """Load RULESET (a bundled name or a path), or print every problem and end with
    InvalidInput."""
    try:
        return build_ruleset(load_document(Path(ref) if Path(ref).is_file() else ref))
    except RulesetError as exc:
        report_problems(exc.problems)
        raise InvalidInput() from None
