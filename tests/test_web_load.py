"""The loopback load test in small: a real `cardrules serve` (uvicorn) and 5 rooms of 4
scripted WebSocket players playing whole games at once (benchmarks/load.py runs 50)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"


def test_five_rooms_play_whole_games_at_once_with_no_error_and_no_lost_game(tmp_path):
    run = subprocess.run([sys.executable, str(SCRIPT), "--rooms", "5", "--timeout", "90", "--json"],
                         capture_output=True, text=True, timeout=150, cwd=tmp_path)
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0, figures["error_lines"]
    assert figures["lost_games"] == 0
    assert figures["moves"] >= 5 * 2 * (4 + 5 + 4)  # every seat bid and played in both rounds of every room
    assert run.returncode == 0
