"""Reading what a person types: the limits every family's parser shares, and the one
entry point the prompt, saves and tests use, so a line is parsed by the same code
whatever drives it.  Nothing here trusts its input."""

from __future__ import annotations

import re
from typing import Any

from .errors import IllegalActionError
from .rules import Ruleset

MAX_INPUT = 500
NUMBER = re.compile(r"-?[0-9]{1,4}")  # ASCII digits only: str.isdigit() accepts '²'
DIGITS = re.compile(r"-?[0-9]+")  # a whole number of any length, ASCII digits only


def parse_input(rules: Ruleset, observation: Any, text: str) -> Any:
    """The action ``text`` means for the seat that sees ``observation`` (raises
    IllegalActionError with a hint when it means none)."""
    if len(text) > MAX_INPUT:
        raise IllegalActionError("that line is too long")
    return rules.family.parse_input(rules, observation, text)
