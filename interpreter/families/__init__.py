"""The registry of game families: the one door through which the core finds them.

A family is one object satisfying :class:`cardrules.interpreter.family.GameFamily`,
published by its package under the entry-point group :data:`GROUP` in its
``pyproject.toml``, as cardrules publishes its own two::

    [project.entry-points."cardrules.families"]
    trick-taking = "cardrules.interpreter.families.trick_taking:FAMILY"

The entry point's name is the ruleset's ``family:`` value. Every process finds the
installed families the same way (the command line, ``simulate --jobs`` workers, a Dask
worker, the web server), so a family installed as a package plays everywhere without a
line of cardrules changed. The family object carries everything of its family,
including where its terminal and web table views live (``views``: import paths, loaded
only by the command line and the web server that draw them; see :func:`view`).

:func:`register` adds a family to this process alone (a test's, or a notebook's): it is
not seen by worker processes, which say so.

>>> sorted(names())
['contract-rummy', 'trick-taking']
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from ..family import GameFamily, complete

GROUP = "cardrules.families"

_REGISTRY: dict[str, GameFamily] = {}
_BROKEN: dict[str, str] = {}  # an installed family that failed to load: name -> why
_RUNTIME: set[str] = set()  # registered in this process only (not through an entry point)
_listeners: list[Any] = []
_discovered = False


def _discover() -> None:
    """Load every family installed under the entry-point group (once a process)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        if point.name in _REGISTRY:
            continue
        try:
            family = point.load()
        except Exception as exc:  # a broken plug-in must not stop the others
            _BROKEN[point.name] = f"{point.value} could not be loaded ({type(exc).__name__}: {exc})"
            continue
        if getattr(family, "name", None) != point.name:
            _BROKEN[point.name] = (f"{point.value} is published as '{point.name}' but calls itself "
                                   f"'{getattr(family, 'name', None)}'")
            continue
        _REGISTRY[point.name] = complete(family)


def refresh() -> None:
    """Look for installed families again (after a package was installed into a running
    process's path); families registered in this process stay."""
    global _discovered
    _discovered = False
    _BROKEN.clear()
    _discover()
    for listener in _listeners:
        listener()


def register(family: GameFamily) -> GameFamily:
    """Make ``family`` playable in this process: rulesets with ``family: <its name>`` now
    load and play here (a worker process of ``simulate --jobs`` does not see it: publish
    the family under the entry-point group for that). Registering a family again under
    the same name replaces it."""
    _discover()
    family = complete(family)
    _REGISTRY[family.name] = family
    _RUNTIME.add(family.name)
    _BROKEN.pop(family.name, None)
    for listener in _listeners:
        listener()
    return family


def unregister(name: str) -> None:
    """Forget the family registered as ``name`` (for tests of plug-in families)."""
    _REGISTRY.pop(name, None)
    _RUNTIME.discard(name)
    for listener in _listeners:
        listener()


def on_change(listener: Any) -> None:
    """Call ``listener()`` whenever the set of families changes (caches of the schema)."""
    _listeners.append(listener)


def get(name: str) -> GameFamily | None:
    _discover()
    return _REGISTRY.get(name)


def why_missing(name: str) -> str | None:
    """Why an installed family of that name is not available (it failed to load), or None."""
    _discover()
    return _BROKEN.get(name)


def is_installed(name: str) -> bool:
    """Whether the family ``name`` is found through its entry point (so every process
    finds it), not only registered in this process."""
    _discover()
    return name in _REGISTRY and name not in _RUNTIME


def names() -> list[str]:
    _discover()
    return list(_REGISTRY)


def all_families() -> list[GameFamily]:
    _discover()
    return list(_REGISTRY.values())


def view(family: GameFamily, kind: str) -> Any | None:
    """The table view of ``kind`` ("terminal" or "web") that ``family`` names in its
    ``views`` ("package.module:Name"), imported now; None when it names none."""
    target = family.views.get(kind)
    if target is None:
        return None
    if not isinstance(target, str):
        return target  # a family may hand over the class itself
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
