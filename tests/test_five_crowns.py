"""Going out by melding (a round with no contract, the others' last turns, only the
unmatched cards counted) and a wild rank of the round, worked through on the bundled
Five Crowns and Three Thirteen with the examples of their published rules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.contract_rummy.actions import Discard, GoDown
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine
from cardrules.interpreter.families.contract_rummy.rules import round_card_points, wild_cards
from cardrules.interpreter.game import new_game
from cardrules.interpreter.record import replay, save_record
from helpers import rummy_draw


@pytest.fixture(scope="module")
def crowns():
    return load_ruleset("five-crowns")


def engine(rules, round_index, players=4):
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, round_index),
                      rules.section.going_down, setup.pack, setup.ranks)


def cards(rules, text):
    return tuple(rules.deck.pack.card(c) for c in text.split())


# --- the pack, the wild rank, the melds (officialgamerules.org's examples) -------------------------
def test_the_pack_is_two_packs_of_58(crowns):
    setup = crowns.setup(4)
    assert len(new_game(crowns, 4, 0).deck) == 116 and setup.jokers == 6
    assert [s.name for s in setup.pack.suits] == ["spades", "hearts", "clubs", "diamonds", "stars"]
    assert setup.ranks == ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def test_the_wild_rank_is_the_number_of_cards_dealt(crowns):
    setup = crowns.setup(4)
    pack = setup.pack
    for round_index, rank in enumerate("3456789TJQK"):
        wild = wild_cards(crowns.section.melds, setup, round_index)
        naturals = sorted(pack.codes[c] for c in wild if pack.special_of[c] < 0)
        assert naturals == sorted(rank + s for s in "SHCDR")  # "when three cards are dealt, the 3s are wild"
        assert pack.card("JK") in wild  # "The Jokers will always be wild"


@pytest.mark.parametrize("round_index, text, ok", [
    (4, "9D 7C JD", True),  # "if 7s are wild, a run could be: 9♦, 7♣, J♦"
    (4, "6D 7D 7R 9D", True),  # "or 6♦, 7★, 7, 9" (here the 7♦ natural, the 7★ wild for the 8)
    (0, "JR QR KR", True),  # "J★ Q★ K★"
    (5, "8S QS QR", True),  # "if 8s are wild, then a book could be 8♠, Q♠, Q★"
    (0, "KS KD KH KH", True),  # "K♠, K♦, K♥, K♥": two packs
    (0, "JK JK KS", True),  # as many wild cards as you wish
    (0, "JK QR KR", True),  # the joker as the jack
    (0, "QR KR JK", False),  # nothing above the king: the pack has no ace
    (0, "5S 6S 7H", False),  # "5-6-7 of whatever is not a run"
    (0, "TS JS", False),  # three or more
])
def test_books_and_runs(crowns, round_index, text, ok):
    check = engine(crowns, round_index)
    given = cards(crowns, text)
    if ok:
        assert check.classify(given)
    else:
        with pytest.raises(ValueError):
            check.classify(given)


def test_card_values_face_value_wild_20_jokers_50(crowns):
    setup = crowns.setup(4)
    first = round_card_points(crowns.section, setup, 0)  # 3s wild
    assert sum(first[c] for c in cards(crowns, "KS QR JD TC 3H JK")) == 13 + 12 + 11 + 10 + 20 + 50
    last = round_card_points(crowns.section, setup, 10)  # kings wild
    assert sum(last[c] for c in cards(crowns, "KS QR 3H")) == 20 + 12 + 3


def test_only_the_cards_left_out_of_the_best_melding_count(crowns):
    check = engine(crowns, 1)  # 4 cards: the 4s wild
    points = round_card_points(crowns.section, crowns.setup(4), 1)
    left, melds, unmatched = check.best_melding(cards(crowns, "9S 9H 4C KD"), points)
    assert left == 13 and [crowns.deck.pack.codes[c] for c in unmatched] == ["KD"]
    # a joker and a wild card join the best meld; the 13-card hand of the last round melds whole
    last = engine(crowns, 10)
    points = round_card_points(crowns.section, crowns.setup(4), 10)
    hand = cards(crowns, "3S 4S 5S 6H 6C 6R 9D TD JK KH QR QS QC")
    left, melds, unmatched = last.best_melding(hand, points)
    assert left == 0 and not unmatched and sum(len(m.cards) for m in melds) == 13


# --- going out and the last turns (a stacked deal) --------------------------------------------------
def stacked(rules, hands, upcard, stock, players):
    state = new_game(rules, players, seed=0)
    state.stack_deal(tuple(cards(rules, h) for h in hands), rules.deck.pack.card(upcard), cards(rules, stock))
    return state


def test_going_out_then_one_last_turn_each(crowns):
    # seat 1 (left of the dealer) draws the third 5 and goes out; seat 2 then seat 0 take one last turn
    state = stacked(crowns, ["9S 9H KD", "5S 5H 7D", "QS QH 8C"], "TD", "5R QR JS", players=3)
    pack = crowns.deck.pack
    rummy_draw(state)  # seat 1 draws 5R
    down = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert [str(a) for a in down] == ["meld set: 5S 5H 5R"]  # all but the 7D, which is then discarded
    with pytest.raises(IllegalActionError, match="a set needs at least 3 cards"):
        state.apply(crowns.family.parse_input(crowns, state.observation(1), "meld 5s 5h"))
    state.apply(down[0])
    assert [str(a) for a in state.legal_actions()] == ["discard 7D"]
    state.apply(Discard(pack.card("7D"), False, pack))
    assert state.turn == 2 and not state.is_over  # seat 2's last turn
    # the search bot samples the hidden cards of this position: the last turns are known to every seat
    import random
    obs = state.observation(2)
    assert (obs.out_first, obs.final_turns) == (1, (0,))
    sampled = crowns.family.determinize(crowns, obs, {}, random.Random(0))
    assert (sampled.out_first, sampled.final_turns, sampled.turn) == (1, (0,), 2)
    rummy_draw(state)  # QR: seat 2 melds Q Q Q and goes out too
    down = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert str(down[0]) == "meld set: QS QH QR"
    state.apply(down[0])
    state.apply(Discard(pack.card("8C"), False, pack))
    assert state.turn == 0  # seat 0's last turn
    rummy_draw(state)  # JS
    state.apply(Discard(pack.card("JS"), False, pack))
    score = next(e for e in state.events if e["event"] == "score")
    # seat 0 lays down nothing: 9 + 9 + 13; seats 1 and 2 went out: 0
    assert score["points"] == [31, 0, 0]
    laid = [e for e in state.events if e["event"] == "laydown"]
    assert laid == [{"event": "laydown", "round": 1, "seat": 0, "melds": [], "left": ["9S", "9H", "KD"]}]
    outs = [e["seat"] for e in state.events if e["event"] == "out"]
    assert outs == [1, 2]


def test_the_last_turns_lay_down_what_they_can(crowns):
    state = stacked(crowns, ["9S 9H KD", "5S 5H 7D", "QS 4H 8C"], "TD", "5R 9C JS", players=3)
    pack = crowns.deck.pack
    rummy_draw(state)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, GoDown)))
    state.apply(Discard(pack.card("7D"), False, pack))
    rummy_draw(state)  # seat 2 draws 9C and discards it
    state.apply(Discard(pack.card("9C"), False, pack))
    state.apply(crowns.family.parse_input(crowns, state.observation(0), "take"))  # seat 0 takes the 9C
    state.apply(Discard(pack.card("KD"), False, pack))  # seat 0 keeps 9S 9H 9C: the round is over
    score = next(e for e in state.events if e["event"] == "score")
    assert score["points"] == [0, 0, 12 + 4 + 8]  # seat 0's book is laid down: nothing counts
    laid = {e["seat"]: e for e in state.events if e["event"] == "laydown"}
    assert laid[0]["melds"] == [{"kind": "set", "cards": ["9S", "9H", "9C"]}] and laid[0]["left"] == []
    assert laid[2]["left"] == ["QS", "4H", "8C"]


def test_a_go_down_must_meld_the_whole_hand_but_the_discard(crowns):
    state = stacked(crowns, ["9S 9H KD QC", "5S 5H 5C 7D", "QS QH 8C 3C"], "TD", "JS", players=3)  # 4s wild
    rummy_draw(state)  # seat 1 draws JS
    assert not [a for a in state.legal_actions() if isinstance(a, GoDown)]
    with pytest.raises(IllegalActionError, match="melding your whole hand, but for the card you then discard "
                                                 r"\(2 cards would be left\)"):
        state.apply(crowns.family.parse_input(crowns, state.observation(1), "meld 5s 5h 5c"))


@pytest.mark.slow
@pytest.mark.parametrize("seats", [["bot", "search:2"], ["bot", "random", "bot", "random", "bot"]], ids=len)
def test_whole_games_with_bot_random_and_search_seats_replay(crowns, tmp_path, seats):
    """All eleven rounds, two players with a search seat (two playouts a decision: a rummy
    playout runs to the round's end, and the search's strength is measured in
    benchmarks/strength.py), and five with bots and random seats (a search seat's decision
    is the same at any count, and costs a playout per move it could make)."""
    players = len(seats)
    state = new_game(crowns, players, seed=players)
    play_out(state, make_policies(crowns, seats, players))
    assert state.is_over
    path = tmp_path / f"g{players}.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals
    kinds = {json.loads(line)["event"] for line in path.read_text("utf-8").splitlines()}
    assert {"laydown", "out", "meld", "score"} <= kinds


def test_validate_checks_the_last_turns(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("extends: five-crowns\nname: x\ngoing_out:\n  last_turns: \"round - 12\"\n")
    done = subprocess.run([sys.executable, "-m", "cardrules", "validate", "--no-play", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "x.yaml:4:" in done.stdout and "last turns: give 0 to 10" in done.stdout


def test_explain_says_how_a_round_is_won_and_scored():
    done = subprocess.run([sys.executable, "-m", "cardrules", "explain", "five-crowns"], capture_output=True,
                          text=True)
    out = done.stdout
    assert "| 1 | threes wild (no contract: meld every card) | 3 | discard-required |" in out
    assert "each other player takes one last turn" in out
    assert "scores only the cards it leaves unmatched" in out


# --- Three Thirteen -----------------------------------------------------------------------------------
@pytest.mark.parametrize("round_index, text, ok", [
    (0, "AS 2S 3S", True),  # "A-2-3 is a valid sequence"
    (0, "QS KS AS", False),  # "but Q-K-A is not"
    (1, "4S 4H 4C", True),  # "a set that consists of only wild cards" (4s wild in round 2)
    (1, "9H TH 4C", True),  # a wild card of another suit in a run
])
def test_three_thirteen_melds(round_index, text, ok):
    rules = load_ruleset("three-thirteen")
    check = engine(rules, round_index)
    given = cards(rules, text)
    if ok:
        assert check.classify(given)
    else:
        with pytest.raises(ValueError):
            check.classify(given)


def test_three_thirteen_counts_aces_one_and_court_cards_ten():
    rules = load_ruleset("three-thirteen")
    check = engine(rules, 0)
    points = round_card_points(rules.section, rules.setup(4), 0)
    left, melds, unmatched = check.best_melding(cards(rules, "AS KD 7C 7H 3D"), points)
    assert left == 1 + 10 and sorted(rules.deck.pack.codes[c] for c in unmatched) == ["AS", "KD"]
