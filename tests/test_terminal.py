"""A person at a real (pseudo-)terminal: illegal moves, legal ones, quit, resume and
finish.  Runs `python -m cardrules` in a pty, as a terminal would."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    def __init__(self, args, env):
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "cardrules", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True)
        os.close(slave)
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
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:  # the program ended and closed the terminal
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"program ended waiting for {pattern!r}:\n{self.seen[-2000:]}")
                self.raw += chunk
                self.seen += ANSI.sub("", chunk).replace("\r", "")

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def close(self):
        try:
            self.proc.wait(timeout=20)
        finally:
            os.close(self.master)
        return self.proc.returncode


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
    import signal

    save = tmp_path / "game.jsonl"
    term = Terminal(["play", "oh-shit", "--seats", "human,bot,bot", "--seed", "2", "--fast", "--ascii",
                     "--save", str(save)], env)
    term.read_until(r"your bid \([0-9, ]+\) > ")
    time.sleep(0.3)  # let the prompt start reading: a signal in the instant before can be lost
    term.proc.send_signal(signal.SIGINT)
    try:
        text = term.read_until(r"cardrules: interrupted[^\n]*\n", timeout=10)
    except AssertionError:  # once more, as a person would press Ctrl-C again
        term.proc.send_signal(signal.SIGINT)
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
                     "--save", str(save)], env)
    legal = re.search(r"your bid \(([0-9, ]+)\) > ", term.read_until(r"your bid \([0-9, ]+\) > ")).group(1)
    start = time.monotonic()
    term.send(legal.split(",")[0])
    term.send("")  # Enter while the bots play
    term.read_until(r"your card \([^)]*\) > ", timeout=30)
    assert time.monotonic() - start < 1.2  # four bots would have paused 4 x 0.3 s at least
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
