"""A person at a real (pseudo-)terminal: the table's features as a player meets them,
illegal moves, legal ones, quit, resume and finish.  Runs `python -m cardrules` under
pexpect, which gives it a pty as its controlling terminal, so Ctrl-C is typed as a
person types it."""

from __future__ import annotations

import os
import re
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")  # in the `test` extra; absent only where there is no pty (Windows)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """A program at a terminal.  ``read_until`` waits for a pattern in what it printed
    (colour codes and carriage returns taken out) and returns everything up to it."""

    def __init__(self, args, env):
        self.child = pexpect.spawn(sys.executable, ["-m", "cardrules", *args], env=env, encoding="utf-8",
                                   codec_errors="replace", dimensions=(50, 100), timeout=30)
        self.seen = ""
        self.raw = ""  # what the terminal got, escape sequences and all

    def read_until(self, pattern, timeout=30.0):
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.seen)
            if match:
                before = self.seen[: match.end()]
                self.seen = self.seen[match.end():]
                return before
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; last output:\n{self.seen[-2000:]}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=remaining)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                raise AssertionError(f"program ended waiting for {pattern!r}:\n{self.seen[-2000:]}") from None
            self.raw += chunk
            self.seen += ANSI.sub("", chunk).replace("\r", "")

    def send(self, line):
        self.child.sendline(line)

    def interrupt(self):
        self.child.sendintr()  # the terminal's interrupt key: Ctrl-C

    def close(self):
        """Wait for the program to end; its exit status (128 + N if signal N ended it)."""
        try:
            while True:
                chunk = self.child.read_nonblocking(65536, timeout=20)
                self.raw += chunk
                self.seen += ANSI.sub("", chunk).replace("\r", "")
        except pexpect.EOF:
            pass
        self.child.close()
        return self.child.exitstatus if self.child.signalstatus is None else 128 + self.child.signalstatus


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "TERM": "xterm", "COLUMNS": "100"}


PROMPT = r"> $|> (?=\S)|> \Z"


def answer_until_over(term, limit=400):
    """Play the human seat: a legal bid from the prompt's list, then the hand's cards
    in order until one is accepted."""
    for _ in range(limit):
        text = term.read_until(r"(your bid \(([0-9, ]+)\) > |your card \([^)]*\) > |Game over\.[^\n]*\n)")
        if "Game over." in text:
            return text
        bids = re.search(r"your bid \(([0-9, ]+)\) > $", text)
        if bids:
            term.send(bids.group(1).split(",")[0].strip())
            continue
        hand = re.findall(r"Your hand: ([^\n]*)\n", text)[-1].split()
        for card in hand:
            term.send(card)
            reply = term.read_until(r"(your card \([^)]*\) > |your bid \([0-9, ]+\) > |Your hand: [^\n]*\n|Game over\.[^\n]*\n)")
            if "you must follow" in reply or "you do not hold" in reply:
                continue
            term.seen = reply + term.seen  # not a refusal: let the outer loop read it again
            break
    raise AssertionError("the game did not end")


def test_play_illegal_then_legal_quit_resume_and_finish(tmp_path, env):
    save = tmp_path / "game.jsonl"
    term = Terminal(["play", "oh-hell-exact-only", "--seats", "human,bot,bot", "--seed", "4", "--fast",
                     "--ascii", "--save", str(save)], env)
    prompt = term.read_until(r"your bid \(([0-9, ]+)\) > ")
    assert "Your hand:" in prompt and "Trump:" in prompt
    term.send("bid 99")
    assert "you may not bid 99: bids run from 0 to 10" in term.read_until(r"bids run from 0 to 10")
    term.send("banana")
    assert "'banana' is not a bid" in term.read_until(r"is not a bid[^\n]*\n")
    term.send("help")
    term.read_until(r"quit   stop; the game is saved[^\n]*\n")
    legal = re.search(r"your bid \(([0-9, ]+)\) > ", term.read_until(r"your bid \([0-9, ]+\) > ")).group(1)
    term.send(legal.split(",")[0])
    term.read_until(r"your card \([^)]*\) > ")
    term.send("ZZ")
    term.read_until(r"is not a card")
    term.send("quit")
    assert "Game saved. Resume it with: cardrules resume" in term.read_until(r"cardrules resume [^\n]*\n")
    assert term.close() == 0

    term = Terminal(["resume", str(save), "--fast", "--ascii"], env)
    assert "resuming at round 1" in term.read_until(r"resuming at round \d+[^\n]*\n")
    final = answer_until_over(term)
    assert "Game over." in final
    assert term.close() == 0


def test_ctrl_c_saves_the_game_and_exits_130_quietly(tmp_path, env):
    save = tmp_path / "game.jsonl"
    term = Terminal(["play", "oh-shit", "--seats", "human,bot,bot", "--seed", "2", "--fast", "--ascii",
                     "--save", str(save)], env)
    term.read_until(r"your bid \([0-9, ]+\) > ")
    time.sleep(0.3)  # let the prompt start reading: a key pressed in the instant before can be lost
    term.interrupt()
    try:
        text = term.read_until(r"cardrules: interrupted[^\n]*\n", timeout=10)
    except AssertionError:  # once more, as a person would press Ctrl-C again
        term.interrupt()
        text = term.read_until(r"cardrules: interrupted[^\n]*\n")
    assert f"cardrules: interrupted; resume with: cardrules resume {save}" in text
    assert term.close() == 130
    assert "Traceback" not in text + term.seen
    assert save.read_text().startswith('{"format": "cardrules-save"')


def test_enter_skips_the_bots_pauses(tmp_path, env):
    """With pauses on (no --fast), a game where bots play many moves between prompts
    still reaches the next prompt quickly once Enter is pressed."""
    save = tmp_path / "game.jsonl"
    term = Terminal(["play", "oh-shit", "--seats", "human,bot,bot,bot,bot", "--seed", "2", "--ascii",
                     "--save", str(save), "--pause", "60"], env)
    term.send("")  # the bots before Ann bid first: Enter skips their pauses up to her turn
    legal = re.search(r"your bid \(([0-9, ]+)\) > ", term.read_until(r"your bid \([0-9, ]+\) > ")).group(1)
    term.send(legal.split(",")[0])
    term.send("")  # Enter while the bots play
    # four bots would have paused a minute each: the prompt comes only if Enter ended the pauses
    term.read_until(r"your card \([^)]*\) > ", timeout=45)
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0


@pytest.mark.parametrize("no_color, options, coloured", [("", [], True), ("1", [], False), ("1", ["--color"], True),
                                                         ("", ["--no-color"], False)])
def test_colour_at_a_terminal(tmp_path, env, no_color, options, coloured):
    """Red hearts and diamonds at a terminal, unless NO_COLOR or --no-color; --color wins."""
    env = {**env, "NO_COLOR": no_color}
    term = Terminal([*options, "play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast",
                     "--save", str(tmp_path / "game.jsonl")], env)
    term.read_until(r"your bid \([0-9, ]+\) > ")
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0
    assert ("\x1b[31m" in term.raw) is coloured
    assert ("\x1b" in term.raw) is coloured  # nothing else escaped either


def test_the_table_at_a_terminal(tmp_path, env):
    """Round two of the table, at a real terminal: the round header before the bots'
    first bids, named seats, the bids against the tricks, the playable cards at the
    prompt, who is winning the trick, then last, hint, undo and a symbol in a refusal."""
    term = Terminal(["play", "oh-shit", "--seats", "bot,bot,bot,human", "--names", "Ann,Bob,Cy,Dee", "--seed", "3",
                     "--fast", "--no-color", "--save", str(tmp_path / "game.jsonl")], env)
    text = term.read_until(r"Dee, your bid \([0-9, ]+\) > ")
    assert text.index("== Round 1 of 19: 10 cards, dealer Ann, trump spades (2♠ turned) ==") < text.index("Bob bids")
    term.send("1")
    text = term.read_until(r"Dee, your card \(4♣ 5♣ 6♣ 7♣ 10♣\) > ")
    assert "bids total 11 for 10 tricks: 1 over" in text and "Cy plays J♣; Cy is winning with J♣" in text
    term.send("hint")
    term.read_until(r"the bot would play 4♣: [^\n]*\n")
    term.send("2s")
    term.read_until(r"you do not hold 2♠\n")
    term.send("4c")
    term.read_until(r"Dee, your card \(4♠ 7♠\) > ")
    term.send("last")
    term.read_until(r"trick 1: Bob A♣  Cy J♣  Dee 4♣  Ann 2♣; Cy wins with J♣\n")
    term.send("undo")
    term.read_until(r"taken back: your last move and the 2 moves after it\n")
    term.read_until(r"Dee, your card \(4♣ 5♣ 6♣ 7♣ 10♣\) > ")
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0


def test_a_short_game_at_a_terminal_rules_help_autoplay_score_and_standings(tmp_path, env):
    """Three one-card rounds: `rules` and `help` at the first prompt, each round's only
    card played for you with a line saying so, the score sheet, and the final standings."""
    path = tmp_path / "short.yaml"
    path.write_text("extends: oh-hell\nname: short\ndeal: {hand_size: \"[1, 1, 1]\"}\nbidding: {restrictions: null}\n")
    term = Terminal(["play", str(path), "--seats", "human,bot,bot", "--names", "Ann,Bob,Cy", "--seed", "2", "--fast",
                     "--no-color", "--save", str(tmp_path / "game.jsonl")], env)
    term.read_until(r"Ann, your bid \(0, 1\) > ")
    term.send("rules")
    rules = term.read_until(r"Ann, your bid \(0, 1\) > ")
    assert "## Bidding" in rules and "short.yaml" not in rules  # rules for players: no file names
    term.send("help")
    help_text = term.read_until(r"Ann, your bid \(0, 1\) > ")
    for command in ("hand", "last", "hint", "undo", "score", "rules", "help", "quit"):
        assert re.search(rf"^    {command} ", help_text, re.M), command
    term.send("0")
    assert re.search(r"\(only \S+ can be played: played for Ann\)\n  Ann plays \S+", term.read_until(r"Ann plays \S+"))
    term.read_until(r"Ann, your bid \(0, 1\) > ")
    term.send("0")
    term.read_until(r"Ann, your bid \(0, 1\) > ")
    term.send("score")
    sheet = term.read_until(r"Ann, your bid \(0, 1\) > ")
    rows = sheet[sheet.index("round "):].splitlines()
    assert rows[0].split() == ["round", "Ann", "Bob", "Cy"]
    assert [row.split()[0] for row in rows[1:4]] == ["1", "2", "total"] and "bid/taken" in rows[4]
    term.send("0")
    end = term.read_until(r"Game over\.[^\n]*\n(.*\n){3}")
    standings = end[end.index("Game over."):].splitlines()[1:4]
    totals = [int(line.split()[-1]) for line in standings]
    assert totals == sorted(totals, reverse=True)
    assert {line.split()[1] for line in standings} == {"Ann", "Bob", "Cy"}
    assert term.close() == 0


def test_rummy_at_a_terminal(tmp_path, env):
    """Contract rummy as a player meets it: the hint with its reason, the card you drew
    named, a refused meld saying what failed, the joker typed as the table shows it, your
    melds on the table, and the last turn."""
    term = Terminal(["play", "shanghai-isra", "--seats", "bot,bot,bot,human", "--names", "Ann,Bob,Cy,Dee", "--seed",
                     "3", "--fast", "--no-color", "--save", str(tmp_path / "game.jsonl")], env)
    text = term.read_until(r"Dee, take the discard or draw \(take / draw\) > ")
    assert text.index("== Round 1 of 7: 11 cards, dealer Ann, contract SET SET") < text.index("Bob takes")
    term.send("hint")
    term.read_until(r"the bot would draw: 10♣ does not help your hand\n")
    term.read_until(r"\(take / draw\) > ")
    term.send("draw")
    term.read_until(r"Dee draws Q♠ from the stock\n")
    term.read_until(r"Dee, meld / layoff / swap / discard > ")
    term.send("meld 3♠ 3♥ 2♥")
    term.read_until(r"it is neither a set \(a set's cards must all be of one rank\) nor a run [^\n]*\n")
    term.read_until(r"Dee, meld / layoff / swap / discard > ")
    term.send("meld 3s 3h 3c | 6d 6d jkr")
    term.read_until(r"Dee goes down: \[1\] 3♠ 3♥ 3♣; \[2\] 6♦ 6♦ Jkr\n")
    table = term.read_until(r"Dee, meld / layoff / swap / discard > ")
    assert "[2] Dee's set: 6♦ 6♦ Jkr" in table
    term.send("hint")
    term.read_until(r"the bot would discard Q♠: the card that costs most if you are caught with it\n")
    term.read_until(r"Dee, meld / layoff / swap / discard > ")
    term.send("last")
    last = term.read_until(r"Dee, meld / layoff / swap / discard > ")
    assert "since then:\n    Dee draws Q♠ from the stock\n    Dee goes down" in last
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0


def test_a_move_typed_while_the_bots_play_answers_the_next_prompt(tmp_path, env):
    """With pauses on, a line typed while the bots play is kept (not thrown away) and
    answers the next prompt; it also ends the pauses, as Enter does."""
    term = Terminal(["play", "oh-shit", "--seats", "human,bot,bot,bot,bot", "--names", "Ann,Bob,Cy,Dee,Eve",
                     "--seed", "2", "--no-color", "--save", str(tmp_path / "game.jsonl"), "--pause", "60"], env)
    term.send("")  # the bots before Ann bid first: Enter skips their pauses up to her turn
    legal = re.search(r"your bid \(([0-9, ]+)\) > ", term.read_until(r"your bid \([0-9, ]+\) > ")).group(1)
    term.send(legal.split(",")[0])
    term.read_until(r"  Ann bids \d+\n")
    term.send("hint")  # typed while the four bots play, a minute apart
    # the answer comes only if the line ended the pauses (four of a minute each)
    text = term.read_until(r"Ann, your card \([^)]*\) > hint\n  the bot would play \S+: [^\n]*\n", timeout=45)
    assert "Bob plays" in text  # the bots played on after it was typed
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0


def test_hot_seat_at_a_terminal_passes_the_screen_by_name(tmp_path, env):
    term = Terminal(["play", "oh-shit", "--seats", "bot,human,human", "--names", "Robo,Ann,Bob", "--seed", "3",
                     "--fast", "--no-color", "--save", str(tmp_path / "game.jsonl")], env)
    term.read_until(r"Pass the screen to Ann and press Enter ")
    term.send("")
    term.read_until(r"Ann, your bid \([0-9, ]+\) > ")
    term.send("1")
    term.read_until(r"Pass the screen to Bob and press Enter ")
    term.send("")
    text = term.read_until(r"Bob, your bid \([0-9, ]+\) > ")
    assert "Bids: Ann 1" in text
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0


def test_search_seats_say_they_are_thinking_before_and_after_an_undo(tmp_path, env):
    term = Terminal(["play", "oh-hell", "--seats", "human,search:4,search:4", "--names", "Ann,Bob,Cy", "--seed", "5",
                     "--fast", "--no-color", "--save", str(tmp_path / "game.jsonl")], env)
    legal = re.search(r"your bid \(([0-9, ]+)\) > ", term.read_until(r"Ann, your bid \([0-9, ]+\) > ")).group(1)
    term.send(legal.split(",")[0])
    assert "is thinking" in term.read_until(r"Ann, your card \([^)]*\) > ")
    term.send("undo")
    term.read_until(r"taken back: your last move")
    term.read_until(r"Ann, your bid \([0-9, ]+\) > ")
    term.raw = ""
    term.send(legal.split(",")[0])
    term.read_until(r"Ann, your card \([^)]*\) > ")
    assert "is thinking" in term.raw
    term.send("quit")
    term.read_until(r"Resume it with[^\n]*\n")
    assert term.close() == 0
