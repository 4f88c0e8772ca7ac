"""Shared helpers for the test suite."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import settings
from click.testing import CliRunner

from cardrules.cli.main import main

# CI (CI=true, as .ci/run is run) draws the property tests' examples from a seed fixed by
# each test, so a run on a clean clone tests exactly what the same command tested here;
# a developer's run draws fresh examples each time and keeps exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A run started in the background of a non-interactive shell (`CI=true bash .ci/run &`)
# inherits Ctrl-C ignored, and so would every cardrules process the tests start: the tests
# of Ctrl-C would wait for an exit that never comes. Catch it again, as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    """The tests marked slow run first (in their order), the rest after: run in parallel
    (scripts/test gives each core a worker and hands tests out two at a time), the long
    ones then overlap at the start and the short ones fill in around them, instead of one
    worker finishing on a long test while the other waits. Every worker collects the same
    order, as pytest-xdist needs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _saves_in_tmp(tmp_path, monkeypatch):
    """Games with people save by default under XDG_DATA_HOME: keep that out of $HOME."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CARDRULES_SAVES", raising=False)  # it would win over XDG_DATA_HOME
    monkeypatch.delenv("NO_COLOR", raising=False)  # the colour tests set it themselves


@pytest.fixture
def run_cli():
    """Run `cardrules ARGS...` as a user would; returns the click Result."""

    def run(*args: str, input: str | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run


@pytest.fixture
def racing_clock(monkeypatch):
    """Every clock the engine could read jumps an hour a call: a machine at any load, or
    under a profiler, as seen from inside.  Nothing that judges a ruleset may notice."""
    import time

    now = [time.monotonic()]

    def racing() -> float:
        now[0] += 3600.0
        return now[0]

    for name in ("monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, name, racing)
    return racing
