"""The generic interpreter: load a ruleset, make games from it, play them.

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> ruleset_from_text(EXAMPLE).setup(4).hand_sizes[:3]
(10, 9, 8)
"""

from .errors import (CardrulesError, EvaluationError, ExpressionError, IllegalActionError, Problem,
                     RecordError, RulesetError)
from .game import CHANCE, OVER, GameState, new_game
from .rules import Ruleset
from .ruleset import load_ruleset, ruleset_from_text

__all__ = [
    "CHANCE", "CardrulesError", "EvaluationError", "ExpressionError", "GameState", "IllegalActionError", "OVER",
    "Problem", "RecordError", "Ruleset", "RulesetError", "load_ruleset", "new_game", "ruleset_from_text",
]
