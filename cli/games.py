"""`cardrules play`, `replay` and `simulate`."""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import click

from ..interpreter.bots import check_seat_kind, seat_kinds
from ..interpreter.driver import play_out
from ..interpreter.errors import EvaluationError, IllegalActionError, RecordError
from ..interpreter.files import FileRefused, check_folder, check_writable, is_file
from ..interpreter.game import GameState, new_game
from ..interpreter.record import replay as replay_record
from ..interpreter.record import save_record
from ..interpreter.rules import Ruleset
from ..interpreter.search import is_search_kind
from ..interpreter.simulate import ClusterUnavailable, open_cluster, run_games, statistics
from ..interpreter.textio import parse_input
from .common import (Interrupted, InvalidInput, UsageProblem, Whole, color_option, echo, examples, json_option,
                     open_ruleset, prompt)
from .exports import (check_output, csv_bytes, need_matplotlib, plot_differences, plot_format, plot_totals,
                      write_output)
from .families import view_for
from .render import Renderer
from .session import (SavedGame, SaveError, SaveWriter, bot_policies, default_save_dir, list_saves, new_header,
                      read_save, repair, restore, retire)


# Seeds are never negative (interpreter.game.seed_problem); at most 2^62, so that simulate's
# seed + i stays a seed.
SEED = Whole(0, 1 << 62, " (a seed is 0 or more: a negative seed would deal as its positive)")


def parse_seats(text: str | None, rules: Ruleset, default_human: bool) -> list[str]:
    if text is None:
        count = min(max(rules.min_players, 4), rules.max_players)
        return (["human"] if default_human else ["bot"]) + ["bot"] * (count - 1)
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    kinds = ("human",) + seat_kinds(rules)
    for s in seats:
        if s == "human":
            continue
        try:
            check_seat_kind(rules, s)
        except ValueError as exc:
            if s.startswith("search:"):
                raise UsageProblem(str(exc)) from None
            raise UsageProblem(f"unknown seat kind '{s}'; use {', '.join(kinds)}") from None
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise UsageProblem(f"{rules.name} is for {rules.min_players} to {rules.max_players} players; "
                           f"--seats gives {len(seats)}")
    return seats


def seat_names(seats: Sequence[str]) -> list[str]:
    humans = seats.count("human")
    names = []
    for i, kind in enumerate(seats):
        if kind == "human":
            names.append("you" if humans == 1 else f"player-{i}")
        else:
            names.append(f"{kind.partition(':')[0]}-{i}")  # search:300 plays as search-1
    return names


def parse_names(text: str, seats: Sequence[str]) -> list[str]:
    """--names: one name a seat, in seat order, for people and bots alike."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != len(seats):
        raise UsageProblem(f"--names gives {len(names)} name{'s' if len(names) != 1 else ''} for {len(seats)} "
                           "seats; give one name a seat, in seat order (e.g. --names " +
                           ",".join(["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:len(seats)]) + ")")
    for name in names:
        if not name:
            raise UsageProblem("--names has an empty name")
        if len(name) > 20 or not name.isprintable():
            raise UsageProblem(f"--names: '{name[:40]}' is not a usable name (up to 20 printable characters)")
    if len({n.lower() for n in names}) != len(names):
        raise UsageProblem("--names gives the same name twice; each seat needs its own")
    return names


class Thinking:
    """A bot that takes a while (a search seat): "Cy is thinking..." is shown on the
    terminal while it chooses, and wiped once it has (nothing when not a terminal)."""

    def __init__(self, policy: Any, name: str):
        self.policy = policy
        self.kind = policy.kind
        self.needs_observation = policy.needs_observation
        self.name = name

    def act(self, obs: Any, legal: Any) -> Any:
        shown = len(legal) > 1 and sys.stdout.isatty()
        if shown:
            echo(f"  {self.name} is thinking…", nl=False)
        try:
            return self.policy.act(obs, legal)
        finally:
            if shown:
                click.echo("\r\033[K", nl=False)


class HumanSeat:
    """A person at the terminal: a plain prompt that shows the table, explains refusals
    and asks again.  It sees what the seat may see: its observation and the legal moves."""

    kind = "human"
    needs_observation = True

    def __init__(self, rules: Ruleset, renderer: Renderer, hot_seat: bool, autoplay: bool = True,
                 typed: list[str] | None = None):
        self.rules = rules
        self.renderer = renderer
        self.hot_seat = hot_seat  # several people share the screen
        self.autoplay = autoplay  # a move that is the only one possible is made for the person
        self.typed = typed if typed is not None else []  # lines typed while the bots played, oldest first
        self._asking_again = False
        self.undone = False  # a move was just taken back

    def act(self, obs: Any, legal: Any) -> Any:
        seat = obs.seat
        undone, self.undone = self.undone, False
        if self.autoplay and not self._asking_again and not undone and not self.typed:
            forced = self.renderer.view.forced(obs, legal)
            if forced is not None:
                self.renderer.show_round_header()
                echo(f"  (only {forced} can be played: played for {self.renderer.names[seat]})")
                return legal[0]
        if not self._asking_again:
            if self.hot_seat and self.renderer.last_human != seat:
                if self.typed:  # typed before the screen changed hands: not this person's
                    echo(f"  (not used, typed before the screen was passed: {', '.join(self.typed)})")
                    self.typed.clear()
                click.clear()
                prompt(f"Pass the screen to {self.renderer.names[seat]} and press Enter", default="",
                             show_default=False, prompt_suffix=" ")
            self.renderer.last_human = seat
            self.renderer.show_table(obs)
        self._asking_again = False
        while True:
            text = self.renderer.prompt_text(obs, legal)
            if self.typed:  # typed while the bots played: the answer to this prompt
                line = self.typed.pop(0)
                echo(f"{text} > {line}")
            else:
                line = prompt(text, prompt_suffix=" > ", default="", show_default=False)
            word = line.strip().lower()
            if word in ("quit", "exit", "q", "save"):
                raise Quit()
            if word in ("help", "?"):
                self.renderer.show_help()
                continue
            if word in ("hand", "table", "look"):
                self.renderer.show_table(obs)
                continue
            if word in ("undo", "take back"):
                raise TakeBack()
            if word == "hint":
                self.renderer.show_hint(obs, legal)
                continue
            if word in ("last", "last trick", "last turn"):
                self.renderer.show_last()
                continue
            if word in ("score", "scores"):
                self.renderer.show_scores(obs)
                continue
            if word in ("rules", "explain"):
                self.renderer.show_rules()
                continue
            try:
                return parse_input(self.rules, obs, line)
            except IllegalActionError as exc:
                echo(f"  {self.renderer.refusal(str(exc))}")

    def refused(self, action: Any, error: IllegalActionError) -> None:
        """The engine refused ``action``: say why; the driver asks again."""
        echo(f"  {self.renderer.refusal(str(error))}")
        self._asking_again = True


class TakeBack(Exception):
    """The person asked to take back their last action (`undo`)."""


class Quit(Exception):
    """The person at the table stopped the game (quit, end of input, Ctrl-C, hang-up)."""


def _hang_up(signum: int, frame: Any) -> None:
    raise Quit()


def _pause(seconds: float, typed: list[str]) -> bool:
    """Wait a moment after a bot's move so a person can follow; a line typed meanwhile
    skips the pauses until the person's next turn (True), and unless it is empty (Enter
    alone) it is kept in ``typed`` as the answer to that turn's prompt.  Without a
    terminal it just sleeps."""
    if sys.stdin.isatty() and hasattr(select, "select"):
        ready, _, _ = select.select([sys.stdin], [], [], seconds)
        if ready:
            line = sys.stdin.readline()
            if not line:  # end of input: the prompt will say so
                return True
            if line.strip():
                typed.append(line.rstrip("\r\n"))
            return True
        return False
    time.sleep(seconds)
    return False


def _write_record(state: GameState, record: Path) -> None:
    try:
        save_record(state, record)
    except FileExistsError:
        raise InvalidInput(f"{record} appeared while the game was played; the record was not written over it") \
            from None
    except OSError as exc:
        raise InvalidInput(f"cannot write {record}: {exc.strerror or exc}") from None


class TableHooks:
    """What the table does around the driver loop: save each seat action, pause after
    the bots' moves so a person can follow, and show events as they happen."""

    def __init__(self, kinds: Sequence[str], renderer: Renderer, writer: SaveWriter | None, pause: float,
                 typed: list[str] | None = None):
        self.kinds = kinds
        self.typed = typed if typed is not None else []  # lines typed during the pauses, for the next prompt
        self.renderer = renderer
        self.writer = writer
        self.pause = pause
        self.skip_pauses = False  # Enter during the bots' moves skips their pauses until your turn
        self.moves: list[tuple[int, str]] = []  # (seat, move) of every seat action so far, for `undo`
        self.state: GameState | None = None  # the game being played

    def on_action(self, seat: int, action: Any) -> None:
        self.moves.append((seat, str(action)))
        if self.writer is not None:
            self.writer.action(str(action))
        if self.kinds[seat] == "human":
            self.skip_pauses = False
        elif self.pause and not self.skip_pauses and not getattr(action, "quiet", False):
            self.skip_pauses = _pause(self.pause, self.typed)

    def on_event(self, event: dict[str, Any]) -> None:
        # not the event itself (the record's): the engine's view of it for the table's seat
        assert self.state is not None
        self.renderer.follow(self.state)


def take_back(state: GameState, policies: list[Any], hooks: TableHooks, game: dict[str, Any]) -> \
        tuple[GameState, list[Any]]:
    """`undo`: take back the person's last action and the bots' replies after it.  Only
    for one person against bots (with several people, one would take back another's
    move).  The save records the undo; the game is rebuilt from the seed and the moves
    left, so the bots' random state, the record and replay stay exact."""
    humans = [seat for seat, kind in enumerate(hooks.kinds) if kind == "human"]
    mine = [i for i, (seat, _) in enumerate(hooks.moves) if seat in humans]
    if len(humans) != 1:
        echo("  undo is for one person playing against bots")
        return state, policies
    if not mine:
        echo("  you have made no move to take back")
        return state, policies
    count = len(hooks.moves) - mine[-1]
    kept = hooks.moves[:mine[-1]]
    try:
        rebuilt, _, bots = restore(SavedGame(game, [move for _, move in kept]), check_hash=False)
    except SaveError as exc:  # the ruleset file changed under the game
        echo(f"  cannot take back: {exc}")
        return state, policies
    if hooks.writer is not None:
        hooks.writer.undo(count)
    hooks.moves = kept
    others = count - 1
    echo("  taken back: your last move" + (f" and the {others} move{'s' if others > 1 else ''} after it"
                                           if others else ""))
    renderer = hooks.renderer
    renderer.round, renderer.heard = {}, []
    renderer.catch_up_state(rebuilt)  # the table as it was before your move
    for seat, kind in enumerate(hooks.kinds):  # the rebuilt search seats say when they think, as before
        if is_search_kind(kind) and not isinstance(bots[seat], Thinking):
            bots[seat] = Thinking(bots[seat], renderer.names[seat])
    for seat in humans:
        bots[seat] = policies[seat]
        policies[seat].undone = True  # ask next time, even for a forced card: it may be undone further
    return rebuilt, bots


def play_session(state: GameState, kinds: Sequence[str], policies: list[Any], renderer: Renderer,
                 save: Path | None, header: dict[str, Any] | None, record: Path | None, pause: float,
                 autoplay: bool = True, game: dict[str, Any] | None = None, moves: Sequence[tuple[int, str]] = ()
                 ) -> None:
    """Play on at the table.  ``game`` is the save's header (for a resumed game: its
    file's) and ``moves`` the (seat, move) pairs made so far: `undo` rebuilds from them."""
    humans = kinds.count("human")
    typed: list[str] = []  # lines typed while the bots play, kept for the next prompt
    for i, kind in enumerate(kinds):
        if kind == "human":
            policies[i] = HumanSeat(state.rules, renderer, hot_seat=humans > 1, autoplay=autoplay, typed=typed)
        elif is_search_kind(kind) and not isinstance(policies[i], Thinking):
            policies[i] = Thinking(policies[i], renderer.names[i])
    try:
        writer = SaveWriter(save, header) if save is not None else None
    except OSError as exc:  # checked before the game; a disk may still fill up, or a file appear
        raise InvalidInput(f"cannot save the game to {save}: {exc.strerror or exc}") from None
    if save is not None and humans:
        echo(f"(saving as you play to {save})")
    previous = signal.signal(signal.SIGHUP, _hang_up) if hasattr(signal, "SIGHUP") else None
    hooks = TableHooks(kinds, renderer, writer, pause, typed)
    hooks.moves = list(moves)
    hooks.state = state
    game = game if game is not None else header
    try:
        while True:
            try:
                play_out(state, policies, on_action=hooks.on_action, on_event=hooks.on_event)
                break
            except TakeBack:
                if game is None:
                    echo("  undo needs the game's save")
                else:
                    state, policies = take_back(state, policies, hooks, game)
                    hooks.state = state
    except (Quit, click.Abort, EOFError, KeyboardInterrupt) as exc:
        echo("")
        if record:
            _write_record(state, record)
        if isinstance(exc, KeyboardInterrupt) or isinstance(exc.__context__, KeyboardInterrupt):
            # Ctrl-C: exit 130 with one line (the game is already saved, action by action)
            where = (f"; resume with: cardrules resume {save}" if save is not None else
                     f"; the game so far is in {record}" if record else "")
            raise Interrupted(f"interrupted{where}") from None
        if save is not None:
            echo(f"Game saved. Resume it with: cardrules resume {save}")
        else:
            echo("stopped" + (f"; the game so far is in {record}" if record else ""))
        return
    except OSError as exc:
        if writer is None or isinstance(exc, BrokenPipeError) or exc.filename not in (None, str(save)):
            raise
        # the save could be started but not kept up (a disk that filled up as the game went on)
        raise InvalidInput(f"cannot go on saving the game to {save}: {exc.strerror or exc}") from None
    except EvaluationError as exc:  # the rules themselves cannot go on (validate finds most such rules)
        echo("")
        if record:
            _write_record(state, record)
        kept = [f"saved in {save}" for _ in [save] if save is not None] + \
            [f"recorded in {record}" for _ in [record] if record]
        raise InvalidInput(f"the rules cannot go on: {exc}" + (f" (the game so far is {' and '.join(kept)})"
                                                               if kept else "")) from None
    finally:
        if writer is not None:
            writer.close()
        if previous is not None:
            signal.signal(signal.SIGHUP, previous)
    if save is not None and state.is_over:
        retire(save)  # a finished game leaves the saves list
    if record:
        _write_record(state, record)
        if not renderer.quiet:
            echo(f"record written to {record}")
    if renderer.quiet:
        renderer.final(state.event_views(None, state.event_count - 1)[0])


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
@click.option("--fast", is_flag=True, help="No pause after the bots' moves.")
@click.option("--no-autoplay", is_flag=True, help="Ask even when only one card can be played (by default "
              "it is played for you, with a line saying so).")
@click.option("--quiet", is_flag=True, help="Only the final result.")
@color_option()
def play(ruleset: str, seats: str | None, seed: int | None, record: Path | None, save: Path | None,
         names_text: str | None, mode: str | None, ascii_only: bool, fast: bool, no_autoplay: bool, quiet: bool) -> None:
    """Play RULESET: people at the terminal against bots, or bots alone."""
    rules = open_ruleset(ruleset)
    if mode is not None and mode not in rules.modes:
        raise UsageProblem(f"{rules.name} has no mode '{mode}'" + (f" (modes: {', '.join(rules.modes)})"
                                                                   if rules.modes else ""))
    kinds = parse_seats(seats, rules, default_human=True)
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
    play_session(state, kinds, policies, renderer, save, header, record, 0.0 if fast or not humans else 0.3,
                 autoplay=not no_autoplay)


@click.command(short_help="Continue a saved game.", epilog=examples(
    "cardrules resume", "cardrules resume ~/games/friday.jsonl --fast", "cardrules resume --ignore-hash"))
@click.argument("save", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--record", "record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game record (JSON Lines) to this file.")
@click.option("--ignore-hash", is_flag=True, help="Resume even if the ruleset changed since the game was saved "
              "(the saved moves must still be legal under it).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain letters for suits.")
@click.option("--fast", is_flag=True, help="No pause after the bots' moves.")
@click.option("--no-autoplay", is_flag=True, help="Ask even when only one card can be played (by default "
              "it is played for you, with a line saying so).")
@color_option()
def resume(save: Path | None, record: Path | None, ignore_hash: bool, ascii_only: bool, fast: bool,
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
                 0.0 if fast or "human" not in kinds else 0.3, autoplay=not no_autoplay, game=saved.header,
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


def prepare_record_dir(folder: Path, seed: int, games: int) -> None:
    """Make the folder for simulate's records, refusing (before any game is played) one
    that cannot be written or that already holds a record this run would write."""
    try:
        if folder.exists() and not folder.is_dir():
            raise UsageProblem(f"{folder} is not a folder; choose another --record-dir")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    try:
        check_folder(folder)
    except FileRefused as exc:
        raise UsageProblem(str(exc)) from None
    taken = [seed + i for i in range(games) if (folder / f"game-{seed + i}.jsonl").exists()]
    if taken:
        raise UsageProblem(f"{folder / f'game-{taken[0]}.jsonl'} already exists"
                           + (f" (and {len(taken) - 1} more)" if len(taken) > 1 else "")
                           + "; choose another --record-dir or --seed")


class Progress:
    """A progress bar on stderr, only where stderr is a terminal (and not --quiet)."""

    def __init__(self, total: int, label: str, quiet: bool):
        self.bar = None
        if not quiet and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr)
            self.bar.__enter__()

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def output_options(what: str) -> Any:
    """--csv, --plot and --force, as simulate and compare take them."""
    def decorate(command: Any) -> Any:
        for option in reversed([
            click.option("--csv", "csv_file", type=click.Path(dir_okay=False, path_type=Path),
                         help="Write one row per game and seat to this CSV file."),
            click.option("--plot", "plot_file", type=click.Path(dir_okay=False, path_type=Path),
                         help=f"Draw {what} to this file (.png or .svg; needs matplotlib: "
                              "pip install 'cardrules[plot]')."),
            click.option("--force", is_flag=True, help="Replace the --csv or --plot file if it exists."),
        ]):
            command = option(command)
        return command
    return decorate


def check_outputs(csv_file: Path | None, plot_file: Path | None, force: bool) -> str | None:
    """Check the output files before any game is played; the plot's format."""
    fmt = plot_format(plot_file) if plot_file is not None else None
    if csv_file is not None and plot_file is not None and csv_file.resolve() == plot_file.resolve():
        raise UsageProblem("--csv and --plot must be two files")
    if plot_file is not None:
        need_matplotlib()
    for path, option in ((csv_file, "--csv"), (plot_file, "--plot")):
        if path is not None:
            check_output(path, option, force)
    return fmt


CLUSTER_HELP = ("Play the games on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for one "
                "on this machine (--jobs workers, default one a core). Needs pip install 'cardrules[cluster]'; "
                "the results are those of --jobs 1.")


@contextmanager
def cluster_client(address: str | None, jobs: int) -> Iterator[Any]:
    """The Dask client of --cluster (None without it); a missing Dask is exit 1, one line."""
    if address is None:
        yield None
        return
    try:
        with open_cluster(address, jobs if jobs > 1 else 0) as client:
            yield client
    except ClusterUnavailable as exc:
        raise InvalidInput(str(exc)) from None


def _interval(bounds: Sequence[float], scale: float = 1, unit: str = "") -> str:
    return f"[{scale * bounds[0]:.1f}{unit}, {scale * bounds[1]:.1f}{unit}]"


@click.command(short_help="Play many games with bots; statistics.", epilog=examples(
    "cardrules simulate oh-shit --games 1000 --jobs 2",
    "cardrules simulate shanghai-isra --seats bot,random,random,random --json",
    "cardrules simulate oh-hell --games 500 --csv games.csv --plot totals.png"))
@click.argument("ruleset")
@click.option("--games", type=Whole(1, 1_000_000), default=100, show_default=True)
@click.option("--seats", help="Comma-separated seat kinds (bot, random, search; search:N plays N playouts a "
              "decision, search:Xs thinks X seconds). Default: bots.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i.")
@click.option("--jobs", type=Whole(1, 64), default=1, show_default=True,
              help="Processes to spread the games over (results do not depend on it).")
@click.option("--mode", help="Play one of the ruleset's modes.")
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@json_option("the statistics")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write every game's record into this folder.")
@output_options("the distribution of each seat's total")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(ruleset: str, games: int, seats: str | None, seed: int, jobs: int, mode: str | None,
             cluster: str | None, as_json: bool, record_dir: Path | None, csv_file: Path | None,
             plot_file: Path | None, force: bool, quiet: bool) -> None:
    """Play many games of RULESET with bots and report what happens."""
    rules = open_ruleset(ruleset)
    kinds = parse_seats(seats, rules, default_human=False)
    if "human" in kinds:
        raise UsageProblem("simulate plays bots only (seat kinds: bot, random)")
    if mode is not None and mode not in rules.modes:
        raise UsageProblem(f"{rules.name} has no mode '{mode}'")
    fmt = check_outputs(csv_file, plot_file, force)
    if record_dir is not None:
        prepare_record_dir(record_dir, seed, games)
    ref = ruleset if is_file(ruleset) else rules.name
    start = time.perf_counter()
    progress = Progress(games, rules.name, quiet)
    try:
        with cluster_client(cluster, jobs) as client:
            results = run_games(ref, kinds, games, seed, jobs, mode, record_dir, progress, client)
    finally:
        progress.close()
    elapsed = time.perf_counter() - start
    stats = statistics(results, kinds, rules, mode)
    stats.update(ruleset=rules.name, seed=seed, seconds=round(elapsed, 3))
    if csv_file is not None:
        write_output(csv_file, "--csv", csv_bytes([(rules.name, results)], kinds), force)
    if plot_file is not None and fmt is not None:
        title = f"{rules.name}: totals over {games} games (seed {seed})"
        write_output(plot_file, "--plot", plot_totals(results, kinds, title, fmt), force)
    if as_json:
        echo(json.dumps(stats, indent=2))
        return
    echo(f"{rules.title}: {games} games, {len(kinds)} seats ({', '.join(kinds)}), seed {seed}; "
               f"{stats['decisions']} decisions in {elapsed:.1f}s")
    view = view_for(rules, Renderer(kinds, rules))
    win_cells = [_interval(entry["win_rate_ci95"], 100, "%") for entry in stats["seats"]]
    mean_cells = [_interval(entry["mean_total_ci95"]) for entry in stats["seats"]]
    win_width = max(len(cell) for cell in win_cells + ["95% interval"])
    mean_width = max(len(cell) for cell in mean_cells + ["95% interval"])
    header = (f"  {'seat':10} {'wins':>6} {'win%':>6} {'95% interval':{win_width}} {'mean':>8} "
              f"{'95% interval':{mean_width}} {'sd':>7} {'min':>6} {'max':>6}")
    echo(header + view.seat_columns())
    for entry, win_cell, mean_cell in zip(stats["seats"], win_cells, mean_cells):
        line = (f"  {entry['kind'] + '-' + str(entry['seat']):10} {entry['wins']:6d} "
                f"{100 * entry['win_rate']:5.1f}% {win_cell:{win_width}} {entry['mean_total']:8.1f} "
                f"{mean_cell:{mean_width}} {entry['sd_total']:7.1f} {entry['min_total']:6d} {entry['max_total']:6d}")
        echo(line + view.seat_cells(entry))
    for team in stats.get("teams", []):  # partnerships: what decides the game
        echo(f"  team {team['team']} (seats {', '.join(map(str, team['seats']))}): wins {100 * team['win_rate']:.1f}% "
             f"{_interval(team['win_rate_ci95'], 100, '%')}, mean total {team['mean_total']:.1f} "
             f"{_interval(team['mean_total_ci95'])}")
    echo(f"  game length: {stats['mean_rounds_per_game']:.1f} rounds, "
               f"{stats['mean_decisions_per_game']:.0f} player decisions")
    for text in view.summary_lines(stats):
        echo(text)
    echo("  (win% counts a shared first place as a win for each tied seat; 95% intervals: Wilson score for "
         "win%, Student's t for the mean)")


@click.command(name="compare", short_help="Play the same deals under two rulesets.", epilog=examples(
    "cardrules compare oh-hell oh-hell-penalty --games 500",
    "cardrules compare oh-hell my-variant.yaml --seats bot,bot,random,random --json",
    "cardrules compare oh-hell oh-hell-penalty --csv games.csv --plot differences.svg"))
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", type=Whole(2, 1_000_000), default=200, show_default=True)
@click.option("--seats", help="Comma-separated seat kinds (bot, random, search; search:N plays N playouts a "
              "decision, search:Xs thinks X seconds). Default: bots.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i under both rulesets.")
@click.option("--jobs", type=Whole(1, 64), default=1, show_default=True)
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@json_option("the comparison")
@output_options("each seat's difference of totals B - A with its 95% interval")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def compare_command(ruleset_a: str, ruleset_b: str, games: int, seats: str | None, seed: int, jobs: int,
                    cluster: str | None, as_json: bool, csv_file: Path | None, plot_file: Path | None, force: bool,
                    quiet: bool) -> None:
    """What does a house rule do? Play the same deals under RULESET_A and RULESET_B.

    Reports each figure under both, the difference B - A, and its 95% confidence
    interval from the game-by-game (paired) differences.
    """
    from ..interpreter.compare import compare, seat_differences

    rules_a, rules_b = open_ruleset(ruleset_a), open_ruleset(ruleset_b)
    kinds = parse_seats(seats, rules_a, default_human=False)
    if not rules_b.min_players <= len(kinds) <= rules_b.max_players:
        raise UsageProblem(f"{rules_b.name} is for {rules_b.min_players} to {rules_b.max_players} players; "
                           f"the seats give {len(kinds)}")
    if "human" in kinds:
        raise UsageProblem("compare plays bots only (seat kinds: bot, random)")
    for kind in kinds:
        try:
            check_seat_kind(rules_b, kind)
        except ValueError:
            raise UsageProblem(f"{rules_b.name} has no seat kind '{kind}'") from None
    fmt = check_outputs(csv_file, plot_file, force)
    refs = [r if is_file(r) else rules.name for r, rules in ((ruleset_a, rules_a), (ruleset_b, rules_b))]
    progress = Progress(2 * games, "comparing", quiet)
    try:
        with cluster_client(cluster, jobs) as client:
            results_a = run_games(refs[0], kinds, games, seed, jobs, progress=progress, cluster=client)
            results_b = run_games(refs[1], kinds, games, seed, jobs, progress=progress, cluster=client)
    finally:
        progress.close()
    same_deals = (rules_a.setup(len(kinds)).hand_sizes == rules_b.setup(len(kinds)).hand_sizes
                  and rules_a.setup(len(kinds)).deck_size == rules_b.setup(len(kinds)).deck_size)
    rows = compare(results_a, results_b, rules_a, rules_b)
    seat_rows = seat_differences(results_a, results_b)
    hidden = [row.metric for row in rows if row.constant]
    if csv_file is not None:
        names = [rules_a.name, rules_b.name] if rules_a.name != rules_b.name else ["A", "B"]
        write_output(csv_file, "--csv", csv_bytes([(names[0], results_a), (names[1], results_b)], kinds), force)
    if plot_file is not None and fmt is not None:
        title = f"{rules_b.name} (B) against {rules_a.name} (A): {games} games, seed {seed}"
        write_output(plot_file, "--plot", plot_differences(seat_rows, [f"{kind}-{seat}" for seat, kind in enumerate(kinds)],
                                                              title, fmt), force)
    if as_json:
        echo(json.dumps({"a": rules_a.name, "b": rules_b.name, "games": games, "seats": kinds, "seed": seed,
                         "same_deals": same_deals,
                         "rows": [{**row.__dict__, "significant": row.significant} for row in rows],
                         "hidden": hidden,
                         "seat_totals": [{**row.__dict__, "significant": row.significant} for row in seat_rows]},
                        indent=2))
        return
    echo(f"{rules_a.name} (A) against {rules_b.name} (B): {games} games each, seats {', '.join(kinds)}, "
               f"seed {seed}; " + ("the same deals under both" if same_deals else
                                   "different decks or schedules, so not the same deals"))
    shown = [row for row in rows if not row.constant]
    width = max([len(row.metric) for row in shown] or [0])
    echo(f"  {'':{width}} {'A':>10} {'B':>10} {'B - A':>10}   95% interval")
    for row in shown:
        mark = "  *" if row.significant else ""
        echo(f"  {row.metric:{width}} {row.a:10.3f} {row.b:10.3f} {row.difference:+10.3f}   "
                   f"[{row.low:+.3f}, {row.high:+.3f}]{mark}")
    echo("  (* the interval excludes 0: a difference these games show beyond chance)")
    if hidden:
        echo(f"  (left out: {', '.join(hidden)}: the same in every game under both rulesets, "
             "fixed by the rules, so they cannot differ)")


COMMANDS = [play, resume, saves, replay, simulate, compare_command]
