"""buying.forced: the push draw.  Push (pagat; rummyrulebook): a player who does not
take the discard "takes the top card from the stockpile, puts it on the top card of the
discard pile and pushes it to the player on the left", then draws the next stock card.
A forced buy: no one is asked, the first seat of the buying order that may buy takes the
declined discard with its penalty cards, before the player in turn draws."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError, RecordError
from cardrules.interpreter.families.contract_rummy.actions import BUY, DRAW, PASS, TAKE
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record
from helpers import SayingRenderer, stacked_rummy_round

HANDS = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S 3C", "7S 7C 7D QD QS QC 7H 4S 9S KD 8C",
         "2H 3H 4D 6D 8C TS TH JD JC AS 3D", "3S 4C 6C 8H 8D TD JS QH AC AH 4D"]
STOCK = ["2D", "3D", "4S", "6H", "8S"]
PUSH = "buying:\n  allowed: true\n  forced: true\n  penalty_cards: 1\n  limit: %s\n  priority: {direction: clockwise}\n"


def ruleset(tmp_path: Path, limit: str = "99", extra: str = "") -> Path:
    path = tmp_path / "push.yaml"
    path.write_text("extends: shanghai\nname: push-draw\n" + PUSH % limit + extra)
    return path


def test_the_declined_discard_and_the_stocks_top_card_go_to_the_next_player(tmp_path):
    rules = load_ruleset(ruleset(tmp_path))
    state = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    assert state.turn == 1
    assert state.legal_actions() == [TAKE, DRAW]
    hand2 = list(state.hands[2])
    state.apply(DRAW)  # seat 1 passes the 5C over: it is pushed to seat 2 with the stock's top card
    assert state.events[-1] == {"event": "buy", "round": 1, "seat": 2, "card": "5C", "penalty": ["2D"]}
    assert state.hands[2] == hand2 + [card("5C"), card("2D")]
    assert state.pile == [] and state.buys[2] == 1
    assert state.turn == CHANCE  # no one was asked: seat 1 draws the next stock card
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "stock", "card": "3D"}
    assert state.turn == 1 and state.phase == "play"
    # the pushed card is public, the stock's card is seat 2's own
    seen = [state.observation(s) for s in range(4)]
    assert all(o.hand_counts[2] == 13 for o in seen)
    assert card("2D") in seen[2].hand


def test_taking_the_discard_pushes_nothing(tmp_path):
    state = stacked_rummy_round(load_ruleset(ruleset(tmp_path)), HANDS, "5C", STOCK)
    state.apply(TAKE)
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "discard", "card": "5C"}
    assert not any(e["event"] == "buy" for e in state.events)
    assert [len(h) for h in state.hands] == [11, 12, 11, 11]


def test_a_seat_at_its_limit_or_refused_by_the_rule_is_passed_over(tmp_path):
    # seat 2 may not buy: the push goes on to seat 3; when only the player in turn may, no push
    rules = load_ruleset(ruleset(tmp_path, extra="  may: {rule: \"seat != 2\", message: \"not seat 2\"}\n"))
    state = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    state.apply(DRAW)
    assert state.events[-1]["event"] == "buy" and state.events[-1]["seat"] == 3
    rules = load_ruleset(ruleset(tmp_path, extra="  may: {rule: \"seat == 1\", message: \"only seat 1\"}\n"))
    state = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    state.apply(DRAW)
    assert state.turn == CHANCE and state.pile == [card("5C")]  # stays on the pile
    assert not any(e["event"] == "buy" for e in state.events)


def test_no_one_is_asked_so_a_buy_or_pass_is_no_move(tmp_path):
    state = stacked_rummy_round(load_ruleset(ruleset(tmp_path)), HANDS, "5C", STOCK)
    with pytest.raises(IllegalActionError):
        state.verify(BUY)
    state.apply(DRAW)
    with pytest.raises(IllegalActionError):
        state.verify(PASS)


@pytest.mark.parametrize("text, words", [
    ("buying: {allowed: false, forced: true}\n", "2:34: buying.forced needs buying.allowed"),
    ("buying: {allowed: true, limit: 9, forced: true, veto: refuse}\n", "2:55: a forced buy is not asked"),
    ("buying: {allowed: true, limit: 9, forced: true}\nfitting_discard_call: {allowed: true}\n",
     "3:33: with buying.forced the declined discard goes at once to the buyer: no window opens in which to call"),
])
def test_validate_refuses_a_forced_buy_beside_a_rule_it_leaves_nothing_to(tmp_path, text, words):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: shanghai\n" + text)
    with pytest.raises(RulesetError, match=words):
        load_ruleset(path)


def _games(tmp_path, path, seats, seeds):
    rules = load_ruleset(path)
    for seed in seeds:
        state = new_game(rules, len(seats), seed, ruleset_ref=str(path))
        play_out(state, make_policies(rules, seats, seed))
        assert state.is_over
        record = tmp_path / f"game-{seed}-{'-'.join(s.replace(':', '') for s in seats)}.jsonl"
        save_record(state, record)
        yield state, record


def test_games_with_pushes_replay_exactly_from_the_seed_and_from_the_record(tmp_path):
    path = ruleset(tmp_path, extra="contracts: [[set, set], [set, run]]\n")  # two rounds
    pushes = 0
    for seats in (["bot"] * 4, ["random"] * 4, ["search:2", "bot", "random"]):
        for state, record in _games(tmp_path, path, seats, range(2)):
            kinds = [e["event"] for e in state.events]
            pushes += kinds.count("buy")
            for i, e in enumerate(state.events):  # each push is followed by the pusher's own draw
                if e["event"] == "buy":
                    follow = state.events[i + 1]
                    assert follow["event"] in ("draw", "reshuffle", "exhausted"), follow
                    if follow["event"] == "draw":
                        assert follow["from"] == "stock" and follow["seat"] == (e["seat"] - 1) % state.players
            assert replay(record).state.totals == state.totals
            again = replay(record, check_deals=False)  # --any-deal: the pushed cards as the record says
            assert again.complete and again.state.totals == state.totals
    assert pushes > 20


def test_a_record_whose_pushed_card_was_changed_is_refused(tmp_path):
    (state, record), = _games(tmp_path, ruleset(tmp_path), ["bot"] * 4, [3])
    lines = record.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "buy")
    event = json.loads(lines[at])
    event["seat"] = (event["seat"] + 1) % 4  # pushed to the wrong player
    lines[at] = json.dumps(event)
    record.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=r'"seat" is \d but the rules give \d'):
        replay(record)


def test_the_table_says_a_push_not_a_buy(tmp_path):
    from cardrules.narration.families.contract_rummy import RummyView
    rules = load_ruleset(ruleset(tmp_path))
    renderer = SayingRenderer()
    RummyView(rules, renderer).on_buy({"event": "buy", "round": 1, "seat": 2, "card": "5C", "penalty": ["2D"]})
    assert renderer.said == ["Cy is pushed 5C (+1 from the stock: 2D)"]
