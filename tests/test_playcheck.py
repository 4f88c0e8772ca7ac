"""`validate` plays before it says ok: rulesets whose games cannot be played are
reported at the rule involved, with the situation; every bundled ruleset and example
house rule plays cleanly; --no-play skips the games."""

from __future__ import annotations

import re

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.errors import RulesetError
from cardrules.interpreter.playcheck import check_by_playing

from helpers import DATA

UNPLAYABLE = sorted((DATA / "unplayable").glob("*.yaml"))


@pytest.mark.parametrize("path", UNPLAYABLE, ids=lambda p: p.stem)
def test_an_unplayable_ruleset_is_reported_at_the_rule_involved(run_cli, path):
    expect = re.match(r"# expect: (\S+): (.*)", path.read_text().splitlines()[0])
    assert expect, "the first line says what validate must report"
    where, message = expect.groups()
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert message in result.output
    if where == "static":  # found without playing: the ruleset does not even load
        with pytest.raises(RulesetError):
            load_ruleset(path)
    else:
        assert f"{path.name}:{where}: " in result.output
        # the situation is named: the game's seed, or the round of the value worked out
        assert "seed" in result.output or "after the bids" in result.output or \
            re.search(r"with \d players, round \d+: ", result.output)


def test_play_problems_come_from_the_library_too():
    report = check_by_playing(load_ruleset(DATA / "unplayable" / "scoring-divides-by-zero.yaml"), games=1)
    assert report.games == 0 and len(report.problems) == 1
    assert report.problems[0].kind == "play" and "division by zero" in report.problems[0].message


@pytest.mark.parametrize("path", sorted((DATA / "good").glob("*.yaml")), ids=lambda p: p.stem)
def test_the_example_house_rules_play_cleanly(run_cli, path):
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output
    assert "games played" in result.output


def test_no_play_skips_the_games(run_cli):
    result = run_cli("validate", "--no-play", str(DATA / "unplayable" / "scoring-divides-by-zero.yaml"))
    assert result.exit_code == 0 and "games played" not in result.output


def test_a_bid_dead_end_that_needs_counter_values_is_a_warning(tmp_path, run_cli):
    # blackout-zero without its waiver: a dealer who has never bid zero must bid zero in the
    # last deal, but the hook forbids it when the others' bids total the one trick
    path = tmp_path / "no-waiver.yaml"
    path.write_text("extends: blackout-zero\nname: no-waiver\nplayers: {min: 3, max: 4}\nbidding:\n"
                    "  restrictions:\n"
                    "    - {rule: \"not (is_last and sum(bids) + bid == hand_size)\", message: hook}\n"
                    "    - {rule: \"not (is_last_round and zero_bids == 0 and bid != 0)\", message: zero}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.output.splitlines() if "warning" in line)
    assert "no-waiver.yaml:6:" in warning and "leave the dealer no legal bid" in warning
    assert "`zero_bids` 0" in warning and "after the bids [1, 0]" in warning
    assert result.output.count("warning:") == 1  # once per rule, not per player count
    clean = run_cli("validate", "blackout-zero")
    assert clean.exit_code == 0 and "warning" not in clean.output
