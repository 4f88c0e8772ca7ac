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
import gc
import html
import json
import sys
from collections import deque
from importlib import resources
from typing import Any, AsyncIterator, Callable, Sequence

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..interpreter.errors import RulesetError
from ..interpreter.files import load_json
from ..interpreter.loader import bundled_names
from .checks import Checker, CheckRefused, describe_rules
from .guards import HTTP_BURST, HTTP_RATE, MAX_CONNECTIONS, MAX_PER_ADDRESS, Bucket, Guard, client_address
from .room import Client, Room
from .rooms import RoomError, Rooms, problems_json, surrogate_at

MAX_BODY = 96 << 10  # a room's settings with a pasted ruleset
BODY_SECONDS = 20.0  # time a request's body may take to arrive
MAX_MESSAGE = 4096  # one WebSocket message from a client
RATE = 20.0  # messages a second a connection may send, on average ...
BURST = 60  # ... and at once
MAX_STRIKES = 50  # messages over the rate before the connection is closed
MAX_OUTBOX = 200  # messages waiting for a slow client before it is dropped


class BadRequest(Exception):
    """A request refused before it is read as settings: its one-line reason and status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


async def _read_json(request: Request) -> Any:
    """The request's body as JSON: at most MAX_BODY bytes, arrived within BODY_SECONDS,
    UTF-8 holding only characters (BadRequest: why not)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise BadRequest(f"the request is larger than {MAX_BODY >> 10} kB", 413)
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise BadRequest(f"the request is larger than {MAX_BODY >> 10} kB", 413)
    except TimeoutError:
        raise BadRequest(f"the request's body took more than {BODY_SECONDS:.0f} s to arrive", 408) from None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"the request is not UTF-8 text (byte {exc.start} is not)") from None
    try:
        value = load_json(text)
    except ValueError as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    problem = not_unicode(value)
    if problem:
        raise BadRequest(problem)
    return value


def not_unicode(value: Any, where: str = "") -> str | None:
    """Why the JSON ``value`` (a request, a message) is not all valid Unicode: JSON's
    escapes can carry a lone surrogate (``"\\ud800"``), which is no character and
    cannot be sent back, stored or printed; None if it is."""
    if isinstance(value, str):
        at = surrogate_at(value)
        if at is None:
            return None
        line = value.count("\n", 0, at) + 1
        place = f"line {line}, column {at - (value.rfind(chr(10), 0, at) + 1) + 1}" if line > 1 else \
            f"character {at + 1}"
        return (f"{where or 'the text'} holds {value[at].encode('unicode_escape').decode()} at {place}: a lone "
                "surrogate, not a character; send valid Unicode")
    if isinstance(value, dict):
        for key, item in value.items():
            problem = not_unicode(key, "a key") or not_unicode(item, f'"{key[:30]}"' if surrogate_at(key) is None
                                                               else "a value")
            if problem:
                return problem
    elif isinstance(value, list):
        for item in value:
            problem = not_unicode(item, where)
            if problem:
                return problem
    return None


def _sync_all(writers: list[Any]) -> None:
    for writer in writers:
        writer.sync()


def _beside_the_loop(work: Callable[..., Any], *args: Any) -> Any:
    """Run ``work`` (building a ruleset: about a second for a large upload) in this
    thread while the event loop goes on in its own.  They share the GIL, so for that
    time the interpreter switches threads every millisecond instead of every five,
    and the cyclic garbage collector waits: a full collection holds the GIL for a
    tenth of a second or more, and building a ruleset makes several (measured with
    benchmarks/hammer.py --create: a p99 round trip of 280 ms without these, 14 ms with)."""
    interval, collecting = sys.getswitchinterval(), gc.isenabled()
    sys.setswitchinterval(0.001)
    gc.disable()
    try:
        return work(*args)
    finally:
        if collecting:
            gc.enable()
        sys.setswitchinterval(interval)


def _error(message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


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


FIRST_RULESET = "oh-hell"  # the menu's first choice, when it is bundled


def filled_page(template: str, catalogue: Sequence[dict[str, Any]]) -> str:
    """index.html with its rules menu's options and the catalogue (as JSON the page reads)
    written in.  Every text is escaped: a title is a bundled file's, but still text.

    >>> page = filled_page('<select id="ruleset"></select>', [{"name": "a", "title": "A & B </script>"}])
    >>> '<option value="a" selected>A &amp; B &lt;/script&gt; (a)</option>' in page, page.count("</script>")
    (True, 1)
    """
    chosen = FIRST_RULESET if any(r["name"] == FIRST_RULESET for r in catalogue) else \
        (catalogue[0]["name"] if catalogue else None)
    options = "".join(f'<option value="{html.escape(r["name"])}"{" selected" if r["name"] == chosen else ""}>'
                      f'{html.escape(str(r.get("title") or r["name"]))} ({html.escape(r["name"])})</option>'
                      for r in catalogue)
    data = json.dumps(list(catalogue), ensure_ascii=False).replace("<", "\\u003c").replace("&", "\\u0026")
    filled = template.replace('<select id="ruleset"></select>', f'<select id="ruleset">{options}</select>', 1)
    script = f'<script type="application/json" id="rulesets-data">{data}</script>'
    return filled.replace("</body>", script + "\n</body>", 1) if "</body>" in filled else filled + script


def make_app(rooms: Rooms, *, rate: float = RATE, burst: int = BURST, http_rate: float = HTTP_RATE,
             http_burst: int = HTTP_BURST, max_connections: int = MAX_CONNECTIONS,
             max_per_address: int = MAX_PER_ADDRESS, checker: Checker | None = None) -> Guard:
    """The ASGI app serving ``rooms``: WebSocket messages limited to ``rate`` a second
    a connection (``burst`` at once), HTTP requests to ``http_rate`` an address
    (``http_burst``), an address's connections to ``max_per_address`` at once and
    WebSockets in all to nine tenths of ``max_connections`` (see web/guards.py),
    uploaded rulesets checked by ``checker``'s worker processes.

    (Long because every route is a closure over ``rooms``, the catalogue and the limiters,
    defined next to the route table that lists them: each handler is short.)"""
    static = resources.files("cardrules.web") / "static"
    catalogue: list[dict[str, Any]] = []
    checker = checker or Checker()
    checking: set[str] = set()  # addresses with a check in flight: one each
    build = asyncio.Lock()  # rulesets are built in a thread, one at a time (Rooms builds one at a time)

    page_text: list[str] = []  # index.html with the rules menu filled in, made once

    async def _catalogue() -> list[dict[str, Any]]:
        if not catalogue:
            async with build:
                if not catalogue:
                    catalogue.extend(await asyncio.to_thread(_beside_the_loop, _describe_all))
        return catalogue

    async def page(request: Request) -> Response:
        # The rules menu comes filled in with the page (never empty while a script loads
        # it), and the catalogue with it, as data the page reads instead of asking again.
        if not page_text:
            page_text.append(filled_page((static / "index.html").read_text("utf-8"), await _catalogue()))
        return HTMLResponse(page_text[0])

    def _describe_all() -> list[dict[str, Any]]:
        described = []
        for name in bundled_names():
            try:
                described.append(describe_rules(rooms.bundled(name)))
            except Exception:  # noqa: BLE001 - a bundled ruleset that does not load is not offered
                continue
        return described

    async def list_rulesets(request: Request) -> Response:
        return JSONResponse(await _catalogue())

    async def _check(request: Request, text: str) -> dict[str, Any]:
        """``text`` checked in a worker (CheckRefused: not checked, and why): one check
        at a time for an address, except of a text being checked already."""
        address = client_address(request.scope)
        if address in checking and not checker.is_checking(text):
            raise CheckRefused("one ruleset at a time: wait for the answer about the last one", 429)
        checking.add(address)
        try:
            return await checker.check(text)
        finally:
            checking.discard(address)

    def _refusal(answer: dict[str, Any]) -> Response | None:
        """The answer to a ruleset a worker did not pass (None: it passed)."""
        if answer.get("error"):
            print(f"cardrules serve: a ruleset check failed: {answer['error']}", file=sys.stderr)
            return _error(f"the ruleset could not be checked: {answer['error']}", 500)
        if not answer["ok"]:
            return _error("the ruleset has problems", problems=answer["problems"])
        return None

    async def validate(request: Request) -> Response:
        try:
            body = await _read_json(request)
        except BadRequest as exc:
            return _error(str(exc), exc.status)
        if not isinstance(body, dict) or not isinstance(body.get("yaml"), str):
            return _error("send {\"yaml\": the ruleset's text}")
        try:
            answer = await _check(request, body["yaml"])
        except CheckRefused as exc:
            return _error(str(exc), exc.status)
        return _refusal(answer) or JSONResponse({"ok": True, **answer["describe"]})

    async def _prepare(request: Request, body: dict[str, Any]) -> Response | None:
        """Before a room is made: its name is free, and its ruleset checked (an
        uploaded one in a worker) and built in a thread, so that making the room takes
        no time on the event loop.  A response to send instead, or None."""
        rooms.vet_name(body.get("room"))
        text, name = body.get("yaml"), body.get("ruleset")
        if rooms.is_built(ruleset=name, yaml_text=text):
            return None
        if isinstance(text, str):
            refusal = _refusal(await _check(request, text))
            if refusal is not None:
                return refusal
        async with build:
            if isinstance(text, str):
                await asyncio.to_thread(_beside_the_loop, rooms.upload, text)
            else:
                await asyncio.to_thread(_beside_the_loop, rooms.bundled, name)
        return None

    async def create_room(request: Request) -> Response:
        try:
            body = await _read_json(request)
        except BadRequest as exc:
            return _error(str(exc), exc.status)
        if not isinstance(body, dict):
            return _error("send the room's settings as a JSON object")
        try:
            early = await _prepare(request, body)
            if early is not None:
                return early
            room, token = rooms.create(room=body.get("room"), name=body.get("name"), ruleset=body.get("ruleset"),
                                       yaml_text=body.get("yaml"), players=body.get("players"),
                                       mode=body.get("mode") or None, seats=body.get("seats"),
                                       clock=body.get("clock"))
        except RoomError as exc:
            return _error(str(exc))
        except RulesetError as exc:
            return _error("the ruleset has problems", problems=problems_json(exc))
        except CheckRefused as exc:
            return _error(str(exc), exc.status)
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
            archived = rooms.archived_record(request.path_params["id"][:40])
            if archived is None:
                return PlainTextResponse("no such room\n", status_code=404)
            return Response(archived, media_type="application/x-ndjson",
                            headers={"Content-Disposition": f'attachment; filename="{request.path_params["id"]}.jsonl"'})
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
        client = Client(outbox.put, client_address(websocket.scope))
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
                    item = outbox.items.popleft()
                    try:
                        text = json.dumps(item, ensure_ascii=False)
                        text.encode("utf-8")
                    except (TypeError, ValueError) as exc:  # never a message that cannot be sent: say so instead
                        print(f"cardrules serve: internal error: a {str(item.get('type'))[:20]} message could not "
                              f"be sent: {type(exc).__name__}: {exc}", file=sys.stderr)
                        text = json.dumps({"type": "error", "message": "internal error: the server could not "
                                           "send that"})
                    await websocket.send_text(text)

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

        async def sync_saves() -> None:
            """Force the moves written since the last time to the disk, beside the event
            loop: each move is written and flushed as it is made (a killed server loses
            none), and on the disk within half a second (what a power cut can lose)."""
            while True:
                await asyncio.sleep(0.5)
                writers = [room.writer for room in rooms.rooms.values()
                           if room.writer is not None and room.writer.dirty]
                if writers:
                    await asyncio.to_thread(_sync_all, writers)

        for room in rooms.rooms.values():
            room.kick()
        tasks = [asyncio.get_running_loop().create_task(job()) for job in (sweep, sync_saves)]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for room in rooms.rooms.values():
                if room.writer is not None:
                    room.writer.sync()
            await checker.close()

    return Guard(Starlette(routes=[
        Route("/", page),
        Route("/api/rulesets", list_rulesets),
        Route("/api/validate", validate, methods=["POST"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{name:path}", room_info),
        Route("/rooms/{id}/record", record),
        Route("/rooms/{id}/ruleset.yaml", ruleset_text),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ], lifespan=lifespan), rate=http_rate, burst=http_burst, per_address=max_per_address,
        max_connections=max_connections)


def _handle(rooms: Rooms, client: Client, text: str) -> None:
    """One message from a client (see docs/web.md); RoomError: refused, with the reason."""
    try:
        message = load_json(text)
    except ValueError as exc:
        raise RoomError(f"not JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise RoomError("each message is a JSON object with a \"type\"")
    problem = not_unicode(message)
    if problem:
        raise RoomError(problem)
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
        client.send(room.chat_history())
        room.broadcast()
        return
    room = client.room
    if room is None:
        raise RoomError("join a room first")
    if kind == "start":
        room.start(client.seat)
    elif kind == "next":
        room.next_deal(client.seat)
    elif kind == "chat":
        room.chat(client, message.get("text"))
    elif kind == "react":
        room.react(client, message.get("emoji"))
    elif kind == "check":  # a meld being built at the table: is it one?
        client.send(room.check_meld(message.get("cards")))
    elif kind == "move":
        try:
            room.move(client.seat, message.get("move"))
        except RoomError as exc:
            client.send({"type": "refused", "message": str(exc), "move": str(message.get("move"))[:100]})
    else:
        raise RoomError(f"unknown message type '{kind[:30]}'")
