"""`cardrules serve`: rooms in the browser for friends on a network."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .common import UsageProblem, echo, examples
from .session import default_save_dir


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
def serve(host: str, port: int, data: Path | None, takeover: float, bot_delay: float, max_rooms: int,
          rate: float) -> None:
    """Serve a page where friends play any ruleset together in the browser.

    Type your name and a room's name; everyone who types the same room name joins the
    same room (or share the room's link). The room's maker picks the rules (a bundled
    ruleset, or their own YAML file) and starts the game; bots take the seats left
    empty. Rooms are kept in --data: stop the server and start it again, and every
    game goes on where it was. See docs/web.md for hosting on a LAN or behind a proxy.
    """
    import uvicorn

    from ..web.rooms import Limits, Rooms
    from ..web.server import make_app

    folder = (data or default_data_dir()).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"cannot use {folder} for the rooms: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageProblem(f"cannot write in {folder}: choose another --data folder")
    rooms = Rooms(folder, Limits(takeover=takeover, bot_delay=bot_delay, max_rooms=max_rooms))
    for problem in rooms.load_all():
        echo(f"cardrules serve: a room could not be brought back: {problem}", err=True)
    shown = f"[{host}]" if ":" in host else host
    echo(f"cardrules serve: http://{shown}:{port}/ ({len(rooms.rooms)} room{'s' if len(rooms.rooms) != 1 else ''} "
         f"from {folder}; Ctrl-C stops)")
    uvicorn.run(make_app(rooms, rate=rate, burst=max(10, int(3 * rate))), host=host, port=port, log_level="warning", ws_max_size=1 << 16,
                ws_ping_interval=20, ws_ping_timeout=20)
