"""A hostile web client against a real `cardrules serve`.

    python benchmarks/fuzz_web.py [--size 1.0] [--restarts 3] [--seed 0] [--head-timeout 2] [--json]

It starts the server (`python -m cardrules serve`, uvicorn) on a free port with a fresh
--data folder and a few rooms in it (games started, a lobby, an uploaded ruleset), then
throws at it, scaled by ``--size`` (1.0: the full size; the suite runs 0.05):

- connections that send half a request head, or nothing (800 at size 1);
- a flood of /api/validate with valid 62 kB rulesets from several threads, and mutants
  of the bundled rulesets (tests/fuzzing.py);
- YAML bombs: nested aliases, merge keys, deep nesting, long keys, deep expressions;
- lone surrogates in every field of every request and in WebSocket messages;
- bodies that are not JSON, not UTF-8, nested deep, too large, or lie about their length;
- WebSocket frames that break the protocol (unmasked, unknown opcodes, bad UTF-8, a
  length of a terabyte, long control frames) and messages that are not the protocol's;

and between attacks stops it (now and then with SIGKILL) and corrupts room files (a
link to /dev/zero, a FIFO, JSON nested deep, fewer seats than players, an unknown seat
kind, a copy of another room, cut, garbage, a lone surrogate) before starting it again.
After each attack a normal client must be answered quickly (a room's info over HTTP
and a ping over the WebSocket, each within a second); at the end the server's log must
hold no traceback and no "internal error", and every file ever in --data must still be
there (moved, or grown by the server's own appends, never shrunk or gone).  Prints the
outcomes counted by attack, the normal client's round trips, and the findings; exit
status 1 if there are any.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hammer import big_ruleset  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

HEAD_TIMEOUT = 2.0  # the server's --head-timeout here (--head-timeout)
QUICK = 1.0  # seconds a normal client's answer may take after an attack


class Server:
    """A `cardrules serve` process on ``data``; its log is kept across restarts."""

    def __init__(self, data: Path, log: list[str], head_timeout: float = HEAD_TIMEOUT):
        self.data, self.log, self.head_timeout = data, log, head_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._reader: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardrules", "serve", "--port", str(self.port), "--data", str(self.data),
             "--bot-delay", "0", "--head-timeout", str(self.head_timeout), "--http-rate", "100", "--takeover", "5"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self._reader.start()
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://{self.base}/api/rooms/x", timeout=2).read()
                return
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("the server did not start: " + "".join(self.log[-5:]))
                time.sleep(0.1)

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.log.append(line.decode("utf-8", "replace"))

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.log.append("fuzz_web: the server did not stop within 20 s of SIGINT\n")
            self.process.kill()
            self.process.wait()
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.process = None


def _request(base: str, method: str, path: str, body: bytes | None = None, timeout: float = 60,
             headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://{base}{path}", body, {"Content-Type": "application/json",
                                                                    **(headers or {})}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return int(exc.code), exc.read()
    except OSError as exc:
        return -1, str(exc).encode()


def _classify(status: int, body: bytes) -> str:
    """How a request ended: its status, and whether its error was one line of JSON."""
    if status < 0:
        return "no answer"
    if status >= 400:
        try:
            error = json.loads(body)["error"]
            return f"{status}" if isinstance(error, str) and "\n" not in error else f"{status} not one line"
        except (ValueError, KeyError, TypeError):
            return f"{status} not JSON"
    return f"{status}"


# --- the normal client ------------------------------------------------------------------------
class Normal:
    """A person using the server normally: a room's info, a ping; the round trips kept."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.slow: list[str] = []

    def check(self, server: Server, after: str) -> None:
        began = time.perf_counter()
        status, body = _request(server.base, "GET", "/api/rooms/Normal", timeout=10)
        http = time.perf_counter() - began
        try:
            with connect(f"ws://{server.base}/ws", open_timeout=10) as ws:
                began = time.perf_counter()
                ws.send(json.dumps({"type": "ping"}))
                while json.loads(ws.recv(timeout=10))["type"] != "pong":
                    pass
                ping = time.perf_counter() - began
        except Exception as exc:  # noqa: BLE001 - a finding, not a crash of the fuzzer
            self.slow.append(f"after {after}: the WebSocket failed: {type(exc).__name__}: {exc}")
            return
        self.times += [http, ping]
        if status != 200 or max(http, ping) > QUICK:
            self.slow.append(f"after {after}: HTTP {status} in {http:.2f} s, ping in {ping:.2f} s")


# --- the attacks ------------------------------------------------------------------------------
def partial_heads(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    sockets = []
    for i in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        except OSError:
            out["connect refused"] += 1
            continue
        head = rng.choice([b"", b"G", b"GET / HTTP/1.1\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: ",
                           b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 10"])
        if head:
            s.sendall(head)
        sockets.append(s)
    time.sleep(server.head_timeout + 1.0)
    for s in sockets:
        s.settimeout(2)
        try:
            data = s.recv(65536)
            out["closed with 408" if data.startswith(b"HTTP/1.1 408") else "closed" if not data else "other"] += 1
        except socket.timeout:
            out["still open"] += 1
        except OSError:
            out["reset"] += 1
        s.close()


def validate_flood(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    import fuzzing

    def worker(number: int) -> None:
        local = random.Random(number)
        for i in range(n):
            text = big_ruleset(number * 100000 + i) if i % 2 == 0 else fuzzing.mutate_ruleset(local)
            status, body = _request(server.base, "POST", "/api/validate",
                                    json.dumps({"yaml": text}).encode("utf-8", "surrogatepass"))
            out[_classify(status, body)] += 1

    threads = [threading.Thread(target=worker, args=(rng.randrange(1 << 30),)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _bombs() -> list[str]:
    laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n"
        for i in range(1, 10))
    merges = "b0: &b0 {k: v}\n" + "".join(f"b{i}: &b{i} {{<<: [*b{i - 1}, *b{i - 1}], k{i}: v}}\n" for i in range(1, 30))
    return [
        laughs, "extends: oh-hell\nname: x\nnotes: " + laughs.replace("\n", " ") + "\n", merges,
        "[" * 20000 + "]" * 20000, "{a: " * 5000 + "1" + "}" * 5000, "- " * 3000 + "x\n",
        "a" * 60000 + ": 1\n", "".join(f"k{i}: &k{i} v\n" for i in range(4000)),
        "!!python/object/apply:os.system ['true']\n", "extends: oh-hell\nname: x\nscoring:\n  points: \"" +
        "(" * 900 + "1" + ")" * 900 + "\"\n",
        "extends: oh-hell\nname: x\nscoring:\n  points: \"" + "-" * 1900 + "1\"\n",
        "extends: oh-hell\nname: x\nscoring:\n  points: \"" + " + ".join(["tricks"] * 280) + "\"\n",
        "extends: oh-hell\nname: x\ndeal:\n  hand_size: \"[" + ",".join(["99999"] * 9000) + "]\"\n",
        "extends: oh-hell\nname: x\ntitle: 0x" + "f" * 5000 + "\n",
        "extends: oh-hell\nname: a\x07b\n", "\ufeff" * 100 + "extends: oh-hell\n", "%YAML 9.9\n---\na: 1\n",
    ]


def bombs(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    for text in _bombs()[:max(3, n)]:
        for path in ("/api/validate", "/api/rooms"):
            body = {"yaml": text} if path == "/api/validate" else {"room": f"b{rng.randrange(10**9)}", "name": "B",
                                                                     "yaml": text}
            status, answer = _request(server.base, "POST", path, json.dumps(body).encode())
            out[_classify(status, answer)] += 1


SURROGATES = ["\ud800", "\udfff", "a\ud83d", "\udc00b"]


def surrogates(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    fields = [("/api/validate", {"yaml": "extends: oh-hell\nname: X\n"}),
              ("/api/rooms", {"room": "S", "name": "N", "ruleset": "oh-hell", "seats": ["human", "bot", "bot"],
                              "mode": None, "yaml": None})]
    for i in range(n):
        path, template = rng.choice(fields)
        body = dict(template)
        key = rng.choice([k for k in body] + ["\ud800"])
        bad = rng.choice(SURROGATES)
        if key == "\ud800":
            body[key] = 1
        elif isinstance(body[key], list):
            body[key] = [*body[key][:1], bad]
        else:
            body[key] = (body[key] or "") + bad if key != "yaml" else "extends: oh-hell\nname: " + bad + "\n"
        status, answer = _request(server.base, "POST", path, json.dumps(body).encode())
        out[_classify(status, answer)] += 1
    with connect(f"ws://{server.base}/ws") as ws:
        for i in range(n):
            bad = rng.choice(SURROGATES)
            message = rng.choice([{"type": "join", "room": bad, "name": "A"}, {"type": "join", "room": "Normal",
                                  "name": bad}, {"type": bad}, {"type": "move", "move": bad}, {bad: "x"}])
            ws.send(json.dumps(message))
            reply = json.loads(ws.recv(timeout=10))
            out[f"ws {reply['type']}" + (" one line" if "\n" not in reply.get("message", "") else "")] += 1
            if i >= 40:
                time.sleep(0.06)  # under the socket's own rate, once its burst is spent


def bad_bodies(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    bodies = [b"", b"{", b"[]", b"null", b"\xff\xfe\x00", b'{"yaml": "\xed\xa0\x80"}', b"[" * 100000,
              b'{"yaml": ' * 5000, b"1e999999", b"9" * 5000, b'{"yaml": "' + b"a" * (200 << 10) + b'"}',
              b'{"room": {"a": [1, [2, [3]]]}, "name": 1e308, "ruleset": true}', b'{"seats": "' + b"h" * 90000 + b'"}',
              json.dumps({"room": "R", "name": "A", "ruleset": "oh-hell", "players": 10 ** 4000}).encode()[:96000]]
    for i in range(n):
        body = rng.choice(bodies)
        path = rng.choice(["/api/validate", "/api/rooms"])
        extra = rng.choice([{}, {"Content-Length": "99999999999"}, {"Content-Length": "-1"}, {"Content-Type": "text/x"}])
        if "Content-Length" in extra:  # urllib would send the true length: a raw request lies
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {extra['Content-Length']}\r\n"
                          "Connection: close\r\n\r\n".encode() + body[:1000])
                s.shutdown(socket.SHUT_WR)
                try:
                    data = s.recv(4096)
                    out["raw " + (data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed")] += 1
                except OSError:
                    out["raw reset"] += 1
            continue
        status, answer = _request(server.base, "POST", path, body, headers=extra)
        out[_classify(status, answer)] += 1


def _frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True, length: int | None = None) -> bytes:
    first = (0x80 if fin else 0) | opcode
    size = len(payload) if length is None else length
    head = bytes([first])
    mask_bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([mask_bit | size])
    elif size < 1 << 16:
        head += bytes([mask_bit | 126]) + struct.pack(">H", size)
    else:
        head += bytes([mask_bit | 127]) + struct.pack(">Q", size)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def _raw_socket(server: Server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            raise OSError("closed during the handshake")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 101"):
        raise OSError(f"no upgrade: {answer[:40]!r}")
    return s


def bad_frames(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    frames = [
        ("unmasked", _frame(1, b'{"type": "ping"}', mask=False)),
        ("opcode 3", _frame(3, b"x")),
        ("bad UTF-8", _frame(1, b'{"type": "\xff\xfe"}')),
        ("binary", _frame(2, b'{"type": "ping"}')),
        ("a terabyte", _frame(1, b"", length=1 << 40)),
        ("long ping", _frame(9, b"p" * 200)),
        ("lone continuation", _frame(0, b"x")),
        ("fragmented ping", _frame(9, b"p", fin=False)),
        ("over 64 kB", _frame(1, b"[" * 70000)),
        ("close with bad code", _frame(8, struct.pack(">H", 999))),
        ("half a frame", _frame(1, b'{"type": "ping"}')[:5]),
    ]
    for i in range(n):
        name, frame = rng.choice(frames)
        try:
            s = _raw_socket(server)
        except OSError as exc:
            out[f"handshake failed ({exc})"[:60]] += 1
            continue
        try:
            s.sendall(frame)
            s.settimeout(5 if name != "half a frame" else 1)
            data = s.recv(4096)
            if not data:
                out[f"{name}: closed"] += 1
            elif data[0] & 0x0F == 8:
                code = struct.unpack(">H", data[2:4])[0] if len(data) >= 4 else None
                out[f"{name}: close {code}"] += 1
            else:
                out[f"{name}: answered"] += 1
        except socket.timeout:
            out[f"{name}: waits"] += 1
        except OSError:
            out[f"{name}: reset"] += 1
        finally:
            s.close()


def bad_messages(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    import fuzzing

    with connect(f"ws://{server.base}/ws") as ws:
        for i in range(n):
            kind = rng.randrange(5)
            if kind == 0:
                text = json.dumps(fuzzing.random_value(rng))
            elif kind == 1:
                text = json.dumps({"type": rng.choice(["join", "start", "move", "ping", "x"]),
                                   **{k: fuzzing.random_value(rng) for k in rng.sample(["room", "name", "token",
                                                                                        "move"], 2)}})
            elif kind == 2:
                text = rng.choice(["[" * 4000, "{" * 2000, '{"type": "ping"' * 200, "\x00" * 100, "9" * 4000])
            elif kind == 3:
                text = json.dumps({"type": "move", "move": rng.choice(fuzzing.WORDS) * rng.randrange(1, 50)})
            else:
                text = "x" * rng.choice([1, 4097, 60000])
            try:
                ws.send(text)
                reply = json.loads(ws.recv(timeout=10))
                out[f"ws {reply['type']}"] += 1
            except Exception as exc:  # noqa: BLE001 - counted: the normal client says if the server suffered
                out[f"ws {type(exc).__name__}"] += 1
                return
            if i >= 40:
                time.sleep(0.06)


def ws_flood(server: Server, rng: random.Random, n: int, out: Counter[str]) -> None:
    """Messages far past the socket's rate: the server answers "slow down", then closes."""
    try:
        with connect(f"ws://{server.base}/ws") as ws:
            for i in range(max(200, 10 * n)):
                ws.send('{"type": "ping"}')
            while True:
                out[f"ws {json.loads(ws.recv(timeout=5))['type']}"] += 1
    except Exception as exc:  # noqa: BLE001 - the end of the flood: closed by the server, or quiet
        out[f"ws ended: {type(exc).__name__}"] += 1


ATTACKS: list[tuple[str, Callable[..., None], int]] = [
    ("partial heads", partial_heads, 800), ("validate flood", validate_flood, 40), ("YAML bombs", bombs, 20),
    ("lone surrogates", surrogates, 200), ("bad bodies", bad_bodies, 300), ("bad frames", bad_frames, 300),
    ("bad messages", bad_messages, 400), ("message flood", ws_flood, 40),
]


# --- the data folder between restarts ------------------------------------------------------------
def _files(data: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry under ``data`` by its name (room files keep their name when moved): what it is."""
    out = {}
    for root, _, files in os.walk(data):
        for name in files:
            path = Path(root) / name
            if name.startswith("."):
                continue  # a write in progress
            if path.is_symlink():
                out[name] = ("link", os.readlink(path).encode())
            elif path.is_fifo():
                out[name] = ("fifo", b"")
            else:
                out[name] = ("file", path.read_bytes())
    return out


def lost_files(before: dict[str, tuple[str, bytes]], after: dict[str, tuple[str, bytes]]) -> list[str]:
    """Files of ``before`` not in ``after``: gone, or shrunk (the server only appends to
    a save; it rewrites a room file, which may then differ but never vanish)."""
    lost = []
    for name, (kind, content) in before.items():
        now = after.get(name) or next((v for k, v in after.items() if k.split(".")[0] == name.split(".")[0]
                                       and k.endswith(name.split(".", 1)[1])), None)
        if now is None:
            lost.append(f"{name} is gone")
        elif kind != now[0]:
            lost.append(f"{name} was a {kind}, is a {now[0]}")
        elif name.endswith(".jsonl") and not now[1].startswith(content):
            lost.append(f"{name} lost bytes ({len(content)} -> {len(now[1])})")
    return lost


def corrupt(data: Path, rng: random.Random, count: int) -> list[str]:
    """Damage ``count`` room files of ``data`` in one of the ways of the issue; what was done."""
    done = []
    rooms = sorted(p for p in data.glob("*.json") if not p.is_symlink() and p.is_file())
    for _ in range(count):
        if not rooms:
            break
        victim = rooms.pop(rng.randrange(len(rooms)))
        how = rng.randrange(9)
        fresh = data / f"{rng.randrange(16 ** 20):020x}.json"
        try:
            meta = json.loads(victim.read_text())
        except ValueError:
            meta = {}
        if how == 0:
            fresh.symlink_to("/dev/zero")
            done.append(f"{fresh.name}: a link to /dev/zero")
        elif how == 1:
            os.mkfifo(fresh)
            done.append(f"{fresh.name}: a FIFO")
        elif how == 2:
            fresh.write_text("[" * 50000 + "]" * 50000)
            done.append(f"{fresh.name}: JSON nested 50,000 deep")
        elif how == 3 and meta.get("seats"):
            meta["seats"] = meta["seats"][:-1]
            victim.write_text(json.dumps(meta))
            done.append(f"{victim.name}: a seat fewer than its players")
        elif how == 4 and meta.get("seats"):
            meta["seats"][-1]["kind"] = rng.choice(["wizard", "search:0", "human" * 20, ""])
            victim.write_text(json.dumps(meta))
            done.append(f"{victim.name}: a seat kind {meta['seats'][-1]['kind'][:20]!r}")
        elif how == 5:
            fresh.write_bytes(victim.read_bytes())
            os.utime(fresh, (1, 1))
            done.append(f"{fresh.name}: an older copy of {victim.name}")
        elif how == 6:
            text = victim.read_bytes()
            victim.write_bytes(text[:rng.randrange(len(text))])
            done.append(f"{victim.name}: cut short")
        elif how == 7:
            meta["name"] = meta.get("name", "x") + "\ud800"
            victim.write_text(json.dumps(meta))
            done.append(f"{victim.name}: a lone surrogate in its name")
        else:
            victim.write_bytes(os.urandom(rng.randrange(1, 3000)))
            done.append(f"{victim.name}: garbage")
    return done


def seed_rooms(server: Server, rng: random.Random, rooms: int) -> list[str]:
    """Rooms to damage later: started games (bundled and uploaded rulesets) and lobbies."""
    names = []
    for i in range(rooms):
        name = f"Seed {i}"
        body: dict[str, Any] = {"room": name, "name": "Ann", "seats": ["human", "bot", "bot"]}
        body.update({"yaml": f"extends: oh-hell\nname: seeded-{i}\n"} if i % 3 == 1 else
                    {"ruleset": rng.choice(["oh-hell", "oh-shit", "shanghai-isra"])})
        if "shanghai" in str(body.get("ruleset")):
            body["seats"] = ["human", "bot", "bot", "bot"]
        status, answer = _request(server.base, "POST", "/api/rooms", json.dumps(body).encode())
        if status != 200:
            continue
        names.append(name)
        if i % 4 != 3:  # a few stay lobbies
            made = json.loads(answer)
            with connect(f"ws://{server.base}/ws") as ws:
                ws.send(json.dumps({"type": "join", "room": name, "token": made["token"]}))
                ws.send(json.dumps({"type": "start"}))
                ws.recv(timeout=10)
    return names


# --- the run ----------------------------------------------------------------------------------
def fuzz(size: float = 1.0, restarts: int = 3, seed: int = 0, head_timeout: float = HEAD_TIMEOUT) -> dict[str, Any]:
    rng = random.Random(seed)
    log: list[str] = []
    findings: list[str] = []
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    spent: Counter[str] = Counter()
    corrupted: list[str] = []
    normal = Normal()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "rooms"
        server = Server(data, log, head_timeout)
        server.start()
        try:
            _request(server.base, "POST", "/api/rooms", json.dumps({"room": "Normal", "name": "Norm",
                                                                     "ruleset": "oh-hell"}).encode())
            seed_rooms(server, rng, max(4, int(12 * size)))
            every: dict[str, tuple[str, bytes]] = {}
            for round_number in range(restarts + 1):
                for name, attack, full in ATTACKS:
                    n = max(2, int(full * size))
                    started = time.perf_counter()
                    try:
                        attack(server, rng, n, outcomes[name])
                    except Exception as exc:  # noqa: BLE001 - a finding: the attack could not even run
                        findings.append(f"{name}: {type(exc).__name__}: {exc}")
                    spent[name] += time.perf_counter() - started
                    normal.check(server, name)
                if round_number == restarts:
                    break
                started = time.perf_counter()
                server.stop(kill=rng.random() < 0.5)
                before = _files(data)
                every.update(before)
                corrupted += corrupt(data, rng, max(2, int(8 * size)))
                every.update(_files(data))
                server.start()
                spent["restarts"] += time.perf_counter() - started
                normal.check(server, "a restart")
                for lost in lost_files(before, _files(data)):
                    findings.append(f"restart {round_number + 1}: {lost}")
        finally:
            server.stop()
        for lost in lost_files(every, _files(data)):
            findings.append(f"at the end: {lost}")
        rejected = len(list((data / "rejected").glob("*.json"))) if (data / "rejected").is_dir() else 0
    text = "".join(log)
    if "Traceback" in text:
        findings.append("a traceback in the server's log: " + text[text.index("Traceback"):][:1500])
    for line in log:
        if "internal error" in line:
            findings.append(f"the server's log: {line.strip()[:300]}")
    if outcomes["partial heads"]["still open"]:
        findings.append(f"{outcomes['partial heads']['still open']} half-sent heads still open after the timeout")
    for name, counts in outcomes.items():
        for outcome, count in counts.items():
            if "not one line" in outcome or "not JSON" in outcome or outcome.startswith("500") or \
                    outcome == "no answer":
                findings.append(f"{name}: {count} answered {outcome}")
    findings += normal.slow
    times = sorted(normal.times) or [0.0]
    return {"size": size, "restarts": restarts, "seconds": round(time.perf_counter() - began, 1),
            "outcomes": {name: dict(sorted(c.items())) for name, c in outcomes.items()},
            "spent": {name: round(t, 1) for name, t in spent.items()},
            "corrupted": len(corrupted), "rejected": rejected,
            "brought_back_lines": sum("could not be brought back" in line for line in log),
            "normal_ms": {"median": round(1000 * statistics.median(times), 1), "max": round(1000 * times[-1], 1),
                          "count": len(normal.times)},
            "findings": findings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=1.0)
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--head-timeout", type=float, default=HEAD_TIMEOUT, help="the server's --head-timeout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = fuzz(args.size, args.restarts, args.seed, args.head_timeout)
    if args.json:
        print(json.dumps(figures))
    else:
        for name, counts in figures["outcomes"].items():
            print(f"{name}: " + ", ".join(f"{outcome} x{count}" for outcome, count in counts.items()))
        print("seconds: " + ", ".join(f"{name} {t}" for name, t in figures["spent"].items()))
        print(f"{figures['corrupted']} room files damaged over {figures['restarts']} restarts, "
              f"{figures['rejected']} set aside in rejected/, {figures['brought_back_lines']} lines said so")
        print(f"the normal client: median {figures['normal_ms']['median']} ms, max {figures['normal_ms']['max']} ms "
              f"({figures['normal_ms']['count']} answers); {figures['seconds']} s in all")
        print(f"findings: {len(figures['findings'])}")
        for finding in figures["findings"][:30]:
            print(f"  {finding}")
    sys.exit(1 if figures["findings"] else 0)


if __name__ == "__main__":
    main()
