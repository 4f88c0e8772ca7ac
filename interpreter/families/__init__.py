"""The registry of game families: the only place that knows which families exist.

Each family is a package beside this module that provides one object satisfying
:class:`cardrules.interpreter.family.GameFamily`; a ruleset's ``family:`` value
looks it up here.  A family from outside the package (a plug-in, or a test's toy
family) joins with :func:`register`.

>>> sorted(names())
['contract-rummy', 'trick-taking']
"""

from __future__ import annotations

from typing import Any

from ..family import GameFamily
from .contract_rummy import FAMILY as _CONTRACT_RUMMY
from .trick_taking import FAMILY as _TRICK_TAKING

_REGISTRY: dict[str, GameFamily] = {}
_listeners: list[Any] = []


def register(family: GameFamily) -> GameFamily:
    """Make ``family`` playable: rulesets with ``family: <its name>`` now load and play.
    Registering a family again under the same name replaces it."""
    _REGISTRY[family.name] = family
    for listener in _listeners:
        listener()
    return family


def unregister(name: str) -> None:
    """Forget the family registered as ``name`` (for tests of plug-in families)."""
    _REGISTRY.pop(name, None)
    for listener in _listeners:
        listener()


def on_change(listener: Any) -> None:
    """Call ``listener()`` whenever the set of families changes (caches of the schema)."""
    _listeners.append(listener)


def get(name: str) -> GameFamily | None:
    return _REGISTRY.get(name)


def names() -> list[str]:
    return list(_REGISTRY)


def all_families() -> list[GameFamily]:
    return list(_REGISTRY.values())


register(_TRICK_TAKING)
register(_CONTRACT_RUMMY)
