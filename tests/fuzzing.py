"""Mutants of the things a stranger hands cardrules: rulesets, game records, saves and
command lines.

Each mutator takes a ``random.Random`` and returns the text of one mutant (or, for a
command line, its arguments); the tests drive them from hypothesis
(tests/test_fuzz_*.py, small numbers) and benchmarks/fuzz.py runs thousands and counts
the outcomes.  ``run_mutant`` runs the command a user would run on the mutant and
classifies how it ended; ``run_arguments`` runs a command line.

Besides values of the wrong type, the mutants carry the kinds of hostile input the
reviews found: numbers too large to write (``0xfff...``), YAML tags their value does
not fit (``!!bool maybe``), control characters and lone surrogates, negative and huge
seeds, newlines in quoted text, and paths that are not regular files (/dev/zero, a
FIFO, /proc).
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import re
import traceback
from pathlib import Path
from typing import Any

import click
import yaml
from click.testing import CliRunner

from cardrules.cli.main import COMMANDS as CLI_COMMANDS, main
from cardrules.interpreter.loader import bundled_dir, bundled_names

REPO = Path(__file__).parent.parent
GOLDEN = sorted((REPO / "tests" / "golden").glob("*.jsonl"))
# records of packs of their own (special cards, roles played "as"), mutated as the others
OWN_PACKS = [REPO / "tests" / "golden" / "all" / f"{name}.jsonl.gz" for name in ("skull-king", "wizard")]
# (libyaml where PyYAML has it: every worker of a parallel run reads all of them)
_FAST_SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
RULESETS = {name: yaml.load((bundled_dir() / f"{name}.yaml").read_text(), Loader=_FAST_SAFE)
            for name in bundled_names()}

WORDS = ["0..hand_size", "players", "size", "round", "[3..1]", "-1", "1 / 0", "[]", "2", "0", "99", "set",
         "run of 2", "run of 13", "set of 9", "high", "low", "either", "rotation", "upcard", "none", "simultaneous",
         "if is_last then false else true", "repeat(0, 3)", "bid in bids", "[10..1]", "deck_size / players",
         "tricks - bid", "if size > 4 then 0 else 1", "in_one_turn", "round % 2 == 0", "lowest", "highest", "JK",
         "named-by-highest-bidder", "./x.yaml", "../../etc/passwd", "\x1b[2J", "\ud800", "9" * 40, "1e300", "",
         "a\nb", "line\r\nbreak", "\x07", "\x00", "\u2028", "\ufeff", "/dev/zero", "/proc/self/fd/0", "/dev/zero.yaml",
         "/proc/self/environ.yaml", "x" * 5000 + ".yaml", "\udfff" * 3,
         # the pack and the trick order's words
         "next", "free", "sets", "cancel", "last", "first", "led", "trump", "own", "ESC", "TIG", "SK", "Z", "N",
         "pirate", "card_rank == upcard_rank", "winning_as == pirate", "count(trick_cards, mermaid)", "card",
         "upcard == wizard", "14B", "TIG as pirate"]
KEYS = ["min", "max", "kind", "rounds", "name", "rule", "message", "melds", "A", "JK", "when", "points", "event",
        "seat", "card", "round", "hands", "bid", "seed", "players", "from", "penalty", "meld", "cards",
        "order", "roles", "wins_over", "ties", "lead", "follows", "any_time", "code", "symbol", "count", "specials",
        "suits", "as", "card_points", "trick_points", "all_cancelled"]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 2 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -1, 2, 3, 7, 13, 52, 99, 10**6, -(10**9), 2**63, 10**20, -(2**63), 2**64 + 1,
                           10**4000, -7])
    if kind == 3:
        return rng.choice([0.5, 1.0, -2.5, 1e300, 3.0])
    if kind in (4, 5, 6):
        return rng.choice(WORDS)
    if kind in (7, 8):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): random_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, prefix + (i,))
    return out


def _replace_somewhere(rng: random.Random, data: Any) -> Any:
    """``data`` with one value replaced (half the time by one of the same type), or a
    key removed or added."""
    data = copy.deepcopy(data)
    where = rng.choice(_paths(data)[1:] or [()])
    if not where:
        return random_value(rng)
    node = data
    for part in where[:-1]:
        node = node[part]
    old = node[where[-1]]
    choice = rng.randrange(10)
    if choice == 0 and isinstance(node, dict):
        del node[where[-1]]
    elif choice == 1 and isinstance(node, dict):
        node[rng.choice(KEYS)] = random_value(rng)
    elif choice < 6:  # the same type: more mutants get past the first checks
        if isinstance(old, bool):
            node[where[-1]] = not old
        elif isinstance(old, int):
            node[where[-1]] = rng.choice([old + 1, old - 1, -old, 0, old * 7, 10**6])
        elif isinstance(old, str):
            node[where[-1]] = rng.choice(WORDS + [old[::-1], old + old])
        else:
            node[where[-1]] = random_value(rng)
    else:
        node[where[-1]] = random_value(rng)
    return data


def mutate_ruleset(rng: random.Random) -> str:
    """A bundled ruleset with a value replaced, or its text cut or garbled."""
    name = rng.choice(sorted(RULESETS))
    data = _replace_somewhere(rng, RULESETS[name])
    if rng.random() < 0.5:
        data = _replace_somewhere(rng, data)
    try:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        text = str(data)
    if rng.random() < 0.1:
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(["", ":", "- ", "{", "&a [*a, *a]", "\t", "\x00"]) + text[cut:]
    if rng.random() < 0.2:
        text = _hostile_scalar(rng, text)
    if rng.random() < 0.05:  # a character YAML does not allow, anywhere
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(RAW_CHARACTERS) + text[cut:]
    return text


# Scalars as YAML text (safe_dump would quote them): what YAML 1.1 reads as numbers too
# large to write, tags their value does not fit, special floats, quoted controls.
HOSTILE_SCALARS = ["0x" + "f" * 5000, "0b" + "1" * 70, "-0x" + "f" * 20, "0" + "7" * 3000, "9" * 5000,
                   "190:20:30:40:50:59:59:59:59:59", "!!bool maybe", "!!timestamp 2001-13-45", "2001-13-45",
                   "!!int 1.5", "!!float abc", "!!binary '@@'", "!!set {a}", "!!omap [a]", ".inf", "-.inf", ".nan",
                   '"a\\x07b"', '"line\\nbreak"', '"\\e[2J"', '"\\ud800"', '"\\x85"', "'tab\there'", "~",
                   "!!python/object:os.system x", "*undefined", "[" * 60, "- " * 30, '"' + "x" * 3000 + '"']
RAW_CHARACTERS = ["\x07", "\x00", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", "\x0c", "\r", "\ud800"]


def _hostile_scalar(rng: random.Random, text: str) -> str:
    """``text`` with the value of one of its ``key: value`` lines replaced by a hostile scalar."""
    lines = text.split("\n")
    places = [i for i, line in enumerate(lines) if ": " in line and not line.rstrip().endswith(":")]
    if not places:
        return text
    i = rng.choice(places)
    key = lines[i].split(": ", 1)[0]
    lines[i] = f"{key}: {rng.choice(HOSTILE_SCALARS)}"
    return "\n".join(lines)


def _mutate_lines(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    op = rng.randrange(8)
    i = rng.randrange(len(lines))
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif op == 4:
        lines.insert(i, rng.choice(["", "{}", "[]", "null", '{"event": 3}', "{" * 2000, json.dumps(random_value(rng))]))
    else:
        try:
            value = json.loads(lines[i])
        except ValueError:
            return lines
        lines[i] = json.dumps(_replace_somewhere(rng, value))
    return lines


def _mutate_header(rng: random.Random, lines: list[str]) -> list[str]:
    """The first line (a record's or a save's header) with its seed, a name or a path
    changed to something hostile."""
    try:
        header = json.loads(lines[0])
    except ValueError:
        return lines
    if not isinstance(header, dict):
        return lines
    key = rng.choice(["seed", "seed", "seed", "ruleset", "ruleset_path", "players", "names", "mode"])
    if key == "seed" and isinstance(header.get("seed"), int):
        header["seed"] = rng.choice([-header["seed"], -1, -(2**63), 2**63, 2**62 + 1, 10**4000, header["seed"] + 1])
    elif key in ("players", "names") and isinstance(header.get(key), list) and header[key]:
        header[key][rng.randrange(len(header[key]))] = rng.choice(["a\nb", "\x1b[2J", "\ud800", "x" * 5000, ""])
    else:
        header[key] = rng.choice(["/dev/zero", "/proc/self/fd/0", "x" * 5000, "a\nb", "../../etc/passwd", "\ud800",
                                  None, 3])
    return [json.dumps(header)] + lines[1:]


def mutate_record(rng: random.Random) -> str:
    """A golden game record with a line deleted, repeated, moved, cut, added or changed,
    or its header's seed, names or paths made hostile."""
    source = rng.choice(GOLDEN + OWN_PACKS)
    text = gzip.decompress(source.read_bytes()).decode() if source.suffix == ".gz" else source.read_text()
    lines = text.splitlines()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        lines = _mutate_lines(rng, lines) if rng.random() < 0.85 else _mutate_header(rng, lines)
    return "\n".join(lines) + "\n"


def make_saves(folder: Path) -> list[Path]:
    """Saves of all-bot games (every move saved), to mutate."""
    out = []
    for i, (ruleset, seats) in enumerate((("oh-hell", "bot,random,bot"), ("shanghai-isra-junior", "bot,bot,bot,bot"),
                                          ("oh-shit", "random,random,bot,bot"))):
        path = folder / f"base-{i}.jsonl"
        result = CliRunner().invoke(main, ["play", ruleset, "--seats", seats, "--seed", str(i), "--quiet", "--save",
                                           str(path)])
        assert result.exit_code == 0, result.output
        out.append(path)
    return out


def mutate_save(rng: random.Random, bases: list[Path]) -> str:
    lines = rng.choice(bases).read_text().splitlines()
    lines = lines[: rng.randrange(1, len(lines) + 1)]  # a game stopped somewhere
    for _ in range(rng.choice([0, 1, 1, 2])):
        lines = _mutate_lines(rng, lines) if rng.random() < 0.85 else _mutate_header(rng, lines)
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


COMMANDS = {
    "ruleset": lambda path: ["validate", "--games", "1", str(path)],
    "record": lambda path: ["replay", str(path)],
    "save": lambda path: ["resume", "--fast", str(path)],
}


def stray_lines(output: str, path: Path) -> list[str]:
    """The lines of validate's or replay's output that are not one of its shapes: a
    line about the file (``FILE...``: a problem, a warning, ok), the ruleset's line and
    the caret under a problem (indented), a problem in a file it extends, a count of
    problems, or ``cardrules: ...``.
    A message over several lines shows up here."""
    shapes = (str(path), "cardrules: ", "    ")
    return [line for line in output.splitlines() if line and not line.startswith(shapes)
            and not re.fullmatch(r"\d+ problems? in \d+ of \d+ files?", line)
            and not re.match(r"\S+\.ya?ml:(\d+:\d+:)? ", line)]  # a problem in a file it extends


def run_mutant(kind: str, text: str, folder: Path) -> tuple[str, str]:
    """Run the command a user would on the mutant (validate, replay, resume): its
    outcome ("exit 0", "exit 1", "exit 2", "internal error", "traceback", "several
    lines": a message that did not keep to one) and output."""
    path = folder / ("mutant.yaml" if kind == "ruleset" else "mutant.jsonl")
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = CliRunner().invoke(main, COMMANDS[kind](path), input="quit\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return "traceback", "".join(traceback.format_exception(result.exception))
    if result.exit_code == 3 or "internal error" in result.output:
        return "internal error", result.output
    if kind in ("ruleset", "record") and stray_lines(result.output, path):
        return "several lines", result.output
    return f"exit {result.exit_code}", result.output


# --- command lines -----------------------------------------------------------------------
# Every command but `serve` (which would serve until stopped: tests/test_web_*.py and the
# web fuzzing cover it), with values of every odd kind for each of its options, read
# from the command itself so that a new option is fuzzed too.  Values that are valid
# but slow are left out (--games 1000000, --jobs 64, --cluster of a host that does not
# answer): they would only measure patience.
SKIPPED_COMMANDS = {"serve"}
ODD_VALUES = ["", " ", "-1", "0", "1", "2", "3", "-", "--", "x", "1_0", "١", "1e3", "0x10", "9" * 25, "a\nb",
              "\x1b[2J", "\u2028", "é", "x" * 5000, "/proc/x.jsonl", "/sys/x", "/dev/full", "/dev/zero", "/dev/stdin",
              "/proc/self/fd/0", "/", ".", "~", "oh-hell", "shanghai-isra", "oh-shit", "no-such-ruleset", "bot,bot,bot",
              "human,bot,bot", "human,human,human", "random,random,random,random", "search:2,bot,bot", "search:0,bot,bot",
              "search:-1,bot,bot", "search:0.01s,bot,bot", "bot," * 40, "junior", "express", "text", "json", "yaml",
              "Ann,Bob,Cy", "Ann,Ann,Ann", "a" * 30 + ",b,c", "nonsense"]
SLOW = {"--games": {"1000000"}, "--jobs": set(), "--cluster": {"local"}}
SMALL_NUMBERS = {"--games": ["", "0", "1", "2", "-1", "1_0", "9" * 25, "x", "1e3"],
                 "--jobs": ["", "0", "1", "2", "-1", "65", "x"],
                 "--cluster": ["", "nonsense", "x:y:z"]}


def _places(folder: Path) -> list[str]:
    """Paths of every odd kind inside ``folder``: a FIFO, a folder, a file (and a path
    under it), a name too long, a good ruleset, a golden record, a save of a bot game."""
    import os
    import shutil

    shutil.rmtree(folder / "xdg", ignore_errors=True)  # each command line starts without saves
    for made in ("new.jsonl", "new.png", "new.csv"):
        (folder / made).unlink(missing_ok=True)
    fifo = folder / "fifo.jsonl"
    if not fifo.exists():
        os.mkfifo(fifo)
    plain = folder / "plain.txt"
    plain.write_text("mine\n")
    (folder / "dir").mkdir(exist_ok=True)
    ruleset = folder / "house.yaml"
    ruleset.write_text("extends: oh-hell\nname: house\nplayers: {min: 3, max: 4}\n")
    record = folder / "record.jsonl"
    shutil.copy(GOLDEN[0], record)
    return [str(fifo), str(plain), str(plain / "x.jsonl"), str(folder / "dir"), str(folder / ("n" * 300)),
            str(folder / "new.jsonl"), str(folder / "new.png"), str(folder / "new.csv"), str(ruleset), str(record),
            str(folder / "no" / "such" / "x.jsonl")]


def random_arguments(rng: random.Random, folder: Path) -> list[str]:
    """A command line for one of cardrules' commands: its arguments and a random few of
    its options, each with an odd value (or none, or twice), sometimes an unknown option."""
    from click import Argument, Option

    places = _places(folder)
    names = sorted(set(CLI_COMMANDS) - SKIPPED_COMMANDS)
    command = main.get_command(click.Context(main), rng.choice(names))
    assert command is not None
    args = [command.name or ""]

    def value(opt: str) -> str:
        if opt in SMALL_NUMBERS and rng.random() < 0.8:
            return rng.choice(SMALL_NUMBERS[opt])
        pool = ODD_VALUES + places
        choice = rng.choice(pool)
        return "2" if choice in SLOW.get(opt, ()) else choice

    options = [p for p in command.params if isinstance(p, Option)]
    for param in rng.sample(options, rng.randrange(min(len(options), 5) + 1)):
        opt = rng.choice(param.opts)
        if param.is_flag:
            args.append(opt if rng.random() < 0.9 else f"{opt}=1")
        else:
            args += [opt, value(opt)]
    if command.name in ("simulate", "compare") and "--games" not in args:  # their default plays hundreds
        args += ["--games", rng.choice(["2", "3"])]
    if rng.random() < 0.05:
        args.append(rng.choice(["--no-such-option", "-x", "--json=3", "--", "-"]))
    for argument in command.params:
        if isinstance(argument, Argument) and (argument.required or rng.random() < 0.7):
            for _ in range(1 if argument.nargs == 1 else rng.randrange(1, 4)):
                args.append(rng.choice(places + ODD_VALUES[:40] if rng.random() < 0.5 else
                                       ["oh-hell", "shanghai-isra", "oh-shit", places[-3], places[-2]]))
    if rng.random() < 0.2:
        rest = args[1:]
        rng.shuffle(rest)
        args = args[:1] + rest
    return args


def run_arguments(args: list[str], folder: Path) -> tuple[str, str]:
    """Run ``cardrules ARGS`` in ``folder`` (games with people are answered "quit"; saves
    go there too): its outcome ("exit 0", "exit 1", "exit 2", "internal error",
    "traceback") and output."""
    import contextlib

    env = {"XDG_DATA_HOME": str(folder / "xdg"), "CARDRULES_SAVES": "", "NO_COLOR": "1"}
    with contextlib.chdir(folder):  # a relative path (--save -, --record é) is made there, not here
        result = CliRunner().invoke(main, args, input="quit\n" * 3, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return "traceback", "".join(traceback.format_exception(result.exception))
    if result.exit_code == 3 or "internal error" in result.output or "Traceback" in result.output:
        return "internal error", result.output
    return f"exit {result.exit_code}", result.output
