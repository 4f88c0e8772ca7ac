"""Bytes the web table sends a player in a whole game, raw and compressed as
`cardrules serve` compresses them (permessage-deflate, one stream a connection), for
deciding `serve --compression/--no-compression`.

    python benchmarks/message_bytes.py [RULESET ...]     # default: oh-hell shanghai-isra

One person and three bots play a whole game in an in-process server (Starlette's test
client, random legal moves); every message the person's page receives is counted as JSON
text, then deflated in one stream with a sync flush after each message (as the extension
does with context takeover) and, for comparison, each message alone.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from web_helpers import create, play_to_the_end, server  # noqa: E402


def measure(ruleset: str) -> tuple[int, int, int, int]:
    """(messages, raw bytes, bytes deflated in one stream, bytes deflated each alone)."""
    with tempfile.TemporaryDirectory() as folder:
        _, client = server(Path(folder))
        made = create(client, ruleset=ruleset, seats=["human", "bot", "bot", "bot"])
        with client, client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "room": "Friday", "name": "Ann", "token": made["token"]})
            ws.send_json({"type": "start"})
            seen: dict[int, list[dict[str, object]]] = {}
            play_to_the_end({0: ws}, random.Random(1), seen)
    texts = [json.dumps(m).encode() for m in seen[0]]
    stream = zlib.compressobj(6, zlib.DEFLATED, -15)
    together = sum(len(stream.compress(t)) + len(stream.flush(zlib.Z_SYNC_FLUSH)) for t in texts)
    alone = sum(len(zlib.compress(t, 6)) for t in texts)
    return len(texts), sum(map(len, texts)), together, alone


def main() -> None:
    for ruleset in sys.argv[1:] or ["oh-hell", "shanghai-isra"]:
        count, raw, together, alone = measure(ruleset)
        print(f"{ruleset}: {count} messages, {raw:,} bytes; compressed as served {together:,} "
              f"({together / raw:.2f}), each message alone {alone:,} ({alone / raw:.2f})")


if __name__ == "__main__":
    main()
