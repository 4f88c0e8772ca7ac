"""Helpers for the tests of `cardrules serve`: a room on an in-process server, players
that play through the WebSocket protocol, and the privacy check of what each seat
was sent."""

from __future__ import annotations

import json
import queue
import random
import threading
import re
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator

import anyio

with warnings.catch_warnings():  # starlette warns that httpx will give way to httpx2 one day
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardrules.web.rooms import Limits, Rooms
from cardrules.web.server import make_app

# A card as the engine names it ("QS", "TS", "JK") or as people read it ("Q♠", "10♥", "Jkr").
CARD_NAME = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|JK)(?![A-Za-z0-9])")
CARD_PRETTY = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([♠♥♦♣])|(?<![A-Za-z])Jkr(?![A-Za-z])")
SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def server(tmp_path: Path, **limits: Any) -> tuple[Rooms, TestClient]:
    rooms = Rooms(tmp_path / "rooms", Limits(**{"bot_delay": 0.0, **limits}))
    return rooms, TestClient(make_app(rooms, rate=10_000, burst=10_000))


def proxied(tmp_path: Path, **options: Any) -> tuple[Rooms, TestClient]:
    """A server as it runs behind a trusted proxy: each request or socket is from the
    client its ``X-Forwarded-For`` header names (uvicorn's middleware reads it, as
    `cardrules serve` has it do for --trusted-proxy); ``options`` go to make_app."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0.0))
    app = make_app(rooms, **{"rate": 10_000, "burst": 10_000, **options})
    return rooms, TestClient(ProxyHeadersMiddleware(app, trusted_hosts="testclient"))  # type: ignore[arg-type]


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"room": "Friday", "name": "Ann", **settings})
    assert response.status_code == 200, response.text
    return response.json()


def receive_json(ws: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The next message on a test client's socket, failing the test rather than waiting
    for ever if none comes."""
    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    ws._raise_on_close(message)
    return json.loads(message["text"])


def receive(ws: Any, kinds: tuple[str, ...] = ("table",)) -> dict[str, Any]:
    """The next message of one of ``kinds``, skipping the others."""
    while True:
        message = receive_json(ws)
        if message["type"] in kinds:
            return message


def choose(message: dict[str, Any], rng: random.Random) -> str:
    """A scripted player's move: a listed go-down or lay-off when there is one (so rummy
    rounds end by going out), else any legal move."""
    moves = message["moves"]
    eager = [m for m in moves if m.startswith(("meld", "layoff"))]
    if eager:
        return eager[0]
    calm = [m for m in moves if m != "buy"] or moves  # buying every discard makes very long rounds
    return rng.choice(calm)


def play_to_the_end(sockets: dict[Any, Any], rng: random.Random,
                    seen: dict[Any, list[dict[str, Any]]] | None = None, timeout: float = 30.0) -> dict[Any, dict]:
    """Each seat's player answers the table in its turn with a move (once per table
    version: a table sent again, to tell of someone joining, is not a new turn), until
    the game is over for every socket; returns each one's last table.  ``seen``
    collects every message each socket received.  Each socket is read by a thread of its
    own, as a browser reads its connection whatever the others do."""
    inbox: queue.Queue[tuple[Any, dict[str, Any] | None]] = queue.Queue()

    def read(key: Any, ws: Any) -> None:
        try:
            while True:
                message = ws.receive_json()
                inbox.put((key, message))
                if message["type"] == "table" and message["over"]:
                    return
        except Exception:  # noqa: BLE001 - the socket closed: the main loop says so
            inbox.put((key, None))

    for key, ws in sockets.items():
        threading.Thread(target=read, args=(key, ws), daemon=True).start()
    last: dict[Any, dict] = {}
    answered: dict[Any, int] = {}
    done: set[Any] = set()
    while len(done) < len(sockets):
        try:
            key, message = inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message for {timeout} s; the game is stuck ({sorted(map(str, done))} done)")
        if message is None:
            raise AssertionError(f"the connection of {key} closed")
        if seen is not None:
            seen.setdefault(key, []).append(message)
        if message["type"] != "table":
            continue
        last[key] = message
        if message["over"]:
            done.add(key)
        elif message.get("round_end") and not message["round_end"]["seen"]:
            if answered.get(key) != ("next", message["round_end"]["round"]):  # each person looks, then deals on
                answered[key] = ("next", message["round_end"]["round"])
                sockets[key].send_json({"type": "next"})
        elif message["turn"] == key and message.get("moves") and answered.get(key) != message["version"]:
            answered[key] = message["version"]
            sockets[key].send_json({"type": "move", "move": choose(message, rng)})
    return last


# --- privacy ---------------------------------------------------------------------------------
def card_names(message: Any) -> set[str]:
    """Every card named anywhere in a message, in either notation (tokens left out)."""
    found: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if key == "token":
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.update(CARD_NAME.findall(value))
            for match in CARD_PRETTY.finditer(value):
                if match.group(0) == "Jkr":
                    found.add("JK")
                else:
                    rank = "T" if match.group(1) == "10" else match.group(1)
                    found.add(rank + SUIT_OF[match.group(2)])

    walk(message)
    return found


class Visible:
    """The cards one viewer (a seat, or None for a spectator) may know, round by round,
    by the engine's own notion of privacy: the cards named in its views of the game's
    events (``state.event_views``), which hold its hand, what was played face up and
    what it drew itself. Knows no family: a family's declarations decide."""

    def __init__(self, state: Any, seat: int | None) -> None:
        self.events = state.events
        self.views = state.event_views(seat)
        assert len(self.views) == len(self.events), "a finished game holds nothing back"
        self.seen: dict[int, set[str]] = defaultdict(set)
        self.round = 0
        self.fed = 0

    def feed(self) -> None:
        view = self.views[self.fed]
        self.fed += 1
        r = view.get("round", self.round)
        self.round = max(self.round, r if isinstance(r, int) else 0)
        self.seen[self.round].update(card_names({k: v for k, v in view.items() if k != "event"}))

    def allowed(self) -> set[str]:
        """What a message now may name: the cards this viewer has seen this round and the
        last (whose end a message may still show)."""
        return self.seen[self.round] | self.seen[self.round - 1]


def hidden_leaks(messages: list[dict[str, Any]], seat: int | None, state: Any) -> list[str]:
    """The cards a message showed that its receiver could not know when it was sent: a
    card in none of the engine's views of the events for that receiver by then.  A
    message's ``step`` is the number of events the game had produced when it was sent (a
    socket's messages come in that order).  ``state`` is the finished game (its record
    replayed)."""
    leaks = []
    visible = Visible(state, seat)
    for number, message in enumerate(messages):
        if message.get("type") != "table":
            continue
        assert message["step"] >= visible.fed, "messages out of order"
        while visible.fed < message["step"]:
            visible.feed()
        extra = card_names(message) - visible.allowed()
        if extra:
            leaks.append(f"message {number} (round {visible.round}) to "
                         f"{'a spectator' if seat is None else f'seat {seat}'} names {sorted(extra)}")
    return leaks


def replayed(client: TestClient, message: dict[str, Any], folder: Path) -> Any:
    """The finished game of a room, rebuilt by replaying the record the room offers."""
    from cardrules.interpreter.record import replay

    response = client.get(message["record"])
    assert response.status_code == 200, response.text
    path = folder / "room-record.jsonl"
    path.write_text(response.text)
    rules = client.get(message["record"].replace("/record", "/ruleset.yaml"))  # an uploaded ruleset's text
    ruleset = None
    if rules.status_code == 200:
        ruleset = folder / "room-ruleset.yaml"
        ruleset.write_text(rules.text)
    result = replay(path, None if ruleset is None else str(ruleset))
    assert result.complete
    return result.state


def record_of(client: TestClient, message: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(message["record"])
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def messages(ws: Any) -> Iterator[dict[str, Any]]:
    while True:
        yield ws.receive_json()


# --- a real server ------------------------------------------------------------------------------
def serve_for_real(data: Path, *args: str) -> tuple[Any, int]:
    """A real `cardrules serve` (uvicorn) on a free port of 127.0.0.1 with ``args``: the
    process and its port, once it answers."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", "--port", str(port), "--data", str(data),
                                "--bot-delay", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/x", timeout=2).read()
            return process, port
        except OSError:
            if time.time() > deadline or process.poll() is not None:
                process.kill()  # then its log can be read to the end
                raise AssertionError("the server did not start: " + process.communicate()[1].decode()[-800:])
            time.sleep(0.1)
