"""The generic interpreter: load a ruleset, make games from it, play them.

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> ruleset_from_text(EXAMPLE).setup(4).hand_sizes[:3]
(10, 9, 8)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Loaded as they are first asked for (PEP 562), so that a module importing only, say,
# ``interpreter.errors`` does not pay for the schema and the grammar.
_WHERE = {
    "CardrulesError": "errors", "EvaluationError": "errors", "ExpressionError": "errors",
    "IllegalActionError": "errors", "Problem": "errors", "RecordError": "errors", "RulesetError": "errors",
    "CHANCE": "game", "OVER": "game", "GameState": "game", "new_game": "game",
    "Ruleset": "rules", "load_ruleset": "ruleset", "ruleset_from_text": "ruleset",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
