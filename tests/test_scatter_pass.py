"""A scatter pass (`exchange.direction: scatter`): every seat passes `exchange.cards` cards
to each other seat, the first to its left, the next to the seat after, and so on; all at
once, each card seen by its passer and its receiver only.  Checked as a player would: the
record's lines, each seat's view, the hands after, the search seat's samples, whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.trick_taking.actions import Pass
from cardrules.interpreter.families.trick_taking.determinize import determinize
from cardrules.interpreter.game import new_game
from cardrules.interpreter.record import replay, save_record

SCATTER = """\
extends: hearts
name: hearts-scatter
exchange:
  cards: "if (round - 1) % 4 == 3 then 1 else 3"
  direction: "[left, right, across, scatter][(round - 1) % 4]"
"""

ALL_SUITS = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "hearts-scatter.yaml"
    path.write_text(SCATTER)
    return load_ruleset(str(path))


def _round_four(rules):
    state = new_game(rules, 4, seed=0)
    state.round_index = 3  # the fourth hand: one card to each other player
    state.stack_deal([[state.setup.pack.card(c) for c in hand.split()] for hand in ALL_SUITS], dealer=0)
    return state


def test_each_seat_passes_one_card_to_each_other_seat_from_its_left(rules):
    state = _round_four(rules)
    pack = state.setup.pack
    assert state.phase == "exchange" and state.turn == 1 and state.observation(1).pass_count == 3
    for seat, texts in ((1, "AH KH QH"), (2, "AS KS QS"), (3, "AD KD QD"), (0, "AC KC QC")):
        assert state.turn == seat
        for text in texts.split():
            state.apply(Pass(pack.card(text)))
    passes = [(e["seat"], e["card"], e["to"]) for e in state.events if e["event"] == "pass"]
    assert passes[:3] == [(1, "AH", 2), (1, "KH", 3), (1, "QH", 0)]  # left, then round the table
    received = {(e["seat"], e["from"]): e["cards"] for e in state.events if e["event"] == "receive"}
    assert received[(0, 1)] == ["QH"] and received[(0, 2)] == ["KS"] and received[(0, 3)] == ["AD"]
    assert received[(2, 1)] == ["AH"] and received[(2, 0)] == ["KC"] and received[(2, 3)] == ["QD"]
    assert Counter(pack.codes[c] for c in state.observation(0).received) == Counter(["QH", "KS", "AD"])
    # each card is seen by its passer and its receiver only
    views = [e for e in state.event_views(2) if e["event"] == "receive"]
    assert all(e["cards"] == [None] for e in views if e["seat"] != 2)
    assert all(e.get("card") is None for e in state.event_views(3) if e["event"] == "pass" and e["seat"] != 3
               and e["to"] != 3)
    obs = state.observation(0)
    assert obs.pass_to == -2 and obs.pass_from == -2 and len(obs.hand) == 13


def test_a_pass_in_progress_tells_whom_the_next_card_goes_to(rules):
    from cardrules.interpreter.families.trick_taking.observation import pass_target_of
    state = _round_four(rules)
    state.apply(Pass(state.setup.pack.card("AH")))
    obs = state.observation(1)
    assert pass_target_of(obs, len(obs.passing)) == 3
    # the tables say it in words: the browser's facts and the terminal's prompt
    from cardrules.web.families.trick_taking import TrickWebView
    facts = {f["label"]: f["value"] for p in TrickWebView(rules).panels(obs, ["A", "B", "C", "D"], False)
             for f in p.get("items", [])}
    assert facts["Passing"] == "3 to each other player (the next to D)"
    from cardrules.interpreter.errors import IllegalActionError
    from cardrules.interpreter.families.trick_taking.actions import Bid
    with pytest.raises(IllegalActionError, match=r"2 more, the next to seat 3\)"):
        state.verify(Bid(1))


@pytest.mark.parametrize("seed, seats", [(1, ["bot"] * 4), (2, ["random", "bot", "search:6", "bot"])])
def test_whole_games_keep_the_cards_and_replay(tmp_path, rules, seed, seats):
    state = new_game(rules, 4, seed)
    play_out(state, make_policies(rules, seats, seed))
    events = state.events
    for number in {e["round"] for e in events if e["event"] == "pass"}:
        passes = [e for e in events if e["event"] == "pass" and e["round"] == number]
        got = [e for e in events if e["event"] == "receive" and e["round"] == number]
        if (number - 1) % 4 == 3:  # the scatter: one card from each seat to each other seat
            assert Counter((e["seat"], e["to"]) for e in passes) == Counter(
                {(s, t): 1 for s in range(4) for t in range(4) if s != t})
            assert sorted((e["seat"], e["from"]) for e in got) == sorted(
                (s, t) for s in range(4) for t in range(4) if s != t)
        for line in got:  # the cards received are those passed to that seat by that seat
            assert sorted(line["cards"]) == sorted(e["card"] for e in passes
                                                   if e["seat"] == line["from"] and e["to"] == line["seat"])
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path, str(tmp_path / "hearts-scatter.yaml")).state.totals == state.totals


def test_the_search_seat_samples_keep_each_card_it_scattered_with_its_receiver(rules):
    state = new_game(rules, 4, seed=5)
    policies = make_policies(rules, ["bot"] * 4, 5)
    while state.round_index < 3 or state.phase == "exchange" or state.turn < 0:
        if state.turn < 0:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    seat = state.turn
    obs = state.observation(seat)
    assert obs.pass_to == -2 and len(obs.passing) == 3
    played = Counter((e["seat"], state.setup.pack.card(e["card"])) for e in state.events
                     if e["event"] == "play" and e["round"] == 4)
    for _ in range(20):
        sample = determinize(rules, obs, {}, random.Random(_))
        for index, c in enumerate(obs.passing):
            to = (seat + 1 + index) % 4
            assert c in sample.hands[to] or played[(to, c)], (index, c)


def test_validate_refuses_a_scatter_the_hands_cannot_make(tmp_path, run_cli):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: hearts\nname: bad\nexchange: {cards: 5, direction: scatter}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "so no seat can pass 5 to each other seat (15 cards)" in result.output and f"{path}:3:" in result.output
