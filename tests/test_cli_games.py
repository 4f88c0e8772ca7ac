"""`cardrules play`, `replay` and `simulate`, run as a user runs them, and golden
records: a fixed seed must produce exactly the same game, event for event.

Regenerate the golden files after an intended change of behaviour with
``CARDRULES_REGENERATE=1 python -m pytest tests/test_cli_games.py`` and review the diff.
"""

from __future__ import annotations

import json
import os

import pytest

from helpers import DATA, REPO

GOLDEN = REPO / "tests" / "golden"
GAMES = {
    "oh-shit-seed7-random.jsonl": ["play", "oh-shit", "--seats", "random,random,random,random", "--seed", "7"],
    "oh-hell-penalty-seed3-bots.jsonl": ["play", "oh-hell-penalty", "--seats", "bot,random,bot,random,bot",
                                         "--seed", "3"],
    "oh-heck-seed1-bots.jsonl": ["play", "oh-heck", "--seats", "bot,bot,bot,bot", "--seed", "1"],
    "shanghai-isra-seed3-bots.jsonl": ["play", "shanghai-isra", "--seats", "bot,bot,bot,bot", "--seed", "3"],
    "shanghai-pagat-seed5-mixed.jsonl": ["play", "shanghai-pagat", "--seats", "random,bot,random", "--seed", "5"],
    "shanghai-seed2-mixed.jsonl": ["play", "shanghai", "--seats", "bot,random,bot,bot,random", "--seed", "2"],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_records(run_cli, tmp_path, name):
    out = tmp_path / name
    result = run_cli(*GAMES[name], "--quiet", "--record", str(out))
    assert result.exit_code == 0, result.output
    if os.environ.get("CARDRULES_REGENERATE"):
        (GOLDEN / name).write_text(out.read_text())
    assert out.read_text() == (GOLDEN / name).read_text()
    replayed = run_cli("replay", str(GOLDEN / name))
    assert replayed.exit_code == 0 and ": ok," in replayed.output


def test_done_when_oh_shit_plays_19_rounds_and_replays(run_cli, tmp_path):
    record = tmp_path / "g.jsonl"
    result = run_cli("play", "oh-shit", "--seats", "random,random,random,random", "--seed", "7",
                     "--record", str(record))
    assert result.exit_code == 0
    assert result.output.count("Round ") == 19 and "Round 19 of 19: 10 cards" in result.output
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["hand_size"] for e in events if e["event"] == "deal"] == list(range(10, 0, -1)) + list(range(2, 11))
    replayed = run_cli("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    end = events[-1]
    assert f"totals: {', '.join(f'random-{i} {t}' for i, t in enumerate(end['totals']))}" in replayed.output


def tamper(src, dst, line_no, old, new):
    lines = src.read_text().splitlines()
    assert old in lines[line_no - 1], lines[line_no - 1]
    lines[line_no - 1] = lines[line_no - 1].replace(old, new)
    dst.write_text("\n".join(lines) + "\n")


def first_line(path, kind):
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if json.loads(line)["event"] == kind:
            return i, json.loads(line)
    raise AssertionError(kind)


def test_replay_names_the_first_bad_line(run_cli, tmp_path):
    golden = GOLDEN / "oh-shit-seed7-random.jsonl"
    bad = tmp_path / "bad.jsonl"
    n, trick = first_line(golden, "trick")
    tamper(golden, bad, n, f'"winner": {trick["winner"]}', f'"winner": {(trick["winner"] + 1) % 4}')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1
    assert f"bad.jsonl:{n}: \"winner\" is {(trick['winner'] + 1) % 4} but the rules give {trick['winner']}" \
        in result.output

    n, play = first_line(golden, "play")
    tamper(golden, bad, n, f'"card": "{play["card"]}"', '"card": "ZZ"')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and f"bad.jsonl:{n}: " in result.output and "'ZZ'" in result.output

    n, bid = first_line(golden, "bid")
    tamper(golden, bad, n, f'"seat": {bid["seat"]}', f'"seat": {(bid["seat"] + 1) % 4}')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and "acts out of turn" in result.output


def test_replay_reports_a_changed_ruleset(run_cli, tmp_path):
    golden = GOLDEN / "oh-shit-seed7-random.jsonl"
    bad = tmp_path / "old.jsonl"
    tamper(golden, bad, 1, '"ruleset_sha256": "', '"ruleset_sha256": "0')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and "has changed since this game was played" in result.output
    assert run_cli("replay", "--ignore-hash", str(bad)).exit_code == 0


def test_replay_of_an_unfinished_game_says_so(run_cli, tmp_path):
    lines = (GOLDEN / "oh-shit-seed7-random.jsonl").read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:40]) + "\n")
    result = run_cli("replay", str(short))
    assert result.exit_code == 0 and "not finished" in result.output


@pytest.mark.parametrize("content", ["", "not json\n", "[1, 2]\n", '{"event": "deal"}\n',
                                     '{"event": "game", "format": 1, "ruleset": "nope", "players": ["a"]}\n',
                                     '{"event": "game", "format": 9}\n'])
def test_replay_of_garbage_fails_cleanly(run_cli, tmp_path, content):
    path = tmp_path / "garbage.jsonl"
    path.write_text(content)
    result = run_cli("replay", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_replay_of_a_user_ruleset_file(run_cli, tmp_path):
    record = tmp_path / "house.jsonl"
    ruleset = DATA / "good" / "house-no-hook.yaml"
    result = run_cli("play", str(ruleset), "--seats", "bot,random,random", "--seed", "2", "--quiet",
                     "--record", str(record))
    assert result.exit_code == 0, result.output
    assert run_cli("replay", str(record)).exit_code == 0


def test_play_refuses_bad_seats_and_counts(run_cli):
    assert run_cli("play", "oh-shit", "--seats", "bot,robot,bot").exit_code == 2
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,bot,bot,bot")
    assert result.exit_code == 2 and "for 3 to 5 players" in result.output
    assert run_cli("play", "no-such-game").exit_code == 1


def test_a_human_seat_gets_reasons_and_can_finish(run_cli):
    # oh-hell-exact-only, 3 players: the human (seat 0) plays against two bots.  We feed
    # junk, an illegal bid and then always answer with whatever is first in the legal
    # list, by typing every card name; refusals must not end the game.
    from cardrules.interpreter.cards import NAMES

    # every prompt eats lines until one is legal: a bid in the bidding, a card in play
    cycle = [str(b) for b in range(11)] + list(NAMES[:52])
    answers = ["banana", "help", "bid 99"] + cycle * 130
    result = run_cli("play", "oh-hell-exact-only", "--seats", "human,bot,bot", "--seed", "4", "--ascii", "--fast",
                     input="\n".join(answers) + "\n")
    assert "is not a card" in result.output or "not a bid" in result.output
    assert "you may not bid 99: bids run from 0 to 10" in result.output
    assert "you do not hold" in result.output or "you must follow" in result.output
    assert "Game over." in result.output, result.output[-2000:]
    assert result.exit_code == 0


def test_a_human_can_quit_and_keep_the_record(run_cli, tmp_path):
    record = tmp_path / "partial.jsonl"
    result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "4", "--record", str(record),
                     "--fast", input="quit\n")
    assert result.exit_code == 0 and "Game saved. Resume it with: cardrules resume" in result.output
    assert json.loads(record.read_text().splitlines()[0])["event"] == "game"
    result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "4", "--fast", input="")  # EOF
    assert result.exit_code == 0 and "Traceback" not in result.output and "Game saved" in result.output


def play_then_quit(run_cli, save, moves, *extra):
    return run_cli("play", *extra, "--save", str(save), "--fast", "--ascii", input="\n".join(moves + ["quit"]) + "\n")


def test_quit_resume_and_finish_gives_the_same_game_as_playing_straight_through(run_cli, tmp_path):
    from cardrules.interpreter.cards import NAMES

    # --no-autoplay throughout: the scripted answers are read line by line, and a card
    # played for the person would shift which line each later prompt reads (that is
    # the script's doing, not the game's; autoplayed cards resume exactly: test_table.py)
    cycle = [str(b) for b in range(11)] + list(NAMES[:52])
    answers = cycle * 130
    straight = tmp_path / "straight.jsonl"
    result = run_cli("play", "oh-hell", "--seats", "human,bot,random", "--seed", "8", "--fast", "--ascii",
                     "--no-autoplay", "--save", str(tmp_path / "s0.jsonl"), "--record", str(straight), input="\n".join(answers) + "\n")
    assert result.exit_code == 0 and "Game over." in result.output
    # the same game, quitting twice on the way
    save = tmp_path / "s1.jsonl"
    first = play_then_quit(run_cli, save, answers[:40], "oh-hell", "--seats", "human,bot,random", "--seed", "8",
                           "--no-autoplay")
    assert "Game saved. Resume it with: cardrules resume" in first.output
    second = run_cli("resume", str(save), "--fast", "--ascii", "--no-autoplay", input="\n".join(answers[:300] + ["quit"]) + "\n")
    assert "resuming at round" in second.output and "Game saved" in second.output
    resumed = tmp_path / "resumed.jsonl"
    third = run_cli("resume", str(save), "--fast", "--ascii", "--no-autoplay", "--record", str(resumed),
                    input="\n".join(answers) + "\n")
    assert third.exit_code == 0 and "Game over." in third.output
    assert resumed.read_text() == straight.read_text()


def test_a_torn_last_line_loses_only_that_action(run_cli, tmp_path):
    save = tmp_path / "torn.jsonl"
    play_then_quit(run_cli, save, ["2", "1", "0"], "oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    text = save.read_text()
    save.write_text(text + '"play Q')  # killed while writing the next action
    result = run_cli("resume", str(save), "--fast", input="quit\n")
    assert result.exit_code == 0 and "was not kept" in result.output
    assert save.read_text() == text


@pytest.mark.parametrize("content, message", [
    ("", "is empty"),
    ("not json\n", "is not a cardrules save"),
    ('{"event": "game", "format": 1}\n', "use `cardrules replay`"),
    ('{"format": "cardrules-save", "version": 99}\n', "version 99"),
    ('{"format": "cardrules-save", "version": 1, "ruleset": "oh-shit", "seed": 1, "seats": ["human", "bot", "bot"], '
     '"names": ["you", "bot-1", "bot-2"], "ruleset_sha256": "x"}\n', "has changed since this game was saved"),
])
def test_damaged_or_foreign_saves_get_a_clear_error(run_cli, tmp_path, content, message):
    save = tmp_path / "bad.jsonl"
    save.write_text(content)
    result = run_cli("resume", str(save))
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_a_save_with_an_illegal_move_names_it(run_cli, tmp_path):
    save = tmp_path / "cheat.jsonl"
    play_then_quit(run_cli, save, [], "oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    with save.open("a") as out:
        out.write('"bid 42"\n')
    result = run_cli("resume", str(save))
    assert result.exit_code == 1 and "move 3 ('bid 42') by you does not replay" in result.output


def test_rummy_save_and_resume(run_cli, tmp_path):
    from cardrules.interpreter.cards import NAMES

    cycle = ["pass", "draw"] + ["discard " + n for n in NAMES]
    save = tmp_path / "rummy.jsonl"
    first = play_then_quit(run_cli, save, cycle * 3, "shanghai-isra-junior", "--seats", "human,bot,bot,bot",
                           "--seed", "2")
    assert "Game saved" in first.output
    done = run_cli("resume", str(save), "--fast", "--ascii", input="\n".join(cycle * 400) + "\n")
    assert done.exit_code == 0 and "Game over." in done.output


def test_simulate_json_is_the_same_whatever_the_jobs(run_cli):
    args = ["simulate", "oh-shit", "--games", "12", "--seats", "bot,random,random,random", "--seed", "5",
            "--json"]
    one = json.loads(run_cli(*args).output)
    two = json.loads(run_cli(*args, "--jobs", "2").output)
    for stats in (one, two):
        stats.pop("seconds")
    assert one == two
    cards_per_seat = sum(range(1, 11)) + sum(range(2, 11))  # 109: every card a seat plays
    assert one["games"] == 12 and one["decisions"] == 12 * 4 * (cards_per_seat + 19)
    assert [s["kind"] for s in one["seats"]] == ["bot", "random", "random", "random"]
    assert sum(s["wins"] for s in one["seats"]) >= 12


def test_simulate_writes_records_that_replay(run_cli, tmp_path):
    result = run_cli("simulate", "oh-hell", "--games", "3", "--seats", "random,bot,random", "--seed", "9",
                     "--record-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.jsonl"))
    assert [f.name for f in files] == ["game-10.jsonl", "game-11.jsonl", "game-9.jsonl"]
    for f in files:
        assert run_cli("replay", str(f)).exit_code == 0


def test_done_when_shanghai_isra_plays_all_seven_contracts_and_replays(run_cli, tmp_path):
    record = tmp_path / "g.jsonl"
    result = run_cli("play", "shanghai-isra", "--seats", "bot,bot,bot,bot", "--seed", "3", "--record", str(record))
    assert result.exit_code == 0, result.output
    for contract in ("SET SET", "SET RUN", "RUN RUN", "SET SET SET", "SET SET RUN", "SET RUN RUN", "RUN RUN RUN"):
        assert f"contract {contract}" in result.output
    assert "lowest total wins" in result.output
    replayed = run_cli("replay", str(record))
    assert replayed.exit_code == 0 and ", 7 rounds;" in replayed.output


def test_replay_catches_an_illegal_rummy_line(run_cli, tmp_path):
    golden = GOLDEN / "shanghai-isra-seed3-bots.jsonl"
    n, meld = first_line(golden, "meld")
    bad = tmp_path / "bad.jsonl"
    first = meld["melds"][0]["cards"]
    tamper(golden, bad, n, json.dumps(first), json.dumps(first[:2]))
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and f"bad.jsonl:{n}: illegal meld:" in result.output
    n, draw = first_line(golden, "draw")
    tamper(golden, bad, n, f'"card": "{draw["card"]}"', '"card": "ZZ"')
    assert run_cli("replay", str(bad)).exit_code == 1


def test_compare_plays_the_same_deals_under_both_rulesets(run_cli):
    result = run_cli("compare", "oh-hell", "oh-hell-penalty", "--games", "30", "--seats", "bot,random,random",
                     "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["same_deals"] is True and report["games"] == 30
    rows = {row["metric"]: row for row in report["rows"]}
    # the same deals and bots that ignore the score sheet: play is identical, scores are not
    assert rows["exact-bid rate"]["difference"] == 0 and rows["player decisions"]["difference"] == 0
    mean = rows["mean total"]
    assert mean["difference"] < 0 and mean["significant"] and mean["low"] <= mean["difference"] <= mean["high"]


def test_compare_two_rummy_variants_and_refuse_bad_seats(run_cli):
    result = run_cli("compare", "shanghai-isra", "shanghai-isra-junior", "--games", "3", "--seed", "1")
    assert result.exit_code == 0 and "share of rounds someone went out" in result.output
    result = run_cli("compare", "oh-hell", "shanghai-isra", "--seats", "bot,bot,bot")
    assert result.exit_code == 2 and "shanghai-isra is for 4 to 6 players" in result.output


def test_odd_numbers_at_the_prompt_are_refused_not_crashes(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "1", "--fast",
                     input="--3\nbid ²\n²\nquit\n")
    assert result.exit_code == 0 and "internal error" not in result.output
    assert result.output.count("is not a") >= 2
    result = run_cli("play", "shanghai-isra", "--seats", "human,bot,bot,bot", "--seed", "1", "--fast",
                     input="claim ²\nlayoff ² 9d\nswap -1 7d\nquit\n")
    assert result.exit_code == 0 and "internal error" not in result.output and "not a meld number" in result.output


def test_replay_rejects_malformed_fields(run_cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    tamper(GOLDEN / "oh-shit-seed7-random.jsonl", bad, 1, '"seed": 7', '"seed": 7, "mode": ["x"]')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and "internal error" not in result.output
    golden = GOLDEN / "shanghai-isra-seed3-bots.jsonl"
    n, lay = first_line(golden, "layoff")
    tamper(golden, bad, n, f'"meld": {lay["meld"]}', '"meld": [1]')
    result = run_cli("replay", str(bad))
    assert result.exit_code == 1 and f"bad.jsonl:{n}: malformed" in result.output


@pytest.mark.parametrize("old, new", [('"mode": null', '"mode": "nope"'), ('"mode": null', '"mode": {"a": 1}'),
                                      ('"ruleset_path": null', '"ruleset_path": 5'),
                                      ('"seats": ["human", "bot", "bot"]', '"seats": ["human", "alien", "bot"]')])
def test_resume_rejects_a_damaged_header(run_cli, tmp_path, old, new):
    save = tmp_path / "save.jsonl"
    play_then_quit(run_cli, save, [], "oh-shit", "--seats", "human,bot,bot", "--seed", "3")
    text = save.read_text()
    assert old in text
    save.write_text(text.replace(old, new))
    result = run_cli("resume", str(save))
    assert result.exit_code == 1 and "internal error" not in result.output


def test_named_trump_and_simultaneous_bids_play_with_bots(run_cli, tmp_path):
    path = tmp_path / "named.yaml"
    path.write_text("extends: oh-hell\nname: named\ntrump: {kind: named-by-highest-bidder}\n"
                    "bidding: {order: simultaneous, restrictions: null}\n")
    result = run_cli("simulate", str(path), "--games", "5", "--seats", "bot,random,bot")
    assert result.exit_code == 0, result.output
    # a person bids without seeing the bots' bids: none is shown before the prompt
    result = run_cli("play", str(path), "--seats", "bot,human,bot", "--seed", "2", "--fast", input="quit\n")
    before_prompt = result.output.split("your bid")[0]
    assert " bids " not in before_prompt, before_prompt


def test_play_never_overwrites_a_file_or_an_earlier_save(run_cli, tmp_path):
    existing = tmp_path / "mine.jsonl"
    existing.write_text("precious\n")
    for option in ("--record", "--save"):
        result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot", "--seed", "1", option, str(existing))
        assert result.exit_code == 2 and "already exists" in result.output
    assert existing.read_text() == "precious\n"
    first = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "9", "--fast", input="quit\n")
    second = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "9", "--fast", input="quit\n")
    assert "oh-shit-9.jsonl" in first.output and "oh-shit-9-2.jsonl" in second.output


def test_a_record_of_a_ruleset_file_replays_from_any_folder(run_cli, tmp_path, monkeypatch):
    """The record names its ruleset file relative to itself, so replay works from another
    folder; a record whose ruleset is gone says so and how to give it."""
    (tmp_path / "work" / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "work" / "sub" / "mine.yaml").write_text("extends: oh-hell\nname: mine\n")
    monkeypatch.chdir(tmp_path / "work")
    assert run_cli("play", "sub/mine.yaml", "--seats", "bot,bot,bot", "--seed", "1", "--fast", "--quiet",
                   "--record", "sub/game.jsonl").exit_code == 0
    header = json.loads((tmp_path / "work" / "sub" / "game.jsonl").read_text().splitlines()[0])
    assert header["ruleset_path"] == "mine.yaml"
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = run_cli("replay", str(tmp_path / "work" / "sub" / "game.jsonl"))
    assert result.exit_code == 0 and ": ok, " in result.output
    (tmp_path / "work" / "sub" / "mine.yaml").rename(tmp_path / "work" / "mine.yaml")
    result = run_cli("replay", str(tmp_path / "work" / "sub" / "game.jsonl"))
    assert result.exit_code == 1
    assert "the record's ruleset file 'mine.yaml' is not next to the record or in the current folder; give it " \
           "with --ruleset FILE" in result.output
    assert run_cli("replay", str(tmp_path / "work" / "sub" / "game.jsonl"), "--ruleset",
                   str(tmp_path / "work" / "mine.yaml")).exit_code == 0


def test_a_game_with_search_seats_is_saved_and_resumed(run_cli, tmp_path):
    save = tmp_path / "search.jsonl"
    first = run_cli("play", "oh-hell", "--seats", "human,search:4,bot", "--seed", "5", "--fast", "--ascii",
                    "--save", str(save), input="0\nquit\n")
    assert first.exit_code == 0 and "search-1 bids" in first.output
    resumed = run_cli("resume", str(save), "--fast", "--ascii", input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "resuming at round 1" in resumed.output and "your card (" in resumed.output
