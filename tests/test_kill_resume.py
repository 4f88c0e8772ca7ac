"""A game killed at any moment resumes exactly: an all-bot game saving as it goes is
killed (SIGKILL, no chance to clean up) at random points; resuming the save finishes
the game with the same final totals as the game played straight through."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest


def cardrules(*args, env):
    return subprocess.run([sys.executable, "-m", "cardrules", *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_game_resumes_to_the_same_end(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    game = ["shanghai-isra", "--seats", "bot,bot,random,bot,bot,random", "--seed", "11"]
    straight = tmp_path / "straight.jsonl"
    start = time.monotonic()
    first = tmp_path / "first-save.jsonl"  # the game played straight through, saving as it goes: how long it takes
    assert cardrules("play", *game, "--quiet", "--record", str(straight), "--save", str(first), env=env).returncode == 0
    took = time.monotonic() - start
    want = json.loads(straight.read_text().splitlines()[-1])["totals"]
    moves = first.read_bytes().count(b"\n")  # the lines the whole game's save holds
    rng = random.Random(4)
    killed_mid_game = 0
    outcomes = []
    for trial in range(6):
        save, record = tmp_path / f"save-{trial}.jsonl", tmp_path / f"end-{trial}.jsonl"
        proc = subprocess.Popen([sys.executable, "-m", "cardrules", "play", *game, "--quiet", "--save", str(save)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        # somewhere in the game: once the save holds a random share of the moves the whole
        # game saves (counted in the save itself, so the machine's speed does not matter)
        wanted = int(moves * rng.uniform(0.05, 0.6))
        deadline = time.monotonic() + 60 + 2 * took
        while proc.poll() is None and time.monotonic() < deadline:
            if save.exists() and save.read_bytes().count(b"\n") >= wanted:
                break
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        if not save.exists():  # killed before the save was made: nothing to resume
            outcomes.append("no save")
            continue
        resumed = cardrules("resume", str(save), "--record", str(record), env=env)
        assert resumed.returncode == 0, resumed.stderr
        if "That game is over" in resumed.stdout:
            outcomes.append("over")
            continue
        killed_mid_game += 1
        assert json.loads(record.read_text().splitlines()[-1])["totals"] == want
    assert killed_mid_game >= 2, outcomes
