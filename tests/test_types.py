"""The type checks the project keeps: mypy --strict on the interpreter (the rules, the
families, the engine), and mypy on everything else that ships (cli, web, narration).
Run on the source tree as installed under its package name, so what is checked is
what users import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # started first in a parallel run (tests/conftest.py)

pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")


def _mypy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "cardrules").symlink_to(ROOT, target_is_directory=True)
    env = {**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-error-summary", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_the_interpreter_passes_mypy_strict(tmp_path):
    result = _mypy(tmp_path, "--strict", "-p", "cardrules.interpreter", "-m", "cardrules.testing")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_command_line_the_web_and_the_narration_pass_mypy(tmp_path):
    result = _mypy(tmp_path, "-p", "cardrules.cli", "-p", "cardrules.web", "-p", "cardrules.narration")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_example_plug_in_passes_mypy_strict_against_the_protocol(tmp_path):
    """tests/data/plugin's family object is typed ``FAMILY: GameFamily``: mypy holds it
    to the protocol as an outside package would be held."""
    (tmp_path / "cardrules_highcard").symlink_to(ROOT / "tests" / "data" / "plugin" / "cardrules_highcard",
                                                 target_is_directory=True)
    result = _mypy(tmp_path, "--strict", "-p", "cardrules_highcard")
    assert result.returncode == 0, result.stdout + result.stderr
