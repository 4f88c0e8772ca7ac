"""``cardrules``: validate, inspect, play, replay and simulate rulesets.

Outcomes turn into exit codes here and only here: 0 success, 1 a problem with the
user's input (an invalid ruleset, a record that does not replay), 2 a usage error,
130 an interrupt, 3 an internal error.  Commands raise an outcome (see
``cli/common.py``) and never call ``sys.exit`` themselves.  No input, however broken,
produces a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click
import yaml

from ..interpreter.errors import CardrulesError, Problem, RulesetError
from ..interpreter.files import is_file
from ..interpreter.loader import bundled_names, display_name, load_document
from ..interpreter.ruleset import build_ruleset, editor_schema, load_ruleset, ruleset_schema
from . import games
from .common import InvalidInput, Outcome, UsageProblem, Whole, echo, open_ruleset

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
MAX_SHOWN = 100  # problems shown per file: the first hundred, then how many more


def _exit(message: str, code: int) -> NoReturn:
    if message:
        echo(f"cardrules: {message}", err=True)
    sys.exit(code)


class _Group(click.Group):
    """A click group that turns every outcome into its exit code, and never shows a
    traceback for an unexpected error."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except InvalidInput as exc:
            _exit(exc.message, EXIT_INVALID)
        except UsageProblem as exc:
            _exit(exc.message, EXIT_USAGE)
        except Outcome as exc:
            _exit(exc.message, EXIT_INVALID)
        except CardrulesError as exc:
            _exit(str(exc), EXIT_INVALID)
        except KeyboardInterrupt:
            _exit("interrupted", EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as exc:  # noqa: BLE001 - the promise is: never a traceback
            _exit(f"internal error ({type(exc).__name__}: {exc}); please report it", EXIT_INTERNAL)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardrules")
def main() -> None:
    """Card game rules as data: validate, play and simulate house-rule variants.

    RULESET is everywhere a bundled ruleset name (see `cardrules list`) or a path.
    """


@main.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="RULESET...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one object listing every file and its problems.")
@click.option("--games", type=Whole(1, 1000), default=2, show_default=True,
              help="Games to play at every player count and mode before saying ok.")
@click.option("--no-play", is_flag=True, help="Only the static checks: play no games.")
def validate(rulesets: tuple[str, ...], fmt: str, games: int, no_play: bool) -> None:
    """Check ruleset files: YAML syntax, schema, expressions and rules; then play a few
    quick games at every player count and mode, to find rules that cannot be played
    (no legal move or bid, an expression failing at run time, a game that never ends).

    Prints every problem as FILE:LINE:COL: message. Exits 0 when every file is
    valid, 1 when any is not.
    """
    from ..interpreter.playcheck import check_by_playing

    results: list[dict[str, Any]] = []
    for ref in rulesets:
        problems: list[Problem] = []
        info: dict[str, Any] = {}
        rules = None
        try:
            rules = build_ruleset(load_document(Path(ref) if is_file(ref) else ref))
            info = {"name": rules.name, "family": rules.family.name,
                    "players": [rules.min_players, rules.max_players]}
            if not no_play:
                report = check_by_playing(rules, games=games)
                problems = report.problems
                info["played"] = report.games
                if report.skipped:
                    info["not_played"] = report.skipped
        except RulesetError as exc:
            problems = exc.problems
        shown = display_name(Path(ref)) if is_file(ref) else ref
        warnings = list(rules.warnings) if not problems and rules is not None else []
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
                    f", {info['not_played']} left out at the time limit" if info.get("not_played") else "")
                echo(f"{shown}: ok ({info['family']}, {info['players'][0]}-{info['players'][1]} players{played})")
    if fmt == "json":
        echo(json.dumps({"valid": all(r["valid"] for r in results), "files": results}, indent=2))
    invalid = sum(1 for r in results if not r["valid"])
    if fmt == "text" and invalid:
        count = sum(len(r["problems"]) + r.get("more_problems", 0) for r in results)
        echo(f"{count} problem{'s' if count != 1 else ''} in {invalid} of {len(results)} "
                   f"file{'s' if len(results) != 1 else ''}", err=True)
    if invalid:
        raise InvalidInput()


@main.command()
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


@main.command(name="list")
def list_() -> None:
    """List the bundled rulesets, one line each."""
    for name in bundled_names():
        try:
            rules = load_ruleset(name)
            echo(f"{name:24} {rules.family.name:14} {rules.min_players}-{rules.max_players}p  "
                       f"{rules.description}")
        except RulesetError:
            echo(f"{name:24} (invalid: run `cardrules validate {name}`)")


@main.command()
@click.argument("ruleset")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
def show(ruleset: str, fmt: str) -> None:
    """Print RULESET fully resolved (after `extends`)."""
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


@main.command()
@click.argument("ruleset")
def explain(ruleset: str) -> None:
    """Print RULESET's rules in words (Markdown), generated from the resolved ruleset."""
    from ..interpreter.explain import explain as explain_rules

    echo(explain_rules(open_ruleset(ruleset)), nl=False)


for _command in games.COMMANDS:
    main.add_command(_command)
