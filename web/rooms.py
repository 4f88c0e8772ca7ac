"""Rooms: a ruleset, its seats (people and bots), the game, and who is watching.

A room is made for a bundled ruleset or for YAML a player pasted; people join it by
its name (the same name joins the same room) and take the free seats; the creator
starts the game, bots fill the seats left empty, and no one new takes a seat after
that.  Each seat has a secret token (its holder's proof of the seat: only its
SHA-256 is kept); a person who comes back with it gets the seat back.

The room is the referee: a move is a line of text as a player would type it at the
terminal, parsed by the family (``parse_input``) and verified by the engine; the game
is driven by the one driver loop (:func:`~cardrules.interpreter.driver.play_out`),
each person's seat a policy that hands over the move its player sent and stops the
loop when there is none.  Every connection is sent only what its seat may see, built
from what the engine gives that seat: ``state.observation(seat)`` (a spectator's,
``observation(None)``, holds no hand) and the narration of the engine's public views of
the events (``state.event_views(None)``), so a view cannot show a hidden card.

Rooms are kept in the data folder: ``<id>.json`` (the room: its name, ruleset, seats
and token hashes) and, once started, ``<id>.jsonl``, the terminal game's save format
(``interpreter/saves.py``), appended after every action; a restarted server rebuilds each
game from them, reading each file within bounds (``roomfiles.py``) and moving one that
cannot come back into ``rejected/``.  A room leaves the folder by moving too: a game
nobody has been in for ``idle_close`` seconds to ``closed/``, a finished room that
makes way for another to ``finished/``, with its record.  Everything here runs on the server's one event loop thread: a move
is applied and broadcast without awaiting, so no two changes of a room interleave.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from ..narration.render import Renderer, standings
from ..interpreter.saves import SaveError, SaveWriter, new_header, read_save, restore
from ..interpreter.bots import check_seat_kind, make_policy, seat_kinds
from ..interpreter.driver import Stop, play_out
from ..interpreter.errors import CardrulesError, EvaluationError, IllegalActionError, Problem, RulesetError
from ..interpreter.family import Policy
from ..interpreter.files import FileRefused, read_bounded, write_atomic
from ..interpreter.game import OVER, GameState, new_game, seed_problem
from ..interpreter.loader import Document, Source, bundled_dir, bundled_names, document_from_text, is_path_ref
from ..interpreter.loader import parse_yaml
from ..interpreter.pack import STANDARD, Pack
from ..interpreter.record import dump_event
from ..interpreter.rules import Ruleset
from ..interpreter.ruleset import build_ruleset, load_ruleset
from ..interpreter.textio import parse_input
from .families import web_view_for
from .roomfiles import CLOSED, FINISHED, MAX_NAME, MAX_ROOM_NAME, REJECTED, ROOM_FILE, BadRoom, RoomError, RoomFile
from .roomfiles import check_save, clean_name, move_room
from .roomfiles import newest_mtime, parse_room, read_room_file

ROOM_FORMAT = "cardrules-room"
ROOM_VERSION = 1
UPLOAD_NAME = "house-rules.yaml"
MAX_UPLOAD_BYTES = 64 << 10
MAX_MOVES_LISTED = 300
LOG_LINES = 40
UPLOADS_KEPT = 32  # uploaded rulesets kept built, by text
MAX_RECORD_BYTES = 64 << 20  # a finished game's record, read back from finished/


def surrogate_at(text: str) -> int | None:
    """Where ``text`` holds a lone surrogate (``\\ud800``: JSON can carry one, but it is
    no character and cannot be written as UTF-8), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def room_key(name: str) -> str:
    """The same room however its name is typed: case and spaces aside."""
    return " ".join(name.split()).casefold()


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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@lru_cache(maxsize=64)
def pack_faces(pack: Pack) -> dict[str, list[str]]:
    """Each card code of ``pack``: [how it shows, its colour, its name] for the page
    (kept per pack: the same for every message)."""
    faces = {}
    for c, code in enumerate(pack.codes):
        k = pack.special_of[c]
        name = pack.specials[k].name if k >= 0 else \
            f"{pack.ranks[pack.rank_of[c]].name} of {pack.suits[pack.suit_of[c]].name}"
        faces[code] = [pack.pretty(c), pack.colour(c) or "", name]
    return faces


class PublicNarration(Renderer):
    """The terminal table's narration, kept as lines instead of printed: with no
    private seat it says only what everyone at the table sees."""

    def __init__(self, names: Sequence[str], rules: Ruleset, mode: str | None):
        super().__init__(names, rules, mode=mode, quiet=True, narrate=False)
        self.lines: deque[str] = deque(maxlen=LOG_LINES)
        self.end: dict[str, Any] | None = None

    def say(self, text: str) -> None:
        super().say(text)
        self.lines.append(text)

    def card(self, name: str) -> str:
        return self.pack.pretty(self.pack.card(name))

    def cards(self, names: Sequence[str]) -> str:
        return " ".join(self.card(n) for n in names)

    def event(self, event: dict[str, Any]) -> None:
        if event["event"] == "deal":  # the log tells the round being played (the sheet has the others)
            self.lines.clear()
            self.lines.append(f"-- round {event['round']}: {event['hand_size']} cards, dealer "
                              f"{self.names[event['dealer']]}")
        if event["event"] == "end":
            self.end = event
        super().event(event)


@dataclass
class Seat:
    kind: str  # "human" or a bot kind
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    gone_since: float | None = None  # when its last connection closed (time.monotonic)
    pending: Any = None  # the move its player sent, for the driver loop to take
    refusal: str | None = None  # why the engine refused that move
    stand_in: Policy | None = None  # the bot that plays while its player is away

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


class _PersonSeat:
    """A person's seat as a policy of the driver loop: it hands over the move its player
    sent; with none, a stand-in bot moves if the player has been gone long enough, else
    the loop stops until a move arrives."""

    kind = "human"
    needs_observation = True

    def __init__(self, room: Room, seat: int):
        self.room = room
        self.seat = seat

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        seat = self.room.seats[self.seat]
        if seat.pending is not None:
            move, seat.pending = seat.pending, None
            return move
        if self.room.stand_in_due(self.seat) and self.room.spend_bot_move():
            if seat.stand_in is None:
                seat.stand_in = self.room.new_bot(self.seat)
            bot = seat.stand_in
            return bot.act(observation if bot.needs_observation else None, legal)
        raise Stop

    def refused(self, action: Any, error: IllegalActionError) -> None:
        self.room.seats[self.seat].refusal = self.room.narration.refusal(str(error)) if self.room.narration \
            else str(error)


class _BotSeat:
    """A bot's seat: it moves as long as the room allows bot moves in this pass (the
    room paces the bots so people can follow)."""

    kind = "bot"

    def __init__(self, room: Room, bot: Policy):
        self.room = room
        self.bot = bot
        self.needs_observation = bot.needs_observation

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        if not self.room.spend_bot_move():
            raise Stop
        return self.bot.act(observation, legal)


class Client:
    """One connection, as a room sees it: its seat (None: a spectator) and a way to
    send it a message without waiting (the server's connection queues it)."""

    def __init__(self, send: Callable[[dict[str, Any]], None]):
        self.send = send
        self.room: Room | None = None
        self.seat: int | None = None


@dataclass
class Limits:
    takeover: float = 60.0  # seconds a person may be gone, in their turn, before a bot moves for them
    bot_delay: float = 0.6  # seconds between bot moves, so people can follow
    max_rooms: int = 200
    max_spectators: int = 8
    max_tabs: int = 3  # connections a seat may have at once
    idle_close: float = 1800.0  # seconds a started game nobody is in stays open


class Room:
    def __init__(self, rooms: Rooms, name: str, rules: Ruleset, *, bundled: str | None, text: str | None,
                 players: int, mode: str | None, kinds: Sequence[str], seed: int, file_id: str):
        self.rooms = rooms
        self.name = name
        self.rules = rules
        self.bundled = bundled
        self.text = text
        self.players = players
        self.mode = mode
        if seed_problem(seed):  # a room file's seed, or one given to Rooms.create
            raise RoomError(str(seed_problem(seed)))
        self.seed = seed
        self.file_id = file_id
        self.seats = [Seat(kind) for kind in kinds]
        self.clients: list[Client] = []
        self.state: GameState | None = None
        self.policies: list[Any] = []
        self.narration: PublicNarration | None = None
        self.writer: SaveWriter | None = None
        self.web = web_view_for(rules)
        self.problem: str | None = None  # the rules could not go on
        self._bot_budget: int | None = None
        self._runner: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()  # the last join: the oldest idle room makes way first
        self.empty_since: float | None = time.monotonic()  # when its last connection left (None: someone is in)

    # --- seats ------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.turn == OVER

    def names(self) -> list[str]:
        return [seat.name or f"seat {i + 1}" for i, seat in enumerate(self.seats)]

    def seat_of_token(self, token: Any) -> int | None:
        if not isinstance(token, str) or not 10 <= len(token) <= 100:
            return None
        digest = _digest(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def join(self, client: Client, name: Any, token: Any) -> str | None:
        """Seat ``client``: by its token (a player coming back), else in the first free
        seat for people (before the start), else as a spectator.  Returns a new token
        when it takes a seat for the first time."""
        seat = self.seat_of_token(token)
        new_token = None
        if seat is None and not self.started:
            person = clean_name(name, "your name", MAX_NAME)
            if any(s.name and s.name.casefold() == person.casefold() for s in self.seats):
                raise RoomError(f"someone in this room is already called {person}: choose another name")
            free = [i for i, s in enumerate(self.seats) if s.is_human and s.token_hash is None]
            if free:
                seat = free[0]
                new_token = secrets.token_urlsafe(24)
                self.seats[seat].name = person
                self.seats[seat].token_hash = _digest(new_token)
                self.rooms.save_room(self)
        if seat is not None:
            if self.seats[seat].connections >= self.rooms.limits.max_tabs:
                raise RoomError("this seat is already open in too many windows")
            self.seats[seat].connections += 1
            self.seats[seat].gone_since = None
        elif sum(1 for c in self.clients if c.seat is None) >= self.rooms.limits.max_spectators:
            raise RoomError("this room is full: every seat is taken and there is no room to watch")
        client.room, client.seat = self, seat
        self.clients.append(client)
        self.last_active = time.monotonic()
        self.empty_since = None
        return new_token

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
            if not self.clients:
                self.empty_since = time.monotonic()
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0:
                seat.gone_since = time.monotonic()
        client.room = None
        self.broadcast()

    def start(self, seat: int | None) -> None:
        if self.started:
            raise RoomError("the game has already started")
        if seat != 0:
            raise RoomError(f"only {self.names()[0]}, who made the room, can start the game")
        kinds = seat_kinds(self.rules)
        fill = "bot" if "bot" in kinds else kinds[0]
        for i, s in enumerate(self.seats):
            if s.is_human and s.token_hash is None:  # nobody took it: a bot does
                s.kind = fill
            if not s.is_human and s.name is None:
                s.name = f"{s.kind}-{i + 1}"
        names = self.names()
        self.state = new_game(self.rules, self.players, self.seed, names, self.mode, None)
        self.policies = [make_policy(self.rules, s.kind, self.seed, i) if not s.is_human else None
                         for i, s in enumerate(self.seats)]
        self._begin(header=new_header(self.rules, None, self.seed, self.mode, [s.kind for s in self.seats], names))
        self.rooms.save_room(self)
        self.advance(bots=0)
        self.broadcast()
        self.kick()

    def _begin(self, header: dict[str, Any] | None) -> None:
        """Wrap the seats' policies for the driver loop, and open the save."""
        assert self.state is not None
        self.policies = [_PersonSeat(self, i) if s.is_human else _BotSeat(self, self.policies[i])
                         for i, s in enumerate(self.seats)]
        self.narration = PublicNarration(self.names(), self.rules, self.mode)
        self.narration.catch_up_state(self.state)
        path = self.rooms.save_path(self)
        if path is not None and not self.is_over:
            self.writer = SaveWriter(path, header)

    def new_bot(self, seat: int) -> Policy:
        kinds = seat_kinds(self.rules)
        return make_policy(self.rules, "bot" if "bot" in kinds else kinds[0], self.seed + 7919, seat)

    # --- moves ------------------------------------------------------------------------------
    def move(self, seat: int | None, text: Any) -> None:
        """The move ``text`` by the player at ``seat``: refused with the reason (RoomError),
        or applied, after which the bots move."""
        if not isinstance(text, str) or not text.strip():
            raise RoomError("a move is a line of text, e.g. 'play QS' or 'bid 3'")
        state = self.state
        if state is None:
            raise RoomError("the game has not started yet")
        if seat is None:
            raise RoomError("you are watching: only the players at the table move")
        if self.problem is not None:
            raise RoomError(self.problem)
        if state.turn == OVER:
            raise RoomError("the game is over")
        if state.turn != seat:
            raise RoomError(f"it is not your turn: it is {self._whose_turn()}")
        try:
            action = parse_input(self.rules, state.observation(seat), text)
        except IllegalActionError as exc:
            raise RoomError(self._refusal(str(exc))) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RoomError(f"'{text[:60]}' is not a move here ({type(exc).__name__})") from None
        person = self.seats[seat]
        person.pending, person.refusal = action, None
        try:
            self.advance(bots=0)
        finally:  # whatever happened, the move is not taken again later
            person.pending = None
        refusal, person.refusal = person.refusal, None
        self.broadcast()
        self.kick()
        if refusal is not None:
            raise RoomError(refusal)

    def _refusal(self, text: str) -> str:
        return self.narration.refusal(text) if self.narration is not None else text

    def _whose_turn(self) -> str:
        assert self.state is not None
        turn = self.state.turn
        return f"{self.names()[turn]}'s turn" if turn >= 0 else "no one's turn"

    def spend_bot_move(self) -> bool:
        if self._bot_budget is None:
            return True
        if self._bot_budget <= 0:
            return False
        self._bot_budget -= 1
        return True

    def stand_in_due(self, seat: int) -> bool:
        person = self.seats[seat]
        return (person.connections == 0 and person.gone_since is not None
                and time.monotonic() - person.gone_since >= self.rooms.limits.takeover)

    def bot_due(self) -> bool:
        """Whether a bot (or a stand-in) is to move now."""
        state = self.state
        if state is None or state.turn < 0 or self.problem is not None:
            return False
        return not self.seats[state.turn].is_human or self.stand_in_due(state.turn)

    def advance(self, bots: int | None) -> bool:
        """Drive the game until a person is to move (or ``bots`` bot moves are made);
        True if anything happened."""
        state = self.state
        if state is None or state.turn == OVER or self.problem is not None:
            return False
        before = state.moves
        self._bot_budget = bots
        try:
            play_out(state, self.policies, on_action=self._on_action, on_event=self._on_event)
        except EvaluationError as exc:  # the rules themselves cannot go on
            self.problem = f"the rules cannot go on: {exc}"
        finally:
            self._bot_budget = None
        if state.turn == OVER:
            self._finish()
        return state.moves != before

    def _on_action(self, seat: int, action: Any) -> None:
        if self.writer is not None:
            self.writer.action(str(action))

    def _on_event(self, event: dict[str, Any]) -> None:
        if self.narration is not None:  # what everyone may see of it (the engine's view), not the event
            assert self.state is not None
            self.narration.follow(self.state)

    def _finish(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.rooms.save_room(self)

    def kick(self) -> None:
        """Let the bots move, paced, in a task of their own (one at a time per room)."""
        if self._runner is not None or not self.bot_due():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script using rooms directly): move at once
            self.advance(bots=None)
            self.broadcast()
            return
        self._runner = loop.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        try:
            delay = self.rooms.limits.bot_delay
            while self.bot_due():
                if delay:
                    await asyncio.sleep(delay)
                if self.state is None or not self.bot_due():
                    break
                if self.advance(bots=1 if delay else None):
                    self.broadcast()
        finally:
            self._runner = None

    # --- what each connection sees ----------------------------------------------------------
    def broadcast(self) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for client in list(self.clients):
            if client.seat not in cache:
                cache[client.seat] = self.message_for(client.seat)
            client.send(cache[client.seat])

    def message_for(self, seat: int | None) -> dict[str, Any]:
        if self.state is None:
            return self.lobby_message(seat)
        return self.table_message(seat)

    def _describe(self) -> dict[str, Any]:
        return {"room": self.name, "ruleset": self.rules.name, "title": self.rules.title or self.rules.name,
                "family": self.rules.family.name, "players": self.players, "mode": self.mode,
                "uploaded": self.text is not None}

    def lobby_message(self, seat: int | None) -> dict[str, Any]:
        return {"type": "lobby", **self._describe(), "you": seat,
                "seats": [{"name": s.name, "kind": "person" if s.is_human else s.kind, "taken": s.token_hash is not None,
                           "connected": s.connections > 0} for s in self.seats],
                "spectators": sum(1 for c in self.clients if c.seat is None),
                "can_start": seat == 0}

    def table_message(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        assert state is not None and self.narration is not None
        names = self.names()
        spectator = seat is None
        obs = state.observation(seat)  # a spectator's (None) holds no hand and nothing private
        my_turn = seat is not None and state.turn == seat and self.problem is None
        legal = list(state.legal_actions()) if my_turn else []
        message: dict[str, Any] = {
            "type": "table", **self._describe(), "you": seat, "version": state.moves, "step": state.event_count,
            "round": obs.round, "rounds": obs.rounds, "hand_size": obs.hand_size, "dealer": obs.dealer,
            "phase": str(obs.phase), "turn": state.turn if state.turn >= 0 else None,
            "heading": self.narration.round_title(obs.round) if self.narration.round and state.turn != OVER else "",
            "seats": [{"name": names[i], "kind": "person" if s.is_human else s.kind, "total": obs.totals[i],
                       "connected": s.connections > 0 if s.is_human else True,
                       "stand_in": s.is_human and s.connections == 0 and state.turn == i and self.stand_in_due(i),
                       "note": note}
                      for i, (s, note) in enumerate(zip(self.seats, self.web.seat_notes(obs, spectator)))],
            "panels": self.web.panels(obs, names, spectator),
            "log": list(self.narration.lines),
            "last": self.narration.view.last_lines(),
            "last_title": self.narration.view.last_help,
            "sheet": [{"round": number, "cells": cells, "totals": totals}
                      for number, cells, totals in self.narration.sheet],
            "sheet_legend": self.narration.view.sheet_legend,
            "over": state.turn == OVER,
            "problem": self.problem,
        }
        pack = state.setup.pack
        if pack is not STANDARD:  # a pack of the ruleset's own: how the page shows each card
            message["pack"] = pack_faces(pack)
        if seat is not None:
            controls = self.web.controls(obs, legal)
            if my_turn:
                self._fill_refusals(obs, controls)
            else:
                controls.update(buttons=[], composers=[], select=False)
            message["hand"] = controls.pop("hand")
            message["controls"] = controls
            message["moves"] = [str(a) for a in legal[:MAX_MOVES_LISTED]]
        if state.turn == OVER:
            end = self.narration.end or {}
            teams = end.get("teams") or []
            message["standings"] = standings(names, list(state.totals), teams, self.rules.winner == "highest")
            message["winners"] = [names[s] for s in state.winners]
            message["record"] = f"/rooms/{self.file_id}/record"
        return message

    def _fill_refusals(self, obs: Any, controls: dict[str, Any]) -> None:
        """For a move the page offers but the engine will refuse, the engine's reason."""
        assert self.state is not None
        for item in controls.get("hand", []) + controls.get("buttons", []):
            text = item.pop("try", None)
            if not text:
                continue
            try:
                self.state.verify(parse_input(self.rules, obs, text))
            except IllegalActionError as exc:
                item["refused"] = self._refusal(str(exc))
            else:
                item["move"] = text

    # --- the record -------------------------------------------------------------------------
    def record_text(self) -> str:
        if self.state is None or self.state.turn != OVER:
            raise RoomError("the record is offered once the game is over")
        return "".join(dump_event(event) + "\n" for event in self.state.events)


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
               mode: Any = None, seats: Any = None, seed: int | None = None) -> tuple[Room, str]:
        """A new room (RoomError or RulesetError if it cannot be made), and the token of
        its first seat, its creator's.  ``seats``: one kind a seat ("human", "bot",
        "random", ...)."""
        room_name = self.vet_name(room)
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
        try:
            rules.setup(len(seats), mode)
        except (CardrulesError, ValueError) as exc:
            raise RoomError(f"{rules.name} cannot be played by {len(seats)}: {exc}") from None
        if len(self.rooms) >= self.limits.max_rooms and not self._make_way():
            raise RoomError("this server has as many rooms as it takes; try again later")
        key = room_key(room_name)
        file_id = self._new_id(key)
        new = Room(self, room_name, rules, bundled=bundled, text=text, players=len(seats), mode=mode, kinds=seats,
                   seed=seed if seed is not None else secrets.randbelow(1 << 31), file_id=file_id)
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
                "started": room.started, "over": room.is_over,
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
                    mode=saved.mode, kinds=[kind for kind, _, _ in saved.seats], seed=saved.seed,
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
