"""`cardrules validate`, `schema`, `list`, `show` run as a user runs them.

Each file in tests/data/bad/ states the problems it must produce in `# expect:` lines
([OTHER.yaml:]LINE:COL: message prefix); the test checks each is reported at exactly that place.
"""

from __future__ import annotations

import json
import re

import pytest

from cardrules.interpreter.loader import bundled_names, display_name
from cardrules.interpreter import load_ruleset

from helpers import DATA, REPO

BAD = sorted((DATA / "bad").glob("*.yaml"))
GOOD = sorted((DATA / "good").glob("*.yaml"))


def expectations(path):
    return re.findall(r"^# expect: (.*)$", path.read_text(), re.M)


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_validates(run_cli, racing_clock, name):
    """On any machine at any load: every clock jumps an hour a call (racing_clock), and
    every bundled ruleset still loads, plays its games and says ok (at load 12 oh-hell
    was refused: "reading the ruleset's expressions takes more than 10 seconds").
    One ruleset a test, so a parallel run shares them out."""
    result = run_cli("validate", str(REPO / "rulesets" / f"{name}.yaml"))
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok (") == 1


def test_validate_says_ok_once_for_each_file_it_is_given(run_cli):
    files = sorted(str(p) for p in (REPO / "rulesets").glob("*.yaml"))
    result = run_cli("validate", "--no-play", *files)
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok (") == len(files)


def test_bundled_names_are_the_seed_variants_and_the_catalogues():
    names = bundled_names()
    assert names == sorted(p.stem for p in (REPO / "rulesets").glob("*.yaml"))
    assert set(names) >= {"oh-shit", "oh-heck", "oh-hell", "oh-hell-exact-only", "oh-hell-penalty", "shanghai",
                          "shanghai-pagat", "shanghai-isra", "shanghai-isra-junior", "shanghai-isra-express"}


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_examples_validate(run_cli, path):
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_examples_report_each_problem_at_its_line_and_column(run_cli, path):
    expected = expectations(path)
    assert expected, f"{path.name} has no '# expect:' lines"
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if not line.startswith("    ")]
    for expect in expected:
        where, _, message = expect.partition(": ")
        file = path
        if ".yaml:" in where:  # the problem is reported in another file (a parent)
            other, _, where = where.partition(":")
            file = path.parent / other
        prefix = f"{display_name(file)}:{where}: {message}"
        assert any(line.startswith(prefix) for line in lines), (expect, result.output)


def test_bad_expression_gets_a_caret_under_the_offending_text(run_cli):
    result = run_cli("validate", str(DATA / "bad" / "bad-expression.yaml"))
    out = result.output.splitlines()
    at = next(i for i, line in enumerate(out) if "unknown name 'trick'" in line)
    assert out[at + 1] == '      points: "if bid == trick then 10 else 0"'
    assert out[at + 2] == "                         ^^^^^"


def test_json_format_lists_every_problem(run_cli):
    result = run_cli("validate", "--format", "json", str(DATA / "bad" / "misspelt-key.yaml"), "oh-hell")
    assert result.exit_code == 1
    report = json.loads(result.output[: result.output.rindex("}") + 1])
    assert report["valid"] is False
    bad, good = report["files"]
    assert [(p["line"], p["column"], p["kind"]) for p in bad["problems"]] == [(7, 3, "schema"), (9, 3, "schema")]
    assert good == {"file": "oh-hell", "valid": True, "name": "oh-hell", "family": "trick-taking",
                    "players": [3, 7], "played": 10, "problems": []}


def test_usage_errors_exit_2(run_cli):
    assert run_cli("validate").exit_code == 2
    assert run_cli("validate", "--format", "xml", "oh-hell").exit_code == 2
    assert run_cli("no-such-command").exit_code == 2


def test_missing_file_and_unknown_name(run_cli):
    result = run_cli("validate", "nowhere.yaml", "oh-hel")
    assert result.exit_code == 1
    assert "nowhere.yaml: no ruleset file 'nowhere.yaml'" in result.output
    assert "oh-hel: no bundled ruleset 'oh-hel' (did you mean 'oh-hell'?)" in result.output


@pytest.mark.parametrize("content", [
    b"\xff\xfe not utf-8",
    b"",
    b"- just\n- a list\n",
    b"a: &x [*x]\n",
    b"a: !!python/object/apply:os.system ['echo owned']\n",
    b"&a [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
    b"family: trick-taking\nplayers: 3\n",
    b"x: " + b"[" * 200 + b"]" * 200,
])
def test_hostile_input_never_gives_a_traceback(run_cli, tmp_path, content):
    path = tmp_path / "hostile.yaml"
    path.write_bytes(content)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.output.startswith(str(path).split("/")[-1]) or str(path) in result.output


def test_billion_laughs_is_refused(run_cli, tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]" for i in range(1, 9)]
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "more than" in result.output


def test_schema_command_prints_the_schema(run_cli):
    result = run_cli("schema")
    schema = json.loads(result.output)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"  # the editors' dialect
    assert schema["additionalProperties"] is False
    resolved = json.loads(run_cli("schema", "--resolved").output)  # what validate checks
    assert resolved["$schema"].endswith("2020-12/schema")
    assert resolved["additionalProperties"] is False


def test_list_shows_every_bundled_ruleset(run_cli):
    result = run_cli("list")
    assert result.exit_code == 0
    for name in bundled_names():
        assert re.search(rf"^{re.escape(name)}\s", result.output, re.M)


def test_show_prints_the_resolved_ruleset(run_cli):
    import yaml

    result = run_cli("show", "oh-shit")
    assert result.exit_code == 0
    data = yaml.safe_load(result.output)
    assert data["name"] == "oh-shit"
    assert data["trump"] == {"kind": "upcard", "bowers": True}
    assert data["scoring"]["points"] == "tricks + (if tricks == bid then 10 else 0)"  # from oh-hell
    assert "extends" not in data


def test_show_a_file_by_path(run_cli):
    result = run_cli("show", "--format", "json", str(DATA / "good" / "rotation-must-trump.yaml"))
    data = json.loads(result.output)
    assert data["trump"]["rotation"] == ["H", "S", "D", "C", "none"]
    assert "restrictions" not in data["bidding"]  # deleted by null in house-no-hook.yaml
    assert data["players"] == {"min": 3, "max": 5}


def test_python_dash_m_runs_the_cli():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "cardrules", "list"], capture_output=True, text=True, check=True)
    assert "shanghai-isra" in out.stdout


def test_a_hook_under_bids_made_at_once_is_a_warning_not_an_error(run_cli, tmp_path):
    path = tmp_path / "at-once.yaml"
    path.write_text("extends: oh-hell\nname: at-once\nbidding:\n  order: simultaneous\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 0
    assert "oh-hell.yaml:33:13: warning: bids are made at once here, so bids, is_last never tell" in result.output
    assert "at-once.yaml: ok (" in result.output
    data = json.loads(run_cli("validate", "--format", "json", str(path)).output)
    assert data["valid"] and data["files"][0]["warnings"][0]["kind"] == "warning"


def test_no_bundled_ruleset_has_a_warning():
    for name in bundled_names():
        assert load_ruleset(name).warnings == (), name
