"""stock.bury_upcard: a turned-up card the rule names is buried in the stock and another
turned.  Push (pagat; rummyrulebook): "The first face-up card is not allowed to be a wild
card; if the card turned up is a two or joker, the dealer buries it in the stock and
turns up a new card to start the discard pile"."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.game import CHANCE
from cardrules.interpreter.record import replay, save_record
from cardrules.narration.families.contract_rummy import RummyView
from helpers import DATA, SayingRenderer, stacked_rummy_round

RULES = DATA / "good" / "bury-upcard.yaml"
HANDS = ["5S 5H 5D KS KH 3C 9D 9C 4H 6S 3C", "7S 7C 7D QD QS QC 7H 4S 9S KD 8C",
         "3H 3H 4D 6D 8C TS TH JD JC AS 3D", "3S 4C 6C 8H 8D TD JS QH AC AH 4D"]


def _cards(state):
    return Counter(c for h in state.hands for c in h) + Counter(state.stock) + Counter(state.pile)


def test_a_turned_wild_card_is_buried_and_the_next_card_turned():
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "2S", ["9H", "6C"])
    assert state.turn == CHANCE and state.pile == [card("2S")]  # the deuce is turned: chance turns the next
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "bury", "round": 1, "card": "2S", "upcard": "9H"}
    assert state.pile == [card("9H")]
    assert state.stock[-1] == card("6C")  # the buried card is in the stock, under its top card
    assert card("2S") in state.stock
    assert state.turn == 1 and state.phase == "draw"  # then the first player's turn, as always
    assert _cards(state) == Counter(state.deck)


def test_burying_goes_on_while_the_turned_card_is_wild():
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "JK", ["2D", "KC"])
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "bury", "round": 1, "card": "JK", "upcard": "2D"}
    assert state.turn == CHANCE
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "bury", "round": 1, "card": "2D", "upcard": "KC"}
    assert state.pile == [card("KC")] and state.turn == 1
    assert _cards(state) == Counter(state.deck)


def test_a_natural_card_turned_is_not_buried_and_without_the_rule_nothing_is():
    state = stacked_rummy_round(load_ruleset(RULES), HANDS, "9H", ["2D"])
    assert state.turn == 1 and not any(e["event"] == "bury" for e in state.events)
    plain = stacked_rummy_round(load_ruleset("shanghai"), HANDS, "JK", ["2D"])
    assert plain.turn == 1 and plain.pile == [card("JK")]


def test_every_bot_game_conserves_the_cards_and_replays_from_the_seed_and_as_dealt(tmp_path):
    rules = load_ruleset(RULES)
    buried = 0
    for seed in range(12):
        state = play_bots(rules, ["bot"] * 4, seed=seed)
        assert state.is_over
        bury = [e for e in state.events if e["event"] == "bury"]
        buried += len(bury)
        for e in bury:  # each buried card is wild (a deuce or a joker); the card that stays is not
            assert e["card"][0] in "2J"
        if bury:
            path = tmp_path / f"g{seed}.jsonl"
            save_record(state, path)
            assert replay(path, str(RULES)).complete
            assert replay(path, str(RULES), check_deals=False).complete
    assert buried >= 3


def test_a_changed_turned_card_is_refused_by_the_replay(tmp_path):
    rules = load_ruleset(RULES)
    state = next(s for s in (play_bots(rules, ["bot"] * 4, seed=seed) for seed in range(20))
                 if any(e["event"] == "bury" for e in s.events))
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"bury"' in line)
    event = json.loads(lines[at])
    event["upcard"] = "AH" if event["upcard"] != "AH" else "AD"
    lines[at] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")
    from cardrules.interpreter.errors import RecordError
    with pytest.raises(RecordError, match="not the bury seed"):
        replay(path, str(RULES))


def test_the_table_says_what_was_buried():
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "2S", ["9H"])
    state.apply(state.chance_action())
    renderer = SayingRenderer()
    RummyView(rules, renderer).on_bury(state.events[-1])
    assert renderer.said == ["2S is turned up and buried in the stock; 9H is turned up instead"]


def test_validate_refuses_a_rule_that_buries_every_card(tmp_path):
    from cardrules.interpreter import RulesetError
    path = tmp_path / "all.yaml"
    path.write_text("extends: shanghai\nname: bury-all\nstock:\n  bury_upcard: \"card_rank >= 0\"\n")
    with pytest.raises(RulesetError, match="buries every card turned up"):
        load_ruleset(path)


def test_burying_leaves_the_next_rounds_deals_as_the_seed_deals_them():
    """Where the buried card goes is drawn from an RNG of its own: a game with the rule is
    dealt, round by round, as the same seed deals the game without it."""
    from cardrules.interpreter.game import new_game
    buried = load_ruleset(RULES)
    checked = 0
    for seed in range(30):
        a = new_game(buried, 4, seed)
        a.apply(a.chance_action())
        if a.turn != CHANCE:
            continue  # no bury in round 1
        b = new_game(load_ruleset("shanghai"), 4, seed)
        b.apply(b.chance_action())
        a.apply(a.chance_action())
        assert a.hands == b.hands  # (the same deal)
        # the next round's deal: the RNG of the deal was not drawn from by the bury
        assert a.rng("deal").getstate() == b.rng("deal").getstate()
        checked += 1
    assert checked >= 2
