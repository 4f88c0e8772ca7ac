"""What stands between the network and the rooms: rate limits and connection limits by
address, the security headers of every response, and a time limit on a request's headers.

:class:`Guard` wraps the ASGI app: each client address has a token bucket for its HTTP
requests (past it: 429 and a one-line JSON error) and a number of connections it may
hold at once (HTTP requests under way and WebSockets open), WebSockets in all stop
short of the server's connections so that a new visitor's page still loads, and every
HTTP response gets the headers of :data:`SECURITY_HEADERS` (the page loads nothing from
elsewhere, so its Content-Security-Policy allows only this server).

:func:`protocols` gives uvicorn's h11 and WebSocket protocols two guards of their own,
for what happens before a request reaches the app.  A connection whose request head
(the request line and headers) has not all arrived within a time limit is closed:
uvicorn's own keep-alive timeout only runs between requests, so a client sending half
a head, or nothing, kept its connection open as long as it liked.  And each peer
address may hold only so many connections at once, whatever they are (idle, half a
head, a WebSocket), counted from the moment they open: uvicorn answers every new
request 503 once its ``limit_concurrency`` connections are open, so one client holding
a thousand of them shut everyone else out.  A trusted proxy's connections carry many
clients and are not counted there; the app counts their requests and sockets by the
client the proxy forwards.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import ipaddress
import json
import logging
import time
from typing import Any, Sequence

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

HTTP_RATE = 10.0  # HTTP requests a second one address may send, on average ...
HTTP_BURST = 30  # ... and at once
MAX_ADDRESSES = 10_000  # buckets kept; past that the full ones (idle addresses) are dropped
HEAD_SECONDS = 10.0  # time a request's line and headers may take to arrive
MAX_CONNECTIONS = 1000  # connections open at once (uvicorn's limit_concurrency: past it, 503)
MAX_PER_ADDRESS = 32  # connections one address may hold at once

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a page's address can hold a seat's token
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]



class Bucket:
    """A token bucket: ``rate`` a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self.refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def has(self) -> bool:
        """Whether a token is there to take (none is taken)."""
        self.refill()
        return self.tokens >= 1


class AddressBuckets:
    """A token bucket for each client address, at most ``most`` of them."""

    def __init__(self, rate: float, burst: int, most: int = MAX_ADDRESSES):
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, Bucket] = {}

    def bucket(self, address: str) -> Bucket:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._forget_idle()
            bucket = self.buckets[address] = Bucket(self.rate, self.burst)
        return bucket

    def take(self, address: str) -> bool:
        return self.bucket(address).take()

    def _forget_idle(self) -> None:
        for address, bucket in list(self.buckets.items()):
            bucket.refill()
            if bucket.tokens >= bucket.burst:  # as if it had never come
                del self.buckets[address]
        while len(self.buckets) >= self.most:  # every one busy: the oldest go
            del self.buckets[next(iter(self.buckets))]


class Counts:
    """How many connections each address holds, each at most ``most`` at once."""

    def __init__(self, most: int):
        self.most = most
        self.held: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more for ``address``; False (nothing counted) if it holds ``most``."""
        held = self.held.get(address, 0)
        if held >= self.most:
            return False
        self.held[address] = held + 1
        return True

    def close(self, address: str) -> None:
        held = self.held.get(address, 0) - 1
        if held > 0:
            self.held[address] = held
        else:
            self.held.pop(address, None)


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """The address the limits count by: an IPv4 address as it is, an IPv6 one by its
    /64 network (one subscriber's: a client can take a new address in its /64 at will).

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:a:b:c:d"), address_key("::ffff:192.0.2.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '192.0.2.1')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP address ("testclient", a Unix socket's path)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def client_address(scope: Scope) -> str:
    """The client's address as the limits count it (:func:`address_key`); behind a
    trusted proxy, the one it forwards (uvicorn reads X-Forwarded-For from the
    addresses of --trusted-proxy)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


def too_many_connections(most: int) -> str:
    return f"too many connections from your address ({most} at once): close some windows or wait"


SERVER_FULL = "the server is full: try again in a moment"


def sockets_allowed(max_connections: int) -> int:
    """WebSockets open at once, of ``max_connections``: a tenth is kept for requests, so
    that a new visitor's page loads (uvicorn answers 503 once all are taken)."""
    return max_connections - max(1, max_connections // 10)


class Guard:
    """ASGI middleware: HTTP requests rate-limited by address, the connections of an
    address (requests under way, WebSockets open) at most ``per_address`` at once,
    WebSockets in all at most :func:`sockets_allowed` of ``max_connections``, security
    headers on every HTTP response.  A WebSocket refused is answered 429 or 503 with one
    line of JSON instead of its handshake (the socket limits its own messages)."""

    def __init__(self, app: ASGIApp, *, rate: float = HTTP_RATE, burst: int = HTTP_BURST,
                 per_address: int = MAX_PER_ADDRESS, max_connections: int = MAX_CONNECTIONS):
        self.app = app
        self.buckets = AddressBuckets(rate, burst)
        self.held = Counts(per_address)
        self.max_sockets = sockets_allowed(max_connections)
        self.sockets = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *(h for h in SECURITY_HEADERS if h[0] not in have)]}
            await send(message)

        address = client_address(scope)
        if not self.buckets.take(address):
            await _refuse(send_guarded, "http", 429, "too many requests from your address: slow down")
            return
        if not self.held.open(address):
            await _refuse(send_guarded, "http", 429, too_many_connections(self.held.most))
            return
        try:
            await self.app(scope, receive, send_guarded)
        finally:
            self.held.close(address)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        if self.sockets >= self.max_sockets:
            refusal: tuple[int, str] | None = (503, SERVER_FULL)
        elif not self.held.open(address):
            refusal = (429, too_many_connections(self.held.most))
        else:
            refusal = None
        if refusal is not None:
            await receive()  # the handshake ("websocket.connect"), answered with the refusal
            if "websocket.http.response" in scope.get("extensions", {}):
                await _refuse(send, "websocket.http", *refusal)
            else:  # a server without the denial response: the handshake is refused with 403
                await send({"type": "websocket.close", "code": 1013 if refusal[0] == 503 else 1008})
            return
        self.sockets += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets -= 1
            self.held.close(address)


async def _refuse(send: Send, kind: str, status: int, error: str) -> None:
    """Answer a request (``kind`` "http", or "websocket.http" for a handshake) with
    ``status`` and ``{"error": error}``."""
    body = json.dumps({"error": error}).encode()
    await send({"type": f"{kind}.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1")]})
    await send({"type": f"{kind}.response.body", "body": body})


def protocols(*, head_seconds: float = HEAD_SECONDS, per_address: int = MAX_PER_ADDRESS,
              trusted: Sequence[str] = ("127.0.0.1",)) -> tuple[type[H11Protocol], type[Any] | None]:
    """uvicorn's h11 protocol and its WebSocket protocol (``http=`` and ``ws=`` of
    ``uvicorn.run``), guarded:

    - a connection whose request head is not complete ``head_seconds`` after it opened
      or after the last response ended is closed with a 408 and one line (a request's
      body is the app's to time);
    - a peer address (:func:`address_key`) that is none of the ``trusted`` proxies'
      holds at most ``per_address`` connections at once, a WebSocket's included; one
      more is answered 429 with one line as it opens, and closed.
    """
    networks = [ipaddress.ip_network(item, strict=False) for item in trusted]
    held = Counts(per_address)
    refusal = json.dumps({"error": too_many_connections(per_address)}).encode()

    @functools.lru_cache(maxsize=4096)
    def is_trusted(host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in networks)

    def counted(protocol: Any) -> str | None:
        """Count the connection of ``protocol``: its peer's key; None if not counted (a
        trusted proxy's, or one refused: answered, and closing)."""
        host = protocol.client[0] if protocol.client else None
        if host is None or is_trusted(host):
            return None
        key = address_key(host)
        if held.open(key):
            return key
        protocol.transport.write(b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
                                 b"retry-after: 1\r\nconnection: close\r\ncontent-length: "
                                 + str(len(refusal)).encode() + b"\r\n\r\n" + refusal)
        protocol.transport.close()
        return None

    class GuardedSocketProtocol(AutoWebSocketsProtocol or asyncio.Protocol):  # type: ignore[misc]
        peer: str | None = None  # the count it holds, handed over by the upgraded HTTP connection

        def connection_lost(self, exc: Exception | None) -> None:
            if self.peer is not None:
                held.close(self.peer)
                self.peer = None
            super().connection_lost(exc)

    class GuardedProtocol(H11Protocol):
        _head_timer: Any = None
        peer: str | None = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.peer = counted(self)
            if transport.is_closing():  # refused
                return
            self._arm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            peer, self.peer = self.peer, None
            super().handle_websocket_upgrade(event)
            protocol = self.transport.get_protocol()
            if isinstance(protocol, GuardedSocketProtocol):
                protocol.peer = peer  # its connection_lost releases the count from now on
            elif peer is not None:
                held.close(peer)

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(head_seconds, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # a request's head has come
                self._disarm()

        def on_response_complete(self) -> None:
            self._arm()  # the next request's head (a pipelined one is already here: it disarms)
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.peer is not None:
                held.close(self.peer)
                self.peer = None
            super().connection_lost(exc)

        def _head_late(self) -> None:
            self._head_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self or self.conn.their_state is not h11.IDLE:
                return
            body = b"the request's headers took too long to arrive\n"
            transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            transport.close()

    return GuardedProtocol, GuardedSocketProtocol if AutoWebSocketsProtocol is not None else None


class ClientFaultsInOneLine(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 with its traceback
    (``logger.exception``); the fault is the client's, so the log says it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError):
            record.msg, record.args = f"{record.getMessage()} ({record.exc_info[1]})", ()
            record.exc_info, record.exc_text = None, None
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, with :class:`ClientFaultsInOneLine` on its log."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["one_line"] = {"()": ClientFaultsInOneLine}
    config["handlers"]["default"]["filters"] = ["one_line"]
    return config
