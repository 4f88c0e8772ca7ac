"""Mutants of the things a stranger hands cardrules: rulesets, game records and saves.

Each mutator takes a ``random.Random`` and returns the text of one mutant; the tests
drive them from hypothesis (tests/test_fuzz_*.py, small numbers) and
benchmarks/fuzz.py runs thousands and counts the outcomes.  ``run_mutant`` runs the
command a user would run on the mutant and classifies how it ended.
"""

from __future__ import annotations

import copy
import json
import random
import traceback
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.interpreter.loader import bundled_dir, bundled_names

REPO = Path(__file__).parent.parent
GOLDEN = sorted((REPO / "tests" / "golden").glob("*.jsonl"))
RULESETS = {name: yaml.safe_load((bundled_dir() / f"{name}.yaml").read_text()) for name in bundled_names()}

WORDS = ["0..hand_size", "players", "size", "round", "[3..1]", "-1", "1 / 0", "[]", "2", "0", "99", "set",
         "run of 2", "run of 13", "set of 9", "high", "low", "either", "rotation", "upcard", "none", "simultaneous",
         "if is_last then false else true", "repeat(0, 3)", "bid in bids", "[10..1]", "deck_size / players",
         "tricks - bid", "if size > 4 then 0 else 1", "in_one_turn", "round % 2 == 0", "lowest", "highest", "JK",
         "named-by-highest-bidder", "./x.yaml", "../../etc/passwd", "\x1b[2J", "\ud800", "9" * 40, "1e300", ""]
KEYS = ["min", "max", "kind", "rounds", "name", "rule", "message", "melds", "A", "JK", "when", "points", "event",
        "seat", "card", "round", "hands", "bid", "seed", "players", "from", "penalty", "meld", "cards"]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 2 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -1, 2, 3, 7, 13, 52, 99, 10**6, -(10**9), 2**63, 10**20])
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
    return text


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


def mutate_record(rng: random.Random) -> str:
    """A golden game record with a line deleted, repeated, moved, cut, added or changed."""
    lines = rng.choice(GOLDEN).read_text().splitlines()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        lines = _mutate_lines(rng, lines)
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
        lines = _mutate_lines(rng, lines)
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


COMMANDS = {
    "ruleset": lambda path: ["validate", "--games", "1", str(path)],
    "record": lambda path: ["replay", str(path)],
    "save": lambda path: ["resume", "--fast", str(path)],
}


def run_mutant(kind: str, text: str, folder: Path) -> tuple[str, str]:
    """Run the command a user would on the mutant (validate, replay, resume): its
    outcome ("exit 0", "exit 1", "exit 2", "internal error", "traceback") and output."""
    path = folder / ("mutant.yaml" if kind == "ruleset" else "mutant.jsonl")
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = CliRunner().invoke(main, COMMANDS[kind](path), input="quit\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return "traceback", "".join(traceback.format_exception(result.exception))
    if result.exit_code == 3 or "internal error" in result.output:
        return "internal error", result.output
    return f"exit {result.exit_code}", result.output
