"""The `>>>` examples in the public modules' docstrings run and are right."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardrules.interpreter

MODULES = ["cardrules.interpreter"] + [
    f"cardrules.interpreter.{m.name}" for m in pkgutil.iter_modules(cardrules.interpreter.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
