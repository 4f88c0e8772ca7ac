"""The schema `cardrules schema` exports for editors accepts every file `validate`
accepts, as written (a child file with `extends` needs no required key, and its
nulls delete inherited keys), and still refuses a misspelt key."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from helpers import DATA, REPO

from cardrules.interpreter.errors import RulesetError
from cardrules.interpreter.loader import Source, bundled_dir, load_document, parse_yaml
from cardrules.interpreter.ruleset import build_ruleset


def tutorial_files():
    text = (REPO / "docs" / "tutorial.md").read_text()
    return [body for body in re.findall(r"```yaml\n(.*?)```", text, re.S)]


BUNDLED = sorted(bundled_dir().glob("*.yaml"))
CHILDREN = sorted(DATA.glob("good/*.yaml")) + sorted(DATA.glob("*.yaml")) + sorted(DATA.glob("unplayable/*.yaml"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The schema as a user gets it: `cardrules schema > ruleset.schema.json`."""
    from click.testing import CliRunner

    from cardrules.cli.main import main

    result = CliRunner().invoke(main, ["schema"], catch_exceptions=False)
    assert result.exit_code == 0
    schema = json.loads(result.output)
    validator = jsonschema.validators.validator_for(schema)
    assert validator is jsonschema.Draft7Validator  # what editors' YAML servers fully support
    validator.check_schema(schema)
    return validator(schema)



def as_editor_reads(text):
    """One file's YAML as JSON values, read as cardrules reads it (a key is its text:
    `on:` is the key 'on', as in YAML 1.2 which editors speak), without `extends` resolved."""
    data, _ = parse_yaml(Source("file.yaml", text))
    return data


def errors(validator, data):
    found = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]
    newer = jsonschema.Draft202012Validator(validator.schema)
    assert bool(found) == (not newer.is_valid(data))  # draft 7 and 2020-12 agree on it
    return found


def test_the_schema_has_a_real_id(exported):
    schema = exported.schema
    assert schema["$id"].startswith("urn:cardrules:") and ".invalid/" not in json.dumps(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_ruleset_matches_the_exported_schema(exported, path):
    assert errors(exported, as_editor_reads(path.read_text())) == []


@pytest.mark.parametrize("path", CHILDREN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_child_files_match_the_exported_schema(exported, path):
    data = as_editor_reads(path.read_text())
    assert "extends" in data  # these are the files that give no required key and may write null
    assert errors(exported, data) == []


def test_the_children_use_what_the_full_schema_refuses(exported):
    """The set above covers what is particular to a child file: a missing required key, a null."""
    texts = [p.read_text() for p in CHILDREN] + tutorial_files()
    assert any(": null" in t for t in texts)
    assert any("family:" not in t for t in texts)


def test_the_tutorials_file_matches_the_exported_schema(exported):
    my_hell = next(body for body in tutorial_files() if body.startswith("# my-hell.yaml"))
    assert "restrictions: null" in my_hell
    assert errors(exported, as_editor_reads(my_hell)) == []


def test_the_language_docs_example_matches_and_names_a_schema_that_exists(exported):
    text = (REPO / "docs" / "ruleset-language.md").read_text()
    body = re.search(r"```yaml\n(.*?)```", text, re.S).group(1)
    first = body.splitlines()[0]
    assert first == "# yaml-language-server: $schema=ruleset.schema.json"
    assert "cardrules schema > ruleset.schema.json" in text
    assert errors(exported, as_editor_reads(body)) == []


@pytest.mark.parametrize("text, where", [
    ("extends: oh-hell\nbidding:\n  restrictons: []\n", "bidding"),
    ("extends: oh-hell\nscoring:\n  pionts: 1\n", "scoring"),
    ("extends: oh-hell\nscorng:\n  points: 1\n", ""),
    ("name: x\nfamily: trick-taking\nplayers: {min: 3, max: 5}\ndeal: {hand_size: 5}\nwinner: highest\n"
     "trump: {kindd: upcard}\n", "trump"),
])
def test_the_schema_refuses_a_misspelt_key(exported, text, where):
    found = errors(exported, as_editor_reads(text))
    assert found, text
    assert any("Additional properties are not allowed" in e for e in found), found


def test_the_misspelt_key_example_is_refused(exported):
    data = as_editor_reads((DATA / "bad" / "misspelt-key.yaml").read_text())
    assert errors(exported, data)


def test_without_extends_the_full_schema_applies(exported):
    assert errors(exported, {"name": "alone"})  # the required keys are required
    data = as_editor_reads((bundled_dir() / "oh-hell.yaml").read_text())
    data["bidding"]["restrictions"] = None  # a null deletes nothing in a file without a parent
    assert errors(exported, data)
    assert errors(exported, {"extends": None, "name": "x"})


def test_null_is_refused_where_the_merge_keeps_it(exported):
    assert not errors(exported, {"extends": "oh-hell", "bidding": {"restrictions": None}})
    assert errors(exported, {"extends": "oh-hell", "notes": [None]})  # inside a list: not a deletion
    assert errors(exported, {"extends": "shanghai", "card_points": {"A": None}})  # card_points replaces whole


def test_every_file_validate_accepts_statically_is_accepted(exported):
    """All the YAML the tests and docs hold: what the loader and schema accept, the editor schema accepts."""
    accepted = 0
    for path in sorted(DATA.rglob("*.yaml")) + BUNDLED:
        try:
            build_ruleset(load_document(path))
        except RulesetError:
            continue
        accepted += 1
        assert errors(exported, as_editor_reads(path.read_text())) == [], path
    assert accepted > len(BUNDLED) + 10


def test_validate_still_checks_the_merged_ruleset(run_cli):
    schema = json.loads(run_cli("schema", "--resolved").output)
    assert schema["required"] and schema["additionalProperties"] is False
    assert schema["$id"] == "urn:cardrules:schema:ruleset"


def test_the_schema_rulesets_are_checked_against_is_itself_valid():
    """The engine checks the schema against JSON Schema only when a family of another
    package adds to it; its own families' schemas are checked here instead."""
    from cardrules.interpreter.ruleset import ruleset_schema

    jsonschema.Draft202012Validator.check_schema(ruleset_schema())


def test_a_family_of_another_package_has_its_schema_checked(monkeypatch):
    from cardrules.interpreter import families, ruleset

    class Outside:  # a family object whose class lives outside cardrules' own families
        name = "outside-family"
        schema = {"properties": {"broken_key": {"type": "no-such-type"}}}

    Outside.__module__ = "someone_elses_package"
    monkeypatch.setattr(families, "all_families", lambda: [*families._REGISTRY.values(), Outside()])
    monkeypatch.setitem(ruleset._cache, "validator", None)
    monkeypatch.setitem(ruleset._cache, "schema", None)
    with pytest.raises(jsonschema.SchemaError):
        ruleset._validator()
