"""The web server of `cardrules serve`: an ASGI app (Starlette) with the page, a small
JSON API to list rulesets, check an uploaded one and make a room, and one WebSocket
per player or spectator.  The room protocol is described in ``docs/web.md``.

Nothing a client sends is trusted: every body and message is bounded in size, every
connection in rate, every field checked; a problem is answered with one line
(``{"type": "error", "message": ...}``), never a traceback, and never ends the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections import deque
from importlib import resources
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..interpreter.errors import RulesetError
from ..interpreter.files import load_json
from ..interpreter.loader import bundled_names
from ..interpreter.bots import seat_kinds
from .rooms import Client, Room, RoomError, Rooms, load_upload, problems_json

MAX_BODY = 96 << 10  # a room's settings with a pasted ruleset
MAX_MESSAGE = 4096  # one WebSocket message from a client
RATE = 20.0  # messages a second a connection may send, on average ...
BURST = 60  # ... and at once
MAX_STRIKES = 50  # messages over the rate before the connection is closed
MAX_OUTBOX = 200  # messages waiting for a slow client before it is dropped


class BodyTooLarge(Exception):
    pass


async def _read_json(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise BodyTooLarge()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BodyTooLarge()
    return load_json(body.decode("utf-8", "replace"))


def _error(message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def _describe_rules(rules: Any) -> dict[str, Any]:
    return {"name": rules.name, "title": rules.title or rules.name, "family": rules.family.name,
            "description": rules.description or "", "players": [rules.min_players, rules.max_players],
            "modes": {name: mode[0] for name, mode in rules.modes.items()},
            "kinds": ["human", *seat_kinds(rules)]}


class Outbox:
    """What is waiting to be sent to one connection.  A table message replaces one
    still waiting (each is the whole table), so a slow client skips ahead instead of
    falling behind; other messages keep their order."""

    def __init__(self) -> None:
        self.items: deque[dict[str, Any]] = deque()
        self.ready = asyncio.Event()
        self.overflow = False

    def put(self, message: dict[str, Any]) -> None:
        if message.get("type") in ("table", "lobby"):
            self.items = deque(m for m in self.items if m.get("type") not in ("table", "lobby"))
        self.items.append(message)
        if len(self.items) > MAX_OUTBOX:
            self.overflow = True
        self.ready.set()


class Bucket:
    """A token bucket: ``RATE`` messages a second on average, ``BURST`` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def make_app(rooms: Rooms, *, rate: float = RATE, burst: int = BURST) -> Starlette:
    """The ASGI app serving ``rooms``."""
    static = resources.files("cardrules.web") / "static"
    catalogue: list[dict[str, Any]] = []

    async def page(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    async def list_rulesets(request: Request) -> Response:
        if not catalogue:
            for name in bundled_names():
                try:
                    catalogue.append(_describe_rules(rooms.bundled(name)))
                except Exception:  # noqa: BLE001 - a bundled ruleset that does not load is not offered
                    continue
        return JSONResponse(catalogue)

    async def validate(request: Request) -> Response:
        try:
            body = await _read_json(request)
        except BodyTooLarge:
            return _error(f"the ruleset is larger than {MAX_BODY >> 10} kB", 413)
        except ValueError as exc:
            return _error(f"not JSON: {exc}")
        if not isinstance(body, dict) or not isinstance(body.get("yaml"), str):
            return _error("send {\"yaml\": the ruleset's text}")
        try:
            rules = load_upload(body["yaml"])
        except RulesetError as exc:
            return _error("the ruleset has problems", problems=problems_json(exc))
        return JSONResponse({"ok": True, **_describe_rules(rules)})

    async def create_room(request: Request) -> Response:
        try:
            body = await _read_json(request)
        except BodyTooLarge:
            return _error(f"the request is larger than {MAX_BODY >> 10} kB", 413)
        except ValueError as exc:
            return _error(f"not JSON: {exc}")
        if not isinstance(body, dict):
            return _error("send the room's settings as a JSON object")
        try:
            room, token = rooms.create(room=body.get("room"), name=body.get("name"), ruleset=body.get("ruleset"),
                                       yaml_text=body.get("yaml"), players=body.get("players"),
                                       mode=body.get("mode") or None, seats=body.get("seats"))
        except RoomError as exc:
            return _error(str(exc))
        except RulesetError as exc:
            return _error("the ruleset has problems", problems=problems_json(exc))
        return JSONResponse({"room": room.name, "seat": 0, "token": token, "id": room.file_id})

    async def room_info(request: Request) -> Response:
        room = rooms.get(request.path_params["name"][:200])
        if room is None:
            return JSONResponse({"exists": False})
        free = sum(1 for s in room.seats if s.is_human and s.token_hash is None)
        return JSONResponse({"exists": True, "room": room.name, "ruleset": room.rules.name, "started": room.started,
                             "over": room.is_over, "free_seats": 0 if room.started else free})

    def _finished(request: Request) -> Room | None:
        return rooms.by_id(request.path_params["id"][:40])

    async def record(request: Request) -> Response:
        room = _finished(request)
        if room is None:
            return PlainTextResponse("no such room\n", status_code=404)
        try:
            text = room.record_text()
        except RoomError as exc:
            return PlainTextResponse(f"{exc}\n", status_code=409)
        filename = f"{room.rules.name}-{room.seed}.jsonl"
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def ruleset_text(request: Request) -> Response:
        room = _finished(request)
        if room is None or room.text is None:
            return PlainTextResponse("no uploaded ruleset here\n", status_code=404)
        return Response(room.text, media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{room.rules.name}.yaml"'})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        outbox = Outbox()
        client = Client(outbox.put)
        bucket = Bucket(rate, burst)
        strikes = 0

        async def sender() -> None:
            while True:
                await outbox.ready.wait()
                outbox.ready.clear()
                if outbox.overflow:
                    await websocket.close(code=1008, reason="too slow: too many messages waiting")
                    return
                while outbox.items:
                    await websocket.send_text(json.dumps(outbox.items.popleft(), ensure_ascii=False))

        task = asyncio.get_running_loop().create_task(sender())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    outbox.put({"type": "error", "message": "send JSON text, not bytes"})
                    continue
                if len(text) > MAX_MESSAGE:
                    outbox.put({"type": "error", "message": f"message too long (at most {MAX_MESSAGE} characters)"})
                    continue
                if not bucket.take():
                    strikes += 1
                    if strikes > MAX_STRIKES:
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    outbox.put({"type": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    _handle(rooms, client, text)
                except RoomError as exc:
                    outbox.put({"type": "error", "message": str(exc)})
                except Exception as exc:  # noqa: BLE001 - one bad message never ends the server
                    print(f"cardrules serve: internal error on a message: {type(exc).__name__}: {exc}",
                          file=sys.stderr)
                    outbox.put({"type": "error", "message": "internal error: the server could not do that"})
        except WebSocketDisconnect:
            pass
        finally:
            task.cancel()
            if client.room is not None:
                client.room.leave(client)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(max(0.05, min(1.0, rooms.limits.takeover / 4)))
                try:
                    rooms.sweep()
                except Exception as exc:  # noqa: BLE001 - keep sweeping
                    print(f"cardrules serve: internal error in the sweep: {exc}", file=sys.stderr)

        for room in rooms.rooms.values():
            room.kick()
        task = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            task.cancel()

    return Starlette(routes=[
        Route("/", page),
        Route("/api/rulesets", list_rulesets),
        Route("/api/validate", validate, methods=["POST"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{name:path}", room_info),
        Route("/rooms/{id}/record", record),
        Route("/rooms/{id}/ruleset.yaml", ruleset_text),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ], lifespan=lifespan)


def _handle(rooms: Rooms, client: Client, text: str) -> None:
    """One message from a client (see docs/web.md); RoomError: refused, with the reason."""
    try:
        message = load_json(text)
    except ValueError as exc:
        raise RoomError(f"not JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise RoomError("each message is a JSON object with a \"type\"")
    kind = message["type"]
    if kind == "ping":
        client.send({"type": "pong"})
        return
    if kind == "join":
        if client.room is not None:
            raise RoomError("you are in a room already")
        name = message.get("room")
        room = rooms.get(name) if isinstance(name, str) else None
        if room is None:
            client.send({"type": "no-room", "room": str(name)[:60],
                         "message": f"there is no room called {str(name)[:60]}: make it first"})
            return
        token = room.join(client, message.get("name"), message.get("token"))
        welcome: dict[str, Any] = {"type": "welcome", "room": room.name, "id": room.file_id, "seat": client.seat}
        if token is not None:
            welcome["token"] = token
        client.send(welcome)
        room.broadcast()
        return
    room = client.room
    if room is None:
        raise RoomError("join a room first")
    if kind == "start":
        room.start(client.seat)
    elif kind == "move":
        try:
            room.move(client.seat, message.get("move"))
        except RoomError as exc:
            client.send({"type": "refused", "message": str(exc), "move": str(message.get("move"))[:100]})
    else:
        raise RoomError(f"unknown message type '{kind[:30]}'")
