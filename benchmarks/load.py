"""Load test of `cardrules serve` on the loopback address: many rooms of scripted
players playing whole games at once.

    python benchmarks/load.py [--rooms 50] [--players 4] [--timeout 240] [--open-timeout 10] [--json]
                              [--no-compression]

It starts a real server (`python -m cardrules serve`, uvicorn) on a free port with a
fresh data folder, makes ``--rooms`` rooms of a short house variant of oh-hell (two
rounds of 5 and 4 cards, uploaded as YAML like a player's own file), and connects
``--players`` WebSocket clients to each; they join by the room's name, the maker
starts, and each plays a random legal move whenever its seat is to act, as fast as
the server answers.  The latency of a move is the time from sending it to receiving
the table that shows it applied; a handshake's, from opening the TCP connection to
the WebSocket being open (a client gives up after ``--open-timeout`` seconds, the
websockets library's default 10).  It reports the moves, the median and 99th
percentile latency of moves and of handshakes, the errors (an error or refusal
message, a dropped connection, a handshake given up) and the lost games (a room not
over for every client by the time limit).  It stops by
itself: after every game ends, or at ``--timeout`` seconds.  Exit status 0 only with
no error and no lost game.  The figures depend on the machine (the server and every
client share it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import websockets

HOUSE = """extends: oh-hell
name: oh-hell-two-rounds
deal:
  hand_size: "[5, 4]"
"""


class Totals:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.finished = 0  # clients that saw the end of their game
        self.moves = 0
        self.handshakes: list[float] = []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def _client(base: str, room: str, seat: int, players: int, token: str | None, totals: Totals,
                  rng: random.Random, open_timeout: float) -> None:
    began = time.perf_counter()
    async with websockets.connect(f"ws://{base}/ws", max_size=1 << 22, open_timeout=open_timeout) as ws:
        totals.handshakes.append(time.perf_counter() - began)
        await ws.send(json.dumps({"type": "join", "room": room, "name": f"p{seat}", "token": token}))
        started = False
        sent_at: float | None = None
        sent_version = -1
        answered = -1
        looked = -1  # the round whose end this player has seen
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind in ("error", "refused"):
                totals.errors.append(f"{room} seat {seat}: {message['message']}")
                sent_at = None
                continue
            if kind == "lobby":
                if seat == 0 and not started and all(s["taken"] for s in message["seats"]):
                    started = True
                    await ws.send(json.dumps({"type": "start"}))
                continue
            if kind != "table":
                continue
            if sent_at is not None and message["version"] > sent_version:
                totals.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["over"]:
                totals.finished += 1
                return
            ending = message.get("round_end")
            if ending and not ending["seen"] and looked != ending["round"]:  # look at the round's end, deal on
                looked = ending["round"]
                await ws.send(json.dumps({"type": "next"}))
                continue
            if message["turn"] == message["you"] and message.get("moves") and answered != message["version"]:
                answered = sent_version = message["version"]
                sent_at = time.perf_counter()
                totals.moves += 1
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["moves"])}))


async def _room(base: str, number: int, players: int, totals: Totals, open_timeout: float) -> None:
    room = f"load-{number}"
    made = await asyncio.to_thread(_post, f"http://{base}/api/rooms",
                                   {"room": room, "name": "p0", "yaml": HOUSE, "seats": ["human"] * players})
    rng = random.Random(number)
    clients = [_client(base, room, 0, players, made["token"], totals, random.Random(rng.random()), open_timeout)]
    clients += [_client(base, room, seat, players, None, totals, random.Random(rng.random()), open_timeout)
                for seat in range(1, players)]
    results = await asyncio.gather(*clients, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            totals.errors.append(f"{room}: {type(result).__name__}: {result}")


async def _run(base: str, rooms: int, players: int, timeout: float, totals: Totals, open_timeout: float) -> None:
    tasks = [asyncio.create_task(_room(base, n, players, totals, open_timeout)) for n in range(rooms)]
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def _wait_for(base: str, seconds: float) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://{base}/api/rooms/none", timeout=2).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def _percentiles(values: list[float]) -> tuple[float | None, float | None, float | None]:
    """Median, 99th percentile and maximum, in milliseconds."""
    if not values:
        return None, None, None
    ordered = sorted(values)
    return (round(1000 * statistics.median(ordered), 2), round(1000 * ordered[min(len(ordered) - 1,
            int(0.99 * len(ordered)))], 2), round(1000 * ordered[-1], 2))


def load(rooms: int = 50, players: int = 4, timeout: float = 240.0, open_timeout: float = 10.0,
         compression: bool = True) -> dict[str, Any]:
    """Run the load test; the figures as a dict."""
    port = _free_port()
    base = f"127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", "--host", "127.0.0.1", "--port",
                                   str(port), "--data", data, "--bot-delay", "0", "--rate", "1000", "--http-rate", "1000",
                                   "--max-rooms", str(rooms + 10),
                                   # every client is one address here (127.0.0.1)
                                   "--max-connections", str(max(1000, 2 * rooms * players)),
                                   "--max-per-address", str(max(32, 2 * rooms * players))]
                                  + ([] if compression else ["--no-compression"]),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
        try:
            _wait_for(base, 30)
            totals = Totals()
            began = time.perf_counter()
            asyncio.run(_run(base, rooms, players, timeout, totals, open_timeout))
            wall = time.perf_counter() - began
        finally:
            server.terminate()
            try:
                _, stderr = server.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                _, stderr = server.communicate()
    median, p99, _ = _percentiles(totals.latencies)
    open_median, open_p99, open_max = _percentiles(totals.handshakes)
    server_errors = [line for line in stderr.decode(errors="replace").splitlines() if "error" in line.lower()]
    return {"rooms": rooms, "clients": rooms * players, "moves": totals.moves, "seconds": round(wall, 2),
            "median_ms": median, "p99_ms": p99,
            "handshakes": len(totals.handshakes), "handshake_median_ms": open_median, "handshake_p99_ms": open_p99,
            "handshake_max_ms": open_max,
            "errors": len(totals.errors) + len(server_errors), "error_lines": (totals.errors + server_errors)[:10],
            "lost_games": rooms - totals.finished // players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=4, choices=range(3, 8))
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--open-timeout", type=float, default=10.0,
                        help="seconds a client waits for its WebSocket handshake")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--no-compression", action="store_true",
                        help="serve with `cardrules serve --no-compression` (no permessage-deflate)")
    args = parser.parse_args()
    figures = load(args.rooms, args.players, args.timeout, args.open_timeout, not args.no_compression)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['rooms']} rooms x {args.players} clients ({figures['clients']} connections), "
              f"{figures['moves']} moves in {figures['seconds']} s")
        print(f"move latency: median {figures['median_ms']} ms, p99 {figures['p99_ms']} ms")
        print(f"handshakes: {figures['handshakes']} of {figures['clients']}, median {figures['handshake_median_ms']} "
              f"ms, p99 {figures['handshake_p99_ms']} ms, max {figures['handshake_max_ms']} ms")
        print(f"errors: {figures['errors']}; lost games: {figures['lost_games']}")
        for line in figures["error_lines"]:
            print(f"  {line}")
    sys.exit(0 if figures["errors"] == 0 and figures["lost_games"] == 0 else 1)


if __name__ == "__main__":
    main()
