"""The room files of the data folder, read back within bounds and moved, never deleted.

At start-up every ``<id>.json`` is read as a stranger's file: opened without following
a link and without blocking (``O_NOFOLLOW | O_NONBLOCK``), checked to be a regular file
(``fstat``: a FIFO, a device or a link to ``/dev/zero`` is refused before a byte is
read), read up to :data:`MAX_ROOM_FILE` bytes, its JSON nested at most
:data:`MAX_DEPTH` deep, and every field checked (:func:`parse_room`).  A file that
fails is *set aside*: moved, with its save, into ``rejected/`` in the data folder
(:func:`move_room`), with a one-line reason; every other room comes back.  Rooms that
end their time in the folder are moved the same way: ``finished/`` for a finished
game made way for, ``closed/`` for a game nobody came back to.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..interpreter.files import load_json
from ..interpreter.game import seed_problem
from ..interpreter.visible import has_visible, is_shown_text

MAX_NAME = 20  # a person's name, in characters
MAX_ROOM_NAME = 40  # a room's name


class RoomError(Exception):
    """A request the room refuses, with a one-line reason for the person who made it."""


def clean_name(text: Any, what: str, limit: int) -> str:
    """A new person's or room's name: in its NFKC form (fullwidth letters as plain
    ones), trimmed, inner spaces collapsed, showing at least one visible character and
    only characters shown as they are (``interpreter/visible.py``: emoji joined by
    zero-width joiners are; a filler or a blank braille cell alone is no name)."""
    if not isinstance(text, str):
        raise RoomError(f"{what} must be text")
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise RoomError(f"type {what}")
    if not has_visible(name):
        raise RoomError(f"{what} shows nothing: it needs a visible letter, digit or symbol")
    _check_name(name, what, limit)
    return name


def _check_name(name: str, what: str, limit: int) -> None:
    if len(name) > limit or not is_shown_text(name) or any(c in name for c in "<>&\"`"):
        raise RoomError(f"{what} may have up to {limit} printable characters, without <>&\"`")


def kept_name(name: Any, what: str, limit: int) -> str:
    """A name read back from a room file (RoomError: not as any release writes it): as
    :func:`clean_name` checks a new one, but kept as it is, so that a name an earlier
    release let in (not in NFKC form, or showing nothing) still comes back."""
    if not isinstance(name, str) or not name or " ".join(name.split()) != name:
        raise RoomError("not as the server writes it")
    _check_name(name, what, limit)
    return name


ROOM_FILE = re.compile(r"[0-9a-f]{20}\.json")  # the names the server gives (see Rooms.create)
MAX_ROOM_FILE = 1 << 20  # a room with a 64 kB ruleset, every character escaped, fits
MAX_DEPTH = 8  # a room file is 3 deep: the room, its seats, a seat
SUFFIXES = (".json", ".jsonl", ".record.jsonl")  # a room, its save, a finished game's record
REJECTED, FINISHED, CLOSED = "rejected", "finished", "closed"
TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


class BadRoom(Exception):
    """A room file that cannot come back, with a one-line reason."""


@dataclass(frozen=True)
class RoomFile:
    """A room file's fields, each checked for its type and range (what needs the
    ruleset, the seat kinds and the player count, is checked when it is loaded)."""

    file_id: str
    name: str
    bundled: str | None
    text: str | None
    players: int
    mode: str | None
    seed: int
    started: bool
    seats: tuple[tuple[str, str | None, str | None], ...]  # kind, name, token hash
    mtime: float  # the newest of the room file and its save: which of two files of one room is newer
    clock: int | None = None  # the turn clock's seconds (rooms written before it had none)


def read_room_file(path: Path) -> Any:
    """The JSON of the room file ``path``, read within bounds (BadRoom: why not)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadRoom("it is a symbolic link, not a room file") from None
        raise BadRoom(f"cannot read it: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BadRoom("it is not a regular file")
        data = b""
        while len(data) <= MAX_ROOM_FILE:
            chunk = os.read(fd, MAX_ROOM_FILE + 1 - len(data))
            if not chunk:
                break
            data += chunk
        if len(data) > MAX_ROOM_FILE:
            raise BadRoom(f"it is larger than {MAX_ROOM_FILE:,} bytes")
    except OSError as exc:
        raise BadRoom(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRoom(f"it is not UTF-8 text (byte {exc.start})") from None
    if json_depth(text) > MAX_DEPTH:
        raise BadRoom(f"its JSON is nested more than {MAX_DEPTH} deep")
    try:
        return load_json(text)
    except ValueError as exc:
        raise BadRoom(f"it is not JSON: {exc}") from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest, strings aside (for text that is not
    JSON, a number that is at most as large as its nesting would be)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if match.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _text(meta: dict[str, Any], key: str, limit: int, *, optional: bool = True) -> str | None:
    value = meta.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadRoom(f"its \"{key}\" is not text of at most {limit:,} characters")
    return value


def _integer(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRoom(f"its {what} is not a whole number from {low} to {high}")
    return value


def parse_room(meta: Any, file_id: str, mtime: float, *, format_name: str, version: int, max_text: int) -> RoomFile:
    """The fields of a room file's JSON ``meta``, each checked (BadRoom: the first that
    is wrong)."""
    if not isinstance(meta, dict) or meta.get("format") != format_name:
        raise BadRoom("it is not a cardrules room")
    if meta.get("version") != version:
        raise BadRoom(f"it is a room of version {str(meta.get('version'))[:20]}; this server reads {version}")
    try:
        name = kept_name(meta.get("name"), "the room's name", MAX_ROOM_NAME)
    except RoomError as exc:
        raise BadRoom(f"its name: {exc}") from None
    bundled, text = _text(meta, "ruleset", 200), _text(meta, "ruleset_text", max_text)
    if (bundled is None) == (text is None):
        raise BadRoom("it names neither a bundled ruleset nor the text of one (or both)")
    players = _integer(meta.get("players"), "player count", 1, 64)
    mode = _text(meta, "mode", 200)
    seed = meta.get("seed")
    problem = seed_problem(seed)
    if problem is not None or not isinstance(seed, int):
        raise BadRoom(f"its seed: {problem}")
    started = meta.get("started")
    if not isinstance(started, bool):
        raise BadRoom("its \"started\" is not true or false")
    seats = meta.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise BadRoom(f"it has {len(seats) if isinstance(seats, list) else 'no list of'} seats for {players} players")
    checked = []
    for number, seat in enumerate(seats, start=1):
        if not isinstance(seat, dict):
            raise BadRoom(f"its seat {number} is not an object")
        kind = _text(seat, "kind", 40, optional=False)
        assert kind is not None
        person = seat.get("name")
        if person is not None:
            try:
                kept_name(person, "a name", MAX_NAME)
            except RoomError as exc:
                raise BadRoom(f"the name of its seat {number}: {exc}") from None
        token = seat.get("token_sha256")
        if token is not None and not (isinstance(token, str) and TOKEN_HASH.fullmatch(token)):
            raise BadRoom(f"the token of its seat {number} is not a SHA-256 in hex")
        checked.append((kind, person, token))
    clock = meta.get("clock")
    if clock is not None:
        clock = _integer(clock, "turn clock", 5, 3600)
    return RoomFile(file_id, name, bundled, text, players, mode, seed, started, tuple(checked), mtime, clock)


def newest_mtime(data: Path, file_id: str) -> float:
    """When the room ``file_id`` last changed: its file or its save (links not followed)."""
    times = []
    for suffix in (".json", ".jsonl"):
        try:
            times.append(os.lstat(data / f"{file_id}{suffix}").st_mtime)
        except OSError:
            pass
    return max(times, default=0.0)


def check_save(path: Path) -> None:
    """A started room's save must be a regular file of its own (not a link, a FIFO...)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise BadRoom(f"its game was started but its save {path.name} is missing") from None
    except OSError as exc:
        raise BadRoom(f"cannot read its save {path.name}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise BadRoom(f"its save {path.name} is not a regular file")


def move_room(data: Path, file_id: str, folder: str) -> Path:
    """Move the room ``file_id``'s files (the room, its save, its record) into the
    subfolder ``folder`` of ``data``, under names no file there has (``ID.json``, else
    ``ID.1.json``, ...); the room file's new path.  Nothing is deleted."""
    target = data / folder
    target.mkdir(exist_ok=True)
    present = [s for s in SUFFIXES if os.path.lexists(data / f"{file_id}{s}")]
    number = 0
    while True:
        stem = file_id if number == 0 else f"{file_id}.{number}"
        if not any(os.path.lexists(target / f"{stem}{s}") for s in SUFFIXES):
            break
        number += 1
    for suffix in present:
        os.rename(data / f"{file_id}{suffix}", target / f"{stem}{suffix}")
    return target / f"{stem}.json"
