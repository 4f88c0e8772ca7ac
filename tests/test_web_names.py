"""Names and chat lines are compared and checked by what they show (issue 35): "Ann" and
"Ann" with an invisible Hangul filler after it were two people; a filler alone was a
name, and a chat line of fillers or blank braille was said; while a person's emoji,
joined with zero-width joiners, was refused as "not printable"."""

from __future__ import annotations

import json

import pytest

from cardrules.interpreter.record import replay
from cardrules.web.rooms import Limits, Rooms, RoomError
from web_helpers import create, receive, server

WOMAN_TECHNOLOGIST = "\U0001F469\u200D\U0001F4BB"  # 👩‍💻: woman, zero-width joiner, laptop
FAMILY = "\U0001F468\u200D\U0001F469\u200D\U0001F467"  # 👨‍👩‍👧
ENGLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"  # a flag of tag characters
INVISIBLE = ["\u3164", "\u115F", "\u1160", "\uFFA0", "\u2800", "\u200B", "\u2060", "\uFEFF", "\u3164\u2800 \u115F",
             "\U000E0041\U000E0042"]


def _join(ws, **fields):
    ws.send_json({"type": "join", "room": "Friday", **fields})
    return receive(ws, ("welcome", "error"))


@pytest.mark.parametrize("lookalike,why", [
    ("Ann\u3164", "already called"), ("Ann\u115F", "already called"), ("\u3164Ann", "already called"),
    ("Ann\u2800", "already called"), ("Ann\uFE0F", "already called"), ("ANN", "already called"),
    ("\uFF21\uFF4E\uFF4E", "already called"), ("Ann\u3164Lee", "already called"),  # a filler shows as a space
    ("Ann\u200B", "printable characters"), ("A\u2060nn", "printable characters")])  # format characters
def test_a_name_that_looks_like_one_taken_is_refused(tmp_path, lookalike, why):
    rooms, client = server(tmp_path)
    with client:
        create(client, ruleset="oh-hell", seats=["human", "human", "human", "bot"])  # Ann's room
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as ws:
            if "Lee" in lookalike:
                _join(ann, name="Ann Lee")
            answer = _join(ws, name=lookalike)
            assert answer["type"] == "error" and why in answer["message"], answer


@pytest.mark.parametrize("blank", INVISIBLE)
def test_a_name_or_a_chat_line_that_shows_nothing_is_refused(tmp_path, blank):
    rooms, client = server(tmp_path)
    with client:
        response = client.post("/api/rooms", json={"room": "Friday", "name": blank, "ruleset": "oh-hell"})
        assert response.status_code == 400 and "visible" in response.json()["error"], response.json()
        response = client.post("/api/rooms", json={"room": blank, "name": "Ann", "ruleset": "oh-hell"})
        assert response.status_code == 400 and "visible" in response.json()["error"], response.json()
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"])
        with client.websocket_connect("/ws") as ws:
            answer = _join(ws, name=blank)
            assert answer["type"] == "error" and "visible" in answer["message"], answer
        with client.websocket_connect("/ws") as ws:
            _join(ws, token=made["token"])
            receive(ws, ("chat",))
            ws.send_json({"type": "chat", "text": f" {blank} "})
            assert "say something" in receive(ws, ("error",))["message"]


def test_a_room_name_is_the_same_room_whatever_invisible_it_carries(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        create(client, ruleset="oh-hell")
        response = client.post("/api/rooms", json={"room": "Friday\u3164", "name": "Bob", "ruleset": "oh-hell"})
        assert response.status_code == 400 and "already a room called" in response.json()["error"]
        assert client.get("/api/rooms/FRIDAY\u200B").json()["exists"]


def test_emoji_joined_by_zero_width_joiners_are_names_and_chat(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"], name=WOMAN_TECHNOLOGIST)
        with client.websocket_connect("/ws") as me, client.websocket_connect("/ws") as other:
            assert _join(me, token=made["token"])["type"] == "welcome"
            receive(me, ("chat",))
            assert _join(other, name=f"{FAMILY} {ENGLAND}")["type"] == "welcome"
            receive(other, ("chat",))
            other.send_json({"type": "chat", "text": f"hello {WOMAN_TECHNOLOGIST} {ENGLAND}"})
            line = receive(me, ("chat",))["lines"][0]
            assert line == {"from": f"{FAMILY} {ENGLAND}", "seat": 1, "text": f"hello {WOMAN_TECHNOLOGIST} {ENGLAND}"}
            for hidden in ("a\u202Eb", "a\u2066b", "a\U000E0041"):  # a bidi override, an isolate, a tag alone
                other.send_json({"type": "chat", "text": hidden})
                assert "plain text" in receive(other, ("error",))["message"]
            me.send_json({"type": "start"})
            table = receive(me)
            assert [seat["name"] for seat in table["seats"]][:2] == [WOMAN_TECHNOLOGIST, f"{FAMILY} {ENGLAND}"]


def test_names_are_kept_in_their_normal_form_and_their_record_replays(tmp_path):
    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    room, _ = rooms.create(room="\uFF26riday", name="\uFF21nn \u2162", ruleset="oh-hell",
                           seats=["human", "bot", "bot"])
    assert room.name == "Friday" and room.seats[0].name == "Ann III"  # NFKC: fullwidth letters, the numeral III
    with pytest.raises(RoomError, match="already a room called friday"):
        rooms.create(room="friday", name="Bob", ruleset="oh-hell")
    emoji, _ = rooms.create(room="Emoji", name=WOMAN_TECHNOLOGIST, ruleset="oh-hell", seats=["human", "bot", "bot"])
    emoji.start(0)
    while not emoji.is_over:
        emoji.move(0, str(emoji.state.legal_actions()[0]))
    path = tmp_path / "game.jsonl"
    path.write_text(emoji.record_text())
    assert json.loads(path.read_text().splitlines()[0])["players"][0] == WOMAN_TECHNOLOGIST
    assert replay(path).complete
    again = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    assert again.load_all() == [] and again.get("Emoji").seats[0].name == WOMAN_TECHNOLOGIST


def test_a_room_file_of_an_earlier_release_with_a_name_now_refused_still_comes_back(tmp_path):
    """Names are checked as they come in; one kept by an earlier release stays as it was."""
    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    room, _ = rooms.create(room="Old", name="Ann", ruleset="oh-hell", seats=["human", "human", "bot"])
    path = tmp_path / "rooms" / f"{room.file_id}.json"
    meta = json.loads(path.read_text())
    meta["seats"][1]["name"] = "\u3164"  # what an earlier release let in
    meta["name"] = "\uFF2Fld"
    path.write_text(json.dumps(meta))
    again = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    assert again.load_all() == []
    assert again.get("Old").seats[1].name == "\u3164"
