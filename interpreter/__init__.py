"""The generic interpreter: load a ruleset, make games from it, play them.

>>> from cardrules.interpreter import load_ruleset
>>> load_ruleset("oh-shit").setup(4).hand_sizes[:3]
(10, 9, 8)
"""

from .errors import (CardrulesError, EvaluationError, ExpressionError, IllegalActionError, Problem,
                     RecordError, RulesetError)
from .ruleset import Ruleset, load_ruleset

__all__ = [
    "CardrulesError", "EvaluationError", "ExpressionError", "IllegalActionError", "Problem",
    "RecordError", "Ruleset", "RulesetError", "load_ruleset",
]
