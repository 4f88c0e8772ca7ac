"""`cardrules serve` against what a hostile client or a damaged data folder hands it
(issue 19): uploads checked off the event loop within limits, rate limits by address,
request heads timed, security headers, room files read within bounds and set aside,
lone surrogates at every entrance, games nobody is in closed, finished ones kept."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from cardrules.interpreter.saves import read_save
from cardrules.interpreter.errors import RulesetError
from cardrules.interpreter.record import replay
from cardrules.web.checks import TOO_BIG, TOO_BUSY, TOO_LONG, Checker, CheckRefused
from cardrules.web.guards import AddressBuckets
from cardrules.web.rooms import Limits, Rooms, load_upload
from cardrules.web.server import make_app
from web_helpers import TestClient, create, play_to_the_end, receive, receive_json, serve_for_real, server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from hammer import big_ruleset  # noqa: E402

SHORT = """extends: oh-hell
name: two-short-rounds
deal:
  hand_size: "[3, 2]"
"""


def join(ws, name=None, token=None, room="Friday"):
    ws.send_json({"type": "join", "room": room, "name": name, "token": token})
    return receive(ws, ("welcome", "error", "no-room"))


def one_line(text: str) -> bool:
    return bool(text) and "\n" not in text and "Traceback" not in text


# --- 1. uploads are checked in worker processes, within limits ------------------------------
def test_checking_a_large_upload_leaves_the_event_loop_free(tmp_path):
    """While the server checks a 62 kB ruleset (about a second of work), another
    client's pings are answered at once: before, none was until the check ended."""
    rooms, client = server(tmp_path)
    with client:
        client.post("/api/validate", json={"yaml": SHORT})  # the worker is started
        create(client, ruleset="oh-hell")
        with client.websocket_connect("/ws") as ws:
            took: list[float] = []

            def check() -> None:
                began = time.perf_counter()
                response = client.post("/api/validate", json={"yaml": big_ruleset(1)})
                took.append(time.perf_counter() - began)
                assert response.status_code == 200 and response.json()["ok"]

            checking = threading.Thread(target=check)
            checking.start()
            time.sleep(0.05)
            round_trips = []
            while checking.is_alive():
                sent = time.perf_counter()
                ws.send_json({"type": "ping"})
                receive(ws, ("pong",))
                if checking.is_alive():
                    round_trips.append(time.perf_counter() - sent)
                time.sleep(0.02)
            checking.join()
    assert len(round_trips) >= 3, (took, round_trips)
    assert max(round_trips) < took[0] / 3, (took, round_trips)


def test_a_check_past_its_time_or_memory_is_one_line_and_the_server_goes_on(tmp_path):
    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    for checker, answers in ((Checker(cpu_seconds=0.2), ((TOO_LONG, 503),)),
                             (Checker(memory=2 << 20), ((TOO_BIG, 422), (TOO_LONG, 503)))):
        client = TestClient(make_app(rooms, checker=checker))
        with client:
            response = client.post("/api/validate", json={"yaml": big_ruleset(2)})
            assert (response.json()["error"], response.status_code) in answers
            if len(answers) == 1:  # making a room checks the same way
                response = client.post("/api/rooms", json={"room": "R", "name": "A", "yaml": big_ruleset(3)})
                assert (response.json()["error"], response.status_code) in answers
            assert client.post("/api/validate", json={"yaml": SHORT}).json()["ok"]  # a fresh worker
            assert len(checker.pids) == 1
        assert checker.pids == []  # the server's end ends its workers


def test_a_clock_never_judges_an_upload(tmp_path):
    """The checks' times guard the server: a check a busy machine's clock stopped was
    answered 422, "the ruleset took too long to check", of a ruleset with nothing wrong
    (the wall clock of a starved worker, or the processor time of a slow one).  It is
    503 now, saying it is no verdict; the ruleset's own bounds are counted."""
    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    for checker, answer in ((Checker(wall_seconds=0.001), TOO_BUSY), (Checker(cpu_seconds=0.01), TOO_LONG)):
        with TestClient(make_app(rooms, checker=checker)) as client:
            response = client.post("/api/validate", json={"yaml": big_ruleset(4)})
            assert response.status_code == 503 and response.json()["error"] == answer
            assert "says nothing of the ruleset" in answer or "try again" in answer
    with TestClient(make_app(rooms)) as client:
        assert client.post("/api/validate", json={"yaml": big_ruleset(4)}).json()["ok"]


def test_checks_in_flight_are_bounded():
    """At most ``workers`` checks run and ``queue`` wait; more are refused at once, and
    one text asked for again while it is being checked is checked once."""
    async def run():
        checker = Checker(workers=1, queue=1)
        try:
            distinct = await asyncio.gather(*(checker.check(big_ruleset(10 + i)) for i in range(4)),
                                            return_exceptions=True)
            same = await asyncio.gather(*(checker.check(big_ruleset(20)) for i in range(5)), return_exceptions=True)
        finally:
            await checker.close()
        return distinct, same

    distinct, same = asyncio.run(run())
    refused = [r for r in distinct if isinstance(r, CheckRefused)]
    assert len(refused) == 2 and all(r.status == 503 and "busy" in str(r) for r in refused)
    assert all(isinstance(r, dict) and r["ok"] for r in same)


def test_one_address_checks_one_ruleset_at_a_time(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        start = threading.Barrier(2)
        statuses = []

        def post(n):
            start.wait()
            statuses.append(client.post("/api/validate", json={"yaml": big_ruleset(30 + n)}))

        threads = [threading.Thread(target=post, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(r.status_code for r in statuses) == [200, 429]
    assert "one ruleset at a time" in next(r for r in statuses if r.status_code == 429).json()["error"]


# --- 2. HTTP requests are rate-limited by address --------------------------------------------
def test_http_requests_past_the_rate_get_429_and_one_line(tmp_path):
    rooms = Rooms(tmp_path / "rooms", Limits(bot_delay=0))
    with TestClient(make_app(rooms, http_rate=1, http_burst=3)) as client:
        answers = [client.get("/api/rooms/x") for _ in range(5)]
        assert [a.status_code for a in answers[:3]] == [200, 200, 200]
        assert answers[4].status_code == 429 and answers[4].headers["retry-after"] == "1"
        assert one_line(answers[4].json()["error"]) and "too many requests" in answers[4].json()["error"]
        assert client.post("/api/validate", json={"yaml": SHORT}).status_code == 429  # the API is covered
        with client.websocket_connect("/ws") as ws:  # the socket has its own limit
            ws.send_json({"type": "ping"})
            assert receive(ws, ("pong",))
        time.sleep(1.1)
        assert client.get("/api/rooms/x").status_code == 200  # the bucket refills


def test_each_address_has_its_own_bucket():
    buckets = AddressBuckets(rate=0.001, burst=2)
    assert [buckets.take("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert buckets.take("10.0.0.2")


# --- 3. request heads must arrive in time (a real uvicorn server) ----------------------------
def test_connections_with_unfinished_headers_are_closed_and_others_still_served(tmp_path):
    process, port = serve_for_real(tmp_path / "rooms", "--head-timeout", "0.5")
    sockets = []
    try:
        for number in range(150):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if number % 3:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # half a head ...
            sockets.append(s)  # ... or nothing at all
        began = time.perf_counter()
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).status == 200
        assert time.perf_counter() - began < 3.0  # served while they hang (a busy machine is slow)
        time.sleep(0.7)
        closed = 0
        for s in sockets:
            s.settimeout(3)
            answer = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
            closed += answer.startswith(b"HTTP/1.1 408") and answer.endswith(b"took too long to arrive\n")
        assert closed == len(sockets)
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/x", timeout=5).status == 200
    finally:
        for s in sockets:
            s.close()
        process.terminate()
        _, stderr = process.communicate(timeout=10)
    assert b"Traceback" not in stderr, stderr.decode()[-2000:]


# --- 4. security headers on every HTTP response -----------------------------------------------
@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/rulesets", "/api/rooms/x", "/rooms/0/record",
                                  "/nowhere"])
def test_every_response_has_the_security_headers(tmp_path, path):
    rooms, client = server(tmp_path)
    with client:
        headers = client.get(path).headers
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "connect-src 'self' ws: wss:" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer" and headers["x-frame-options"] == "DENY"


# --- 5. room files are read within bounds; a bad one is set aside ----------------------------
def _started_room(rooms: Rooms, name: str) -> str:
    room, _ = rooms.create(room=name, name="Ann", ruleset="oh-hell", seats=["human", "bot", "bot"], seed=3)
    room.start(0)
    return room.file_id


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` by name: a regular file's bytes, or what else it is."""
    out: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in files:
            path = Path(root) / name
            out[name] = ("link to " + os.readlink(path) if path.is_symlink() else "fifo" if path.is_fifo()
                         else path.read_bytes())
    return out


def test_one_bad_room_file_never_stops_the_others(tmp_path):
    data = tmp_path / "rooms"
    rooms = Rooms(data, Limits(bot_delay=0))
    good = _started_room(rooms, "Good")
    rooms.create(room="Lobby", name="Di", ruleset="oh-hell")
    few_seats, odd_kind = _started_room(rooms, "Few"), _started_room(rooms, "Odd")
    copy_of_good = "c" * 20
    shutil.copy(data / f"{good}.json", data / f"{copy_of_good}.json")
    os.utime(data / f"{copy_of_good}.json", (1, 1))  # older: the original is kept
    meta = json.loads((data / f"{few_seats}.json").read_text())
    meta["seats"] = meta["seats"][:2]
    (data / f"{few_seats}.json").write_text(json.dumps(meta))
    meta = json.loads((data / f"{odd_kind}.json").read_text())
    meta["seats"][1]["kind"] = "wizard"
    (data / f"{odd_kind}.json").write_text(json.dumps(meta))
    (data / f"{'d' * 20}.json").write_text("[" * 100_000 + "]" * 100_000)
    (data / f"{'e' * 20}.json").symlink_to("/dev/zero")
    os.mkfifo(data / f"{'f' * 20}.json")
    (data / f"{'a' * 20}.json").write_bytes(b'{"format": "cardrules-room", "name": "\xff"}')
    (data / f"{'b' * 20}.json").write_text(" " * (2 << 20))
    surrogate = dict(json.loads((data / f"{good}.json").read_text()), name="Sur", ruleset=None,
                     ruleset_text="extends: oh-hell\nname: x\ud800\n", started=False)
    (data / f"{'9' * 20}.json").write_text(json.dumps(surrogate))
    (data / "notes.json").write_text("{}")
    before = _tree(data)

    began = time.perf_counter()
    again = Rooms(data, Limits(bot_delay=0))
    messages = again.load_all()
    assert time.perf_counter() - began < 10
    assert sorted(r.name for r in again.rooms.values()) == ["Good", "Lobby"]
    assert all(one_line(m) for m in messages) and len(messages) == 10, messages
    said = "\n".join(messages)
    for file_id, reason in ((copy_of_good, "which is newer"), (few_seats, "2 seats for 3 players"),
                            (odd_kind, "wizard"), ("d" * 20, "nested more than"), ("e" * 20, "symbolic link"),
                            ("f" * 20, "not a regular file"), ("a" * 20, "not UTF-8"), ("b" * 20, "larger than"),
                            ("9" * 20, "lone surrogate")):
        line = next(m for m in messages if m.startswith(f"{file_id}.json"))
        assert reason in line and "moved to rejected/" in line, line
        assert not os.path.lexists(data / f"{file_id}.json")
    assert "notes.json: left where it is" in said and (data / "notes.json").exists()
    assert (data / "rejected" / f"{few_seats}.jsonl").exists()  # a room's save goes with it
    assert _tree(data) == before  # everything is still there, moved or not


def test_a_server_process_starts_on_a_damaged_data_folder(tmp_path):
    data = tmp_path / "rooms"
    rooms = Rooms(data, Limits(bot_delay=0))
    good = _started_room(rooms, "Good")
    (data / f"{'d' * 20}.json").write_text("{" * 50_000)
    os.mkfifo(data / f"{'f' * 20}.json")
    process, port = serve_for_real(data)
    try:
        info = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/good", timeout=5).read())
        assert info["exists"] and info["started"]
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=10)
    text = stderr.decode()
    assert "Traceback" not in text and text.count("could not be brought back") == 2, text
    assert (data / good).with_suffix(".json").exists()


# --- 6. lone surrogates at every entrance -------------------------------------------------------
def test_a_lone_surrogate_in_an_upload_is_a_problem_at_its_line_and_column():
    with pytest.raises(RulesetError) as caught:
        load_upload("extends: oh-hell\nname: a\ud800b\n")
    problem = caught.value.problems[0]
    assert (problem.line, problem.column) == (2, 8) and "surrogate" in problem.message


@pytest.mark.parametrize("path,body", [
    ("/api/validate", b'{"yaml": "extends: oh-hell\\nname: a\\ud800b\\n"}'),
    ("/api/rooms", b'{"room": "R\\udfff", "name": "A", "ruleset": "oh-hell"}'),
    ("/api/rooms", b'{"room": "R", "name": "A", "yaml": "extends: oh-hell\\n# \\ud83d\\n"}'),
    ("/api/rooms", b'{"room": "R", "name": "A", "ruleset": "oh-hell", "seats": ["human", "b\\ud800"]}'),
    ("/api/rooms", b'{"room": "R", "name": "A", "ruleset": "oh-hell", "\\ud800": 1}'),
    ("/api/validate", b'{"yaml": "\xed\xa0\x80"}'),  # a surrogate encoded as UTF-8 bytes: not UTF-8
])
def test_a_lone_surrogate_in_a_request_is_one_line_not_500(tmp_path, path, body):
    rooms, client = server(tmp_path)
    with client:
        response = client.post(path, content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400 and one_line(response.json()["error"])
        assert "surrogate" in response.json()["error"] or "not UTF-8" in response.json()["error"]
        assert client.get("/api/rooms/R").json() == {"exists": False}


@pytest.mark.parametrize("message", [
    '{"type": "join", "room": "\\ud800", "name": "A"}',
    '{"type": "join", "room": "Friday", "name": "A\\udc00"}',
    '{"type": "move", "move": "play \\ud800"}',
    '{"type": "\\ud800"}',
])
def test_a_lone_surrogate_in_a_message_is_answered_and_the_connection_stays(tmp_path, message):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ws:
            if '"move"' in message:
                join(ws, token=made["token"])
                ws.send_json({"type": "start"})
            ws.send_text(message)
            reply = receive_json(ws, timeout=5)
            while reply["type"] not in ("error", "no-room", "refused"):
                reply = receive_json(ws, timeout=5)
            assert reply["type"] == "error" and "surrogate" in reply["message"] and one_line(reply["message"])
            ws.send_json({"type": "ping"})
            assert receive(ws, ("pong",))


# --- 7. games nobody is in are closed; finished ones keep their records -------------------
def test_a_started_game_nobody_is_in_is_closed_after_the_idle_time_and_its_files_kept(tmp_path):
    rooms, client = server(tmp_path, takeover=3600, idle_close=0.3)
    data = tmp_path / "rooms"
    with client:
        made = create(client, ruleset="oh-hell", seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "start"})
            receive(ann)
            time.sleep(0.4)
            rooms.sweep()
            assert rooms.get("Friday") is not None  # someone is in it
        time.sleep(0.1)
        rooms.sweep()
        assert rooms.get("Friday") is not None  # not yet
        time.sleep(0.3)
        rooms.sweep()
        assert rooms.get("Friday") is None
        assert not (data / f"{made['id']}.json").exists()
        saved = read_save(data / "closed" / f"{made['id']}.jsonl")  # the game so far, kept
        assert saved.header["seats"] == ["human", "bot", "bot"]
        assert json.loads((data / "closed" / f"{made['id']}.json").read_text())["name"] == "Friday"
        again = create(client, ruleset="oh-hell")  # the name is free again, under a new file
        assert again["id"] != made["id"]
    assert Rooms(data).load_all() == []  # a restart does not bring the closed game back


def test_a_finished_room_that_makes_way_keeps_its_files_and_its_record(tmp_path):
    rooms, client = server(tmp_path, max_rooms=1)
    data = tmp_path / "rooms"
    with client:
        made = create(client, yaml=SHORT, seats=["human", "bot", "bot"])
        with client.websocket_connect("/ws") as ann:
            join(ann, token=made["token"])
            ann.send_json({"type": "start"})
            last = play_to_the_end({0: ann}, random.Random(3))
        record = client.get(last[0]["record"]).text
        create(client, room="Next", ruleset="oh-hell")  # the finished room makes way
        assert rooms.get("Friday") is None
        for suffix in (".json", ".jsonl", ".record.jsonl"):
            assert (data / "finished" / f"{made['id']}{suffix}").exists()
        assert client.get(last[0]["record"]).text == record  # the download still works
        assert client.get("/rooms/../../etc/passwd/record").status_code == 404
    (tmp_path / "game.jsonl").write_text(record)
    (tmp_path / "house.yaml").write_text(SHORT)
    assert replay(tmp_path / "game.jsonl", str(tmp_path / "house.yaml")).complete
