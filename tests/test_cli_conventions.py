"""What holds on every command: --json, NO_COLOR and --color/--no-color, examples in
--help, a one-line help not cut mid-phrase, a bare `cardrules`, Ctrl-C; and the saves
list.  Run as a user runs the CLI: click's CliRunner, and a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from helpers import DATA

from cardrules.cli import rules as rules_module
from cardrules.cli.main import COMMANDS, color_setting, main

REPORTING = ["list", "show", "validate", "explain", "replay", "simulate", "compare", "saves"]


@pytest.fixture
def saves_dir(tmp_path, monkeypatch):
    folder = tmp_path / "saves"
    monkeypatch.setenv("CARDRULES_SAVES", str(folder))
    return folder


def invoke(*args, input=None, env=None, color=False):
    return CliRunner().invoke(main, list(args), input=input, env=env, color=color, catch_exceptions=False)


# --- a bare `cardrules`, --help -------------------------------------------------------
def test_bare_cardrules_prints_the_help_and_exits_0():
    result = subprocess.run([sys.executable, "-m", "cardrules"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: cardrules") and "Commands:" in result.stdout
    assert invoke().exit_code == 0


def test_the_one_line_helps_are_whole_phrases():
    text = invoke("--help").output
    listed = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert {line.split()[0] for line in listed} == set(COMMANDS)
    for line in listed:
        assert not line.rstrip().endswith("..."), line
        assert len(line) <= 80, line


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_has_examples(command):
    result = invoke(command, "--help")
    assert result.exit_code == 0
    examples = result.output.split("Examples:\n", 1)[1]
    assert re.search(rf"^ +cardrules {command}\b", examples, re.M), result.output


# --- --json ---------------------------------------------------------------------------
def test_every_reporting_command_has_json():
    for command in REPORTING:
        assert "--json" in invoke(command, "--help").output, command


def test_json_outputs_parse(tmp_path, saves_dir):
    record = tmp_path / "game.jsonl"
    assert invoke("play", "oh-shit", "--seats", "bot,bot,bot", "--seed", "1", "--quiet", "--record",
                  str(record)).exit_code == 0
    runs = {
        "list": ["list", "--json"],
        "show": ["show", "oh-hell", "--json"],
        "validate": ["validate", "--no-play", "--json", "oh-hell"],
        "explain": ["explain", "shanghai-isra", "--json"],
        "replay": ["replay", str(record), "--json"],
        "simulate": ["simulate", "oh-shit", "--games", "2", "--quiet", "--json"],
        "compare": ["compare", "oh-hell", "oh-hell-penalty", "--games", "2", "--quiet", "--json"],
        "saves": ["saves", "--json"],
    }
    assert set(runs) == set(REPORTING)
    data = {}
    for name, args in runs.items():
        result = invoke(*args)
        assert result.exit_code == 0, (args, result.output)
        data[name] = json.loads(result.output)
    assert {"name": "oh-hell", "family": "trick-taking", "players": [3, 7], "valid": True}.items() \
        <= next(r for r in data["list"] if r["name"] == "oh-hell").items()
    assert data["show"]["name"] == "oh-hell"
    assert data["validate"]["valid"] is True
    explained = data["explain"]
    assert explained["name"] == "shanghai-isra" and explained["markdown"].startswith("# ")
    assert explained["sections"][0]["level"] == 1 and all(s["heading"] for s in explained["sections"])
    assert data["replay"]["valid"] is True and data["saves"] == []


def test_format_json_stays_a_synonym():
    assert json.loads(invoke("validate", "--no-play", "--format", "json", "oh-hell").output) == \
        json.loads(invoke("validate", "--no-play", "--json", "oh-hell").output)
    assert json.loads(invoke("show", "--format", "json", "oh-hell").output) == \
        json.loads(invoke("show", "--json", "oh-hell").output)


def test_a_failing_validate_still_prints_json():
    result = invoke("validate", "--no-play", "--json", str(DATA / "bad" / "misspelt-key.yaml"))
    assert result.exit_code == 1 and json.loads(result.output)["valid"] is False


# --- colour -----------------------------------------------------------------------------
RED_CARDS = ["play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast"]  # a hand with hearts


def play_output(*options, env=None, color=True):
    """The table at the start of a game, as a terminal (colour=True) would show it."""
    return invoke(*options, *RED_CARDS, input="quit\n", env=env, color=color).output


def test_a_terminal_gets_red_suits(saves_dir):
    assert "\x1b[31m" in play_output()


def test_no_color_turns_colour_off(saves_dir):
    assert "\x1b" not in play_output(env={"NO_COLOR": "1"})
    assert "\x1b" not in play_output(env={"NO_COLOR": "anything"})
    assert "\x1b[31m" in play_output(env={"NO_COLOR": ""})  # only a non-empty value counts


def test_color_options_override(saves_dir):
    assert "\x1b[31m" in play_output("--color", env={"NO_COLOR": "1"})
    assert "\x1b[31m" in play_output("--color", color=False)  # even into a pipe
    assert "\x1b" not in play_output("--no-color")
    assert "\x1b" not in invoke(*RED_CARDS, "--no-color", input="quit\n", color=True).output  # after the command
    assert "\x1b[31m" in invoke(*RED_CARDS, "--color", input="quit\n", env={"NO_COLOR": "1"}).output
    assert "\x1b[31m" in invoke("--no-color", *RED_CARDS, "--color", input="quit\n").output  # the nearer wins


def test_no_color_in_a_real_process(tmp_path):
    env = {**os.environ, "NO_COLOR": "1", "CARDRULES_SAVES": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "cardrules", "--color", "play", *RED_CARDS[1:]], input="quit\n",
                            capture_output=True, text=True, env=env, timeout=120)
    assert "\x1b[31m" in result.stdout  # --color wins over NO_COLOR
    env["NO_COLOR"] = "1"
    result = subprocess.run([sys.executable, "-m", "cardrules", "play", *RED_CARDS[1:]], input="quit\n",
                            capture_output=True, text=True, env=env, timeout=120)
    assert "\x1b" not in result.stdout and result.returncode == 0


def test_color_setting():
    assert color_setting(None, {}) is None
    assert color_setting(None, {"NO_COLOR": "1"}) is False
    assert color_setting(True, {"NO_COLOR": "1"}) is True
    assert color_setting(False, {}) is False


# --- Ctrl-C ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["list", "validate", "simulate"])
def test_ctrl_c_exits_130_with_one_short_line(monkeypatch, command):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    target = {"list": (rules_module, "bundled_names"), "validate": (rules_module, "build_ruleset"),
              "simulate": (sys.modules["cardrules.cli.stats"], "iter_games")}[command]
    monkeypatch.setattr(*target, interrupted)
    args = {"list": ["list"], "validate": ["validate", "oh-hell"], "simulate": ["simulate", "oh-shit", "--quiet"]}
    result = CliRunner().invoke(main, args[command])
    assert result.exit_code == 130
    assert result.output == "cardrules: interrupted\n"


def test_ctrl_c_at_a_prompt_exits_130(monkeypatch, saves_dir):
    import click

    def ctrl_c(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None  # what click.prompt does

    monkeypatch.setattr(click, "prompt", ctrl_c)
    result = CliRunner().invoke(main, RED_CARDS)
    assert result.exit_code == 130
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("cardrules: interrupted; resume with: cardrules resume ")
    assert "Traceback" not in result.output and "Aborted" not in result.output
    assert len(list(saves_dir.glob("*.jsonl"))) == 1


# --- saves ----------------------------------------------------------------------------
def quit_a_game(*args):
    result = invoke("play", *args, "--fast", "--ascii", input="quit\n")
    assert result.exit_code == 0 and "Game saved" in result.output
    return result


def test_saves_lists_games_waiting(saves_dir):
    result = invoke("saves")
    assert result.exit_code == 0 and "No saved games in" in result.output
    quit_a_game("oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    quit_a_game("shanghai-isra", "--seats", "human,bot,random,bot", "--seed", "4")
    text = invoke("saves").output
    assert str(saves_dir) in text
    assert "oh-shit, seed 3; you, bot-1, bot-2; round 1 of 19; saved " in text
    assert "shanghai-isra, seed 4; you, bot-1, random-2, bot-3; round 1 of 7; saved " in text
    listed = json.loads(invoke("saves", "--json").output)
    assert [e["ruleset"] for e in listed] == ["shanghai-isra", "oh-shit"]  # the latest first
    assert listed[1]["names"] == ["you", "bot-1", "bot-2"] and listed[1]["seats"] == ["human", "bot", "bot"]
    assert listed[1]["round"] == 1 and listed[1]["resumable"] is True and listed[1]["saved"].endswith("+00:00")


def test_resume_without_a_file_resumes_the_latest(saves_dir):
    assert invoke("resume").exit_code == 2
    quit_a_game("oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    quit_a_game("oh-hell", "--seats", "human,bot,bot", "--seed", "5")
    older = saves_dir / "oh-shit-3.jsonl"
    os.utime(older, (older.stat().st_atime, older.stat().st_mtime + 100))  # played last
    result = invoke("resume", "--fast", input="quit\n")
    assert result.exit_code == 0
    assert f"(resuming {older})" in result.output and "Oh Shit (oh-shit), seed 3: resuming at round 1" in result.output


def test_a_finished_game_leaves_the_saves_list(saves_dir, tmp_path):
    from cardrules.interpreter.cards import NAMES

    quit_a_game("oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    assert len(json.loads(invoke("saves", "--json").output)) == 1
    answers = [str(b) for b in range(11)] + list(NAMES[:52])
    result = invoke("resume", "--fast", "--ascii", input="\n".join(answers * 130) + "\n")
    assert result.exit_code == 0 and "Game over." in result.output
    assert json.loads(invoke("saves", "--json").output) == []
    assert [p.name for p in (saves_dir / "finished").iterdir()] == ["oh-shit-3.jsonl"]  # kept, not deleted
    # a finished game saved where the user said stays there, and is not listed either
    mine = saves_dir / "mine.jsonl"
    elsewhere = tmp_path / "elsewhere.jsonl"
    for save in (mine, elsewhere):
        assert invoke("play", "oh-shit", "--seats", "bot,bot,bot", "--seed", "1", "--quiet",
                      "--save", str(save)).exit_code == 0
    assert elsewhere.exists() and not mine.exists() and (saves_dir / "finished" / "mine.jsonl").exists()
    assert json.loads(invoke("saves", "--json").output) == []


def test_a_finished_game_never_overwrites_an_earlier_one(saves_dir):
    saves_dir.mkdir()
    for _ in range(2):
        assert invoke("play", "oh-shit", "--seats", "bot,bot,bot", "--seed", "1", "--quiet",
                      "--save", str(saves_dir / "same.jsonl")).exit_code == 0
    assert sorted(p.name for p in (saves_dir / "finished").iterdir()) == ["same-2.jsonl", "same.jsonl"]


def test_resume_ignore_hash(saves_dir, tmp_path):
    ruleset = tmp_path / "house.yaml"
    ruleset.write_text("extends: oh-shit\nname: house\nscoring:\n  points: \"tricks\"\n")
    quit_a_game(str(ruleset), "--seats", "human,bot,bot", "--seed", "3")
    ruleset.write_text("extends: oh-shit\nname: house\nscoring:\n  points: \"2 * tricks\"\n")
    refused = invoke("resume", input="quit\n")
    assert refused.exit_code == 2 and "no saved game to resume" in refused.output
    listed = json.loads(invoke("saves", "--json").output)
    assert listed[0]["resumable"] is False and "has changed" in listed[0]["problem"]
    assert listed[0]["ruleset_changed"] is True and listed[0]["round"] == 1
    assert "its ruleset has changed since: `cardrules resume --ignore-hash`" in invoke("saves").output
    save = listed[0]["file"]
    refused = invoke("resume", save, input="quit\n")
    assert refused.exit_code == 1 and "--ignore-hash" in refused.output
    for args in ([save, "--ignore-hash"], ["--ignore-hash"]):
        result = invoke("resume", *args, "--fast", input="quit\n")
        assert result.exit_code == 0, result.output
        assert "the ruleset has changed since this game was saved" in result.output
        assert "resuming at round 1" in result.output


def test_saves_skips_what_is_not_a_save(saves_dir):
    saves_dir.mkdir()
    (saves_dir / "junk.jsonl").write_text("not json\n")
    (saves_dir / "notes.txt").write_text("hello")
    listed = json.loads(invoke("saves", "--json").output)
    assert len(listed) == 1 and listed[0]["resumable"] is False and "not a cardrules save" in listed[0]["problem"]
    assert "(cannot be resumed: " in invoke("saves").output
    assert invoke("resume").exit_code == 2
    assert invoke("resume", "--ignore-hash").exit_code == 2  # damaged, not merely changed


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_ctrl_c_in_a_real_process_with_workers_is_quiet():
    """Ctrl-C at a terminal signals the whole process group: the workers of --jobs too."""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "cardrules", "simulate", "oh-shit", "--games", "100000",
                             "--jobs", "2", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "cardrules: interrupted\n" and out == ""


def test_ctrl_c_while_bots_play_keeps_the_record(monkeypatch, tmp_path):
    games = sys.modules["cardrules.cli.table"]
    real = games.play_out

    def play_out(state, policies, on_action, on_event):
        def action(seat, move):
            on_action(seat, move)
            if len(state.events) > 20:
                raise KeyboardInterrupt
        real(state, policies, on_action=action, on_event=on_event)

    monkeypatch.setattr(games, "play_out", play_out)
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", "oh-shit", "--seats", "bot,bot,bot", "--seed", "1", "--record",
                                       str(record)])
    assert result.exit_code == 130
    assert result.output.strip().splitlines()[-1] == f"cardrules: interrupted; the game so far is in {record}"
    replayed = invoke("replay", str(record), "--json")
    assert json.loads(replayed.output)["complete"] is False


def test_simulate_and_compare_build_each_ruleset_once(monkeypatch):
    """The command checks the ruleset it is given and the games reuse that build (a
    build is the schema, the grammar and every expression: a third of a short run)."""
    from cardrules.interpreter import ruleset as ruleset_module
    from cardrules.interpreter import simulate as simulate_module

    built: list[str] = []
    real = ruleset_module.build_ruleset

    def counting(document, *args, **kwargs):
        rules = real(document, *args, **kwargs)
        built.append(rules.name)
        return rules

    monkeypatch.setattr(ruleset_module, "build_ruleset", counting)
    monkeypatch.setattr(sys.modules["cardrules.cli.common"], "build_ruleset", counting, raising=False)
    monkeypatch.setattr(simulate_module, "_RULES", {})
    assert invoke("simulate", "oh-shit", "--games", "3", "--quiet").exit_code == 0
    assert built == ["oh-shit"]
    built.clear()
    monkeypatch.setattr(simulate_module, "_RULES", {})
    assert invoke("compare", "oh-hell", "oh-shit", "--games", "2", "--quiet").exit_code == 0
    assert sorted(built) == ["oh-hell", "oh-shit"]
