"""One error hierarchy for everything cardrules rejects.

Ruleset problems (YAML syntax, schema, expressions, semantic checks) are collected as
:class:`Problem` values and raised together in a :class:`RulesetError`; a rejected
move is an :class:`IllegalActionError` whose message quotes the rule; a game record
that does not replay is a :class:`RecordError` naming its line.
"""

from __future__ import annotations

from dataclasses import dataclass


class CardrulesError(Exception):
    """Base class of every error cardrules reports to a user.

    Every one survives pickling whole (a worker process of ``simulate --jobs`` or a
    Dask worker sends its errors back to the command line): an error whose constructor
    takes more than its message says how to rebuild it in ``__reduce__``."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a ruleset, located in a file.

    ``line`` and ``column`` are 1-based; 0 means "no position known" (for example a
    problem with the file as a whole).  ``source_line`` and ``span`` let a reporter
    draw a caret line under the offending text.
    """

    file: str
    line: int
    column: int
    message: str
    kind: str = "semantic"  # "io", "yaml", "schema", "expression", "semantic", "play"
    source_line: str | None = None
    span: int = 1

    def format(self, *, caret: bool = True) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        text = f"{where}: {self.message}"
        if caret and self.source_line is not None and self.column:
            line = self.source_line.rstrip("\n")
            pad = "".join("\t" if ch == "\t" else " " for ch in line[: self.column - 1])
            text += f"\n    {line}\n    {pad}{'^' * max(1, self.span)}"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "kind": self.kind,
            "message": self.message,
        }


class RulesetError(CardrulesError):
    """A ruleset could not be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(p.format(caret=False) for p in problems))

    def __reduce__(self) -> tuple[type, tuple[list[Problem]]]:
        return (type(self), (self.problems,))


class ExpressionError(CardrulesError):
    """A syntax or type error inside one expression, at a character offset."""

    def __init__(self, message: str, start: int = 0, end: int | None = None):
        self.message = message
        self.start = start
        self.end = start + 1 if end is None else max(end, start + 1)
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[str, int, int]]:
        return (type(self), (self.message, self.start, self.end))


class EvaluationError(CardrulesError):
    """An expression failed while being evaluated (division by zero, size limits...),
    or the rules left a player no legal move.  ``path`` is where in the ruleset the rule
    involved is written (a tuple of keys and indexes), when the engine knows it."""

    def __init__(self, message: str, path: tuple[str | int, ...] | None = None):
        self.path = path
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[str, tuple[str | int, ...] | None]]:
        return (type(self), (str(self), self.path))


class IllegalActionError(CardrulesError):
    """A player tried something the rules forbid; the message says which rule."""


class RecordError(CardrulesError):
    """A game record is unreadable, or a line of it does not replay."""

    def __init__(self, message: str, line: int = 0):
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line else message)

    def __reduce__(self) -> tuple[type, tuple[str, int]]:
        return (type(self), (self.message, self.line))
