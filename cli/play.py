"""`cardrules play`, `resume` and `saves`: games at the terminal, and the saved ones."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import click

from ..interpreter.files import FileRefused, check_folder, check_writable, is_file
from ..interpreter.game import new_game
from .common import InvalidInput, UsageProblem, color_option, echo, examples, json_option, open_ruleset
from ..narration.render import Renderer
from ..interpreter.saves import (SaveError, bot_policies, default_save_dir, list_saves, new_header,
                      read_save, repair, restore, retire)
from .table import SEED, parse_names, parse_seats, play_session, refuse_unplayable, seat_names

BOT_PAUSE = 0.3  # seconds after each bot's move when a person plays: time to read it


@click.command(short_help="Play a ruleset at the terminal.", epilog=examples(
    "cardrules play oh-shit", "cardrules play shanghai-isra --seats human,human,bot --ascii",
    "cardrules play oh-hell --seats bot,bot,bot,bot --seed 5 --record game.jsonl",
    "cardrules play oh-shit --seats human,human,bot --names Ann,Bob,Robot"))
@click.argument("ruleset")
@click.option("--seats", help="Comma-separated seat kinds (human, random, bot, search, search:N); their number "
              "is the player count. Default: you and bots.")
@click.option("--seed", type=SEED, help="Seed for the deal (default: a random one, printed).")
@click.option("--record", "record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game record (JSON Lines) to this file.")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game after every action to this file (default for games with people: "
                   "RULESET-SEED.jsonl in the saves folder; see `cardrules saves`).")
@click.option("--names", "names_text", help="Comma-separated names for the seats, in seat order, one a seat "
              "(default: you, bot-1, ...; player-0, ... when several people play).")
@click.option("--mode", help="Play one of the ruleset's modes (a subset of its rounds).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain letters for suits.")
@click.option("--fast", is_flag=True, help="No pause after the bots' moves (--pause 0).")
@click.option("--pause", type=click.FloatRange(0, 60), default=BOT_PAUSE, show_default=True, metavar="SECONDS",
              help="How long the table waits after each bot's move when a person plays (Enter skips the "
                   "waits until your turn).")
@click.option("--no-autoplay", is_flag=True, help="Ask even when only one card can be played (by default "
              "it is played for you, with a line saying so).")
@click.option("--quiet", is_flag=True, help="Only the final result.")
@color_option()
def play(ruleset: str, seats: str | None, seed: int | None, record: Path | None, save: Path | None,
         names_text: str | None, mode: str | None, ascii_only: bool, fast: bool, pause: float, no_autoplay: bool,
         quiet: bool) -> None:
    """Play RULESET: people at the terminal against bots, or bots alone."""
    rules = open_ruleset(ruleset)
    if mode is not None and mode not in rules.modes:
        raise UsageProblem(f"{rules.name} has no mode '{mode}'" + (f" (modes: {', '.join(rules.modes)})"
                                                                   if rules.modes else ""))
    kinds = parse_seats(seats, rules, default_human=True)
    refuse_unplayable(rules, len(kinds), mode)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big") % 1_000_000
    names = seat_names(kinds) if names_text is None else parse_names(names_text, kinds)
    ref = ruleset if is_file(ruleset) else None
    state = new_game(rules, len(kinds), seed, names, mode, ref)
    humans = "human" in kinds
    if record is not None and save is not None and record.resolve() == save.resolve():
        raise UsageProblem("--record and --save must be two files: a save is not a record")
    for given, what in ((record, "--record file"), (save, "--save file")):
        if given is not None:  # never overwrite what the user has; find out now, not after the game
            try:
                check_writable(given, what)
            except FileRefused as exc:
                hint = f" (or continue that game: cardrules resume {given})" if given == save and exc.exists else ""
                raise UsageProblem(f"{exc}{hint}") from None
    if save is None and humans:
        folder = default_save_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            check_folder(folder)
        except (OSError, FileRefused) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise InvalidInput(f"cannot save games in {folder}: {reason} (set CARDRULES_SAVES to another folder, "
                               "or choose the file with --save)") from None
        save = folder / f"{rules.name}-{seed}.jsonl"
        number = 1
        while save.exists():  # an earlier game with this seed may be waiting to be resumed
            number += 1
            save = folder / f"{rules.name}-{seed}-{number}.jsonl"
    renderer = Renderer(names, rules, mode=mode, ascii_only=ascii_only, quiet=quiet, narrate=humans,
                        private_seat=kinds.index("human") if list(kinds).count("human") == 1 else None)
    policies: list[Any] = bot_policies(rules, kinds, seed)
    if not quiet:
        echo(f"{rules.title} ({rules.name}), {len(kinds)} players, seed {seed}")
    header = new_header(rules, ref, seed, mode, kinds, names)
    play_session(state, kinds, policies, renderer, save, header, record, 0.0 if fast or not humans else pause,
                 autoplay=not no_autoplay)


@click.command(short_help="Continue a saved game.", epilog=examples(
    "cardrules resume", "cardrules resume ~/games/friday.jsonl --fast", "cardrules resume --ignore-hash"))
@click.argument("save", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--record", "record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game record (JSON Lines) to this file.")
@click.option("--ignore-hash", is_flag=True, help="Resume even if the ruleset changed since the game was saved "
              "(the saved moves must still be legal under it).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain letters for suits.")
@click.option("--fast", is_flag=True, help="No pause after the bots' moves (--pause 0).")
@click.option("--pause", type=click.FloatRange(0, 60), default=BOT_PAUSE, show_default=True, metavar="SECONDS",
              help="How long the table waits after each bot's move when a person plays (Enter skips the "
                   "waits until your turn).")
@click.option("--no-autoplay", is_flag=True, help="Ask even when only one card can be played (by default "
              "it is played for you, with a line saying so).")
@color_option()
def resume(save: Path | None, record: Path | None, ignore_hash: bool, ascii_only: bool, fast: bool, pause: float,
           no_autoplay: bool) -> None:
    """Continue a saved game exactly where it stopped: SAVE, or without it the latest
    game in `cardrules saves`."""
    if save is None:
        waiting = [entry for entry in list_saves()
                   if entry.problem is None or (ignore_hash and entry.ruleset_changed)]
        if not waiting:
            raise UsageProblem(f"no saved game to resume in {default_save_dir()} (`cardrules saves` lists them)")
        save = waiting[0].path
        echo(f"(resuming {save})")
    if record is not None:
        if record.resolve() == save.resolve():
            raise UsageProblem("--record must be another file than the save")
        try:
            check_writable(record, "--record file")
        except FileRefused as exc:
            raise UsageProblem(str(exc)) from None
    try:
        saved = read_save(save)
        seats: list[int] = []
        state, rules, policies = restore(saved, check_hash=not ignore_hash, move_seats=seats)
    except SaveError as exc:
        raise InvalidInput(str(exc)) from None
    kinds, names = saved.header["seats"], saved.header["names"]
    if saved.dropped_torn_line:
        echo("(the last action was being saved when the game stopped; it was not kept)")
    if rules.sha256 != saved.header.get("ruleset_sha256"):
        echo("(the ruleset has changed since this game was saved; playing on under the rules as they are now)")
    if state.is_over:
        echo("That game is over.")
        Renderer(names, rules, mode=state.mode, ascii_only=ascii_only).final(
            state.event_views(None, state.event_count - 1)[0])
        retire(save)
        return
    echo(f"{rules.title} ({rules.name}), seed {saved.header['seed']}: resuming at round {state.round} "
               f"after {len(saved.moves)} moves")
    renderer = Renderer(names, rules, mode=state.mode, ascii_only=ascii_only, narrate="human" in kinds,
                        private_seat=list(kinds).index("human") if list(kinds).count("human") == 1 else None)
    renderer.catch_up_state(state)
    if saved.dropped_torn_line:  # rewrite the file without the torn line
        repair(save, saved)
    play_session(state, kinds, policies, renderer, save, None, record,
                 0.0 if fast or "human" not in kinds else pause, autoplay=not no_autoplay, game=saved.header,
                 moves=list(zip(seats, saved.moves)))


@click.command(short_help="List the saved games waiting to be resumed.", epilog=examples(
    "cardrules saves", "cardrules saves --json", "cardrules resume"))
@json_option("a list of objects: file, ruleset, seed, mode, seats, names, round, rounds, moves, saved, "
             "resumable, ruleset_changed (and problem)")
def saves(as_json: bool) -> None:
    """List the games in the saves folder that are not finished, the latest first:
    ruleset, players, round, and when each was last saved. `cardrules resume` continues
    the first. The folder is $CARDRULES_SAVES if set, else
    $XDG_DATA_HOME/cardrules/saves (~/.local/share/cardrules/saves); a finished game's
    save moves to its `finished` folder."""
    entries = list_saves()
    if as_json:
        echo(json.dumps([entry.as_dict() for entry in entries], indent=2))
        return
    folder = default_save_dir()
    if not entries:
        echo(f"No saved games in {folder}.")
        return
    echo(f"Saved games in {folder}, the latest first:")
    for entry in entries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.modified))
        header = entry.header
        if header:
            players = ", ".join(f"{name}" if kind == "human" or name.startswith(kind) else f"{name} ({kind})"
                                for name, kind in zip(header["names"], header["seats"]))
            mode = f" ({header['mode']})" if header.get("mode") else ""
            where = f"round {entry.round} of {entry.rounds}" if entry.round is not None else "round unknown"
            echo(f"  {entry.path.name}")
            echo(f"    {header['ruleset']}{mode}, seed {header['seed']}; {players}; {where}; saved {when}")
        else:
            echo(f"  {entry.path.name}")
            echo(f"    saved {when}")
        if entry.ruleset_changed:
            echo("    (its ruleset has changed since: `cardrules resume --ignore-hash` plays on under the new rules)")
        elif entry.problem:
            echo(f"    (cannot be resumed: {entry.problem})")
