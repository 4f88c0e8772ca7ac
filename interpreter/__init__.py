"""The generic interpreter: load a ruleset, make games from it, play them.

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.ruleset import EXAMPLE
>>> ruleset_from_text(EXAMPLE).setup(4).hand_sizes[:3]
(10, 9, 8)
"""

from .errors import (CardrulesError, EvaluationError, ExpressionError, IllegalActionError, Problem,
                     RecordError, RulesetError)
from .ruleset import Ruleset, load_ruleset, ruleset_from_text

__all__ = [
    "CardrulesError", "EvaluationError", "ExpressionError", "IllegalActionError", "Problem",
    "RecordError", "Ruleset", "RulesetError", "load_ruleset", "ruleset_from_text",
]
