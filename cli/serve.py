"""`cardrules serve`: rooms in the browser for friends on a network."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .common import UsageProblem, echo, examples
from ..interpreter.saves import default_save_dir


def default_data_dir() -> Path:
    """Where the server keeps its rooms unless --data says: beside the saves folder."""
    return default_save_dir().parent / "rooms"


@click.command(short_help="Serve rooms to play in the browser.", epilog=examples(
    "cardrules serve", "cardrules serve --host 0.0.0.0 --port 8000 --data ~/cardrules-rooms",
    "cardrules serve --takeover 30 --bot-delay 1"))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine, for a LAN).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path),
              help="Folder where rooms are kept, so a restarted server brings them back "
                   "(default: 'rooms' beside the saves folder).")
@click.option("--takeover", type=click.FloatRange(0.1, 86400), default=60.0, show_default=True,
              help="Seconds a player may be gone in their turn before a bot plays for them (until they return).")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds between bot moves, so people can follow.")
@click.option("--max-rooms", type=click.IntRange(1, 100000), default=200, show_default=True,
              help="Rooms this server keeps at once.")
@click.option("--rate", type=click.FloatRange(1, 100000), default=20.0, show_default=True,
              help="Messages a second one connection may send, on average (bursts of three seconds' worth).")
@click.option("--http-rate", type=click.FloatRange(1, 100000), default=10.0, show_default=True,
              help="HTTP requests a second one address may send, on average (bursts of three seconds' worth).")
@click.option("--idle-close", type=click.FloatRange(0.01, 525600), default=30.0, show_default=True,
              help="Minutes a game in progress that nobody is in stays open; then it is closed and its files "
                   "move to closed/ in --data.")
@click.option("--head-timeout", type=click.FloatRange(0.1, 3600), default=10.0, show_default=True,
              help="Seconds a request's line and headers may take to arrive before the connection is closed.")
@click.option("--max-connections", type=click.IntRange(10, 1000000), default=1000, show_default=True,
              help="Open connections past which a new HTTP request is answered 503 (busy); WebSockets take at "
                   "most nine tenths of them, so that a new visitor's page still loads.")
@click.option("--max-per-address", type=click.IntRange(1, 1000000), default=32, show_default=True,
              help="Connections one client address may hold at once (WebSockets, requests, idle ones); behind a "
                   "--trusted-proxy, by the address it forwards.")
@click.option("--trusted-proxy", "trusted_proxy", default="127.0.0.1", show_default=True, metavar="ADDRESSES",
              help="Comma-separated addresses or networks (172.16.0.0/12) of the reverse proxies whose "
                   "X-Forwarded-For names the client; the rate limits count by that client.")
@click.option("--compression/--no-compression", default=True, show_default=True,
              help="Compress the WebSocket messages (permessage-deflate): a whole game sends 3-4% of the "
                   "bytes, for some processor time; turn it off on a busy host with a fast network (docs/web.md).")
def serve(host: str, port: int, data: Path | None, takeover: float, bot_delay: float, max_rooms: int,
          rate: float, http_rate: float, idle_close: float, head_timeout: float, max_connections: int,
          max_per_address: int, trusted_proxy: str, compression: bool) -> None:
    """Serve a page where friends play any ruleset together in the browser.

    Type your name and a room's name; everyone who types the same room name joins the
    same room (or share the room's link). The room's maker picks the rules (a bundled
    ruleset, or their own YAML file) and starts the game; bots take the seats left
    empty. Rooms are kept in --data: stop the server and start it again, and every
    game goes on where it was. See docs/web.md for hosting on a LAN or behind a proxy.
    """
    proxies = trusted_proxies(trusted_proxy)
    import uvicorn

    from ..web.guards import log_config, protocols
    from ..web.rooms import Limits, Rooms
    from ..web.server import make_app

    folder = (data or default_data_dir()).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"cannot use {folder} for the rooms: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageProblem(f"cannot write in {folder}: choose another --data folder")
    rooms = Rooms(folder, Limits(takeover=takeover, bot_delay=bot_delay, max_rooms=max_rooms,
                                 idle_close=idle_close * 60))
    for problem in rooms.load_all():
        echo(f"cardrules serve: a room could not be brought back: {problem}", err=True)
    _enough_files(max_connections + 256)
    shown = f"[{host}]" if ":" in host else host
    echo(f"cardrules serve: http://{shown}:{port}/ ({len(rooms.rooms)} room{'s' if len(rooms.rooms) != 1 else ''} "
         f"from {folder}; Ctrl-C stops)")
    app = make_app(rooms, rate=rate, burst=max(10, int(3 * rate)), http_rate=http_rate,
                   http_burst=max(10, int(3 * http_rate)), max_connections=max_connections,
                   max_per_address=max_per_address)
    http, ws = protocols(head_seconds=head_timeout, per_address=max_per_address, trusted=proxies)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 16, ws_ping_interval=20,
                ws_ping_timeout=20, ws_per_message_deflate=compression, http=http, ws=ws or "auto",
                timeout_keep_alive=5,
                h11_max_incomplete_event_size=16 << 10, limit_concurrency=max_connections, backlog=2048,
                proxy_headers=True, forwarded_allow_ips=proxies, log_config=log_config())


def trusted_proxies(text: str) -> list[str]:
    """--trusted-proxy's addresses and networks, each checked (a usage error names the
    first that is neither).

    >>> trusted_proxies("127.0.0.1, 172.16.0.0/12")
    ['127.0.0.1', '172.16.0.0/12']
    """
    import ipaddress

    found = [part.strip() for part in text.split(",") if part.strip()]
    for part in found:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise UsageProblem(f"--trusted-proxy: '{part[:60]}' is not an address or a network "
                               "(such as 127.0.0.1 or 172.16.0.0/12)") from None
    if not found:
        raise UsageProblem("--trusted-proxy needs at least one address")
    return found


def _enough_files(wanted: int) -> None:
    """Raise this process's limit of open files to ``wanted`` if it is lower and the hard
    limit allows (one a connection): past it, accepting a connection fails."""
    try:
        import resource
    except ImportError:  # not on this system
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
