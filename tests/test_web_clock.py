"""The turn clock: a room's maker may give each move a number of seconds; past them a
stand-in bot makes that move for a player who is at the table but idle, says so in the
log, and the player has the whole clock again for their next move.  Without a clock (the
default, for friends who like to talk) nobody is hurried."""

from __future__ import annotations

import json
import time as real_time
import types

import pytest

from cardrules.web.rooms import Limits, RoomError, Rooms
from web_helpers import create, receive, server


class FakeTime:
    """The room module's clock, moved on by hand."""

    def __init__(self) -> None:
        self.offset = 0.0

    def monotonic(self) -> float:
        return real_time.monotonic() + self.offset


@pytest.fixture
def clock(monkeypatch):
    fake = FakeTime()
    import cardrules.web.room as room_module
    monkeypatch.setattr(room_module, "time", types.SimpleNamespace(monotonic=fake.monotonic, time=real_time.time))
    return fake


def _my_turn(ws):
    return _until(ws, lambda m: m["turn"] == m["you"] and bool(m.get("moves")))


def _until(ws, want):
    while True:
        message = receive(ws, ("table",))
        if want(message):
            return message


def test_an_idle_player_s_move_is_made_by_a_bot_when_the_clock_runs_out(tmp_path, clock):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"], clock=30)
        with client.websocket_connect("/ws") as ann:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            ann.send_json({"type": "start"})
            table = _my_turn(ann)
            assert 29 <= table["clock_left"] <= 30 and table["clock"] == 30
            version = table["version"]
            clock.offset += 31  # Ann does nothing for 31 seconds
            after = _until(ann, lambda m: m["version"] > version)
            assert any("Ann's time ran out: a bot moves for them" in line for line in after["log"])
            # her next move has the whole clock again
            again = after if after["turn"] == after["you"] and after.get("moves") else _my_turn(ann)
            assert again["clock_left"] > 25


def test_without_a_clock_a_player_at_the_table_is_never_hurried(tmp_path, clock):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            ann.send_json({"type": "start"})
            table = _my_turn(ann)
            assert "clock_left" not in table and table["clock"] is None
            clock.offset += 10_000
            real_time.sleep(1.5)  # a few sweeps of the server
            room = rooms.get("Friday")
            assert room.state.moves == table["version"] and room.state.turn == 0


def test_the_clock_is_checked_and_comes_back_after_a_restart(tmp_path):
    data = tmp_path / "rooms"
    rooms = Rooms(data, Limits(bot_delay=0))
    for bad in (0, 4, 3601, 2.5, True, "60"):
        with pytest.raises(RoomError, match="turn clock"):
            rooms.create(room=f"R{bad!s}", name="Ann", ruleset="oh-hell", clock=bad)
    room, _ = rooms.create(room="Friday", name="Ann", ruleset="oh-hell", clock=45)
    assert json.loads((data / f"{room.file_id}.json").read_text())["clock"] == 45
    again = Rooms(data, Limits(bot_delay=0))
    assert again.load_all() == [] and again.get("Friday").clock == 45
    meta = json.loads((data / f"{room.file_id}.json").read_text())
    meta["clock"] = 10 ** 9
    (data / f"{room.file_id}.json").write_text(json.dumps(meta))
    third = Rooms(data, Limits(bot_delay=0))
    problems = third.load_all()
    assert len(problems) == 1 and "turn clock" in problems[0]
