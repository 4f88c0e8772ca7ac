"""joker_swap.capture: King Rummy's "when a joker is melded, other players have an
immediate opportunity to replace the joker with their own card (precedence given in order
of play). When they do so, they take the joker into their hand, and the original player
continues his turn" (rummyrulebook; Parlett: "the person who melded does not discard
until this has happened or everyone has passed").  Bundled as king-rummy-capture."""

from __future__ import annotations

import json

import pytest

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError, RecordError
from cardrules.interpreter.families.contract_rummy.actions import PASS, GoDown, Swap
from cardrules.interpreter.game import CHANCE
from cardrules.interpreter.record import replay, save_record
from helpers import SayingRenderer, rummy_draw, stacked_rummy_round

# Round 1 of King Rummy: a set of 3 and a run of 4.  Seat 1 plays first and goes down with
# 8H 8S JK and 5D 6D JK 8D; seat 2 holds no natural card a joker stands for, seat 3 the 7D
# (the run's joker) and seat 0 an 8C (the set's).
HANDS = ["8C 2S 3S 4S 9C TC JC QC KC AH", "8H 8S JK 5D 6D JK 8D KS KH QS",
         "2H 3H 4H 9H TH JH 2C 3C 4C 5C", "7D 9S TS JS QH 4D 3D 2D AS AC"]
STOCK = ["9D", "TD", "QD"]
GO_DOWN = GoDown((tuple(card(c) for c in "8H 8S JK".split()), tuple(card(c) for c in "5D 6D JK 8D".split())))


def cards(text):
    return tuple(card(c) for c in text.split())


def melded(rules=None):
    rules = rules or load_ruleset("king-rummy-capture")
    state = stacked_rummy_round(rules, HANDS, "KD", STOCK)
    assert state.turn == 1
    rummy_draw(state)
    state.apply(GO_DOWN)
    return state


def test_every_other_player_is_asked_in_turn_order_and_a_capture_takes_the_joker():
    state = melded()
    assert state.phase == "capture" and state.turn == 2  # first the melder's next player
    assert state.legal_actions() == [PASS]  # seat 2 can capture nothing, but is asked all the same
    state.apply(PASS)
    assert state.phase == "capture" and state.turn == 3
    run = [m for m, meld in state.melds.items() if meld.kind == "run"][0]
    assert state.legal_actions() == [PASS, Swap(run, card("7D"))]
    hand3 = list(state.hands[3])
    state.apply(Swap(run, card("7D")))
    assert state.events[-1] == {"event": "capture", "round": 1, "seat": 3, "meld": run, "card": "7D", "freed": "JK"}
    assert state.melds[run].cards == cards("5D 6D 7D 8D")
    assert sorted(state.hands[3]) == sorted([c for c in hand3 if c != card("7D")] + [card("JK")])
    assert state.known[3] == (card("JK"),)  # everyone saw it taken
    # the first capture ends the asking: seat 0 is not asked; the melder goes on with the turn
    assert state.phase == "play" and state.turn == 1 and state.player == 1


def test_when_everyone_passes_the_melder_goes_on():
    state = melded()
    for seat in (2, 3, 0):
        assert state.turn == seat
        state.apply(PASS)
    assert state.phase == "play" and state.turn == 1
    assert not any(e["event"] == "capture" for e in state.events)


def test_a_capture_is_only_of_a_meld_that_just_took_a_wild_card():
    state = melded()
    state.apply(PASS)
    with pytest.raises(IllegalActionError, match="meld 9 took no wild card just now"):
        state.verify(Swap(9, card("7D")))
    run = [m for m, meld in state.melds.items() if meld.kind == "run"][0]
    with pytest.raises(IllegalActionError, match="capture it .* or pass"):
        state.verify(GoDown((cards("2D 3D 4D"),)))
    with pytest.raises(IllegalActionError):
        state.verify(Swap(run, card("9S")))  # 9S stands in for no joker


def test_the_table_sees_the_offer_and_no_hand():
    state = melded()
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.phase == "capture" and obs.turn == 2 and obs.player == 1
        assert obs.window == (2, 3, 0) and len(obs.offered) == 2
        assert obs.hand == tuple(state.hands[seat])


def test_without_the_rule_no_one_is_asked():
    state = melded(load_ruleset("king-rummy"))
    assert state.phase == "play" and state.turn == 1


def test_going_out_with_the_meld_leaves_nothing_to_capture(tmp_path):
    path = tmp_path / "all.yaml"  # a go-down of the whole hand, with a joker in it
    path.write_text("extends: king-rummy-capture\nname: capture-out\ncontracts: [[set, run, run], [set, set, set], [run, run], [set, set, run]]\n"
                    "going_out: {final_discard: discard-optional}\n")
    rules = load_ruleset(path)
    hands = list(HANDS)
    hands[1] = "8H 8S JK 5D 6D JK 8D 9S TS JS"
    state = stacked_rummy_round(rules, hands, "KD", ["QS"])
    rummy_draw(state)
    state.apply(GoDown((cards("8H 8S JK"), cards("5D 6D JK 8D"), cards("9S TS JS QS"))))
    assert state.events[-1]["event"] != "capture"
    assert any(e["event"] == "out" for e in state.events)


def _game(tmp_path, seats, seed):
    rules = load_ruleset("king-rummy-capture")
    state = new_game(rules, 4, seed)
    play_out(state, make_policies(rules, seats, seed))
    record = tmp_path / f"game-{seed}-{'-'.join(s.replace(':', '') for s in seats)}.jsonl"
    save_record(state, record)
    return state, record


def test_games_with_captures_replay_from_the_seed_and_from_the_record(tmp_path):
    captures = 0
    for seats in (["bot"] * 4, ["random"] * 4, ["search:2", "bot", "random", "bot"]):
        for seed in range(2):
            state, record = _game(tmp_path, seats, seed)
            assert state.is_over
            captures += sum(e["event"] == "capture" for e in state.events)
            assert replay(record).state.totals == state.totals
            again = replay(record, check_deals=False)
            assert again.complete and again.state.totals == state.totals
    assert captures > 5


def test_a_capture_line_where_none_was_offered_is_refused(tmp_path):
    state, record = _game(tmp_path, ["bot"] * 4, 0)
    lines = record.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "capture")
    moved = lines.pop(at)
    lines.insert(at - 1, moved)  # before the meld that offered it
    record.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError):
        replay(record)


def test_typed_moves_at_the_capture():
    from cardrules.interpreter.textio import parse_input
    state = melded()
    rules = state.rules
    assert parse_input(rules, state.observation(2), "pass") == PASS
    state.apply(PASS)
    run = [m for m, meld in state.melds.items() if meld.kind == "run"][0]
    assert parse_input(rules, state.observation(3), f"swap {run} 7d") == Swap(run, card("7D"))
    assert state.turn != CHANCE


def test_the_table_tells_and_asks_the_capture_in_words():
    from cardrules.narration.families.contract_rummy import RummyView
    from cardrules.web.families.contract_rummy import RummyWebView
    state = melded()
    rules = state.rules
    renderer = SayingRenderer()
    view = RummyView(rules, renderer)
    view.on_capture({"event": "capture", "round": 1, "seat": 3, "meld": 2, "card": "7D", "freed": "JK"})
    assert renderer.said == ["Di captures JK from [2], putting 7D in its place"]
    assert view.prompt(state.observation(2), state.legal_actions()).startswith("a wild card was just put down in [")
    state.apply(PASS)
    table = RummyWebView(rules)
    controls = table.controls(state.observation(3), state.legal_actions())
    labels = [b["label"] for b in controls["buttons"]]
    assert "Pass" in labels and any(label.startswith("Capture: 7") for label in labels)
    assert controls["prompt"] == "a wild card was just put down: capture it or pass"
