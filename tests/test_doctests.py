"""The `>>>` examples in the package's docstrings run and are right.  Only modules
that have examples are collected (a module without any would pass for nothing)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardrules


OPTIONAL = {"cardrules.openspiel", "cardrules.pettingzoo", "cardrules.pettingzoo_env"}


def _modules_with_examples() -> list[str]:
    names = ["cardrules"] + [m.name for m in pkgutil.walk_packages(cardrules.__path__, "cardrules.")
                             if not m.name.endswith("__main__")]
    found = []
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            if name in OPTIONAL:  # an adapter whose toolkit (an extra) is not installed
                continue
            raise
        if any(test.examples for test in doctest.DocTestFinder().find(module)):
            found.append(name)
    return found


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    assert "cardrules.interpreter.game" in MODULES and "cardrules.interpreter.families" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
