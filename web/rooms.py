"""Rooms: every room of one server, made for a bundled ruleset or for YAML a player
pasted, and where they are kept (the room itself, one game's seats and messages, is in
``room.py``).

People join a room by its name (the same name joins the same room) and take the free
seats; the creator starts the game, bots fill the seats left empty, and no one new takes
a seat after that.  Each seat has a secret token (its holder's proof of the seat: only its
SHA-256 is kept); a person who comes back with it gets the seat back.

Rooms are kept in the data folder: ``<id>.json`` (the room: its name, ruleset, seats
and token hashes) and, once started, ``<id>.jsonl``, the terminal game's save format
(``interpreter/saves.py``), appended after every action; a restarted server rebuilds each
game from them, reading each file within bounds (``roomfiles.py``) and moving one that
cannot come back into ``rejected/``.  A room leaves the folder by moving too: a game
nobody has been in for ``idle_close`` seconds to ``closed/``, a finished room that
makes way for another to ``finished/``, with its record.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..interpreter.saves import SaveError, read_save, restore
from ..interpreter.bots import check_seat_kind, seat_kinds
from ..interpreter.errors import CardrulesError, Problem, RulesetError
from ..interpreter.files import FileRefused, read_bounded, write_atomic
from ..interpreter.loader import Document, Source, bundled_dir, bundled_names, document_from_text, is_path_ref
from ..interpreter.loader import parse_yaml
from ..interpreter.rules import Ruleset
from ..interpreter.ruleset import build_ruleset, load_ruleset
from ..interpreter.visible import skeleton
from .roomfiles import CLOSED, FINISHED, MAX_NAME, MAX_ROOM_NAME, REJECTED, ROOM_FILE, BadRoom, RoomError, RoomFile
from .roomfiles import check_save, clean_name, move_room
from .roomfiles import newest_mtime, parse_room, read_room_file
from .room import Limits, Room, _digest

ROOM_FORMAT = "cardrules-room"
ROOM_VERSION = 1
UPLOAD_NAME = "house-rules.yaml"
MAX_UPLOAD_BYTES = 64 << 10
UPLOADS_KEPT = 32  # uploaded rulesets kept built, by text
MIN_CLOCK, MAX_CLOCK = 5, 3600  # seconds of a room's turn clock
MAX_RECORD_BYTES = 64 << 20  # a finished game's record, read back from finished/
# A room's seed: one hand seen, or a whole game's, must not tell the others (a seed of 31
# bits was found from a player's first hand by trying them all).
ROOM_SEED_BITS = 128


def surrogate_at(text: str) -> int | None:
    """Where ``text`` holds a lone surrogate (``\\ud800``: JSON can carry one, but it is
    no character and cannot be written as UTF-8), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def room_key(name: str) -> str:
    """The same room however its name is typed: by what it shows (case, spaces, what is
    drawn as nothing and compatibility forms aside: ``interpreter/visible.py``)."""
    return skeleton(name)


def load_upload(text: str) -> Ruleset:
    """A ruleset pasted or uploaded to the server: the same bounded loader as
    `cardrules validate`, but it may ``extends`` only a bundled ruleset and never
    reads a file of its own choosing.  Raises RulesetError (problems at line:column)."""
    bad = surrogate_at(text)
    if bad is not None:
        line = text.count("\n", 0, bad) + 1
        column = bad - (text.rfind("\n", 0, bad) + 1) + 1
        raise RulesetError([Problem(UPLOAD_NAME, line, column, f"{text[bad].encode('unicode_escape').decode()} is "
                                    "a lone surrogate, not a character: the text is not valid Unicode", "yaml")])
    if len(text.encode("utf-8")) > MAX_UPLOAD_BYTES:
        raise RulesetError([Problem(UPLOAD_NAME, 0, 0, f"the file is larger than {MAX_UPLOAD_BYTES >> 10} kB",
                                    "io")])
    source = Source(UPLOAD_NAME, text)
    data, positions = parse_yaml(source)
    if isinstance(data, dict):
        parent = data.get("extends")
        if isinstance(parent, str) and (is_path_ref(parent) or parent not in bundled_names()):
            doc = Document(data, positions, source, [UPLOAD_NAME])
            raise RulesetError([doc.problem(("extends",), f"an uploaded ruleset may extend only a bundled ruleset; "
                                            f"'{parent[:60]}' is not one (see the list of rulesets)")])
    return build_ruleset(document_from_text(text, UPLOAD_NAME, directory=bundled_dir()))


def problems_json(error: RulesetError) -> list[dict[str, Any]]:
    return [{"line": p.line, "column": p.column, "message": p.message, "text": p.format(caret=False)}
            for p in error.problems[:50]]

@dataclass
class Rooms:
    """Every room of one server, and where they are kept."""

    data: Path | None
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)
    _rulesets: dict[str, Ruleset] = field(default_factory=dict)
    _uploads: dict[str, Ruleset] = field(default_factory=dict)  # by the text's SHA-256, the last used last
    # Rulesets are built one at a time: the server builds them in a thread, off its event loop
    _building: threading.Lock = field(default_factory=threading.Lock)

    def get(self, name: str) -> Room | None:
        return self.rooms.get(room_key(name))

    def by_id(self, file_id: str) -> Room | None:
        return next((r for r in self.rooms.values() if r.file_id == file_id), None)

    def bundled(self, name: str) -> Ruleset:
        rules = self._rulesets.get(name)
        if rules is None:
            if name not in bundled_names():
                raise RoomError(f"no bundled ruleset '{name[:60]}'")
            with self._building:
                rules = self._rulesets[name] = load_ruleset(name)
        return rules

    def upload(self, text: str) -> Ruleset:
        """The ruleset of an uploaded ``text`` (RulesetError: its problems), built once
        for the rooms that share it (a Ruleset is immutable)."""
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        rules = self._uploads.pop(key, None)
        if rules is None:
            with self._building:
                rules = load_upload(text)
        self._uploads[key] = rules
        while len(self._uploads) > UPLOADS_KEPT:
            del self._uploads[next(iter(self._uploads))]
        return rules

    def is_built(self, *, ruleset: Any = None, yaml_text: Any = None) -> bool:
        """Whether the ruleset a room would be made with is built already (making the
        room then takes no time)."""
        if isinstance(yaml_text, str):
            return hashlib.sha256(yaml_text.encode("utf-8", "surrogatepass")).hexdigest() in self._uploads
        return not isinstance(ruleset, str) or ruleset in self._rulesets or ruleset not in bundled_names()

    def vet_name(self, room: Any) -> str:
        """A new room's name, cleaned, if no room has it and the server can take a room
        (RoomError if not): asked before the ruleset is built, then again by create."""
        room_name = clean_name(room, "the room's name", MAX_ROOM_NAME)
        if self.get(room_name) is not None:
            raise RoomError(f"there is already a room called {room_name}: join it, or choose another name")
        if len(self.rooms) >= self.limits.max_rooms and not self._idle_rooms():
            raise RoomError("this server has as many rooms as it takes; try again later")
        return room_name

    def create(self, *, room: Any, name: Any, ruleset: Any = None, yaml_text: Any = None, players: Any = None,
               mode: Any = None, seats: Any = None, seed: int | None = None,
               clock: Any = None) -> tuple[Room, str]:
        """A new room (RoomError or RulesetError if it cannot be made), and the token of
        its first seat, its creator's.  ``seats``: one kind a seat ("human", "bot",
        "random", ...); ``clock``: seconds a person has for each move before a bot makes it
        for them (None: no turn clock)."""
        room_name = self.vet_name(room)
        if clock is not None and (not isinstance(clock, int) or isinstance(clock, bool)
                                  or not MIN_CLOCK <= clock <= MAX_CLOCK):
            raise RoomError(f"the turn clock is a whole number of seconds from {MIN_CLOCK} to {MAX_CLOCK}, "
                            "or none")
        if yaml_text is not None:
            if not isinstance(yaml_text, str):
                raise RoomError("the ruleset must be text")
            rules, bundled, text = self.upload(yaml_text), None, yaml_text
        elif isinstance(ruleset, str):
            rules, bundled, text = self.bundled(ruleset), ruleset, None
        else:
            raise RoomError("choose a ruleset, or paste one")
        if mode is not None and (not isinstance(mode, str) or mode not in rules.modes):
            raise RoomError(f"{rules.name} has no mode '{str(mode)[:40]}'"
                            + (f" (modes: {', '.join(rules.modes)})" if rules.modes else ""))
        kinds = ("human",) + seat_kinds(rules)
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)
                                    or not rules.min_players <= players <= rules.max_players):
            raise RoomError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players")
        if seats is None:
            count = players if isinstance(players, int) else min(max(rules.min_players, 4), rules.max_players)
            seats = ["human"] + ["bot" if "bot" in kinds else "random"] * (count - 1)
        if not isinstance(seats, list) or not all(isinstance(k, str) for k in seats):
            raise RoomError("seats must be a list of seat kinds")
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise RoomError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not "
                            f"{len(seats)}")
        for kind in seats:
            if kind not in kinds:
                raise RoomError(f"'{kind[:20]}' is not a seat kind; use {', '.join(kinds)}")
        if seats[0] != "human":
            raise RoomError("the first seat is yours: it must be a person's")
        if isinstance(players, int) and players != len(seats):
            raise RoomError(f"{players} players but {len(seats)} seats")
        refusal = rules.refusal(len(seats), mode)  # a count or mode validate warns of: no game starts there
        if refusal is not None:
            raise RoomError(refusal)
        try:
            rules.setup(len(seats), mode)
        except (CardrulesError, ValueError) as exc:
            raise RoomError(f"{rules.name} cannot be played by {len(seats)}: {exc}") from None
        if len(self.rooms) >= self.limits.max_rooms and not self._make_way():
            raise RoomError("this server has as many rooms as it takes; try again later")
        key = room_key(room_name)
        file_id = self._new_id(key)
        new = Room(self, room_name, rules, bundled=bundled, text=text, players=len(seats), mode=mode, kinds=seats,
                   seed=seed if seed is not None else secrets.randbits(ROOM_SEED_BITS), file_id=file_id,
                   clock=clock)
        token = secrets.token_urlsafe(24)
        new.seats[0].name = clean_name(name, "your name", MAX_NAME)
        new.seats[0].token_hash = _digest(token)
        new.seats[0].gone_since = time.monotonic()
        self.rooms[key] = new
        self.save_room(new)
        return new, token

    def _new_id(self, key: str) -> str:
        """The file id of a new room: from its name, unless a room or a file has it
        (a room of that name, finished and moved out, or a file copied in by hand)."""
        for number in range(1000):
            file_id = hashlib.sha256((key if number == 0 else f"{key}#{number}").encode()).hexdigest()[:20]
            taken = self.by_id(file_id) is not None or (self.data is not None and any(
                os.path.lexists(folder / f"{file_id}{suffix}") for folder in
                (self.data, self.data / FINISHED, self.data / CLOSED) for suffix in (".json", ".jsonl")))
            if not taken:
                return file_id
        raise RoomError("no file name is free for this room: choose another name")

    def archived_record(self, file_id: str) -> str | None:
        """The record of the finished game ``file_id`` that made way for another room
        (in ``finished/``), or None."""
        if self.data is None or not ROOM_FILE.fullmatch(f"{file_id}.json"):
            return None
        try:
            return read_bounded(self.data / FINISHED / f"{file_id}.record.jsonl", MAX_RECORD_BYTES,
                                "a game record").decode("utf-8")
        except (FileRefused, UnicodeDecodeError):
            return None

    def _idle_rooms(self) -> list[Room]:
        return [r for r in self.rooms.values() if not r.clients and (not r.started or r.is_over)]

    def _make_way(self) -> bool:
        """Close the room idle longest among those nobody is in that are not started or
        are over (a game in progress is never closed), to make room for a new one: so
        rooms made and left, by mistake or by the hundred, cannot fill the server.  A
        room not started is forgotten, its files removed; a finished one's files move
        to ``finished/`` in the data folder, with its record.  False: every room is in use."""
        idle = self._idle_rooms()
        if not idle:
            return False
        victim = min(idle, key=lambda r: r.last_active)
        del self.rooms[room_key(victim.name)]
        if self.data is not None:
            if not victim.started:
                for suffix in (".json", ".jsonl"):
                    (self.data / f"{victim.file_id}{suffix}").unlink(missing_ok=True)
            else:
                write_atomic(self.data / f"{victim.file_id}.record.jsonl", victim.record_text(), replace=True)
                move_room(self.data, victim.file_id, FINISHED)
        return True

    def _close_idle(self, room: Room) -> None:
        """Close a started game nobody has been in for ``idle_close`` seconds: out of
        the rooms, its files (the room and its save: the game so far) moved to
        ``closed/`` in the data folder, where a restart does not look."""
        del self.rooms[room_key(room.name)]
        if room._runner is not None:
            room._runner.cancel()
        if room.writer is not None:
            room.writer.close()
            room.writer = None
        if self.data is not None:
            move_room(self.data, room.file_id, CLOSED)

    # --- the data folder --------------------------------------------------------------------
    def save_path(self, room: Room) -> Path | None:
        return None if self.data is None else self.data / f"{room.file_id}.jsonl"

    def save_room(self, room: Room) -> None:
        if self.data is None:
            return
        self.data.mkdir(parents=True, exist_ok=True)
        meta = {"format": ROOM_FORMAT, "version": ROOM_VERSION, "name": room.name, "ruleset": room.bundled,
                "ruleset_text": room.text, "players": room.players, "mode": room.mode, "seed": room.seed,
                "started": room.started, "over": room.is_over, "clock": room.clock,
                "seats": [{"kind": s.kind, "name": s.name, "token_sha256": s.token_hash} for s in room.seats]}
        write_atomic(self.data / f"{room.file_id}.json", json.dumps(meta, indent=1) + "\n", replace=True)

    def load_all(self) -> list[str]:
        """Bring back every room kept in the data folder; returns what went wrong, one
        line a file.  Each file is read within bounds and checked (web/roomfiles.py); one
        that cannot come back is moved, with its save, into ``rejected/`` (nothing is
        deleted) and every other room comes back.  Of two files of one room name the
        newer is kept."""
        if self.data is None or not self.data.is_dir():
            return []
        messages: list[str] = []
        found: dict[str, list[RoomFile]] = {}
        for path in sorted(self.data.glob("*.json")):
            if not ROOM_FILE.fullmatch(path.name):
                messages.append(f"{path.name}: left where it is (not the name of a room file)")
                continue
            try:
                meta = read_room_file(path)
                room_file = parse_room(meta, path.stem, newest_mtime(self.data, path.stem), format_name=ROOM_FORMAT,
                                       version=ROOM_VERSION, max_text=MAX_UPLOAD_BYTES)
            except BadRoom as exc:
                messages.append(self._reject(path.stem, str(exc)))
                continue
            found.setdefault(room_key(room_file.name), []).append(room_file)
        for files in found.values():
            files.sort(key=lambda f: (f.mtime, f.file_id))
            kept = files[-1]
            for older in files[:-1]:
                messages.append(self._reject(older.file_id, f"the room {older.name} is also in {kept.file_id}.json, "
                                             "which is newer"))
            try:
                self._load(kept)
            except BadRoom as exc:
                messages.append(self._reject(kept.file_id, str(exc)))
            except (OSError, ValueError, KeyError, TypeError, CardrulesError, RoomError, SaveError) as exc:
                messages.append(self._reject(kept.file_id, str(exc) or type(exc).__name__))
            except Exception as exc:  # noqa: BLE001 - one room file never stops the others
                messages.append(self._reject(kept.file_id, f"internal error ({type(exc).__name__}: {exc})"))
        return messages

    def _reject(self, file_id: str, reason: str) -> str:
        """Set the room ``file_id`` aside (its files moved to rejected/); the one-line message."""
        reason = " ".join(reason.split())[:300]
        assert self.data is not None
        try:
            moved = move_room(self.data, file_id, REJECTED)
        except OSError as exc:
            return f"{file_id}.json: {reason}; left where it is (it could not be moved: {exc.strerror or exc})"
        return f"{file_id}.json: {reason}; moved to {moved.relative_to(self.data)}"

    def _load(self, saved: RoomFile) -> None:
        assert self.data is not None
        if saved.text is not None:
            try:
                rules = self.upload(saved.text)
            except RulesetError as exc:
                raise BadRoom(f"its ruleset has problems: {exc.problems[0].format(caret=False)}") from None
        else:
            assert saved.bundled is not None
            rules = self.bundled(saved.bundled)
        if not rules.min_players <= saved.players <= rules.max_players:
            raise BadRoom(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not "
                          f"{saved.players}")
        if saved.mode is not None and saved.mode not in rules.modes:
            raise BadRoom(f"{rules.name} has no mode '{saved.mode[:40]}'")
        for kind, _, _ in saved.seats:
            if kind != "human":
                try:
                    check_seat_kind(rules, kind)
                except ValueError as exc:
                    raise BadRoom(f"a seat: {exc}") from None
        room = Room(self, saved.name, rules, bundled=saved.bundled, text=saved.text, players=saved.players,
                    mode=saved.mode, kinds=[kind for kind, _, _ in saved.seats], seed=saved.seed, clock=saved.clock,
                    file_id=saved.file_id)
        for seat, (_, name, token_hash) in zip(room.seats, saved.seats):
            seat.name, seat.token_hash = name, token_hash
            seat.gone_since = time.monotonic()  # nobody is connected yet: the clock of the stand-in starts now
        if saved.started:
            path = self.data / f"{saved.file_id}.jsonl"
            check_save(path)
            game = read_save(path)
            if game.header.get("seats") != [kind for kind, _, _ in saved.seats]:
                raise BadRoom(f"its save {path.name} has other seats than the room")
            state, _, policies = restore(game, rules=rules)
            room.state, room.policies = state, policies
            try:
                room._begin(header=None)
                room.advance(bots=0)  # chance's outcomes after the last saved move (a deal, a card off the stock)
            except BaseException:
                if room.writer is not None:
                    room.writer.close()
                raise
        self.rooms[room_key(room.name)] = room

    def sweep(self) -> None:
        """Let a stand-in bot move for each player gone long enough in their turn, and
        close the games in progress nobody has been in for ``idle_close`` seconds."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if (room.started and not room.is_over and room.empty_since is not None
                    and now - room.empty_since >= self.limits.idle_close):
                self._close_idle(room)
                continue
            room.kick()
