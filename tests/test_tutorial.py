"""docs/tutorial.md, run as written: every file it shows is written, every command it
shows is run, and every output line it shows must appear (a line ending in '…' is a
prefix; the rest of it depends on the game)."""

from __future__ import annotations

import re
import shlex

from helpers import REPO

TUTORIAL = REPO / "docs" / "tutorial.md"


def blocks(text):
    for match in re.finditer(r"```(\w+)\n(.*?)```", text, re.S):
        yield match.group(1), match.group(2)


def test_tutorial_runs_as_written(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = 0
    for kind, body in blocks(TUTORIAL.read_text()):
        if kind == "yaml":
            first = body.splitlines()[0]
            assert first.startswith("# ") and first.endswith(".yaml"), first
            (tmp_path / first[2:]).write_text(body)
            continue
        if kind != "console":
            continue
        steps: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps and line.strip():
                steps[-1][1].append(line.rstrip())
        for command, expected in steps:
            args = shlex.split(command)
            assert args[0] == "cardrules"
            result = run_cli(*args[1:], input="quit\n")
            commands += 1
            output = [line.rstrip() for line in result.output.splitlines()]
            for want in expected:
                if want.endswith("…"):
                    assert any(line.startswith(want[:-1]) for line in output), (command, want, result.output)
                else:
                    assert want in output, (command, want, result.output)
            failing = "validate typo.yaml" in command
            assert (result.exit_code == 1) if failing else (result.exit_code == 0), (command, result.output)
    assert commands >= 9
