"""The room's chat: plain text lines (trimmed, bounded, never markup) and a few reactions,
to everyone in the room, at a rate of their own (by address and by room: issue 35); those
who join later get the last lines."""

from __future__ import annotations

from web_helpers import create, proxied, receive, server


def _join(ws, **fields):
    ws.send_json({"type": "join", "room": "Friday", **fields})
    return receive(ws, ("welcome",))


def test_a_chat_line_reaches_everyone_in_the_room_as_plain_text(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "human", "bot"])
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            _join(ann, token=made["token"])
            assert receive(ann, ("chat",)) == {"type": "chat", "lines": [], "history": True}
            _join(bob, name="Bob")
            receive(bob, ("chat",))
            ann.send_json({"type": "chat", "text": "  hello   <b>Bob</b>\n "})
            for ws in (ann, bob):
                assert receive(ws, ("chat",))["lines"] == [{"from": "Ann", "seat": 0, "text": "hello <b>Bob</b>"}]
            bob.send_json({"type": "react", "emoji": "🎉"})
            assert receive(ann, ("reaction",)) == {"type": "reaction", "from": "Bob", "seat": 1, "emoji": "🎉"}
            for bad, why in (({"text": "x" * 201}, "at most 200 characters"), ({"text": "   "}, "say something"),
                             ({"text": 5}, "is text"), ({"text": "a\u0007b"}, "plain text")):
                ann.send_json({"type": "chat", **bad})
                assert why in receive(ann, ("error",))["message"]
            bob.send_json({"type": "react", "emoji": "<script>"})
            assert "a reaction is one of" in receive(bob, ("error",))["message"]
            with client.websocket_connect("/ws") as cy:  # a spectator, later: the last lines first
                _join(cy, name="Cy")
                history = receive(cy, ("chat",))
                assert history["history"] and [line["text"] for line in history["lines"]] == ["hello <b>Bob</b>"]
                cy.send_json({"type": "chat", "text": "nice"})
                assert receive(ann, ("chat",))["lines"][0]["from"] == "Cy (watching)"


def test_the_chat_has_a_rate_of_its_own(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            _join(ann, token=made["token"])
            receive(ann, ("chat",))
            for i in range(7):
                ann.send_json({"type": "chat", "text": f"line {i}"})
            said, refused = 0, 0
            while said + refused < 7:
                message = receive(ann, ("chat", "error"))
                said += message["type"] == "chat"
                refused += message["type"] == "error" and "too fast" in message["message"]
            assert said == 5 and refused == 2  # five at once, then one every two seconds


def _from(client, address: str):
    """A socket from ``address`` (through the proxy of ``proxied``)."""
    return client.websocket_connect("/ws", headers={"x-forwarded-for": address})


def _joined(ws, **fields):
    _join(ws, **fields)
    receive(ws, ("chat",))  # the history


def _say(ws, lines: int) -> tuple[int, list[str]]:
    """Send ``lines`` chat lines; how many were said and the refusals."""
    for i in range(lines):
        ws.send_json({"type": "chat", "text": f"line {i}"})
    said, refusals = 0, []
    while said + len(refusals) < lines:
        message = receive(ws, ("chat", "error"))
        if message["type"] == "chat":
            said += 1
        else:
            refusals.append(message["message"])
    return said, refusals


def test_reconnecting_gives_no_fresh_chat_burst(tmp_path):
    """Five lines at once from an address, however many connections it opens one after
    the other (each used to have five of its own: 161 connections said 805 lines in 10 s)."""
    rooms, client = proxied(tmp_path)
    with client:
        create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        said = 0
        for _ in range(6):
            with _from(client, "203.0.113.7") as ws:
                _joined(ws, name="Eve")
                count, refusals = _say(ws, 5)
                said += count
                assert all("too fast" in r for r in refusals)
        assert said <= 6  # five at once, then one every two seconds (this takes about a second)
        with _from(client, "198.51.100.9") as ws:  # another address has its own five
            _joined(ws, name="Bob")
            assert _say(ws, 5) == (5, [])


def test_a_room_has_a_chat_rate_of_its_own(tmp_path):
    """Many addresses at once cannot flood one room: the room says at most ten lines at once."""
    rooms, client = proxied(tmp_path)
    with client:
        create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        said, refusals = 0, []
        for number in range(4):
            with _from(client, f"203.0.113.{number + 1}") as ws:
                _joined(ws, name=f"Spectator {number}")
                count, refused = _say(ws, 5)
                said, refusals = said + count, refusals + refused
        assert said <= 11 and len(refusals) >= 9
        assert any("this room is chatting too fast" in r for r in refusals)
