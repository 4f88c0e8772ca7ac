"""`cardrules serve` sends each connection only what its seat may see: every message sent
to every seat and to a spectator during whole games of both families is checked for a
card that receiver could not know, by the engine's own notion of what each viewer sees
(its views of the events: tests/web_helpers.py's ``Visible``), not by a model of each
family's rules."""

from __future__ import annotations

import random

import pytest

from web_helpers import create, hidden_leaks, play_to_the_end, record_of, replayed, server


@pytest.mark.parametrize("ruleset,mode", [("oh-hell", None), ("shanghai-isra", None), ("hearts", None)])
def test_no_message_names_a_card_its_seat_may_not_see(tmp_path, ruleset, mode):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset=ruleset, seats=["human", "human", "bot", "bot"], mode=mode)
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob, \
                client.websocket_connect("/ws") as watcher:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            bob.send_json({"type": "join", "room": "Friday", "name": "Bob"})
            assert bob.receive_json()["seat"] == 1
            ann.send_json({"type": "start"})
            watcher.send_json({"type": "join", "room": "friday", "name": "Cy"})
            seen: dict = {}
            last = play_to_the_end({0: ann, 1: bob, "watcher": watcher}, random.Random(3), seen)
    assert last[0]["over"] and last["watcher"]["over"]
    events = record_of(client, last[0])
    assert events[-1]["event"] == "end"
    if ruleset == "shanghai-isra":  # the hands its score lines record are checked below too
        assert all(len(e["hands"]) == 4 for e in events if e["event"] == "score")
    game = replayed(client, last[0], tmp_path)
    assert sum(1 for m in seen[0] if m["type"] == "table") > 50
    for seat, key in ((0, 0), (1, 1), (None, "watcher")):
        assert hidden_leaks(seen[key], seat, game) == []
    # the spectator never gets a hand or moves
    assert all("hand" not in m and "moves" not in m for m in seen["watcher"] if m["type"] == "table")


def test_the_check_finds_a_card_of_another_hand(tmp_path):
    """The privacy check itself can fail: another seat's hand, slipped into a message."""
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            ann.send_json({"type": "start"})
            seen: dict = {}
            last = play_to_the_end({0: ann}, random.Random(1), seen)
    events = record_of(client, last[0])
    game = replayed(client, last[0], tmp_path)
    deal = next(e for e in events if e["event"] == "deal")
    table = next(m for m in seen[0] if m["type"] == "table" and m["round"] == 1)
    assert hidden_leaks([table], 0, game) == []
    bob_card = deal["hands"][1][0]
    assert hidden_leaks([dict(table, log=[f"bot-2 holds {bob_card}"])], 0, game)
    pretty = bob_card.replace("T", "10")[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[bob_card[-1]]
    assert hidden_leaks([dict(table, log=[f"bot-2 holds {pretty}"])], 0, game)
    assert hidden_leaks([dict(table, hand=[])], None, game) == []  # the public part alone is fine
    own = deal["hands"][0][0]
    assert hidden_leaks([dict(table, log=[own])], None, game)  # Ann's card, shown to a spectator
