"""direction: counter-clockwise: the turn goes to the right (seat - 1) for the deal, the
bids, the calls, the plays and the draws, in both families; the deal passes to the right
and the dealer's right acts first unless the ruleset says otherwise; buying.priority
counts from any seat either way.  Played as a player would see it: from the records."""

from __future__ import annotations

import textwrap

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.explain import explain
from cardrules.interpreter.families.contract_rummy.actions import BUY, DRAW, PASS
from cardrules.interpreter.families.contract_rummy.actions import CutOutcome
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record


def ruleset(tmp_path, text, name="variant"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def counter_clockwise(tmp_path, parent, extra=""):
    return ruleset(tmp_path, f"extends: {parent}\nname: {parent}-to-the-right\ndirection: counter-clockwise\n"
                   + textwrap.dedent(extra), name=f"{parent}-ccw")


def cards(text):
    return tuple(card(c) for c in text.split())


def by_round(events, kind):
    out = {}
    for e in events:
        if e["event"] == kind:
            out.setdefault(e["round"], []).append(e)
    return out


def play_and_replay(tmp_path, path, seats, seed):
    rules = load_ruleset(str(path))
    state = new_game(rules, len(seats), seed)
    play_out(state, make_policies(rules, seats, seed))
    record = tmp_path / f"game-{seed}.jsonl"
    save_record(state, record)
    assert replay(record, str(path)).state.totals == state.totals
    return state


# --- trick-taking -------------------------------------------------------------------------------
TRICK_PARENTS = ["hearts", "euchre", "estimation-whist", "five-hundred", "skull-king", "bid-whist"]


@pytest.mark.parametrize("parent", TRICK_PARENTS)
def test_tricks_are_played_to_the_right_and_the_deal_passes_right(tmp_path, parent):
    path = counter_clockwise(tmp_path, parent)
    for seed, seats in ((1, ["bot"] * 4), (2, ["random", "bot", "random", "bot"])):
        state = play_and_replay(tmp_path, path, seats, seed)
        players = state.players
        events = state.events
        deals = [e for e in events if e["event"] == "deal"]
        for before, after in zip(deals, deals[1:]):
            assert after["dealer"] in ((before["dealer"] - 1) % players, before["dealer"])  # (a thrown-in hand)
        for number, plays in by_round(events, "play").items():
            tricks: dict[int, list[int]] = {}
            for p in plays:
                tricks.setdefault(p["trick"], []).append(p["seat"])
            for seats_in_order in tricks.values():
                playing = sorted(seats_in_order)  # a seat sitting out (going alone) plays no card
                for a, b in zip(seats_in_order, seats_in_order[1:]):
                    nxt = (a - 1) % players
                    while nxt not in playing:
                        nxt = (nxt - 1) % players
                    assert b == nxt, (number, seats_in_order)


def test_bids_go_right_from_the_dealers_right(tmp_path):
    path = ruleset(tmp_path, """\
        name: whist-to-the-right
        family: trick-taking
        players: {min: 3, max: 5}
        direction: counter-clockwise
        deal:
          hand_size: "[5, 4, 3]"
          dealer: {first: 0}
        trump: {kind: upcard}
        bidding:
          range: "0..hand_size"
          order: clockwise
        scoring:
          points: "if tricks == bid then 10 + bid else 0"
        winner: highest
        """)
    state = play_and_replay(tmp_path, path, ["bot"] * 4, 5)
    deals = [e["dealer"] for e in state.events if e["event"] == "deal"]
    assert deals == [0, 3, 2]
    for (number, bids), dealer in zip(sorted(by_round(state.events, "bid").items()), deals):
        assert [b["seat"] for b in bids] == [(dealer - k) % 4 for k in range(1, 5)]  # the dealer bids last
        first_play = next(e for e in state.events if e["event"] == "play" and e["round"] == number)
        assert first_play["seat"] == (dealer - 1) % 4
    words = explain(load_ruleset(str(path)))
    assert "the deal passes to the right" in words
    assert "the player to the dealer's right acts first, and the turn goes counter-clockwise" in words
    assert "going counter-clockwise, each player bids" in words


def test_a_search_seat_plays_a_counter_clockwise_game(tmp_path):
    path = counter_clockwise(tmp_path, "oh-hell", """\
        deal: {dealer: {rotation: right}, first_to_act: right-of-dealer}
        rounds: {max: 2}
        """)
    play_and_replay(tmp_path, path, ["search", "bot", "random", "bot"], 3)


def test_a_mirrored_deal_plays_the_mirrored_tricks(tmp_path):
    """Seen in a mirror, a counter-clockwise game is the clockwise one: with each seat's
    hand dealt to its mirror seat and the same cards played, every trick goes to the
    mirror of its clockwise winner."""
    clockwise = load_ruleset("oh-hell")
    mirrored = load_ruleset(str(counter_clockwise(tmp_path, "oh-hell", """\
        deal: {dealer: {rotation: right}, first_to_act: right-of-dealer}
        """)))
    a = new_game(clockwise, 4, 11)
    deal = a.chance_action()
    a.apply(deal)
    b = new_game(mirrored, 4, 11)
    b.stack_deal([deal.hands[(-s) % 4] for s in range(4)], deal.upcard)
    policies = make_policies(clockwise, ["bot"] * 4, 11)
    while a.round_index == 0:
        seat = a.turn
        action = policies[seat].act(a.observation(seat), a.legal_actions())
        assert b.turn == (-seat) % 4
        a.apply(action)
        b.apply(action)
    assert b.round_index == 1
    assert [b.totals[(-s) % 4] for s in range(4)] == a.totals


# --- contract rummy -----------------------------------------------------------------------------
@pytest.mark.parametrize("parent", ["five-crowns", "three-thirteen", "phase-10"])
def test_rummy_turns_go_to_the_right(tmp_path, parent):
    path = counter_clockwise(tmp_path, parent)
    state = play_and_replay(tmp_path, path, ["bot", "random", "bot"], 4)
    events = state.events
    skips = any(e["event"] == "skip" for e in events)
    for before, after in zip(events, events[1:]):
        if before["event"] == "discard" and after["event"] == "draw" and not skips:
            assert after["seat"] == (before["seat"] - 1) % 3
    deals = [e for e in events if e["event"] == "deal"]
    assert [d["dealer"] for d in deals[:4]] == [(deals[0]["dealer"] - k) % 3 for k in range(4)]


ISRA_HANDS = ["8H 8S 8D 9C 9D 9H 2C 3C 4C KD KS", "2H 3H 4H 5H 7S 7S 7C JK QD QS QC",
              "5C 6C 7D 8C TS TH TD 2S 2D AS AH", "3S 4S 6S 9S JS KC 4D 5D 6D 6H JH"]


def stacked(path, dealer=0):
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, seed=0)
    state.dealer = dealer
    for i, _ in enumerate(rules.section.chance_events):
        state.apply(CutOutcome(i, False))
    state.stack_deal(tuple(cards(h) for h in ISRA_HANDS), card("7H"), cards("AC QH JC 3D 5S"))
    return state


def test_buying_priority_counter_clockwise_from_the_discarder(tmp_path):
    path = counter_clockwise(tmp_path, "shanghai-isra", """\
        deal: {dealer: {rotation: right}, first_to_act: right-of-dealer}
        buying: {priority: {first: "discarder - 1", direction: counter-clockwise}}
        """)
    state = stacked(path)
    assert state.turn == 3  # the dealer's right
    state.apply(DRAW)  # the flip card: its discarder counts as the dealer, so seat 3 (in turn) is first
    assert state.window == [2, 1, 0] and state.turn == 2
    state.apply(PASS)
    state.apply(BUY)
    assert state.events[-1]["event"] == "buy" and state.events[-1]["seat"] == 1
    assert state.turn == CHANCE
    state.apply(state.chance_action())
    assert state.events[-1]["seat"] == 3
    assert "counter-clockwise from the seat `discarder - 1` names" in explain(load_ruleset(str(path)))


def test_buying_priority_by_default_follows_the_play(tmp_path):
    path = counter_clockwise(tmp_path, "liverpool-rummy-reference", """\
        deal: {dealer: {first: 0, rotation: right}, first_to_act: right-of-dealer}
        buying: {allowed: true, limit: 3}
        """)
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, seed=0)
    state.dealer = 0
    state.stack_deal(tuple(cards(h)[:7] for h in ISRA_HANDS), card("7H"), cards("AC QH JC 3D 5S"))
    state.apply(DRAW)
    assert state.window == [2, 1, 0]  # from the player in turn's right, round to the dealer
    assert "counter-clockwise from the player in turn" in explain(rules)


def test_buying_priority_from_the_dealer_clockwise(tmp_path):
    path = ruleset(tmp_path, """\
        extends: shanghai-isra
        name: isra-from-the-dealer
        buying: {priority: {first: dealer, direction: clockwise}}
        """)
    state = stacked(path, dealer=2)
    assert state.turn == 3
    state.apply(DRAW)
    assert state.window == [2, 0, 1]  # the dealer first (it discarded nothing: the flip card)


@pytest.mark.parametrize("text, where, message", [
    ("direction: widdershins\n", "3:12", "'widdershins' is not one of clockwise, counter-clockwise"),
    ("buying: {priority: {first: \"nobody + 1\"}}\n", "3:29", "unknown name 'nobody'"),
    ("buying: {priority: {first: dealer, way: left}}\n", "3:36", "unknown key 'way' in 'buying.priority'"),
])
def test_validate_refuses_a_bad_direction_or_priority_where_it_is_written(tmp_path, run_cli, text, where, message):
    path = ruleset(tmp_path, "extends: shanghai-isra\nname: bad\n" + text)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:{where}" in result.output and message in result.output, result.output
