"""A third family is cheap: the toy "high card" family of toy_family.py registers
through the public registry and is validated, played through the driver loop,
recorded and replayed, simulated, compared and explained, with no change to the core,
from the library and from the command line (its table gets the generic view)."""

from __future__ import annotations

import json

import pytest

import toy_family
from cardrules.interpreter import families, load_ruleset
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.explain import explain
from cardrules.interpreter.record import replay, save_record
from cardrules.interpreter.simulate import run_games, statistics

RULESET = """\
family: high-card
name: high-card-toy
players: {min: 2, max: 4}
deal: {hand_size: [3, 5, 3]}
high_card: {points: "round * 2"}
winner: highest
"""


@pytest.fixture
def toy(tmp_path):
    families.register(toy_family.FAMILY)
    path = tmp_path / "toy.yaml"
    path.write_text(RULESET)
    yield path
    families.unregister("high-card")


def test_the_toy_family_plays_records_replays_and_explains(toy, tmp_path):
    rules = load_ruleset(toy)
    assert rules.family is toy_family.FAMILY
    state = play_bots(rules, ["bot", "random", "random"], seed=4, ruleset_ref=str(toy))
    assert state.is_over and len([e for e in state.events if e["event"] == "take"]) == 3 + 5 + 3
    assert sum(state.totals) == 3 * 2 + 5 * 4 + 3 * 6  # every trick scores round * 2
    record = tmp_path / "game.jsonl"
    save_record(state, record)
    result = replay(record)
    assert result.complete and result.state.totals == state.totals
    text = explain(rules)
    assert "highest rank takes the trick" in text and "`round * 2`" in text


def test_the_toy_family_simulates_and_compares(toy):
    rules = load_ruleset(toy)
    results = run_games(str(toy), ["bot", "random"], games=6, seed=1)
    stats = statistics(results, ["bot", "random"], rules)
    assert stats["games"] == 6 and stats["high_card"] == {"rounds": 18}
    assert all(sum(r.totals) == 44 for r in results)  # 3, 5 and 3 tricks scoring 2, 4 and 6


def test_the_toy_family_from_the_command_line(toy, run_cli, tmp_path):
    assert run_cli("validate", str(toy)).exit_code == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULESET.replace("points:", "pionts:"))
    result = run_cli("validate", str(bad))
    assert result.exit_code == 1 and "did you mean 'points'" in result.output
    record = tmp_path / "g.jsonl"
    result = run_cli("play", str(toy), "--seats", "bot,random", "--seed", "2", "--record", str(record))
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert run_cli("replay", str(record)).exit_code == 0
    simulated = run_cli("simulate", str(toy), "--games", "4", "--json")
    assert json.loads(simulated.output)["games"] == 4
    assert "high-card" in run_cli("schema").output


def test_an_unregistered_family_is_refused_clearly(tmp_path):
    path = tmp_path / "toy.yaml"
    path.write_text(RULESET)
    with pytest.raises(Exception) as refused:
        load_ruleset(path)
    assert "high-card" in str(refused.value) and "trick-taking" in str(refused.value)
