"""``cardrules``: validate, inspect, play, replay and simulate rulesets.

Outcomes turn into exit codes here and only here: 0 success, 1 a problem with the
user's input (an invalid ruleset, a record that does not replay), 2 a usage error,
130 an interrupt, 3 an internal error.  Commands raise an outcome (see
``cli/common.py``) and never call ``sys.exit`` themselves.  No input, however broken,
produces a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, NoReturn

import click

from ..interpreter.errors import CardrulesError, one_line
from ..narration.output import echo
from .common import Interrupted, InvalidInput, Outcome, UsageProblem, examples

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
# Each command, by the module that defines it: imported only when it runs (or for
# --help), so `cardrules --version` and a command's start do not pay for the others.
COMMANDS: dict[str, str] = {
    "validate": "rules:validate", "schema": "rules:schema", "list": "rules:list_", "show": "rules:show",
    "explain": "rules:explain",
    "play": "play:play", "resume": "play:resume", "saves": "play:saves", "replay": "replay:replay",
    "simulate": "stats:simulate", "compare": "stats:compare_command", "serve": "serve:serve",
}


def _exit(message: str, code: int) -> NoReturn:
    if message:  # one line, whatever it quotes (a path, a record's text)
        echo(f"cardrules: {one_line(message)}", err=True)
    sys.exit(code)


class _Group(click.Group):
    """A click group that turns every outcome into its exit code, and never shows a
    traceback for an unexpected error; its commands are loaded as they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        where = COMMANDS.get(name)
        if where is None:
            return None
        module, _, attr = where.partition(":")
        command: click.Command = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except click.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):  # Ctrl-C at a click prompt
                _exit("interrupted", EXIT_INTERRUPTED)
            raise
        except Interrupted as exc:
            _exit(exc.message or "interrupted", EXIT_INTERRUPTED)
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


def color_setting(flag: bool | None, environ: Any = None) -> bool | None:
    """Colour: --color/--no-color if given, else off when NO_COLOR is set to anything
    (https://no-color.org), else None (click's own choice: colour on a terminal)."""
    if flag is not None:
        return flag
    return False if (environ if environ is not None else os.environ).get("NO_COLOR") else None


@click.group(cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=examples("cardrules list", "cardrules play oh-shit", "cardrules validate my-variant.yaml",
                             "cardrules saves", "cardrules COMMAND --help"))
@click.version_option(package_name="cardrules")
@click.option("--color/--no-color", "color", default=None,
              help="Colour (red hearts and diamonds) even when not at a terminal, or never. Default: on a "
                   "terminal, unless NO_COLOR is set.")
@click.pass_context
def main(ctx: click.Context, color: bool | None) -> None:
    """Card game rules as data: validate, play and simulate house-rule variants.

    RULESET is everywhere a bundled ruleset name (see `cardrules list`) or a path.
    """
    ctx.color = color_setting(color)
    if ctx.invoked_subcommand is None:
        echo(ctx.get_help())
