"""The room protocol of `cardrules serve`, through the WebSocket as a page speaks it:
making and joining rooms, seats and tokens, whose turn it is, refusals in the rules'
own words, reconnecting, bots standing in, restarts, records, and bad input."""

from __future__ import annotations

import json
import random
import time

import pytest

from cardrules.interpreter.record import replay
from web_helpers import create, play_to_the_end, receive, receive_json, record_of, server

HOUSE = """extends: oh-hell
name: our-short-game
deal:
  hand_size: "[3, 2]"
"""


def join(ws, name=None, token=None, room="Friday"):
    ws.send_json({"type": "join", "room": room, "name": name, "token": token})
    return receive(ws, ("welcome", "error", "no-room"))


def test_a_room_from_making_to_the_end(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        assert client.get("/").status_code == 200 and "cardrules" in client.get("/").text
        assert client.get("/static/app.js").status_code == 200
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"])
        assert client.get("/api/rooms/friday").json()["free_seats"] == 1
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            assert join(ann, token=made["token"])["seat"] == 0
            lobby = receive(ann, ("lobby",))
            assert [s["name"] for s in lobby["seats"]] == ["Ann", None, None] and lobby["can_start"]
            welcome = join(bob, name="Bob", room="  FRIDAY ")  # the same name, however typed
            assert welcome["seat"] == 1 and len(welcome["token"]) >= 30
            lobby = receive(ann, ("lobby",))
            assert [s["name"] for s in lobby["seats"]][:2] == ["Ann", "Bob"]
            bob.send_json({"type": "start"})
            assert "only Ann" in receive(bob, ("error",))["message"]
            ann.send_json({"type": "start"})
            last = play_to_the_end({0: ann, 1: bob}, random.Random(5))
    final = last[0]
    assert final["over"] and len(final["standings"]) == 3 and final["winners"]
    assert len(final["sheet"]) == final["rounds"]
    events = record_of(client, final)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    result = replay(path)  # `cardrules replay` accepts the downloaded record
    assert result.complete and result.state.totals == [s["total"] for s in final["seats"]]


def test_turn_order_and_refusals_in_the_rules_words(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "human"], seed=1)
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob, \
                client.websocket_connect("/ws") as cy:
            join(ann, token=made["token"])
            join(bob, "Bob")
            join(cy, "Cy")
            ann.send_json({"type": "start"})
            table = receive(ann)
            while table["phase"] != "bidding":
                table = receive(ann)
            # Ann deals: Bob bids first; Ann may not move before him
            assert table["turn"] == 1
            ann.send_json({"type": "move", "move": "bid 0"})
            refused = receive(ann, ("refused",))
            assert "not your turn" in refused["message"] and "Bob" in refused["message"]
            bob_table = receive(bob)
            while bob_table["turn"] != 1 or not bob_table.get("moves"):
                bob_table = receive(bob)
            assert [b["label"] for b in bob_table["controls"]["buttons"]][0] == "0"
            bob.send_json({"type": "move", "move": "bid 99"})
            assert "99" in receive(bob, ("refused",))["message"]
            bob.send_json({"type": "move", "move": "bid 2"})
            cy_table = receive(cy)
            while cy_table["turn"] != 2:
                cy_table = receive(cy)
            cy.send_json({"type": "move", "move": "bid 2"})
            ann_table = receive(ann)
            while ann_table["turn"] != 0:
                ann_table = receive(ann)
            # the dealer's hook: the bid that makes the total the tricks is offered, disabled, with the rule's words
            hooked = [b for b in ann_table["controls"]["buttons"] if "refused" in b]
            assert len(hooked) == 1 and hooked[0]["refused"].startswith("the dealer may not bid")
            ann.send_json({"type": "move", "move": f"bid {hooked[0]['label']}"})
            assert receive(ann, ("refused",))["message"] == hooked[0]["refused"]
            ann.send_json({"type": "move", "move": "bid 0"})
            bob_table = receive(bob)
            while bob_table["phase"] != "play" or bob_table["turn"] != 1:
                bob_table = receive(bob)
            # Bob leads; then Cy must follow suit: his unplayable cards say why
            lead = next(h for h in bob_table["hand"] if h["move"])
            bob.send_json({"type": "move", "move": lead["move"]})
            cy_table = receive(cy)
            while cy_table["turn"] != 2 or cy_table["phase"] != "play":
                cy_table = receive(cy)
            suit = lead["card"][-1]
            cards = cy_table["hand"]
            if any(h["card"][-1] == suit for h in cards) and any(h["card"][-1] != suit for h in cards):
                other = next(h for h in cards if h["card"][-1] != suit)
                assert other["move"] is None and other["refused"].startswith("you must follow")
                assert all((h["move"] is not None) == (h["card"][-1] == suit) for h in cards)
            assert cy_table["panels"][-1]["kind"] == "plays" and "Bob is winning" in cy_table["panels"][-1]["note"]


def test_tokens_seats_and_no_new_seat_after_the_start(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            with client.websocket_connect("/ws") as intruder:
                assert join(intruder, name="Ann")["type"] == "error"  # a name taken in the room
            with client.websocket_connect("/ws") as guess:
                assert join(guess, name="Eve", token="x" * 32)["seat"] == 1  # a wrong token is no one's
            ann.send_json({"type": "start"})
            receive(ann)
            with client.websocket_connect("/ws") as late:
                welcome = join(late, name="Zed")
                assert welcome["seat"] is None and "token" not in welcome  # watching
                table = receive(late)
                assert "hand" not in table and "moves" not in table
                late.send_json({"type": "move", "move": "bid 1"})
                assert "watching" in receive(late, ("refused",))["message"]
            with client.websocket_connect("/ws") as back:  # Ann's second window: her seat again
                assert join(back, token=made["token"])["seat"] == 0
                assert receive(back)["hand"]


def test_reconnecting_gives_the_table_back_and_a_bot_stands_in(tmp_path):
    rooms, client = server(tmp_path, takeover=0.3)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"], seed=4)
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            with client.websocket_connect("/ws") as bob:
                bob_token = join(bob, "Bob")["token"]
                ann.send_json({"type": "start"})
                before = receive(bob)
            # Bob has gone: after the takeover time a bot plays his turns, and the game goes on
            deadline = time.time() + 20
            table = receive(ann)
            while time.time() < deadline and table["version"] < before["version"] + 12:
                if table["turn"] == 0 and table.get("moves"):
                    ann.send_json({"type": "move", "move": table["moves"][0]})
                table = receive(ann)
            assert table["version"] >= before["version"] + 12
            assert not table["seats"][1]["connected"]
            with client.websocket_connect("/ws") as bob:
                assert join(bob, token=bob_token)["seat"] == 1
                again = receive(bob)
                assert again["seats"][1]["connected"] and again["hand"] is not None
                assert again["you"] == 1 and again["version"] >= table["version"]


def test_a_restarted_server_brings_its_rooms_back(tmp_path):
    rooms, client = server(tmp_path, takeover=3600)
    with client:
        made = create(client, ruleset="shanghai-isra", seats=["human", "bot", "bot", "bot"], mode="junior", seed=9)
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "start"})
            rng = random.Random(2)
            table = receive(ann)
            for _ in range(6):  # a few of Ann's moves
                while table["turn"] != 0 or not table.get("moves"):
                    table = receive(ann)
                ann.send_json({"type": "move", "move": table["moves"][0] if "draw" not in table["moves"]
                               else "draw"})
                table = receive(ann)
            while table["turn"] != 0:
                table = receive(ann)
        client.post("/api/rooms", json={"room": "Waiting", "name": "Di", "ruleset": "oh-hell"})
    again, client2 = server(tmp_path, takeover=3600)
    assert again.load_all() == []
    assert sorted(r.name for r in again.rooms.values()) == ["Friday", "Waiting"]
    with client2:
        with client2.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            restored = receive(ann)
    assert restored["version"] == table["version"] and restored["hand"] == table["hand"]
    assert restored["panels"] == table["panels"] and restored["moves"] == table["moves"]
    del rng


def test_an_uploaded_ruleset_its_problems_and_its_record(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        bad = client.post("/api/validate", json={"yaml": "extends: oh-hell\nscoring:\n  pionts: 3\n"}).json()
        assert bad["problems"] and bad["problems"][0]["line"] == 3 and "pionts" in bad["problems"][0]["message"]
        sneaky = client.post("/api/rooms", json={"room": "R", "name": "A", "yaml": "extends: /etc/passwd.yaml\n"})
        assert sneaky.status_code == 400
        assert "only a bundled ruleset" in sneaky.json()["problems"][0]["message"]
        assert sneaky.json()["problems"][0]["line"] == 1
        good = client.post("/api/validate", json={"yaml": HOUSE}).json()
        assert good["ok"] and good["name"] == "our-short-game"
        made = create(client, yaml=HOUSE, seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "start"})
            last = play_to_the_end({0: ann}, random.Random(1))
        assert last[0]["rounds"] == 2 and last[0]["uploaded"]
        events = record_of(client, last[0])
        text = client.get(f"/rooms/{made['id']}/ruleset.yaml").text
    assert text == HOUSE
    (tmp_path / "house.yaml").write_text(text)
    (tmp_path / "game.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    assert replay(tmp_path / "game.jsonl", str(tmp_path / "house.yaml")).complete


@pytest.mark.parametrize("message,answer", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "dance"}', "join a room first"),
    ("x" * 5000, "too long"),
    ('{"type": "join", "room": "nowhere", "name": "A"}', "no room"),
    ('{"type": "join", "room": ["x"], "name": "A"}', "no room"),
    ('{"type": "join", "room": "Friday", "name": "<b>"}', "printable"),
    ('{"type": "join", "room": "Friday", "name": {"a": 1}}', "must be text"),
    ("[" * 100000, "too long"),
])
def test_bad_messages_get_one_line_and_the_server_goes_on(tmp_path, message, answer):
    rooms, client = server(tmp_path)
    with client:
        create(client, ruleset="oh-hell")
        with client.websocket_connect("/ws") as ws:
            ws.send_text(message)
            reply = receive_json(ws)
            assert reply["type"] in ("error", "no-room") and answer in reply["message"]
            assert "Traceback" not in reply["message"] and "\n" not in reply["message"]
            ws.send_json({"type": "ping"})
            assert receive(ws, ("pong",))


def test_moves_that_are_not_moves(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "move", "move": "bid 1"})
            assert "not started" in receive(ann, ("refused",))["message"]
            ann.send_json({"type": "start"})
            table = receive(ann)
            while table["turn"] != 0:
                table = receive(ann)
            for move in ("", 12, "play ZZ", "bid -1" * 100, "bid 1e9", None):
                ann.send_json({"type": "move", "move": move})
                reply = receive(ann, ("refused", "error"))
                assert reply["message"] and "\n" not in reply["message"]
            ann.send_json({"type": "start"})
            assert "already started" in receive(ann, ("error",))["message"]


def test_limits_rate_size_and_room_capacity(tmp_path):
    from cardrules.web.rooms import Limits, Rooms
    from cardrules.web.server import make_app
    from starlette.testclient import TestClient

    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0, max_spectators=1, max_rooms=2))
    client = TestClient(make_app(rooms, rate=1, burst=3))
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "human"])
        assert client.post("/api/rooms", json={"room": "friday", "name": "B", "ruleset": "oh-hell"}).status_code == 400
        assert client.post("/api/rooms", json={"room": "Two", "name": "B", "ruleset": "oh-hell"}).status_code == 200
        big = client.post("/api/validate", content=b'{"yaml": "' + b"a" * (200 << 10) + b'"}')
        assert big.status_code == 413
        with client.websocket_connect("/ws") as ws:
            replies = []
            for _ in range(8):
                ws.send_json({"type": "ping"})
            for _ in range(8):
                replies.append(receive_json(ws)["type"])
            assert replies.count("pong") == 3 and "error" in replies
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
                client.websocket_connect("/ws") as c, client.websocket_connect("/ws") as d:
            join(a, token=made["token"])
            assert join(b, "B")["seat"] == 1
            assert join(c, "C")["seat"] == 2
            assert join(d, "D")["seat"] is None  # every seat taken: watching
            with client.websocket_connect("/ws") as e:
                assert "full" in join(e, "E")["message"]


def test_a_full_server_makes_way_by_closing_the_oldest_idle_room_never_one_in_use(tmp_path):
    """Rooms made and left (by mistake, or a hundred at a time) cannot fill the server: at
    --max-rooms the oldest room nobody is in, not started or over, makes way; rooms with
    someone in them, or a game in progress, never do."""
    rooms, client = server(tmp_path, max_rooms=2)
    data = tmp_path / "rooms"
    with client:
        one = create(client, ruleset="oh-hell", room="One", seats=["human", "human", "bot"])
        two = create(client, ruleset="oh-hell", room="Two", seats=["human", "human", "bot"])
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            join(a, token=one["token"], room="One")
            join(b, token=two["token"], room="Two")
            full = client.post("/api/rooms", json={"room": "Three", "name": "C", "ruleset": "oh-hell"})
            assert full.status_code == 400 and "as many rooms" in full.json()["error"]
        assert (data / f"{one['id']}.json").exists()
        three = client.post("/api/rooms", json={"room": "Three", "name": "C", "ruleset": "oh-hell"})
        assert three.status_code == 200
        assert rooms.get("One") is None and rooms.get("Two") is not None  # the oldest made way
        assert not (data / f"{one['id']}.json").exists()  # never started: nothing to keep


@pytest.mark.parametrize("settings,answer", [
    ({"ruleset": "oh-hell", "players": 10 ** 100}, "3 to 7 players"),
    ({"ruleset": "oh-hell", "players": "four"}, "3 to 7 players"),
    ({"ruleset": "oh-hell", "seats": ["bot", "human", "human"]}, "must be a person's"),
    ({"ruleset": "oh-hell", "seats": ["human", "wizard", "bot"]}, "not a seat kind"),
    ({"ruleset": "oh-hell", "seats": ["human"] * 9}, "3 to 7 players"),
    ({"ruleset": "../../etc/passwd"}, "no bundled ruleset"),
    ({"ruleset": "oh-hell", "mode": "turbo"}, "no mode"),
    ({"yaml": 12}, "must be text"),
    ({}, "choose a ruleset"),
    ({"ruleset": "oh-hell", "room": ""}, "room's name"),
    ({"ruleset": "oh-hell", "room": "x" * 41}, "up to 40"),
])
def test_rooms_that_cannot_be_made_say_why(tmp_path, settings, answer):
    rooms, client = server(tmp_path)
    with client:
        response = client.post("/api/rooms", json={"room": "Friday", "name": "Ann", **settings})
        assert response.status_code == 400 and answer in response.json()["error"]
        assert client.post("/api/rooms", content=b"\xff\xfe{").status_code == 400


def test_the_page_comes_with_its_rules_menu_filled_in(tmp_path):
    """The rules menu is never empty while a script fetches it: the page itself holds the
    options, and the catalogue the script reads, the same as /api/rulesets."""
    import re

    rooms, client = server(tmp_path)
    with client:
        page = client.get("/").text
        catalogue = client.get("/api/rulesets").json()
    menu = re.search(r'<select id="ruleset">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)"', menu) == [r["name"] for r in catalogue]
    assert '<option value="oh-hell" selected>' in menu
    data = re.search(r'<script type="application/json" id="rulesets-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(data) == catalogue


def test_a_meld_being_built_is_checked_against_the_rounds_rules(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="shanghai-isra", seats=["human", "bot", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "check", "cards": ["8H", "8S"]})
            assert "no melds to check" in receive(ann, ("error",))["message"]  # not started: no round yet
            ann.send_json({"type": "start"})
            receive(ann)
            ann.send_json({"type": "check", "cards": ["8H", "8S", "JK"]})
            assert receive(ann, ("check",)) == {"type": "check", "cards": ["8H", "8S", "JK"], "ok": True,
                                                "text": "a set"}
            ann.send_json({"type": "check", "cards": ["8H", "9S", "TD"]})
            answer = receive(ann, ("check",))
            assert answer["ok"] is False and answer["text"]
            ann.send_json({"type": "check", "cards": ["8H", "ZZ", "TD"]})
            assert receive(ann, ("check",))["ok"] is False
            for bad in ([], "8H 8S", ["8H"] * 61, [1, 2, 3]):
                ann.send_json({"type": "check", "cards": bad})
                assert "a list of 1 to 60 card codes" in receive(ann, ("error",))["message"]
        trick = create(client, room="Tricks", ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as bob:
            join(bob, token=trick["token"], room="Tricks")
            bob.send_json({"type": "start"})
            receive(bob)
            bob.send_json({"type": "check", "cards": ["8H", "8S", "8D"]})
            assert "no melds to check" in receive(bob, ("error",))["message"]
