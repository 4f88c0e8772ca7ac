"""Does one client hammering /api/validate slow everyone else down?

    python benchmarks/hammer.py [--seconds 20] [--hammers 1] [--create] [--json]

It starts a real server (`python -m cardrules serve`, default limits) on a free port
with a fresh data folder, then a player: a room of oh-hell with bots, joined over the
WebSocket, sending a ping every 50 ms and timing each pong (the round trip another
player's move would have).  First for ``--seconds`` with nothing else going on, then
for as long again while ``--hammers`` clients (from the same address, as one person
with a script would) each post a valid 62 kB ruleset to /api/validate in a loop, as
fast as the server answers (each text a little different, so nothing is answered
from a cache).  ``--create`` makes rooms with it instead (POST /api/rooms), so the
server also builds each one.  It prints the round trip's median, 99th percentile and
maximum in both phases, the answers the hammers got (200, 429, 503...), and the
machine's load (``os.getloadavg``).  Exit status 0 when the p99 under the hammer is
below ``--target`` ms (100).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

from websockets.sync.client import connect


def big_ruleset(variant: int = 0) -> str:
    """A valid ruleset of about 62 kB: oh-hell with 50 long play restrictions, each an
    expression to compile (about a second of checking on this project's machine)."""
    def rule(i: int) -> str:
        parts = ["not (is_lead and card_is_trump and not trump_broken)"]
        j = 0
        while len(" or ".join(parts)) < 1190:
            parts.append(f"(round == {i + j} and hand_size > {j % 9})")
            j += 1
        return " or ".join(parts)

    rules = "".join(f'    - rule: "{rule(i)}"\n      message: "not this card ({i})"\n' for i in range(50))
    return (f"extends: oh-hell\nname: hammer-{variant}\n# {'x' * 40}\nplay:\n  follow_suit: true\n"
            f"  restrictions:\n{rules}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any], timeout: float = 60) -> int:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        exc.read()
        return int(exc.code)
    except OSError:
        return -1


def _hammer(base: str, number: int, create: bool, stop: threading.Event, answers: Counter[int]) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        text = big_ruleset(number * 1_000_000 + n)
        if create:
            status = _post(f"http://{base}/api/rooms", {"room": f"h{number}-{n}", "name": "H", "yaml": text})
        else:
            status = _post(f"http://{base}/api/validate", {"yaml": text})
        answers[status] += 1
        if status == 429:
            time.sleep(0.01)  # told to slow down: a script that listens (one that does not is the rate limit's)


def _pings(ws: Any, seconds: float) -> list[float]:
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sent = time.perf_counter()
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(timeout=30))["type"] != "pong":
            pass
        times.append(time.perf_counter() - sent)
        time.sleep(max(0.0, 0.05 - (time.perf_counter() - sent)))
    return times


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"pings": len(ordered), "median_ms": round(1000 * statistics.median(ordered), 1),
            "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
            "max_ms": round(1000 * ordered[-1], 1)}


def hammer(seconds: float = 20.0, hammers: int = 1, create: bool = False) -> dict[str, Any]:
    port = _free_port()
    base = f"127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", "--port", str(port), "--data", data,
                                   "--max-rooms", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.time() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://{base}/api/rooms/none", timeout=2).read()
                    break
                except OSError:
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start")
                    time.sleep(0.1)
            request = urllib.request.Request(f"http://{base}/api/rooms", json.dumps(
                {"room": "Player", "name": "Ann", "ruleset": "oh-hell", "seats": ["human", "bot", "bot"]}).encode(),
                {"Content-Type": "application/json"})
            made = json.loads(urllib.request.urlopen(request, timeout=30).read())
            with connect(f"ws://{base}/ws") as ws:
                ws.send(json.dumps({"type": "join", "room": "Player", "token": made["token"]}))
                _pings(ws, 1.0)  # warm up
                quiet = _pings(ws, seconds)
                stop = threading.Event()
                answers: Counter[int] = Counter()
                threads = [threading.Thread(target=_hammer, args=(base, i, create, stop, answers), daemon=True)
                           for i in range(hammers)]
                for thread in threads:
                    thread.start()
                time.sleep(1.0)  # the first check starts the workers
                loaded = _pings(ws, seconds)
                load = os.getloadavg()
                stop.set()
                for thread in threads:
                    thread.join(timeout=60)
        finally:
            server.terminate()
            try:
                _, stderr = server.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                _, stderr = server.communicate()
    tracebacks = stderr.decode(errors="replace").count("Traceback")
    return {"seconds": seconds, "hammers": hammers, "endpoint": "/api/rooms" if create else "/api/validate",
            "ruleset_bytes": len(big_ruleset().encode()), "quiet": _figures(quiet), "hammered": _figures(loaded),
            "answers": {str(k): v for k, v in sorted(answers.items())}, "loadavg": [round(x, 2) for x in load],
            "tracebacks": tracebacks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hammers", type=int, default=1)
    parser.add_argument("--create", action="store_true", help="hammer /api/rooms (the server builds each ruleset)")
    parser.add_argument("--target", type=float, default=100.0, help="the p99 round trip to stay under, in ms")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = hammer(args.seconds, args.hammers, args.create)
    if args.json:
        print(json.dumps(figures))
    else:
        q, h = figures["quiet"], figures["hammered"]
        print(f"ping round trip, quiet:    median {q['median_ms']} ms, p99 {q['p99_ms']} ms, max {q['max_ms']} ms "
              f"({q['pings']} pings)")
        print(f"ping round trip, hammered: median {h['median_ms']} ms, p99 {h['p99_ms']} ms, max {h['max_ms']} ms "
              f"({h['pings']} pings; {args.hammers} client(s) on {figures['endpoint']} with a "
              f"{figures['ruleset_bytes']:,}-byte ruleset)")
        print(f"the hammers' answers: {figures['answers']}; load average {figures['loadavg']}; "
              f"tracebacks in the server's log: {figures['tracebacks']}")
    sys.exit(0 if figures["hammered"]["p99_ms"] < args.target and not figures["tracebacks"] else 1)


if __name__ == "__main__":
    main()
