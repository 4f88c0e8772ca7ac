"""`cardrules replay`: re-execute a game record and check its totals."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..interpreter.errors import RecordError
from ..interpreter.record import replay as replay_record
from .common import InvalidInput, echo, examples, json_option


@click.command(short_help="Re-execute a game record, check its totals.", epilog=examples(
    "cardrules replay game.jsonl", "cardrules replay game.jsonl --json",
    "cardrules replay game.jsonl --ruleset my-variant.yaml --ignore-hash"))
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--ruleset", help="Replay under this ruleset instead of the one the record names.")
@click.option("--ignore-hash", is_flag=True, help="Replay even if the ruleset changed since the game.")
@json_option("the result: valid, complete, events, totals, winners (or valid, line, error)")
@click.option("--any-deal", is_flag=True, help="Take the record's deals and draws as they are, instead of "
              "checking them against its seed (a record written by another program).")
def replay(record: Path, ruleset: str | None, ignore_hash: bool, as_json: bool, any_deal: bool) -> None:
    """Re-execute a game record and confirm its final totals (exit 1 at the first bad line).

    Every deal, card drawn and chance event must be the one the record's seed gives,
    so a record that was changed is found (--any-deal skips that check)."""
    try:
        result = replay_record(record, ruleset, check_hash=not ignore_hash, check_deals=not any_deal)
    except RecordError as exc:
        if as_json:
            echo(json.dumps({"valid": False, "line": exc.line, "error": str(exc)}))
            raise InvalidInput() from None
        where = f"{record}:{exc.line}" if exc.line else str(record)
        raise InvalidInput(f"{where}: {str(exc).split(': ', 1)[1] if exc.line else exc}") from None
    state = result.state
    names = state.names
    if as_json:
        echo(json.dumps({"valid": True, "complete": result.complete, "events": result.lines,
                               "totals": state.totals, "winners": state.winners if state.is_over else []}))
        return
    if not result.complete:
        where = ("the record stops before its last events" if state.is_over else
                 f"the record stops in round {state.round} of {state.rounds}")
        echo(f"{record}: {result.lines} lines replay legally, but the game is not finished: {where}")
        return
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, state.totals))
    winners = ", ".join(names[s] for s in state.winners)
    echo(f"{record}: ok, {result.lines} lines, {state.round_index} rounds; "
               f"totals: {totals}; winner: {winners}")
