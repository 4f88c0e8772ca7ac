"""The table at the terminal: the seats (people, bots), a person's prompt, taking back a move,
and the loop that plays a game there; `play` and `resume` use it."""

from __future__ import annotations

import select
import signal
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import click

from ..interpreter.bots import check_seat_kind, extra_seat_kinds, is_ismcts_kind, seat_kinds
from ..interpreter.driver import play_out
from ..interpreter.errors import EvaluationError, IllegalActionError
from ..interpreter.game import GameState
from ..interpreter.record import save_record
from ..interpreter.rules import Ruleset
from ..interpreter.search import is_search_kind
from ..interpreter.textio import parse_input
from .common import Interrupted, InvalidInput, UsageProblem, Whole, echo, prompt
from ..narration.render import Renderer
from ..interpreter.saves import SavedGame, SaveError, SaveWriter, restore, retire


# Seeds are never negative (interpreter.game.seed_problem); at most 2^255 (half of MAX_SEED),
# so that simulate's seed + i stays a seed; a web room's seed (128 bits) is one.
SEED = Whole(0, 1 << 255, " (a seed is 0 or more: a negative seed would deal as its positive)",
             shown_hi="2^255")


def parse_seats(text: str | None, rules: Ruleset, default_human: bool) -> list[str]:
    if text is None:
        count = min(max(rules.min_players, 4), rules.max_players)
        return (["human"] if default_human else ["bot"]) + ["bot"] * (count - 1)
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    kinds = ("human",) + seat_kinds(rules) + extra_seat_kinds(rules)
    for s in seats:
        if s == "human":
            continue
        try:
            check_seat_kind(rules, s)
        except ValueError as exc:
            if s.startswith("search:") or is_ismcts_kind(s):
                raise UsageProblem(str(exc)) from None
            raise UsageProblem(f"unknown seat kind '{s}'; use {', '.join(kinds)}") from None
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise UsageProblem(f"{rules.name} is for {rules.min_players} to {rules.max_players} players; "
                           f"--seats gives {len(seats)}")
    return seats


def refuse_unplayable(rules: Ruleset, players: int, mode: str | None) -> None:
    """A player count or mode the ruleset cannot be played in (validate warns of it):
    refused before anything starts, with the reason."""
    refusal = rules.refusal(players, mode)
    if refusal is not None:
        raise UsageProblem(refusal)


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
    file's) and ``moves`` the (seat, move) pairs made so far: `undo` rebuilds from them.

    (Long because it is the table's one loop: the hooks it defines share its locals, the
    renderer, the save and the seats, and read in the order a turn happens.)"""
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
