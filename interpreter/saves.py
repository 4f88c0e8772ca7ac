"""Saved games: a game in progress written after every action, and resumed exactly.

A save file is JSON Lines: a header (ruleset, its hash, seed, mode, seat kinds and
names), then one line per seat action, written as a player would type it ("bid 3",
"play QS", "layoff 2 9D", ...), and ``{"undo": N}`` where a person took back the
last N actions (dropped when the file is read).  Each line is appended and flushed to
disk as the action is taken, so a process killed at any moment loses at most the
action in flight; a torn last line is dropped when the file is read.  Chance (the deal, stock
cards) is not saved: it comes from the seed.  Resuming replays every saved action
through the rules (which also checks the file) and lets each bot re-make its moves
so that its random state is exactly where it was.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Sequence

from .bots import check_seat_kind, make_policy
from .driver import Stop, play_out
from .errors import CardrulesError, IllegalActionError, RulesetError
from .game import GameState, new_game, seed_problem
from .files import FileRefused, load_json, read_bounded, write_atomic
from .loader import locate
from .rules import Ruleset
from .ruleset import load_ruleset
from .textio import parse_input

SAVE_FORMAT = "cardrules-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 16 << 20


class SaveError(CardrulesError):
    """A save file that cannot be resumed, with the reason."""


def default_save_dir() -> Path:
    """Where games are saved unless --save says otherwise, and where `cardrules saves`
    looks: $CARDRULES_SAVES if set, else $XDG_DATA_HOME/cardrules/saves (by default
    ~/.local/share/cardrules/saves)."""
    if os.environ.get("CARDRULES_SAVES"):
        return Path(os.environ["CARDRULES_SAVES"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardrules" / "saves"


def finished_dir() -> Path:
    """Where a finished game's save goes, out of the saves list (kept, never deleted)."""
    return default_save_dir() / "finished"


@dataclass
class SaveEntry:
    """One save file as `cardrules saves` shows it."""

    path: Path
    modified: float  # seconds since the epoch
    header: dict[str, Any]
    moves: int
    round: int | None = None
    rounds: int | None = None
    is_over: bool = False
    problem: str | None = None  # why it cannot be resumed as it is
    ruleset_changed: bool = False  # ... only because its ruleset changed: `resume --ignore-hash` can


    def as_dict(self) -> dict[str, Any]:
        header = self.header
        return {"file": str(self.path), "ruleset": header.get("ruleset"), "seed": header.get("seed"),
                "mode": header.get("mode"), "seats": header.get("seats"), "names": header.get("names"),
                "round": self.round, "rounds": self.rounds, "moves": self.moves,
                "saved": datetime.fromtimestamp(self.modified, timezone.utc).isoformat(timespec="seconds"),
                "resumable": self.problem is None, "ruleset_changed": self.ruleset_changed,
                **({"problem": self.problem} if self.problem else {})}


def list_saves(folder: Path | None = None) -> list[SaveEntry]:
    """The games waiting in ``folder`` (the saves folder by default), the latest first:
    each save is rebuilt to know its round; a finished game is left out; a save that
    cannot be resumed is listed with the reason."""
    folder = default_save_dir() if folder is None else folder
    try:
        paths = [p for p in folder.glob("*.jsonl") if p.is_file()]
    except OSError:
        return []
    entries = []
    for path in paths:
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            saved = read_save(path)
        except SaveError as exc:
            entries.append(SaveEntry(path, modified, {}, 0, problem=str(exc)))
            continue
        entry = SaveEntry(path, modified, saved.header, len(saved.moves))
        try:
            state, _, _ = restore(saved)
        except SaveError as exc:
            entry.problem = str(exc)
            try:  # is the changed ruleset the only problem?
                state, _, _ = restore(saved, check_hash=False)
            except SaveError:
                pass
            else:
                entry.ruleset_changed = True
                entry.round, entry.rounds, entry.is_over = state.round, state.rounds, state.is_over
        else:
            entry.round, entry.rounds, entry.is_over = state.round, state.rounds, state.is_over
        if not entry.is_over:
            entries.append(entry)
    return sorted(entries, key=lambda e: (-e.modified, e.path.name))


def retire(path: Path) -> Path | None:
    """A finished game's save leaves the saves list: a save in the saves folder moves to
    its ``finished`` folder (under a new name if that one is taken, never over a file);
    a save the user placed elsewhere stays where it is.  Returns the new place."""
    try:
        if path.resolve().parent != default_save_dir().resolve():
            return None
        target_dir = finished_dir()
        target_dir.mkdir(parents=True, exist_ok=True)
        target, number = target_dir / path.name, 1
        while target.exists():
            number += 1
            target = target_dir / f"{path.stem}-{number}{path.suffix}"
        os.link(path, target)  # fails rather than replace a file that appeared meanwhile
        path.unlink()
        return target
    except OSError:
        return None  # the save stays listed; nothing is lost


@dataclass
class SavedGame:
    header: dict[str, Any]
    moves: list[str]
    dropped_torn_line: bool = False


class SaveWriter:
    """Appends each action to the save file as it happens: written and flushed at once
    (a program killed after a move has saved it), and forced to the disk at once too,
    unless ``durable`` is false: then :meth:`sync` forces what was written since the
    last sync (the web server does, beside its event loop, twice a second: a disk's
    sync can take milliseconds that no room should wait for)."""

    def __init__(self, path: Path, header: dict[str, Any] | None, durable: bool = True):
        self.path = path
        self.durable = durable
        self.dirty = False  # written since the last sync (durable: never)
        path.parent.mkdir(parents=True, exist_ok=True)
        if header is not None:  # a new save: its header, written atomically, never over a file
            write_atomic(path, json.dumps(header) + "\n")
        self.out: IO[str] = path.open("a", encoding="utf-8")

    def action(self, move: str) -> None:
        self._line(json.dumps(move))

    def undo(self, count: int) -> None:
        """The last ``count`` actions were taken back (`undo` at the table)."""
        self._line(json.dumps({"undo": count}))

    def _line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()
        if self.durable:
            os.fsync(self.out.fileno())
        else:
            self.dirty = True

    def sync(self) -> None:
        """Force what was written since the last sync to the disk (from any thread: it
        touches only the file's descriptor; a file closed meanwhile was synced by close)."""
        if not self.dirty:
            return
        self.dirty = False
        try:
            os.fsync(self.out.fileno())
        except (OSError, ValueError):  # closed meanwhile (close syncs first)
            pass

    def close(self) -> None:
        self.sync()
        self.out.close()


def new_header(rules: Ruleset, ref: str | None, seed: int, mode: str | None, seats: Sequence[str],
               names: Sequence[str]) -> dict[str, Any]:
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "ruleset": rules.name,
            "ruleset_path": str(Path(ref).resolve()) if ref else None, "ruleset_sha256": rules.sha256,
            "seed": seed, "mode": mode, "seats": list(seats), "names": list(names)}


def read_save(path: Path) -> SavedGame:
    try:
        text = read_bounded(path, MAX_SAVE_BYTES, "a cardrules save").decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a cardrules save (not UTF-8 text)") from None
    except FileRefused as exc:
        raise SaveError(f"{path}: {exc}") from None
    lines = text.split("\n")
    torn = False
    if lines and lines[-1] != "":
        torn = True  # the last write did not finish: drop it
        lines = lines[:-1]
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise SaveError(f"{path} is empty")
    try:
        header = load_json(lines[0])
    except ValueError:
        raise SaveError(f"{path} is not a cardrules save (its first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path} is not a cardrules save" +
                        (" (it looks like a game record: use `cardrules replay`)"
                         if isinstance(header, dict) and header.get("event") == "game" else ""))
    if header.get("version") != SAVE_VERSION:
        raise SaveError(f"{path} is a save of version {header.get('version')!r}; this cardrules reads {SAVE_VERSION}")
    moves: list[str] = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            move = load_json(line)
        except ValueError:
            raise SaveError(f"{path}:{number}: damaged line (not JSON)") from None
        if isinstance(move, dict) and set(move) == {"undo"}:  # actions taken back at the table
            count = move["undo"]
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(moves):
                raise SaveError(f"{path}:{number}: damaged line (an undo of {str(count)[:20]} actions)")
            del moves[-count:]
            continue
        if not isinstance(move, str) or len(move) > 500:
            raise SaveError(f"{path}:{number}: damaged line (not a move)")
        moves.append(move)
    for key, kind in (("seed", int), ("seats", list), ("names", list), ("ruleset", str)):
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            raise SaveError(f"{path}: the header's \"{key}\" is missing or malformed")
    if seed_problem(header["seed"]):
        raise SaveError(f"{path}: the header's \"seed\": {seed_problem(header['seed'])}")
    for key in ("ruleset_path", "mode"):
        if header.get(key) is not None and not isinstance(header[key], str):
            raise SaveError(f"{path}: the header's \"{key}\" is malformed")
    return SavedGame(header, moves, torn)


def restore(saved: SavedGame, *, check_hash: bool = True, move_seats: list[int] | None = None,
            rules: Ruleset | None = None) -> tuple[GameState, Ruleset, list[Any]]:
    """Rebuild the game from ``saved``: every saved move is played again through the
    driver loop, each bot re-making its move first so that its RNG ends where it was.
    Returns the state, the rules and the seats' policies (None for people).  With
    ``check_hash`` off, a ruleset changed since the game was saved is used as it is now
    (the saved moves must still be legal under it).  ``move_seats``, if given, receives
    the seat that made each saved move.  ``rules``, if given, are the game's rules
    (a ruleset that lives in no file: one uploaded to `cardrules serve`) instead of the
    ones the header names."""
    header = saved.header
    ref = header.get("ruleset_path") or header["ruleset"]
    if rules is None:
        try:
            path = Path(ref) if header.get("ruleset_path") else locate(ref)
            rules = load_ruleset(path)
        except (RulesetError, FileNotFoundError) as exc:
            raise SaveError(f"cannot load the ruleset '{ref}': {exc}") from None
    if check_hash and rules.sha256 != header.get("ruleset_sha256"):
        raise SaveError(f"the ruleset '{ref}' has changed since this game was saved; it cannot be resumed "
                        "exactly (--ignore-hash resumes it under the rules as they are now)")
    seats, names = header["seats"], header["names"]
    if len(seats) != len(names) or not all(isinstance(s, str) for s in seats + names):
        raise SaveError("the save's seats and names do not match")
    for kind in seats:
        if kind != "human":
            try:
                check_seat_kind(rules, kind)
            except ValueError:
                raise SaveError(f"unknown seat kind {kind[:40]!r} in the header") from None
    mode = header.get("mode")
    if mode is not None and mode not in rules.modes:
        raise SaveError(f"the ruleset has no mode '{mode}'")
    try:
        state = new_game(rules, len(seats), header["seed"], names, header.get("mode"), header.get("ruleset_path"),
                         replaying=True)
    except (CardrulesError, ValueError) as exc:
        raise SaveError(f"cannot set up the saved game: {exc}") from None
    policies = bot_policies(rules, seats, header["seed"])
    if saved.moves:
        script = _Script(rules, saved.moves, policies, names)
        if move_seats is not None:
            script.seats = move_seats
        try:
            play_out(state, [script] * len(seats), on_action=script.after)
        except IllegalActionError as exc:
            raise SaveError(f"move {script.number + 1} ('{script.move}') by {names[script.seat]} does not "
                            f"replay: {exc}") from None
        if script.number < len(saved.moves):
            number = script.number + 1
            raise SaveError(f"move {number} ('{saved.moves[number - 1]}') comes after the end of the game")
    return state, rules, policies


class _Script:
    """The saved moves as the player of every seat (see :func:`restore`)."""

    kind = "save"
    needs_observation = True

    def __init__(self, rules: Ruleset, moves: list[str], policies: list[Any], names: list[str]):
        self.rules = rules
        self.moves = moves
        self.policies = policies
        self.names = names
        self.number = 0  # moves replayed
        self.move = ""
        self.seat = 0
        self.seats: list[int] = []  # the seat of each move replayed

    def act(self, observation: Any, legal: Any) -> Any:
        seat = observation.seat
        bot = self.policies[seat]
        if bot is not None:  # a bot re-makes its move: its RNG ends where it was
            bot.act(observation if bot.needs_observation else None, legal)
        self.move, self.seat = self.moves[self.number], seat
        try:
            return parse_input(self.rules, observation, self.move)
        except IllegalActionError as exc:
            raise SaveError(f"move {self.number + 1} ('{self.move}') by {self.names[seat]} does not replay: "
                            f"{exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"move {self.number + 1} ('{self.move}') is damaged ({type(exc).__name__})") from None

    def after(self, seat: int, action: Any) -> None:
        self.seats.append(seat)
        self.number += 1
        if self.number == len(self.moves):
            raise Stop


def bot_policies(rules: Ruleset, kinds: Sequence[str], seed: int) -> list[Any]:
    return [None if kind == "human" else make_policy(rules, kind, seed, i) for i, kind in enumerate(kinds)]


def repair(path: Path, saved: SavedGame) -> None:
    """Rewrite a save without its torn last line, in one atomic step (a kill at any
    moment leaves either the old file or the repaired one)."""
    write_atomic(path, json.dumps(saved.header) + "\n" + "".join(json.dumps(m) + "\n" for m in saved.moves),
                 replace=True)
