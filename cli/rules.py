"""`cardrules validate`, `schema`, `list`, `show` and `explain`: the rulesets themselves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import yaml

from ..interpreter.errors import Problem, RulesetError
from ..interpreter.files import is_file
from ..interpreter.loader import bundled_names, display_name, load_document
from ..interpreter.ruleset import build_ruleset, editor_schema, load_ruleset, ruleset_schema
from .common import InvalidInput, Whole, echo, examples, json_option, open_ruleset

MAX_SHOWN = 100  # problems shown per file: the first hundred, then how many more


@click.command(short_help="Check ruleset files, then play a few games.", epilog=examples(
    "cardrules validate my-variant.yaml", "cardrules validate --no-play rulesets/*.yaml",
    "cardrules validate --json my-variant.yaml oh-hell"))
@click.argument("rulesets", nargs=-1, required=True, metavar="RULESET...")
@json_option("one object listing every file and its problems")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="--format json is --json.")
@click.option("--games", type=Whole(1, 1000), default=2, show_default=True,
              help="Games to play at every player count and mode before saying ok.")
@click.option("--no-play", is_flag=True, help="Only the static checks: play no games.")
def validate(rulesets: tuple[str, ...], as_json: bool, fmt: str, games: int, no_play: bool) -> None:
    """Check ruleset files: YAML syntax, schema, expressions and rules; then play a few
    quick games at every player count and mode, to find rules that cannot be played
    (no legal move or bid, an expression failing at run time, a game that never ends).

    Prints every problem as FILE:LINE:COL: message. Exits 0 when every file is
    valid, 1 when any is not.
    """
    from ..interpreter import playcheck

    fmt = "json" if as_json else fmt
    results: list[dict[str, Any]] = []
    for ref in rulesets:
        problems: list[Problem] = []
        play_warnings: list[Problem] = []
        unplayed = ""  # the player counts and modes no game could be played in, in words
        info: dict[str, Any] = {}
        rules = None
        try:
            rules = build_ruleset(load_document(Path(ref) if is_file(ref) else ref))
            info = {"name": rules.name, "family": rules.family.name,
                    "players": [rules.min_players, rules.max_players]}
            if rules.refusals:  # the counts and modes play refuses (a warning says why)
                info["refused"] = [{"players": n, "mode": m if m != rules.mode else None}
                                   for n, m in sorted(rules.refusals, key=lambda s: (s[1] or "", s[0]))]
            if not no_play:
                report = playcheck.check_by_playing(rules, games=games)
                problems = report.problems
                play_warnings = report.warnings
                info["played"] = report.games
                if report.skipped:
                    info["not_played"] = report.skipped
                if report.unplayed:  # said plainly: validate could not keep its promise to play
                    info["unplayed"] = [{"players": n, "mode": m} for n, m in report.unplayed]
                    unplayed = report.unplayed_words()
                    play_warnings.insert(0, Problem(
                        display_name(Path(ref)) if is_file(ref) else ref, 0, 0,
                        f"not played {unplayed}: no game finished within the "
                        f"{playcheck.MOVES:,} moves the play check plays, so these were "
                        "checked only as written", "play"))
        except RulesetError as exc:
            problems = exc.problems
        shown = display_name(Path(ref)) if is_file(ref) else ref
        warnings = list(rules.warnings) + play_warnings if not problems and rules is not None else []
        results.append({"file": shown, "valid": not problems, **info,
                        **({"warnings": [w.as_dict() for w in warnings[:MAX_SHOWN]]} if warnings else {}),
                        "problems": [p.as_dict() for p in problems[:MAX_SHOWN]],
                        **({"more_problems": len(problems) - MAX_SHOWN} if len(problems) > MAX_SHOWN else {})})
        if fmt == "text":
            if problems:
                for problem in problems[:MAX_SHOWN]:
                    echo(problem.format())
                if len(problems) > MAX_SHOWN:
                    echo(f"{shown}: and {len(problems) - MAX_SHOWN} more problems")
            else:
                for warning in warnings[:MAX_SHOWN]:
                    echo(warning.format().replace(": ", ": warning: ", 1))
                played = "" if no_play else f"; {info['played']} games played" + (
                    f", {info['not_played']} left out at the limit of moves" if info.get("not_played") else "")
                verdict = f"valid as written, but not played {unplayed}" if unplayed else "ok"
                echo(f"{shown}: {verdict} ({info['family']}, {info['players'][0]}-{info['players'][1]} "
                     f"players{played})")
    if fmt == "json":
        echo(json.dumps({"valid": all(r["valid"] for r in results), "files": results}, indent=2))
    invalid = sum(1 for r in results if not r["valid"])
    if fmt == "text" and invalid:
        count = sum(len(r["problems"]) + r.get("more_problems", 0) for r in results)
        echo(f"{count} problem{'s' if count != 1 else ''} in {invalid} of {len(results)} "
                   f"file{'s' if len(results) != 1 else ''}", err=True)
    if invalid:
        raise InvalidInput()


@click.command(short_help="Print the JSON Schema of a ruleset file.", epilog=examples(
    "cardrules schema > ruleset.schema.json", "cardrules schema --resolved"))
@click.option("--resolved", is_flag=True,
              help="The schema `validate` checks a ruleset against after `extends` is resolved, instead of "
                   "the one for a file as written.")
def schema(resolved: bool) -> None:
    """Print the JSON Schema of a ruleset file, for editors.

    Save it next to your rulesets and name it in the file's first line:
    `# yaml-language-server: $schema=ruleset.schema.json`. It checks one file as
    written: with `extends` no key is required and `null` deletes an inherited key.
    `validate` checks the merged result against the --resolved schema.
    """
    echo(json.dumps(ruleset_schema() if resolved else editor_schema(), indent=2))


@click.command(name="list", short_help="List the bundled rulesets.", epilog=examples(
    "cardrules list", "cardrules list --json"))
@json_option("a list of objects: name, title, family, players [min, max], description, valid")
def list_(as_json: bool) -> None:
    """List the bundled rulesets, one line each: name, family, player counts and
    description."""
    found: list[dict[str, Any]] = []
    for name in bundled_names():
        try:
            rules = load_ruleset(name)
        except RulesetError:
            found.append({"name": name, "valid": False})
            if not as_json:
                echo(f"{name:24} (invalid: run `cardrules validate {name}`)")
            continue
        found.append({"name": name, "title": rules.title, "family": rules.family.name,
                      "players": [rules.min_players, rules.max_players], "description": rules.description,
                      "valid": True})
        if not as_json:
            echo(f"{name:24} {rules.family.name:14} {rules.min_players}-{rules.max_players}p  "
                 f"{rules.description}")
    if as_json:
        echo(json.dumps(found, indent=2))


@click.command(short_help="Print a ruleset fully resolved.", epilog=examples(
    "cardrules show oh-hell", "cardrules show my-variant.yaml --json"))
@click.argument("ruleset")
@json_option("the resolved ruleset")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True,
              help="--format json is --json.")
def show(ruleset: str, as_json: bool, fmt: str) -> None:
    """Print RULESET fully resolved (after `extends`)."""
    fmt = "json" if as_json else fmt
    rules = open_ruleset(ruleset)
    order = list(ruleset_schema()["properties"])
    data = {"name": rules.name, **rules.data}
    data = dict(sorted(data.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
    if fmt == "json":
        echo(json.dumps(data, indent=2))
    else:
        echo(f"# {rules.title}: resolved from {' <- '.join(rules.document.chain)}")
        echo(f"# sha256 {rules.sha256}")
        echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), nl=False)


@click.command(short_help="Print a ruleset's rules in words.", epilog=examples(
    "cardrules explain oh-hell", "cardrules explain my-variant.yaml > rules.md",
    "cardrules explain --notes my-variant.yaml",
    "cardrules explain shanghai-isra --json"))
@click.argument("ruleset")
@json_option("the name, title, family, players, sha256, the whole Markdown text and its sections")
@click.option("--notes", is_flag=True, help="Also the source in full, each rule's formula and the readings "
              "chosen where the source is unclear (for authors).")
def explain(ruleset: str, as_json: bool, notes: bool) -> None:
    """Print RULESET's rules in words (Markdown), generated from the resolved ruleset:
    rules for players; --notes adds what an author wants to check."""
    from ..interpreter.explain import explain as explain_rules

    rules = open_ruleset(ruleset)
    text = explain_rules(rules, notes=notes)
    if not as_json:
        echo(text, nl=False)
        return
    echo(json.dumps({"name": rules.name, "title": rules.title, "family": rules.family.name,
                     "players": [rules.min_players, rules.max_players], "sha256": rules.sha256,
                     "markdown": text, "sections": markdown_sections(text)}, indent=2))


def markdown_sections(text: str) -> list[dict[str, Any]]:
    """``text`` cut at its headings: [{"heading", "level", "text"}], the part before
    the first heading under the heading "" of level 0."""
    sections: list[dict[str, Any]] = []
    lines: list[str] = []
    heading, level = "", 0
    for line in text.splitlines() + ["# "]:
        if line.startswith("#"):
            if heading or any(part.strip() for part in lines):
                sections.append({"heading": heading, "level": level, "text": "\n".join(lines).strip()})
            heading, level, lines = line.lstrip("#").strip(), len(line) - len(line.lstrip("#")), []
        else:
            lines.append(line)
    return sections
