"""One error hierarchy for everything cardrules rejects.

Ruleset problems (YAML syntax, schema, expressions, semantic checks) are collected as
:class:`Problem` values and raised together in a :class:`RulesetError`; a rejected
move is an :class:`IllegalActionError` whose message quotes the rule; a game record
that does not replay is a :class:`RecordError` naming its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_WORD = 200  # characters of one unbroken run of text in a message (a path, a key, a number)
MAX_MESSAGE = 1000  # characters of a whole message
MAX_SHOWN_LINE = 160  # characters of a ruleset's line shown above a caret

# Everything that could break a message's one line or move a terminal's cursor: C0 and C1
# controls, DEL, the Unicode line and paragraph separators, and lone surrogates.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LONG_WORD = re.compile(r"\S{%d,}" % (MAX_WORD + 1))


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    return _ESCAPES.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")


def _shorten(text: str, limit: int, tail: int) -> str:
    return text if len(text) <= limit else f"{text[:limit - tail - 1]}…{text[-tail:]}"


def one_line(text: str) -> str:
    """``text`` as one line of bounded length, for a message: newlines, carriage returns,
    tabs and other control characters escaped (``\\n``, ``\\x07``), lone surrogates too,
    an unbroken run of more than MAX_WORD characters and a message of more than
    MAX_MESSAGE shortened in the middle (``…``).  Every message that quotes a stranger's
    text (a ruleset's key or value, a record's line, a file name) goes through here once,
    where it is formatted, so no message needs to escape what it quotes.

    >>> one_line("unknown key 'a\\nb'")
    "unknown key 'a\\\\nb'"
    >>> len(one_line("x" * 5000)) == MAX_WORD
    True
    """
    text = _UNSAFE.sub(_escape, text)
    text = _LONG_WORD.sub(lambda m: _shorten(m.group(0), MAX_WORD, MAX_WORD // 3), text)
    return _shorten(text, MAX_MESSAGE, MAX_MESSAGE // 4)


class CardrulesError(Exception):
    """Base class of every error cardrules reports to a user.  Its text is one line of
    bounded length (:func:`one_line`), whatever it quotes.

    Every one survives pickling whole (a worker process of ``simulate --jobs`` or a
    Dask worker sends its errors back to the command line): an error whose constructor
    takes more than its message says how to rebuild it in ``__reduce__``."""

    def __str__(self) -> str:
        return one_line(super().__str__())


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

    def __post_init__(self) -> None:
        # one line, bounded, whatever the message quotes (see one_line)
        object.__setattr__(self, "message", one_line(self.message))
        object.__setattr__(self, "file", _UNSAFE.sub(_escape, self.file))

    def format(self, *, caret: bool = True) -> str:
        """``FILE:LINE:COL: message``; with ``caret``, the line of the ruleset below it (a
        window of it around the column, if it is long) and a caret under the text."""
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        text = f"{where}: {self.message}"
        if caret and self.source_line is not None and self.column:
            line, column = self.source_line.rstrip("\n"), self.column
            span = max(1, min(self.span, MAX_SHOWN_LINE // 2))
            if len(line) > MAX_SHOWN_LINE:  # a window of the line around the column
                start = max(0, min(column - 1 - MAX_SHOWN_LINE // 4, len(line) - MAX_SHOWN_LINE))
                line = ("…" if start else "") + line[start:start + MAX_SHOWN_LINE] + \
                    ("…" if start + MAX_SHOWN_LINE < len(line) else "")
                column -= start - (1 if start else 0)
            before = line[: column - 1]
            shown = _UNSAFE.sub(lambda m: "\t" if m.group(0) == "\t" else "?", line)
            pad = "".join("\t" if ch == "\t" else " " for ch in before)
            text += f"\n    {shown}\n    {pad}{'^' * span}"
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
        more = f"; and {len(problems) - 3} more problems" if len(problems) > 3 else ""
        super().__init__("; ".join(p.format(caret=False) for p in problems[:3]) + more)

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


class UnplayableError(CardrulesError, ValueError):
    """No game may start at this player count or in this mode: the ruleset validates
    (with a warning), but a check found it cannot be played there; the message says why."""


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
