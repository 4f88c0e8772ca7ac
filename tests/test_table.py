"""What a person at the table sees, played as a user plays (scripted input through
click's CliRunner): the round header before the round's first move, ..."""

from __future__ import annotations

import re


def test_the_round_header_comes_before_the_bots_first_bids(run_cli):
    # the human sits last: three bots bid before the first prompt
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="1\nquit\n")
    out = result.output
    header = "== Round 1 of 19: 10 cards, dealer bot-0, trump spades (2S turned) =="
    assert header in out
    assert out.index(header) < out.index("bot-1 bids")


def test_the_round_header_comes_before_the_bots_moves_of_every_round(run_cli):
    # a whole game at a human seat: each round's header precedes that round's first move
    from cardrules.interpreter.cards import NAMES

    cycle = [str(b) for b in range(11)] + list(NAMES[:52])
    result = run_cli("play", "oh-hell", "--seats", "bot,bot,human", "--seed", "5", "--fast", "--ascii",
                     input="\n".join(cycle * 130) + "\n")
    assert "Game over." in result.output
    lines = result.output.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("== Round ")]
    moves = [i for i, line in enumerate(lines) if re.match(r"  \S+ (bids?|plays?) ", line)]
    assert len(headers) == len(re.findall(r"^Round \d+ of \d+: ", result.output, re.M))  # one per round
    for number, start in enumerate(headers):
        end = headers[number + 1] if number + 1 < len(headers) else len(lines)
        first_move = min(i for i in moves if i > start)
        assert start < first_move < end


def test_a_named_trump_is_announced_and_the_header_says_it_is_not_named_yet(run_cli, tmp_path):
    path = tmp_path / "named.yaml"
    path.write_text("extends: oh-hell\nname: named\ntrump: {kind: named-by-highest-bidder}\n")
    result = run_cli("play", str(path), "--seats", "bot,bot,human", "--seed", "2", "--fast", "--ascii",
                     input="\n".join(["0"] * 3 + ["quit"]) + "\n")
    assert "== Round 1 of" in result.output and "trump not named yet ==" in result.output


def test_resume_shows_the_round_header_again(run_cli, tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast", "--ascii", "--save", str(save),
            input="1\nquit\n")
    result = run_cli("resume", str(save), "--fast", "--ascii", input="quit\n")
    assert "resuming at round 1" in result.output
    assert result.output.index("== Round 1 of 19: 10 cards") < result.output.index("your card")


def test_the_rummy_header_names_the_contract(run_cli):
    result = run_cli("play", "shanghai-isra", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="quit\n")
    header = "== Round 1 of 7: 11 cards, dealer bot-0, contract SET SET (set of 3, set of 3) =="
    assert header in result.output
    assert result.output.index(header) < result.output.index("bot-1 takes")
