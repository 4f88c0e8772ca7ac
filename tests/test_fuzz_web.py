"""The hostile web client in small (benchmarks/fuzz_web.py runs it at full size by hand):
a real `cardrules serve` takes every kind of attack, and a restart on room files
damaged in every way, and still answers a normal client at once, logs no traceback and
loses no file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # started first in a parallel run (tests/conftest.py)

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_web.py"


def test_the_hostile_web_client_finds_nothing(tmp_path):
    run = subprocess.run([sys.executable, str(SCRIPT), "--size", "0.02", "--restarts", "1", "--head-timeout", "0.5",
                          "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.stdout.strip(), run.stderr[-2000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["findings"] == []
    assert set(figures["outcomes"]) == {"partial heads", "validate flood", "YAML bombs", "lone surrogates",
                                        "bad bodies", "bad frames", "bad messages", "message flood"}
    assert figures["outcomes"]["partial heads"] == {"closed with 408": 2 * 16}
    assert figures["corrupted"] >= 2 and figures["rejected"] >= 1 and figures["brought_back_lines"] >= 1
    assert figures["normal_ms"]["max"] < 1000
    assert run.returncode == 0
