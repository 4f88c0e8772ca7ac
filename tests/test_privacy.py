"""The engine decides who sees what (interpreter/privacy.py): each seat's and a
spectator's views of the events hold only what that viewer may know, and the terminal
and the browser narrate from those views alone.

The first tests are the leak found from outside (issue 19): with the trump hidden during
the bidding (`information.trump_while_bidding: false`), every seat and spectator was told
the trump and the turned card in the round's heading, and the record wrote the trump
before the bids."""

from __future__ import annotations

import random

import pytest

from cardrules.narration.render import Renderer
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.privacy import Seen
from cardrules.interpreter.ruleset import load_ruleset, ruleset_from_text

from web_helpers import create, hidden_leaks, play_to_the_end, replayed, server

HIDDEN_TRUMP = "extends: oh-hell\nname: oh-hell-hidden-trump\ninformation:\n  trump_while_bidding: false\n"
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs", "♠", "♥", "♦", "♣")


def _bidding(text: str = HIDDEN_TRUMP, seed: int = 1):
    state = new_game(ruleset_from_text(text), 4, seed)
    state.apply(state.chance_action())
    return state


def test_a_hidden_trump_is_in_no_view_while_bidding():
    state = _bidding()
    assert state.upcard is not None
    for viewer in (0, 1, 2, 3, None):
        views = state.event_views(viewer)
        assert [v["event"] for v in views] == ["game", "deal"]
        assert "upcard" not in views[1]
        obs = state.observation(viewer)
        assert obs.trump is None and obs.upcard is None and obs.trump_hidden
    state.apply(state.legal_actions()[0])  # one bid made: still hidden
    assert all(v["event"] != "trump" for v in state.event_views(2))


def test_a_hidden_trump_is_recorded_and_shown_after_the_last_bid():
    state = _bidding()
    turned = state.upcard
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    kinds = [e["event"] for e in state.events]
    assert kinds[:7] == ["game", "deal", "bid", "bid", "bid", "bid", "trump"]
    trump = state.events[6]
    from cardrules.interpreter.cards import NAMES, SUITS
    assert trump["upcard"] == NAMES[turned] and trump["suit"] == SUITS[turned // 13]
    for viewer in (0, None):
        assert state.event_views(viewer)[6] == trump  # now everyone sees it
        assert state.observation(viewer).trump == turned // 13


def test_the_terminal_heading_keeps_a_hidden_trump_hidden():
    state = _bidding()
    for viewer in (0, None):
        renderer = Renderer(state.names, state.rules, quiet=True, private_seat=viewer)
        renderer.follow(state)
        title = renderer.round_title(1)
        assert "shown after the bidding" in title and "turned" not in title
        assert not any(word in title for word in SUIT_WORDS), title
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    renderer.follow(state)
    assert "turned" in renderer.round_title(1)


def test_a_browser_room_keeps_a_hidden_trump_hidden(tmp_path):
    rooms, client = server(tmp_path)
    with client:
        made = create(client, yaml=HIDDEN_TRUMP, seats=["human", "bot", "bot", "bot"])
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as watcher:
            ann.send_json({"type": "join", "room": "Friday", "token": made["token"]})
            ann.send_json({"type": "start"})
            watcher.send_json({"type": "join", "room": "friday", "name": "Cy"})
            seen: dict = {}
            last = play_to_the_end({0: ann, "watcher": watcher}, random.Random(5), seen)
    game = replayed(client, last[0], tmp_path)
    checked = 0
    for key, seat in ((0, 0), ("watcher", None)):
        assert hidden_leaks(seen[key], seat, game) == []  # the turned card is a card: never shown early
        for message in seen[key]:
            if message["type"] != "table" or message["phase"] != "bidding":
                continue
            checked += 1
            assert not any(word in message["heading"] for word in SUIT_WORDS), message["heading"]
            trump = next(item for panel in message["panels"] if panel["kind"] == "facts"
                         for item in panel["items"] if item["label"] == "Trump")
            assert trump["value"] == "hidden until the bidding is over" and trump["cards"] == []
    assert checked > 10


def test_bids_made_at_once_are_held_back_until_all_are_made():
    state = _bidding("extends: oh-hell\nname: at-once\nbidding:\n  order: simultaneous\n")
    for made in range(3):
        state.apply(state.legal_actions()[0])
        for viewer in (0, 1, 2, 3, None):
            assert all(v["event"] != "bid" for v in state.event_views(viewer))
    state.apply(state.legal_actions()[0])
    assert sum(v["event"] == "bid" for v in state.event_views(None)) == 4


def test_a_card_drawn_from_the_stock_is_seen_by_its_drawer_alone():
    rules = load_ruleset("shanghai-isra")
    state = new_game(rules, 4, 3)
    play_out(state, make_policies(rules, ["bot"] * 4, 3))
    events = state.events
    drawn = [i for i, e in enumerate(events) if e["event"] == "draw" and e["from"] == "stock"]
    taken = [i for i, e in enumerate(events) if e["event"] == "draw" and e["from"] == "discard"]
    assert drawn and taken
    views = {viewer: state.event_views(viewer) for viewer in (0, 1, None)}
    for i in drawn:
        drawer = events[i]["seat"]
        for viewer, seen in views.items():
            assert seen[i]["card"] == (events[i]["card"] if viewer == drawer else None)
    for i in taken:
        assert all(seen[i]["card"] == events[i]["card"] for seen in views.values())
    buys = [i for i, e in enumerate(events) if e["event"] == "buy" and e["penalty"]]
    for i in buys:
        other = (events[i]["seat"] + 1) % 4
        assert state.event_views(other)[i]["penalty"] == [None] * len(events[i]["penalty"])
        assert state.event_views(events[i]["seat"])[i]["penalty"] == events[i]["penalty"]


def test_the_hands_a_rummy_score_line_records_are_in_no_view():
    # onze scores the goer's hand alone: the others' cards stay unseen at the round's end,
    # and the record names them only so that a replay finds a lost line (test_lost_lines.py)
    from helpers import play_until

    rules = load_ruleset("onze")
    state = new_game(rules, 4, 5)
    play_until(state, make_policies(rules, ["bot"] * 4, 5), lambda s: s.events[-1]["event"] == "score")
    score = len(state.events) - 1
    codes = state.setup.pack.codes
    held = [sorted(state.hands[s]) for s in range(4)]
    assert state.events[score]["hands"] == [[codes[c] for c in hand] for hand in held]
    assert sum(map(len, held)) > 10
    for viewer in (0, 1, 2, 3, None):
        view = state.event_views(viewer)[score]
        assert view == {k: v for k, v in state.events[score].items() if k != "hands"}
        if viewer is not None:
            assert sorted(state.observation(viewer).hand) == held[viewer]  # its own, as before


def test_each_seat_sees_its_own_hand_in_the_deal_and_nobody_the_seed():
    state = _bidding("extends: oh-hell\nname: plain\n", seed=9)
    deal = state.events[1]
    for viewer in (0, 2):
        view = state.event_views(viewer)
        assert "seed" not in view[0]
        hands = view[1]["hands"]
        assert hands[viewer] == deal["hands"][viewer]
        assert all(h == [None] * len(deal["hands"][s]) for s, h in enumerate(hands) if s != viewer)
    assert all(all(c is None for c in hand) for hand in state.event_views(None)[1]["hands"])


@pytest.mark.parametrize("rule", ['own_hand: "false"', 'others_hands: "true"'])
def test_rounds_that_hide_or_show_hands_keep_the_deal_out_of_the_views(rule):
    state = _bidding(f"extends: oh-hell\nname: indian\ninformation:\n  {rule}\n")
    assert all("hands" not in state.event_views(viewer)[1] for viewer in (0, 1, None))


def test_a_family_that_declares_nothing_shows_only_who_acted(monkeypatch):
    from helpers import DATA
    from cardrules.interpreter import families

    monkeypatch.syspath_prepend(str(DATA / "plugin"))  # the plugin family's module, registered by hand
    from cardrules_highcard import FAMILY, HighCard

    class Silent(HighCard):
        name = "silent-high-card"
        event_visibility = None

    families.register(Silent())
    try:
        rules = ruleset_from_text("name: silent\nfamily: silent-high-card\nplayers: {min: 2, max: 4}\n"
                                  "winner: highest\ndeal:\n  hand_size: 3\nhigh_card:\n  points: 1\n")
        state = new_game(rules, 2, 0)
        play_out(state, make_policies(rules, ["random", "random"], 0))
        lays = [v for v in state.event_views(0) if v["event"] == "lay"]
        assert lays and all(set(v) == {"event", "round", "seat"} for v in lays)
    finally:
        families.unregister("silent-high-card")
    assert FAMILY.event_visibility(rules)["lay"]["card"] is Seen.ALL


def test_a_clone_keeps_its_own_audiences():
    state = _bidding(HIDDEN_TRUMP)
    copy = state.clone()
    for _ in range(4):
        copy.apply(copy.legal_actions()[0])
    assert state.turn != CHANCE and "upcard" not in state.event_views(0)[1]
    assert [e["event"] for e in copy.event_views(0)][-1] == "trump"


def test_a_named_trump_cannot_be_hidden_during_the_bidding(run_cli, tmp_path):
    path = tmp_path / "named-hidden.yaml"
    path.write_text("extends: oh-hell\nname: named-hidden\ntrump:\n  suit: chosen\n"
                    "information:\n  trump_while_bidding: false\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "named-hidden.yaml:6:24: a trump that a player names before the bidding cannot be hidden" in result.output
