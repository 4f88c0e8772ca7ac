"""Loading rulesets: every stage, from a file or a string to a :class:`Ruleset`.

:func:`load_ruleset` runs every stage (YAML, `extends`, JSON Schema, expressions,
semantic checks) and returns a frozen :class:`~cardrules.interpreter.rules.Ruleset`,
or raises one :class:`RulesetError` listing every problem found, each at its file,
line and column.  The schema is the core schema with every registered family's keys.

>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> rules = ruleset_from_text(EXAMPLE)
>>> rules.family.name, rules.min_players, rules.max_players
('trick-taking', 3, 6)
>>> rules.setup(6).hand_sizes
(8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
"""

from __future__ import annotations

import copy
from dataclasses import replace
import difflib
from pathlib import Path
from typing import Any

import jsonschema

from . import families
from .errors import RulesetError
from .loader import REPLACED_WHOLE, Document, document_from_text, load_document, schema_problems
from .loader import core_schema as _core_schema
from .rules import RulesBuilder, Ruleset

__all__ = ["Ruleset", "build_ruleset", "editor_schema", "load_ruleset", "ruleset_from_text", "ruleset_schema"]

_cache: dict[str, Any] = {}


def _forget() -> None:
    _cache.clear()


families.on_change(_forget)


def ruleset_schema() -> dict[str, Any]:
    """The full JSON Schema of a ruleset: the core keys and every registered family's,
    with ``family`` one of the registered names and each family's required keys."""
    schema = _cache.get("schema")
    if schema is None:
        schema = _core_schema()
        names = families.names()
        schema["properties"]["family"] = {"enum": names, "description": "The game family."}
        conditions = []
        for family in families.all_families():
            fragment = copy.deepcopy(dict(family.schema))
            for key, value in fragment.get("properties", {}).items():
                schema["properties"].setdefault(key, value)
            if fragment.get("required"):
                conditions.append({"if": {"properties": {"family": {"const": family.name}}, "required": ["family"]},
                                   "then": {"required": list(fragment["required"])}})
        if conditions:
            schema["allOf"] = conditions
        _cache["schema"] = schema
    return copy.deepcopy(schema)


EDITOR_SCHEMA_ID = "urn:cardrules:schema:ruleset-file"
# Editors' YAML servers (yaml-language-server: VS Code, Neovim, ...) speak JSON Schema draft 7
# and warn that 2020-12 is "not yet fully supported"; the editor schema uses nothing newer.
EDITOR_DIALECT = "http://json-schema.org/draft-07/schema#"


def editor_schema() -> dict[str, Any]:
    """The JSON Schema of one ruleset file as written, for editors (``cardrules schema``).

    :func:`ruleset_schema` checks the document *after* `extends` is resolved; an editor
    sees one file and cannot know its parent.  So a file without ``extends`` gets the
    full schema, and a file with ``extends`` (a child) gets the same keys with no key
    required (its parent gives them) and ``null`` allowed wherever the merge reads it as
    "delete the inherited key": as the value of any key of a mapping that merges key by
    key (not inside lists, nor inside a table that replaces whole like ``card_points``).
    Unknown keys stay errors in both.  Every file ``validate`` accepts, this accepts.

    >>> schema = editor_schema()
    >>> import jsonschema
    >>> check = jsonschema.Draft7Validator(schema)
    >>> check.is_valid({"extends": "my-parent", "bidding": {"restrictions": None}})
    True
    >>> check.is_valid({"extends": "my-parent", "scoring": {"pionts": 1}})
    False
    >>> check.is_valid({"name": "no-parent"})
    False
    """
    full = ruleset_schema()
    full.pop("$schema")
    described = full.pop("description", "")
    full.pop("$id", None)
    title = full.pop("title", "cardrules ruleset")
    child = _as_child(copy.deepcopy(full), top=True)
    child["properties"]["extends"] = full["properties"]["extends"]  # `extends: null` names no parent
    # The child's keys at the top (what an editor completes); a file without `extends`
    # must also meet the full schema, which allows no null and requires the usual keys.
    return {"$schema": EDITOR_DIALECT, "$id": EDITOR_SCHEMA_ID, "title": f"{title} file",
            "description": f"{described} One ruleset file as written: with 'extends', no key is required and "
                           "null deletes an inherited key (`cardrules validate` checks the merged result).",
            **child,
            "if": {"not": {"required": ["extends"]}}, "then": {"$ref": "#/$defs/ruleset"},
            "$defs": {"ruleset": full}}


def _nullable(schema: Any) -> Any:
    """``schema`` that also accepts null, written into its own keywords where it can (so
    an editor still reports "unknown key 'pionts'" rather than "not valid under anyOf")."""
    if not isinstance(schema, dict) or schema.keys() & {"oneOf", "allOf", "not", "$ref", "if"}:
        return {"anyOf": [{"type": "null"}, schema]}
    out = dict(schema)
    if "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        out["type"] = types + ["null"]
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if "enum" in out:
        out["enum"] = list(out["enum"]) + [None]
    if "anyOf" in out:
        out["anyOf"] = [{"type": "null"}] + out["anyOf"]
    return out


def _as_child(schema: Any, top: bool = False) -> Any:
    """``schema`` relaxed as a child file may write it: see :func:`editor_schema`."""
    if not isinstance(schema, dict):
        return schema
    schema.pop("required", None)
    if top:
        schema.pop("allOf", None)  # each family's required keys: the parent gives them
    for key, value in list(schema.get("properties", {}).items()):
        schema["properties"][key] = _nullable(value if key in REPLACED_WHOLE else _as_child(value))
    if isinstance(schema.get("additionalProperties"), dict):
        schema["additionalProperties"] = _nullable(_as_child(schema["additionalProperties"]))
    for key, value in list(schema.get("patternProperties", {}).items()):
        schema["patternProperties"][key] = _nullable(_as_child(value))
    for alternatives in ("anyOf", "oneOf"):
        if alternatives in schema:
            schema[alternatives] = [_as_child(branch) for branch in schema[alternatives]]
    return schema


# An integer is an int (not a bool, and not a float such as 1e300 that happens to be whole:
# the YAML reader has already turned the whole-number floats a person writes into ints).
_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=_TYPES)


def _validator() -> Any:
    validator = _cache.get("validator")
    if validator is None:
        schema = ruleset_schema()
        # The schema is checked against JSON Schema itself when a family from another
        # package adds to it: cardrules' own families' schemas are checked by the tests
        # (tests/test_editor_schema.py), and checking costs a quarter of a second, which
        # every `cardrules simulate` and `play` would pay at start.
        if any(not type(family).__module__.startswith(_OWN_FAMILIES) for family in families.all_families()):
            jsonschema.Draft202012Validator.check_schema(schema)
        validator = _cache["validator"] = _Validator(schema)
    return validator


_OWN_FAMILIES = __name__.rpartition(".")[0] + ".families."


def _other_keys(name: str) -> frozenset[str]:
    """Keys that only families other than ``name`` use."""
    family = families.get(name)
    own = set(family.schema.get("properties", {})) if family is not None else set()
    others = {k for f in families.all_families() if f.name != name for k in f.schema.get("properties", {})}
    return frozenset(others - own)


def _missing_family(name: str) -> str:
    """Why ``family: name`` names no family here, and how one is installed."""
    broken = families.why_missing(name)
    if broken:
        return f"the game family '{name}' is installed but cannot be used: {broken}"
    known = ", ".join(sorted(families.names()))
    close = difflib.get_close_matches(name, families.names(), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return (f"no game family '{name}' is installed{hint}; the families here are {known} (a family from "
            f"another package is found through its '{families.GROUP}' entry point once that package is "
            "installed)")


def build_ruleset(doc: Document) -> Ruleset:
    """Check a resolved document against the schema and the semantic rules."""
    problems = schema_problems(doc, _validator())
    name = doc.data.get("family")
    family = families.get(name) if isinstance(name, str) else None
    if family is None and isinstance(name, str):
        problems = [replace(p, message=_missing_family(name)) if p.message.startswith("family: ") else p
                    for p in problems]
    if problems:
        # Still look for expression errors, so one run reports everything it can; the
        # builder expects schema-valid data, so it may stop early on a shape it cannot read.
        if family is not None:
            builder = RulesBuilder(doc, family, _other_keys(family.name))
            builder.numbers = False  # the schema's bounds (player counts, sizes) are not to be trusted yet
            try:
                builder.build()
            except Exception:  # noqa: BLE001 - best effort only; the schema problems stand
                pass
            located = {(p.file, p.line, p.column) for p in problems}
            problems += [p for p in builder.problems
                         if p.kind == "expression" and (p.file, p.line, p.column) not in located]
        raise RulesetError(sorted(problems, key=lambda p: (p.file, p.line, p.column)))
    assert family is not None  # the schema allows only registered families
    builder = RulesBuilder(doc, family, _other_keys(family.name))
    ruleset = builder.build()
    if builder.problems:
        raise RulesetError(builder.problems)
    return ruleset


def load_ruleset(ref: str | Path) -> Ruleset:
    """Load a bundled ruleset by name, or a ruleset file by path."""
    return build_ruleset(load_document(ref if isinstance(ref, str) else Path(ref)))


def ruleset_from_text(text: str, name: str = "<text>") -> Ruleset:
    """A ruleset written in a string: the whole pipeline, as for a file."""
    return build_ruleset(document_from_text(text, name))
