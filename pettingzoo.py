"""Every cardrules ruleset as a PettingZoo AEC environment (``pip install 'cardrules[pettingzoo]'``).

    from cardrules.pettingzoo import env
    game = env(ruleset="oh-hell", players=4)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

The agents are ``player_0`` .. ``player_{n-1}``, seat by seat.  An observation is a
dict: ``observation``, the seat's view as a vector (float32; the same vector as
OpenSpiel's observation tensor, docs/research.md), and ``action_mask``, 1 for each
legal id (int8).  The actions are the ruleset's id space (a move of several parts is
several steps of the same agent).  Chance (the deal, card by card, and the family's
own events) is played inside ``step`` with the environment's RNG, seeded by
``reset(seed=...)``.  Every reward comes at the end: the winners' share less the mean
(:mod:`cardrules.interpreter.environment`).  ``rounds`` ends the game after that many
rounds (a termination), ``horizon`` after that many steps of the agents (a
truncation), each scored as the totals then stand.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any


def toolkit() -> Any:
    """PettingZoo itself.  This module's file is named as the toolkit is, and the
    repository root (this package's folder) is on ``sys.path`` when Python runs from it:
    so the toolkit is imported with that folder left out of the path (and this file, if
    it was imported under the toolkit's name from there, put out of its place)."""
    here = Path(__file__).resolve().parent
    taken = sys.modules.get("pettingzoo")
    if taken is not None and Path(getattr(taken, "__file__", None) or "/").resolve() == Path(__file__).resolve():
        del sys.modules["pettingzoo"]
    saved = sys.path[:]
    sys.path[:] = [p for p in saved if Path(p or ".").resolve() != here]
    try:
        return importlib.import_module("pettingzoo")
    finally:
        sys.path[:] = saved


if __name__ == "pettingzoo":  # this file, found under the toolkit's name: be the toolkit
    sys.modules[__name__] = toolkit()
else:
    from .pettingzoo_env import CardrulesEnv, env

    __all__ = ["CardrulesEnv", "env"]
