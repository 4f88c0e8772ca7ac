"""Phase 10, checked against its published rules (Wikipedia's "Phase 10", the Fundex /
Mattel box rules, phase10.fandom.com on hitting and going out): the pack, runs and sets
of any colours, phase 8's seven cards of one colour, the Skip, the scoring of a hand,
each player's own phase repeated until made, the winner; and the general mechanisms it
is written with (counters, a contract per seat, meld kinds as predicates, skip cards,
winner_by) as validate sees them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.contract_rummy.actions import DRAW, TAKE, Discard, GoDown, LayOff
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine
from cardrules.interpreter.families.contract_rummy.rules import RUN, SET, round_card_points, wild_cards
from cardrules.interpreter.game import new_game
from cardrules.interpreter.record import replay, save_record
from helpers import rummy_draw


@pytest.fixture(scope="module")
def p10():
    return load_ruleset("phase-10")


def engine(rules, players=4):
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, 0),
                      rules.section.going_down, setup.pack, setup.ranks)


def cards(rules, text):
    return tuple(rules.deck.pack.card(c) for c in text.split())


def stacked(rules, hands, upcard, stock, players):
    state = new_game(rules, players, seed=0)
    state.stack_deal(tuple(cards(rules, h) for h in hands), rules.deck.pack.card(upcard), cards(rules, stock))
    return state


# --- the pack ------------------------------------------------------------------------------------
def test_the_pack_is_108_cards_numbered_twice_in_four_colours_with_wilds_and_skips(p10):
    state = new_game(p10, 4, seed=0)
    deck = Counter(p10.deck.pack.codes[c] for c in state.deck)
    assert sum(deck.values()) == 108
    assert deck["W"] == 8 and deck["SKIP"] == 4
    assert all(deck[f"{rank}{colour}"] == 2 for rank in [*range(1, 10), "T", 11, 12] for colour in "RBGY")


# --- sets, runs, phase 8 ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind, ok", [
    ("1R 2B 3G 4Y", RUN, True),  # "runs do not have to be all one color"
    ("9R TB 11G 12Y", RUN, True),
    ("1R W 3G 4Y", RUN, True),  # a Wild in the place of the 2
    ("11R 12B 1G 2Y", RUN, False),  # no turning the corner
    ("1R 2B 4G 5Y", RUN, False),
    ("7R 7B 7G", SET, True),  # "a set is three or more cards with the same number ... any color"
    ("7R 7B", SET, True),  # phase 9's set of 2
    ("7R 7B SKIP", SET, False),  # a Skip goes in no phase
    ("7R W W", SET, True),  # "more than one Wild card may be used"
])
def test_sets_and_runs_are_of_any_colours(p10, text, kind, ok):
    melds = engine(p10)
    try:
        melds.make(kind, cards(p10, text))
        made = True
    except ValueError:
        made = False
    assert made is ok


def test_phase_8_is_seven_cards_of_one_colour(p10):
    melds = engine(p10)
    contract = p10.section.contracts[7].melds
    seven = melds.make_kind("colour", cards(p10, "1R 3R 5R 7R 9R 11R W"))
    assert seven.name == "colour" and melds.contract_problem([seven], contract) is None
    with pytest.raises(ValueError, match="one colour"):
        melds.make_kind("colour", cards(p10, "1R 3R 5R 7R 9R 11R 2B"))
    with pytest.raises(ValueError, match="special card that goes in no meld"):  # "not even phase 8"
        melds.make_kind("colour", cards(p10, "1R 3R 5R 7R 9R 11R SKIP"))
    six = melds.make_kind("colour", cards(p10, "1R 3R 5R 7R 9R W"))
    assert "no colour of 7 or more" in melds.contract_problem([six], contract)
    # a run of one colour is no colour meld unless read as one: typed, the go-down is read as phase 8
    typed = melds.read_contract([cards(p10, "1R 2R 3R 4R 5R 6R 7R")], contract)
    assert typed[0].name == "colour"
    # hitting a colour phase: a card of its colour, or a Wild
    assert melds.lay_off(seven, p10.deck.pack.card("12R")) is not None
    assert melds.lay_off(seven, p10.deck.pack.card("12B")) is None
    assert melds.lay_off(seven, p10.deck.pack.card("W")).cards[-1] == p10.deck.pack.card("W")


def test_hitting_a_run_extends_it_with_any_colour(p10):
    melds = engine(p10)
    run = melds.make(RUN, cards(p10, "3R 4B 5G 6Y"))
    assert melds.lay_off(run, p10.deck.pack.card("7G")).cards[-1] == p10.deck.pack.card("7G")
    assert melds.lay_off(run, p10.deck.pack.card("2Y")).cards[0] == p10.deck.pack.card("2Y")
    assert melds.lay_off(run, p10.deck.pack.card("9G")) is None


# --- scoring ----------------------------------------------------------------------------------------
def test_a_hand_scores_5_for_1_to_9_10_for_10_to_12_15_for_a_skip_25_for_a_wild(p10):
    points = round_card_points(p10.section, p10.setup(4), 0)
    assert sum(points[c] for c in cards(p10, "1R 9B TG 12Y SKIP W")) == 5 + 5 + 10 + 10 + 15 + 25


# --- the Skip -----------------------------------------------------------------------------------------
HANDS = ["1R 1B 2R 2B 3R 3B 4R 4B 5R 5B", "6R 6B 6G 8R 8B 9G 9Y TR SKIP 12G", "1G 1Y 2G 2Y 3G 3Y 4G 4Y 5G 5Y"]


def test_a_skip_discarded_makes_the_next_player_lose_their_turn_and_cannot_be_taken(p10):
    state = stacked(p10, HANDS, "7Y", "11R 11B 11G", players=3)
    pack = p10.deck.pack
    assert state.turn == 1  # left of the dealer
    rummy_draw(state)
    state.apply(Discard(pack.card("SKIP"), False, pack))
    assert state.turn == 0  # seat 2 is skipped
    assert {"event": "skip", "round": 1, "seat": 2} in state.events
    assert state.legal_actions() == [DRAW]  # "Skip cards cannot be picked up from the discard pile"
    with pytest.raises(IllegalActionError, match="a Skip cannot be picked up"):
        state.apply(TAKE)


def test_a_skip_turned_up_skips_the_first_player(p10):
    state = stacked(p10, HANDS, "SKIP", "11R 11B 11G", players=3)
    assert state.turn == 2 and {"event": "skip", "round": 1, "seat": 1} in state.events


# --- laying down and hitting --------------------------------------------------------------------------
def test_a_phase_goes_down_then_hits_come_from_the_next_turn(p10):
    # seat 1 holds phase 1 (two sets of three) with the 8s and 6s
    hands = ["1R 1B 2R 2B 3R 3B 4R 4B 5R 5B", "6R 6B 6G 8R 8B 8G 9Y TR 11Y 12G", "1G 1Y 2G 2Y 3G 3Y 4G 4Y 5G 5Y"]
    state = stacked(p10, hands, "7Y", "6Y 9B 9R 7R", players=3)
    pack = p10.deck.pack
    rummy_draw(state)  # 6Y
    down = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert down and all(len(a.melds) == 2 for a in down)
    state.apply(down[0])
    assert not [a for a in state.legal_actions() if isinstance(a, LayOff)]  # "on subsequent turns"
    state.apply(Discard(pack.card("12G"), False, pack))
    rummy_draw(state)
    state.apply(Discard(pack.card("5Y"), False, pack))  # seat 2
    rummy_draw(state)
    state.apply(Discard(pack.card("5B"), False, pack))  # seat 0
    rummy_draw(state)  # seat 1 draws 7R: nothing to hit with it, but the 6Y fits the table if kept
    assert state.down[1] and state.observation(1).contract.name.startswith("phase 1")


# --- each player's own phase, the end, the winner ------------------------------------------------------
def test_a_player_who_misses_their_phase_repeats_it(p10):
    state = new_game(p10, 4, seed=1)
    play_out(state, make_policies(p10, ["bot"] * 4, 1))
    contracts = [e for e in state.events if e["event"] == "contracts"]
    repeated = 0
    for before, after in zip(contracts, contracts[1:]):
        went_down = {e["seat"] for e in state.events if e["event"] == "meld" and e["round"] == before["round"]}
        for seat in range(4):
            expected = before["contracts"][seat] + (1 if seat in went_down else 0)
            assert after["contracts"][seat] == expected
            repeated += seat not in went_down
    assert repeated > 0  # (the bots miss a phase now and then)
    # the game ends after the first hand in which someone made phase 10, won by the highest phase
    phases = state.seat_counters["phase"]
    assert max(phases) == 11 and all(phases[s] == 11 for s in state.winners)


def test_the_first_to_complete_phase_10_wins_ties_going_to_the_lowest_score(p10):
    state = new_game(p10, 3, seed=0)
    state.seat_counters["phase"] = [11, 11, 10]
    state.totals = [120, 85, 10]
    assert state.winners == [1]  # seat 2 has the lowest score but has not made phase 10
    state.totals = [85, 85, 10]
    assert state.winners == [0, 1]  # a tie is shared (the tiebreaker hand is not written)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bot_games_end_and_no_round_ends_at_the_turn_limit(p10, players):
    for seed in range(2):
        state = new_game(p10, players, seed=seed)
        play_out(state, make_policies(p10, ["bot"] * players, seed))
        assert state.is_over
        assert not [e for e in state.events if e["event"] == "exhausted" and e["reason"] == "turns"]
        assert Counter(state.deck) == Counter(p10.setup(players).pack.deck(
            state.setup.decks, state.setup.jokers, state.setup.ranks, state.setup.removed,
            state.setup.special_counts))


def test_games_with_search_seats_replay_and_record_each_contract(p10, tmp_path):
    state = new_game(p10, 2, seed=5)
    play_out(state, make_policies(p10, ["search:4", "bot"], 5))
    assert state.is_over
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals
    kinds = {json.loads(line)["event"] for line in path.read_text("utf-8").splitlines()}
    assert {"contracts", "meld", "out", "score"} <= kinds


def test_the_search_seat_samples_a_state_with_each_seat_s_contract(p10):
    state = new_game(p10, 3, seed=2)  # as a few rounds in: the players on different phases
    state.seat_counters["phase"] = [3, 1, 8]
    state.stack_deal(tuple(cards(p10, h) for h in HANDS), p10.deck.pack.card("7Y"), cards(p10, "11R"))
    obs = state.observation(0)
    assert [c.name[:7] for c in obs.contracts] == ["phase 3", "phase 1", "phase 8"]
    assert obs.contract.name.startswith("phase 3")
    sampled = p10.family.determinize(p10, obs, {}, random.Random(0))
    assert sampled.seat_contracts == state.seat_contracts and sampled.seat_counters == state.seat_counters


def test_explain_names_each_player_s_contract_and_the_winner():
    done = subprocess.run([sys.executable, "-m", "cardrules", "explain", "phase-10"], capture_output=True, text=True)
    assert "Each player plays their own contract each round: number `phase`" in done.stdout
    assert "| 8 | phase 8: 7 cards of one colour (colour of 7) | discard-optional |" in done.stdout
    assert "of the players with the highest `phase`, the lowest total" in done.stdout


# --- validate: the new keys' errors, each at its line ---------------------------------------------------
@pytest.mark.parametrize("extra, where, message", [
    ("contracts:\n  - [square of 4]\n", ":4:", "'square' is no kind of meld"),
    ("contracts:\n  - [colour of 30]\n", ":4:", "contract 1 (colour of 30) needs 30 cards, but a player holds at most 11"),
    ("deal:\n  hand_size: 10\n", "", "give the schedule as a list"),
    ("counters:\n  points: {update: 0}\n", ":4:", "'points' is a name the language"),
    ("melds:\n  kinds:\n    pair: {like: set, min_size: 2, rule: \"naturals >= 2 and rank == 3\"}\n", ":5:",
     "unknown name 'rank'"),
])
def test_validate_refuses_bad_new_keys_at_their_line(tmp_path, extra, where, message):
    path = tmp_path / "x.yaml"
    path.write_text("extends: phase-10\nname: x\n" + extra)
    done = subprocess.run([sys.executable, "-m", "cardrules", "validate", "--no-play", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stdout
    assert message in done.stdout and f"x.yaml{where}" in done.stdout


def test_kinds_as_predicates_write_other_shapes(tmp_path):
    """A pair, a set of a named rank, a set holding all four suits: rules of melds.kinds."""
    path = tmp_path / "shapes.yaml"
    path.write_text(
        "extends: phase-10\nname: shapes\n"
        "melds:\n  kinds:\n"
        "    pair: {like: set, min_size: 2}\n"
        "    sevens: {like: set, min_size: 3, rule: \"min(ranks) == 7\"}\n"
        "    rainbow: {like: set, min_size: 4, rule: \"distinct_suits == 4\"}\n"
        "contracts:\n  - [pair of 2, sevens of 3]\n  - [rainbow of 4]\n"
        "deal: {hand_size: \"repeat(10, 40)\"}\n"
        "rounds: {end_when: \"max(phase) > 2\"}\n")
    rules = load_ruleset(str(path))
    melds = engine(rules)
    assert melds.make_kind("sevens", cards(rules, "7R 7B W")).name == "sevens"
    with pytest.raises(ValueError, match="no sevens"):
        melds.make_kind("sevens", cards(rules, "8R 8B W"))
    with pytest.raises(ValueError, match="no rainbow"):
        melds.make_kind("rainbow", cards(rules, "9R 9R 9G 9Y"))
    rainbow = melds.make_kind("rainbow", cards(rules, "9R 9B 9G 9Y"))
    assert melds.lay_off(rainbow, rules.deck.pack.card("9R")) is not None
    hand = cards(rules, "9R 9R 9B 9G 9Y 1R 2B 3G 5Y 6Y 11G")
    options = melds.go_down_options(hand, rules.section.contracts[1].melds)
    assert options and sorted(rules.deck.pack.codes[c] for c in options[0][0].cards) == ["9B", "9G", "9R", "9Y"]
    state = new_game(rules, 3, seed=0)
    play_out(state, make_policies(rules, ["bot"] * 3, 0))
    assert state.is_over
