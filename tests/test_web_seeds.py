"""A room deals from a seed no one can search (issue 35): a 31-bit seed was found from a
player's first hand, and with it every hand of the game.  Rooms now draw 128 bits; the
record carries the seed as a whole number, `cardrules replay` proves the deals from it,
`cardrules play --seed` deals the same game, and a restarted server brings the room back."""

from __future__ import annotations

import json

from cardrules.interpreter.record import replay
from cardrules.web.rooms import Limits, Rooms

SHORT = """extends: oh-hell
name: two-short-rounds
deal:
  hand_size: "[3, 2]"
"""


def _play_to_the_end(room) -> None:
    room.start(0)
    while not room.is_over:  # the bots move at once (no event loop), the person plays any legal move
        room.move(0, str(room.state.legal_actions()[0]))


def test_a_room_deals_from_a_seed_of_128_bits_and_its_record_replays(tmp_path, run_cli):
    data = tmp_path / "rooms"
    rooms = Rooms(data, Limits(bot_delay=0))
    made = [rooms.create(room=f"Room {i}", name="Ann", ruleset="oh-hell", seats=["human", "bot", "bot"])[0]
            for i in range(8)]
    # each a whole number of 128 random bits (one under 2^96 would happen once in 2^32 rooms)
    assert all(isinstance(r.seed, int) and 2 ** 96 <= r.seed < 2 ** 128 for r in made), [r.seed for r in made]
    assert len({r.seed for r in made}) == 8

    room, _ = rooms.create(room="Short", name="Ann", yaml_text=SHORT, seats=["human", "bot", "bot"])
    _play_to_the_end(room)
    record = tmp_path / "room.jsonl"
    record.write_text(room.record_text())
    header = json.loads(record.read_text().splitlines()[0])
    assert header["seed"] == room.seed
    (tmp_path / "two-short-rounds.yaml").write_text(SHORT)
    result = replay(record, str(tmp_path / "two-short-rounds.yaml"))  # every deal proved from the seed
    assert result.complete

    # the terminal deals the same game from the seed
    terminal = tmp_path / "terminal.jsonl"
    played = run_cli("play", str(tmp_path / "two-short-rounds.yaml"), "--seats", "bot,bot,bot", "--seed",
                     str(room.seed), "--record", str(terminal), "--quiet")
    assert played.exit_code == 0, played.output
    deals = [[e for e in map(json.loads, path.read_text().splitlines()) if e["event"] == "deal"][0]
             for path in (record, terminal)]
    assert deals[0] == deals[1]
    assert run_cli("replay", str(terminal), "--ruleset", str(tmp_path / "two-short-rounds.yaml")).exit_code == 0

    # a started room with such a seed comes back after a restart
    started = made[1]
    started.start(0)
    again = Rooms(data, Limits(bot_delay=0))
    assert again.load_all() == []
    assert again.get("Room 1").seed == started.seed and again.get("Room 1").started
