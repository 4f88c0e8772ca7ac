"""A file that validated keeps validating (docs/ruleset-language.md, "Compatibility"): a
check added later warns first, and play refuses only the player counts and modes it
finds cannot be played, with its reason; records and saves of such games replay.

The corpus, tests/data/compat/ (written from git history by scripts/compat_corpus.py
and committed, so that the tests need no history), holds earlier versions of the bundled
rulesets, each beside the same commit's versions of what it extends (read with those,
and with today's), the earlier good examples, and the whole ruleset files the docs have
shown.  With today's good examples
and tests/data/partly-playable (two files that validated before a check was added),
every one must load without a problem; warnings are allowed.  Loading is `validate
--no-play`: the static checks and the checks with numbers, for every player count and
mode (the games are the bundled rulesets' and the good examples' own tests).
"""

from __future__ import annotations

import json
import re

import pytest

from cardrules.interpreter import loader
from cardrules.interpreter.errors import RulesetError, UnplayableError
from cardrules.interpreter.game import new_game
from cardrules.interpreter.loader import load_document
from cardrules.interpreter.ruleset import build_ruleset

from helpers import DATA

COMPAT = DATA / "compat"
PARTLY = sorted((DATA / "partly-playable").glob("*.yaml"))


def corpus():
    """(file, the folder its `extends: NAME` is read from: None for the bundled one).  An
    earlier bundled ruleset is read with what it extended then, and with today's bundled
    rulesets, as an author's copy of it is."""
    for folder in sorted((COMPAT / "rulesets").iterdir()):
        for path in sorted(folder.glob("*.yaml")):
            yield path, folder
            yield path, None
    for path in sorted(COMPAT.glob("good/*/*.yaml")) + sorted(COMPAT.glob("docs/*.yaml")):
        yield path, None
    for path in sorted((DATA / "good").glob("*.yaml")) + PARTLY:
        yield path, None


def test_every_earlier_file_still_validates(monkeypatch):
    bundled = loader.bundled_dir
    failed = []
    files = list(corpus())
    for path, folder in files:
        monkeypatch.setattr(loader, "bundled_dir", bundled if folder is None else (lambda folder=folder: folder))
        try:
            build_ruleset(load_document(path))
        except RulesetError as exc:
            failed.append(f"{path.relative_to(DATA)} (extending {'today' if folder is None else 'then'}): {exc}")
    assert failed == []
    kept = [p for p in COMPAT.rglob("*") if p.is_file()]
    assert len(kept) >= 30 and sum(p.stat().st_size for p in kept) < 2 << 20  # modest, as the script writes it


def _expected(path):
    text = path.read_text()
    warns = re.search(r"^# warns: (\S+?):(\d+:\d+): (.*)$", text, re.M).groups()
    refused = []
    for item in re.search(r"^# refuses: (.*)$", text, re.M).group(1).split(","):
        players, _, mode = item.strip().partition(" ")
        refused.append((int(players), mode or None))
    return warns, refused


@pytest.mark.parametrize("path", PARTLY, ids=lambda p: p.stem)
def test_a_check_added_later_warns_and_play_refuses_what_it_found(run_cli, path, monkeypatch):
    """Two files that validated before a check was added failed once it was: a mode
    playing round 12 where with 6 players the game has 8 rounds, and a contract that
    two players' hands cannot hold.  Each validates, with one warning naming the counts
    (and mode) at the rule, and is played there; play and simulate refuse exactly those."""
    from cardrules.interpreter import playcheck

    monkeypatch.setattr(playcheck, "SEARCH_STEPS", 1000)  # (the bidding walk is not what is tested)
    (where, place, words), refused = _expected(path)
    result = run_cli("validate", "--games", "1", str(path))
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 1, warnings
    assert re.search(rf"{re.escape(where)}:{place}: warning: {re.escape(words)} \(play refuses it there\): ",
                     warnings[0]), warnings
    assert f"{path.name}: ok (" in result.output
    data = json.loads(run_cli("validate", "--json", "--no-play", str(path)).output)["files"][0]
    assert [(r["players"], r["mode"]) for r in data["refused"]] == refused
    rules = build_ruleset(load_document(path))
    for players in range(rules.min_players, rules.max_players + 1):
        for mode in [None, *rules.modes]:
            mode_args = ["--mode", mode] if mode else []
            seats = ",".join(["bot"] * players)
            if (players, mode) in refused:
                for command in ("play", "simulate"):
                    refusal = run_cli(command, str(path), "--seats", seats, *mode_args, "--quiet")
                    assert refusal.exit_code == 2, refusal.output
                    assert f"{rules.name} cannot be played with {players} players" in refusal.output
                    assert "Traceback" not in refusal.output
                with pytest.raises(UnplayableError, match="cannot be played"):
                    new_game(rules, players, 1, mode=mode)
            else:
                assert rules.refusal(players, mode) is None


def test_a_game_of_a_refused_count_an_earlier_release_played_still_replays(run_cli, tmp_path):
    """A record or a save of a game with 2 players, made before the contract check
    refused new ones, replays and resumes: what could be set up then still can."""
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.driver import play_out
    from cardrules.interpreter.record import save_record
    from cardrules.interpreter.saves import SaveWriter, new_header, read_save, restore

    path = DATA / "partly-playable" / "best-family-eight-cards.yaml"
    rules = build_ruleset(load_document(path))
    assert rules.refusal(2) is not None and rules.refusal(2, new=False) is None
    state = new_game(rules, 2, 3, ["ann", "bob"], None, str(path), replaying=True)
    play_out(state, make_policies(rules, ["bot", "bot"], 3))
    assert state.is_over
    save_record(state, tmp_path / "old.jsonl")
    result = run_cli("replay", str(tmp_path / "old.jsonl"))
    assert result.exit_code == 0, result.output
    SaveWriter(tmp_path / "old-save.jsonl", new_header(rules, str(path), 3, None, ["bot", "bot"], ["a", "b"])).close()
    restored, _, _ = restore(read_save(tmp_path / "old-save.jsonl"))
    assert restored.players == 2


def test_a_room_is_not_made_where_play_refuses(tmp_path):
    from cardrules.web.rooms import Limits, RoomError, Rooms

    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    text = (DATA / "partly-playable" / "kachufool-first-twelve.yaml").read_text()
    with pytest.raises(RoomError, match="cannot be played with 6 players in mode 'first-twelve'"):
        rooms.create(room="r", name="Ann", yaml_text=text, mode="first-twelve", seats=["human"] + ["bot"] * 5)
    room, _ = rooms.create(room="s", name="Ann", yaml_text=text, mode="first-twelve", seats=["human", "bot", "bot"])
    assert room.players == 3
