"""What stands between the network and the rooms: rate limits by address, the security
headers of every response, and a time limit on a request's headers.

:class:`Guard` wraps the ASGI app: each client address has a token bucket for its HTTP
requests (past it: 429 and a one-line JSON error), and every HTTP response gets the
headers of :data:`SECURITY_HEADERS` (the page loads nothing from elsewhere, so its
Content-Security-Policy allows only this server).  :func:`head_timeout_protocol` makes
uvicorn's h11 protocol close a connection whose request head (the request line and
headers) has not all arrived within a time limit: uvicorn's own keep-alive timeout
only runs between requests, so a client sending half a head, or nothing, kept its
connection open as long as it liked.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from typing import Any

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

HTTP_RATE = 10.0  # HTTP requests a second one address may send, on average ...
HTTP_BURST = 30  # ... and at once
MAX_ADDRESSES = 10_000  # buckets kept; past that the full ones (idle addresses) are dropped
HEAD_SECONDS = 10.0  # time a request's line and headers may take to arrive

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


class AddressBuckets:
    """A token bucket for each client address, at most ``MAX_ADDRESSES`` of them."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget_idle()
            bucket = self.buckets[address] = Bucket(self.rate, self.burst)
        return bucket.take()

    def _forget_idle(self) -> None:
        for address, bucket in list(self.buckets.items()):
            bucket.refill()
            if bucket.tokens >= bucket.burst:  # as if it had never come
                del self.buckets[address]
        while len(self.buckets) >= MAX_ADDRESSES:  # every one busy: the oldest go
            del self.buckets[next(iter(self.buckets))]


def client_address(scope: Scope) -> str:
    """The client's address (behind a proxy on this machine, the one it forwards:
    uvicorn reads X-Forwarded-For from 127.0.0.1)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Guard:
    """ASGI middleware: HTTP requests rate-limited by address, security headers on
    every HTTP response.  WebSocket connections pass through (the socket limits its
    own messages)."""

    def __init__(self, app: ASGIApp, *, rate: float = HTTP_RATE, burst: int = HTTP_BURST):
        self.app = app
        self.buckets = AddressBuckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *(h for h in SECURITY_HEADERS if h[0] not in have)]}
            await send(message)

        if not self.buckets.take(client_address(scope)):
            body = json.dumps({"error": "too many requests from your address: slow down"}).encode()
            await send_guarded({"type": "http.response.start", "status": 429, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"1")]})
            await send_guarded({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_guarded)


def head_timeout_protocol(seconds: float = HEAD_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection (with a 408 and one line) whose
    request head is not complete ``seconds`` after it opened or after the last
    response ended.  A request's body is the app's to time."""

    class HeadTimeoutProtocol(H11Protocol):
        _head_timer: Any = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(seconds, self._head_late)

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

    return HeadTimeoutProtocol


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
