"""What one client may hold of the server (issue 35): connections by address, so that one
address holding hundreds of WebSockets or half-open connections cannot make everyone
else's page answer 503, and room kept for new visitors."""

from __future__ import annotations

import contextlib
import re
import socket
from pathlib import Path

import pytest
from starlette.testclient import WebSocketDenialResponse

from web_helpers import proxied, receive, serve_for_real

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web.md"
HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")


def _documented_default(option: str) -> int:
    row = next(line for line in DOCS.read_text().splitlines() if line.startswith(f"| `{option} "))
    return int(row.split("|")[2])


def _connect(source: str, port: int) -> socket.socket:
    """A TCP connection to the server from ``source`` (any 127.x.y.z is this machine)."""
    s = socket.socket()
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def _status(s: socket.socket) -> int:
    """The status of the answer arriving on ``s`` (0: closed with none)."""
    answer = b""
    while b"\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            break
        answer += chunk
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    return int(match.group(1)) if match else 0


def _socket(source: str, port: int, forwarded: str | None = None) -> tuple[socket.socket, int]:
    """A WebSocket handshake from ``source`` (through a proxy: for ``forwarded``): the
    connection and the handshake's status (101: open)."""
    s = _connect(source, port)
    s.sendall(HANDSHAKE + (f"X-Forwarded-For: {forwarded}\r\n".encode() if forwarded else b"") + b"\r\n")
    return s, _status(s)


def _get(source: str, port: int, forwarded: str | None = None) -> int:
    with _connect(source, port) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  + (f"X-Forwarded-For: {forwarded}\r\n".encode() if forwarded else b"") + b"\r\n")
        return _status(s)


def _close_all(sockets: list[socket.socket]) -> None:
    for s in sockets:
        s.close()
    sockets.clear()


def _until_served(source: str, port: int, tries: int = 200) -> None:
    """Wait (in tries, not seconds) until ``source`` may open a WebSocket again: the
    server has seen its connections close."""
    for _ in range(tries):
        s, status = _socket(source, port)
        s.close()
        if status == 101:
            return
    raise AssertionError(f"{source} is still refused after its connections closed")


def test_one_address_holding_many_connections_leaves_the_server_to_everyone_else(tmp_path):
    """Against a real server with room for 100 connections: one address opening 100
    WebSockets, or 100 connections that never send a request, or 100 WebSockets through
    the proxy for one forwarded client, gets the documented number per address and no
    more; another visitor's page still loads (it was 503 for everyone) and their socket opens."""
    per_address = _documented_default("--max-per-address")
    process, port = serve_for_real(tmp_path / "rooms", "--max-connections", "100")
    held: list[socket.socket] = []
    try:
        # 127.0.0.2 and .3 are clients of their own; 127.0.0.1 is the trusted proxy (the default)
        statuses = []
        for _ in range(100):
            s, status = _socket("127.0.0.2", port)
            held.append(s)
            statuses.append(status)
        assert statuses.count(101) == per_address and set(statuses[per_address:]) == {429}
        assert _get("127.0.0.3", port) == 200
        visitor, status = _socket("127.0.0.3", port)
        held.append(visitor)
        assert status == 101
        _close_all(held)
        _until_served("127.0.0.2", port)

        # connections that send nothing (each open until --head-timeout) count the same
        for _ in range(100):
            held.append(_connect("127.0.0.2", port))
        assert {_status(s) for s in held[per_address:]} == {429}  # answered as they opened, and closed
        assert _get("127.0.0.3", port) == 200
        for s in held[:per_address]:
            s.settimeout(0.01)
            with pytest.raises(socket.timeout):  # still open, waiting for their heads
                s.recv(1)
        _close_all(held)

        # through the proxy, by the client it forwards
        statuses = []
        for _ in range(100):
            s, status = _socket("127.0.0.1", port, forwarded="203.0.113.7")
            held.append(s)
            statuses.append(status)
        assert statuses.count(101) == per_address and set(statuses[per_address:]) == {429}
        assert _get("127.0.0.1", port, forwarded="198.51.100.9") == 200
        visitor, status = _socket("127.0.0.1", port, forwarded="198.51.100.9")
        held.append(visitor)
        assert status == 101
    finally:
        _close_all(held)
        process.terminate()
        _, stderr = process.communicate(timeout=10)
    assert b"Traceback" not in stderr, stderr.decode()[-2000:]


# --- in process, with small limits -------------------------------------------------------------
def _open(client, address: str):
    return client.websocket_connect("/ws", headers={"x-forwarded-for": address})


def test_sockets_are_limited_by_address_and_leave_room_for_new_visitors(tmp_path):
    """--max-per-address 4 and --max-connections 10: an address has 4 sockets at once, and
    WebSockets take at most 9 of the 10 places (the rest is for new visitors' requests)."""
    rooms, client = proxied(tmp_path, max_connections=10, max_per_address=4)
    with client, contextlib.ExitStack() as held:
        first = _open(client, "203.0.113.7").__enter__()
        for _ in range(3):
            held.enter_context(_open(client, "203.0.113.7"))
        with pytest.raises(WebSocketDenialResponse) as refused:
            held.enter_context(_open(client, "203.0.113.7"))
        assert refused.value.status_code == 429
        assert refused.value.json() == {"error": "too many connections from your address (4 at once): "
                                                 "close some windows or wait"}
        first.__exit__(None, None, None)
        held.enter_context(_open(client, "203.0.113.7"))  # a socket closed makes way
        for _ in range(4):
            held.enter_context(_open(client, "198.51.100.9"))
        held.enter_context(_open(client, "192.0.2.5"))  # 9 sockets in all
        with pytest.raises(WebSocketDenialResponse) as full:
            held.enter_context(_open(client, "192.0.2.6"))
        assert full.value.status_code == 503 and full.value.json() == {"error": "the server is full: try again "
                                                                                "in a moment"}
        assert client.get("/api/rooms/x", headers={"x-forwarded-for": "192.0.2.6"}).status_code == 200
        held.close()
        with _open(client, "192.0.2.6") as ws:
            ws.send_json({"type": "ping"})
            assert receive(ws, ("pong",))
