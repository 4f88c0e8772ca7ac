"""A real `cardrules serve` process killed in the middle of a game (SIGKILL: no chance to
tidy up) and started again on the same --data folder brings the room back where it
was; the player rejoins with their token and plays the game to its end."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.sync.client import connect


def _start(data, port, *extra):
    server = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", "--port", str(port), "--data", str(data),
                               "--bot-delay", "0", "--rate", "1000", *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/x", timeout=2).read()
            return server
        except OSError:
            assert time.time() < deadline and server.poll() is None, server.stderr.read().decode()[-500:]
            time.sleep(0.1)


def _table(ws, want=lambda m: True):
    while True:
        message = json.loads(ws.recv(timeout=15))
        assert message["type"] != "error", message  # a refused move would leave the test waiting
        if message["type"] == "table" and want(message):
            return message


def _my_turn(ws, after):
    """The first table newer than version `after` on which seat 0 is to move: a table
    repeated for an older state (a bot's pass, a reaction) is not mistaken for it, and a
    round's end on the table is looked at so the next deal comes."""
    while True:
        table = _table(ws, lambda m: m["version"] > after or m.get("round_end"))
        if table.get("round_end") and not table["round_end"]["seen"]:
            ws.send(json.dumps({"type": "next"}))
        elif table["version"] > after and table["turn"] == 0 and table.get("moves"):
            return table


def test_a_killed_server_brings_the_game_back_where_it_was(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = _start(tmp_path / "rooms", port)
    try:
        body = json.dumps({"room": "Kill Me", "name": "Ann", "ruleset": "shanghai-isra", "mode": "junior",
                           "seats": ["human", "bot", "bot", "bot"]}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rooms", body,
                                         {"Content-Type": "application/json"})
        made = json.loads(urllib.request.urlopen(request, timeout=10).read())
        rng = random.Random(4)
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "room": "kill me", "token": made["token"]}))
            ws.send(json.dumps({"type": "start"}))
            version = -1
            for _ in range(8):
                table = _my_turn(ws, version)
                version = table["version"]
                ws.send(json.dumps({"type": "move", "move": rng.choice(table["moves"])}))
            before = _my_turn(ws, version)
    finally:
        server.kill()
        server.wait()
    server = _start(tmp_path / "rooms", port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "room": "Kill Me", "token": made["token"]}))
            after = _table(ws)
            assert (after["version"], after["hand"], after["moves"], after["panels"], after["log"]) == \
                (before["version"], before["hand"], before["moves"], before["panels"], before["log"])
            while not after["over"]:
                if after.get("round_end") and not after["round_end"]["seen"]:  # look at the round, deal on
                    ws.send(json.dumps({"type": "next"}))
                    after = _table(ws, lambda m: not m.get("round_end") or m["round_end"]["seen"])
                    continue
                if after["turn"] == 0 and after.get("moves"):
                    moves = after["moves"]
                    eager = [m for m in moves if m.startswith(("meld", "layoff"))]
                    ws.send(json.dumps({"type": "move", "move": eager[0] if eager else
                                        rng.choice([m for m in moves if m != "buy"] or moves)}))
                after = _table(ws, lambda m, v=after["version"]: m["version"] > v or m["over"])
            assert len(after["standings"]) == 4
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=10)
    assert b"Traceback" not in stderr and b"could not be brought back" not in stderr


@pytest.mark.parametrize("extra, compressed", [((), True), (("--no-compression",), False)])
def test_the_messages_are_compressed_unless_the_host_says_not(tmp_path, extra, compressed):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = _start(tmp_path / "rooms", port, *extra)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:  # the client offers permessage-deflate
            names = [type(e).__name__ for e in ws.protocol.extensions]
            assert ("PerMessageDeflate" in names) == compressed, names
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_rooms_save_is_flushed_at_each_move_and_forced_to_disk_beside_the_loop(tmp_path, monkeypatch):
    """The web server's saves are flushed with each move (a killed server loses none, as
    above) and forced to the disk by its sync task, not by the move; a terminal game's
    save is forced at each move."""
    import os

    from cardrules.interpreter import saves

    forced = []
    monkeypatch.setattr(saves.os, "fsync", lambda fd: forced.append(fd))
    path = tmp_path / "room.jsonl"
    writer = saves.SaveWriter(path, {"format": "x"}, durable=False)
    forced.clear()  # (the header is written atomically, and forced, as ever)
    writer.action("bid 3")
    assert path.read_text().splitlines()[-1] == '"bid 3"' and forced == [] and writer.dirty
    writer.sync()
    writer.sync()  # nothing new: not forced again
    assert len(forced) == 1 and not writer.dirty
    writer.action("play QS")
    writer.close()  # closing forces what is left
    assert len(forced) == 2
    durable = saves.SaveWriter(tmp_path / "terminal.jsonl", {"format": "x"})
    forced.clear()
    durable.action("bid 1")
    assert len(forced) == 1 and not durable.dirty
    durable.close()
    assert os.path.exists(tmp_path / "terminal.jsonl")
