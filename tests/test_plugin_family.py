"""A third family from a package of its own: tests/data/plugin (its own pyproject.toml
with a ``cardrules.families`` entry point) is built and installed into a folder of the
test's, and with that folder on the path the `cardrules` command validates, plays,
records, replays, simulates in worker processes, explains and serves its rulesets, with
no line of cardrules changed and no registration by hand. Nothing is downloaded: pip
builds it with the setuptools and wheel already installed."""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardrules.interpreter import families
from cardrules.interpreter.errors import EvaluationError, ExpressionError, Problem, RecordError, RulesetError

from helpers import DATA

RULESET = """\
family: high-card
name: high-card-toy
players: {min: 2, max: 4}
deal: {hand_size: [3, 5, 3]}
high_card: {points: "round * 2"}
winner: highest
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The plugin installed into a folder of its own (as `pip install --target` does)."""
    root = tmp_path_factory.mktemp("plugin")
    source = root / "src"
    shutil.copytree(DATA / "plugin", source)  # the build writes beside its sources: not into the repo
    target = root / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                           "--no-build-isolation", "--target", str(target), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (target / "cardrules_highcard").is_dir()
    return target


@pytest.fixture
def installed(site, monkeypatch):
    """This process with the plugin's folder on its path (and the processes it starts,
    such as the server's upload checkers): the registry finds it."""
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))
    families.refresh()
    yield
    monkeypatch.undo()
    sys.modules.pop("cardrules_highcard", None)
    families.unregister("high-card")
    families.refresh()


def cardrules(site: Path, *args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`cardrules ARGS` as a separate process, with the plugin's folder on its path."""
    env = dict(os.environ, PYTHONPATH=str(site), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "cardrules", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


def test_the_installed_family_plays_from_the_command_line(site, tmp_path):
    toy = tmp_path / "toy.yaml"
    toy.write_text(RULESET)
    done = cardrules(site, "validate", str(toy), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "high-card" in cardrules(site, "schema", cwd=tmp_path).stdout
    record = tmp_path / "g.jsonl"
    done = cardrules(site, "play", str(toy), "--seats", "bot,random", "--seed", "2", "--record", str(record),
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Game over." in done.stdout
    done = cardrules(site, "replay", str(record), cwd=tmp_path)
    assert done.returncode == 0 and ": ok," in done.stdout, done.stdout + done.stderr
    done = cardrules(site, "simulate", str(toy), "--games", "6", "--jobs", "2", "--seats", "bot,random",
                     "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["games"] == 6 and figures["high_card"] == {"rounds": 18}
    done = cardrules(site, "explain", str(toy), cwd=tmp_path)
    assert done.returncode == 0 and "highest rank takes the trick" in done.stdout


def test_without_the_package_the_family_is_refused_clearly(tmp_path):
    toy = tmp_path / "toy.yaml"
    toy.write_text(RULESET)
    done = subprocess.run([sys.executable, "-m", "cardrules", "validate", str(toy)], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 1
    assert "no game family 'high-card' is installed" in done.stdout
    assert "'cardrules.families' entry point" in done.stdout and "Traceback" not in done.stderr


def test_the_installed_family_plays_in_the_library_and_in_worker_processes(installed, tmp_path):
    from cardrules.interpreter import load_ruleset
    from cardrules.interpreter.driver import play_bots
    from cardrules.interpreter.record import replay, save_record
    from cardrules.interpreter.simulate import run_games

    toy = tmp_path / "toy.yaml"
    toy.write_text(RULESET)
    rules = load_ruleset(toy)
    assert families.is_installed("high-card") and rules.family.name == "high-card"
    state = play_bots(rules, ["bot", "random", "random"], seed=4, ruleset_ref=str(toy))
    assert sum(state.totals) == 3 * 2 + 5 * 4 + 3 * 6  # every trick scores round * 2
    record = tmp_path / "game.jsonl"
    save_record(state, record)
    assert replay(record).state.totals == state.totals
    results = run_games(str(toy), ["bot", "random"], games=4, seed=1, jobs=2)
    assert len(results) == 4 and all(sum(r.totals) == 44 for r in results)


def test_the_installed_family_is_served(installed, tmp_path):
    from web_helpers import create, hidden_leaks, play_to_the_end, replayed, server

    rooms, client = server(tmp_path)
    with client:
        made = create(client, yaml=RULESET, seats=["human", "bot", "random"])
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as watcher:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            ann.send_json({"type": "start"})
            watcher.send_json({"type": "join", "room": "friday", "name": "Cy"})
            seen: dict = {}
            last = play_to_the_end({0: ann, "watcher": watcher}, random.Random(2), seen)
    assert last[0]["over"]
    game = replayed(client, last[0], tmp_path)
    assert hidden_leaks(seen[0], 0, game) == [] and hidden_leaks(seen["watcher"], None, game) == []
    assert any("lay" in line for m in seen[0] if m["type"] == "table" for line in m["log"])


def test_a_family_registered_in_one_process_only_is_refused_for_workers(site, tmp_path, monkeypatch):
    from cardrules.interpreter.simulate import FamilyNotInstalled, run_games

    monkeypatch.syspath_prepend(str(site))
    import cardrules_highcard

    families.register(cardrules_highcard.FAMILY)  # by hand: not installed, so workers cannot see it
    try:
        toy = tmp_path / "toy.yaml"
        toy.write_text(RULESET)
        assert len(run_games(str(toy), ["bot", "random"], games=2, seed=1, jobs=1)) == 2
        with pytest.raises(FamilyNotInstalled, match="registered in this process only"):
            run_games(str(toy), ["bot", "random"], games=2, seed=1, jobs=2)
    finally:
        families.unregister("high-card")
        sys.modules.pop("cardrules_highcard", None)


def test_every_error_the_core_raises_survives_pickling():
    problem = Problem("f.yaml", 3, 4, "bad", "schema", "  x: 1", 2)
    for error in (RulesetError([problem, problem]), ExpressionError("ends too early", 4, 9),
                  EvaluationError("divided by zero", ("scoring", "points")), RecordError("bad line", 7)):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and back.__dict__ == error.__dict__
    assert pickle.loads(pickle.dumps(RulesetError([problem]))).problems == [problem]


def test_the_installed_family_passes_the_shipped_kit(installed, tmp_path):
    """What a plug-in's own test suite runs: cardrules.testing.check_family on its ruleset."""
    from cardrules.testing import check_family

    toy = tmp_path / "toy.yaml"
    toy.write_text(RULESET)
    check_family(toy, tmp_dir=tmp_path)  # every player count, two seeds
