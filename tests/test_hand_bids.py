"""Bidding rules that read the bidder's own hand (hand_suits, hand_ranks, trump), and Whiz
and Mirror, the Spades variants whose bids are the spades held: checked from the record
against the rules (MSN Zone's Spades variants), with bot, random and search seats."""

from __future__ import annotations

import random

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

from helpers import play_until


def _spades_held(deal, seat):
    return sum(1 for c in deal["hands"][seat] if c[1] == "S")


@pytest.mark.parametrize("name, nil_allowed", [("spades-whiz", True), ("spades-mirror", False)])
@pytest.mark.parametrize("seats", [("bot", "random", "bot", "random"), ("search:6", "bot", "random", "bot")])
def test_each_bid_is_the_spades_held_or_nil_where_allowed(tmp_path, name, nil_allowed, seats):
    rules = load_ruleset(name)
    seed = len(name) + len(seats[0])
    state = new_game(rules, 4, seed)
    play_out(state, make_policies(rules, list(seats), seed))
    deals = {e["round"]: e for e in state.events if e["event"] == "deal"}
    bids = [e for e in state.events if e["event"] == "bid"]
    assert bids
    for b in bids:
        held = _spades_held(deals[b["round"]], b["seat"])
        assert b["bid"] == held or (nil_allowed and b["bid"] == 0), (b, held)
    # "until one team reaches 500 points or -200 points (automatic loss)"
    end = state.events[-1]
    totals = end["totals"]
    teams = [totals[0] + totals[2], totals[1] + totals[3]]  # seats 0 and 2 against 1 and 3
    assert max(teams) >= 500 or min(teams) <= -200
    assert end["winners"] == [s for s in range(4) if teams[s % 2] == max(teams)]
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


def _at_a_bid(name, seed=2):
    rules = load_ruleset(name)
    state = new_game(rules, 4, seed)
    state.apply(state.chance_action())
    return rules, state


def test_a_bid_the_hand_does_not_allow_is_refused_in_the_rules_words():
    rules, state = _at_a_bid("spades-whiz")
    seat = state.turn
    spades = sum(1 for c in state.hands[seat] if state.setup.pack.suit_of[c] == 0)
    legal = sorted(a.bid for a in state.legal_actions())
    assert legal == sorted({0, spades})
    wrong = next(b for b in range(14) if b not in legal)
    from cardrules.interpreter.families.trick_taking.actions import Bid
    with pytest.raises(IllegalActionError, match=rf"bid nil or the number of spades you hold \({spades}\)"):
        state.apply(Bid(wrong))


def test_mirror_offers_a_person_one_bid_the_spades_they_hold(run_cli):
    import re
    result = run_cli("play", "spades-mirror", "--seats", "human,bot,bot,bot", "--seed", "5", "--ascii",
                     input="quit\n")
    hand = re.search(r"Your hand: (.*)", result.output).group(1).split()
    spades = sum(1 for c in hand if c.endswith("S"))
    assert f"your bid ({spades}) >" in result.output, result.output


def test_the_search_keeps_the_bids_it_saw_whatever_its_samples_hold():
    from cardrules.interpreter.families.trick_taking import FAMILY
    rules = load_ruleset("spades-mirror")
    state = play_until(new_game(rules, 4, 7), make_policies(rules, ["bot"] * 4, 7),
                       lambda s: s.turn != CHANCE and s.phase == "play")
    obs = state.observation(0)
    for k in range(8):
        world = FAMILY.determinize(rules, obs, {}, random.Random(k))
        assert world.bids == state.bids and world.hands[0] == state.hands[0]


def test_a_hand_hidden_while_bidding_shows_nothing_to_the_rule(tmp_path):
    # an Indian round: the bidder does not see its own hand, so hand_suits is empty
    path = tmp_path / "r.yaml"
    path.write_text("extends: oh-hell\nname: blind-count\ninformation: {own_hand: \"round != 1\"}\n"
                    "bidding:\n  restrictions:\n    - {rule: \"bid <= len(hand_suits) or round == 1\", "
                    "message: \"at most the cards you see\"}\n"
                    "    - {rule: \"round != 1 or len(hand_suits) == 0\", message: \"unseen\"}\n")
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 1)
    play_out(state, make_policies(rules, ["bot"] * 4, 1))  # the second rule would leave no bid if the hand showed
    assert state.is_over
