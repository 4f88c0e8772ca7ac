"""buying.veto: the player in turn may allow or refuse another player's buy (Zioncheck's
"The person currently playing can permit your request or deny it"; Kalooki's call veto;
Liverpool on Wikipedia).  Under ``refuse`` a refused card stays on the pile and the
player in turn draws from the stock; under ``take`` they take it as their draw.  A
refused buyer keeps its buys, and no one else is asked for that card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.narration.families.contract_rummy import RummyView
from cardrules.interpreter.saves import SavedGame, new_header, restore
from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError, RecordError
from cardrules.interpreter.families.contract_rummy.actions import (ALLOW, BUY, DRAW, PASS, REFUSE, TAKE, Discard)
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import dump_event, replay, save_record
from cardrules.interpreter.textio import parse_input
from helpers import stacked_rummy_round

# Zioncheck (family), round 1: seat 1 plays first; the flip card is 5C, which seat 0 (three
# fives) wants.  Seats 2 and 3 pass on it; seat 0 says "may I?".
HANDS = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S 3C", "7S 7C 7D QD QS QC 7H 4S 9S KD 8C",
         "2H 3H 4D 6D 8C TS TH JD JC AS 3D", "3S 4C 6C 8H 8D TD JS QH AC AH 4D"]
STOCK = ["2D", "3D", "4S"]


def ruleset(tmp_path: Path, veto: str, extra: str = "") -> Path:
    path = tmp_path / f"zc-{veto}.yaml"
    path.write_text(f"extends: zioncheck-family\nname: zc-{veto}\nbuying: {{veto: {veto}}}\n{extra}")
    return path


def asked(rules) -> object:
    """Seat 1 declines 5C, seats 2 and 3 pass, seat 0 buys: seat 1 is asked."""
    state = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    state.apply(DRAW)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(BUY)
    return state


def test_refused_buy_leaves_the_card_on_the_pile_and_the_player_draws_from_the_stock():
    state = asked(load_ruleset("zioncheck-family"))  # veto: refuse
    assert state.phase == "veto" and state.turn == 1 and state.buyer == 0
    hand0, stock = list(state.hands[0]), len(state.stock)
    state.apply(REFUSE)
    assert state.events[-1] == {"event": "refuse", "round": 1, "seat": 1, "buyer": 0, "card": "5C"}
    assert state.pile == [card("5C")]  # still on the pile
    assert state.hands[0] == hand0  # no card, no penalty card
    assert state.buys[0] == 0  # the buy is not counted
    assert not any(e["event"] == "buy" for e in state.events)
    assert state.turn == CHANCE  # seat 1 draws from the stock as usual
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "stock", "card": "2D", "refused": 0}
    assert len(state.stock) == stock - 1 and state.turn == 1 and state.phase == "play"
    # the refused buyer may still buy later: its limit is untouched
    assert state.observation(0).buys_left == 99


def test_allowed_buy_is_the_usual_buy():
    state = asked(load_ruleset("zioncheck-family"))
    state.apply(ALLOW)
    assert state.events[-1] == {"event": "buy", "round": 1, "seat": 0, "card": "5C", "penalty": ["2D"]}
    assert len(state.hands[0]) == 13 and state.buys[0] == 1 and state.pile == []
    assert state.turn == CHANCE
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "stock", "card": "3D"}


def test_no_question_without_a_buyer():
    state = stacked_rummy_round(load_ruleset("zioncheck-family"), HANDS, "5C", STOCK)
    state.apply(DRAW)
    for _ in range(3):
        state.apply(PASS)
    assert state.turn == CHANCE  # no one asked to buy: nothing to answer


def test_refusing_under_take_gives_the_player_the_discard_instead_of_a_stock_draw(tmp_path):
    state = asked(load_ruleset(ruleset(tmp_path, "take")))
    assert set(state.legal_actions()) == {ALLOW, REFUSE}
    stock = len(state.stock)
    state.apply(REFUSE)
    assert [e for e in state.events[-2:]] == [
        {"event": "refuse", "round": 1, "seat": 1, "buyer": 0, "card": "5C"},
        {"event": "draw", "round": 1, "seat": 1, "from": "discard", "card": "5C", "refused": 0}]
    assert card("5C") in state.hands[1] and len(state.hands[1]) == 12 and state.pile == []
    assert len(state.stock) == stock  # no stock draw, no penalty
    assert state.buys == [0, 0, 0, 0] and len(state.hands[0]) == 11
    assert state.turn == 1 and state.phase == "play"  # plays on as after a take
    assert Discard(card("8C")) in state.legal_actions()


def test_under_take_a_player_who_may_not_take_the_discard_may_only_allow(tmp_path):
    path = ruleset(tmp_path, "take", "take_discard:\n  may:\n    rule: \"round > 1\"\n"
                                     "    message: \"no taking the discard in round 1\"\n")
    state = asked(load_ruleset(path))
    assert state.legal_actions() == [ALLOW]
    with pytest.raises(IllegalActionError, match="you may only allow it: refusing means taking the discard "
                                                 "yourself, and no taking the discard in round 1"):
        state.apply(REFUSE)
    state.apply(ALLOW)
    assert state.events[-1]["event"] == "buy"


def test_the_question_takes_only_an_answer_and_only_when_there_is_one():
    rules = load_ruleset("zioncheck-family")
    state = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    with pytest.raises(IllegalActionError, match="there is no buy to allow now"):
        state.apply(ALLOW)  # seat 1 has not even declined the discard
    state.apply(DRAW)
    assert ALLOW not in state.legal_actions() and REFUSE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="there is no buy to refuse now"):
        state.apply(REFUSE)  # seat 2, in the window: only the player in turn answers, afterwards
    state.apply(PASS)
    state.apply(PASS)
    state.apply(BUY)
    for wrong in (BUY, PASS, TAKE, DRAW, Discard(card("8C"))):
        with pytest.raises(IllegalActionError, match=f"seat 0 wants to buy 5C: allow or refuse it, not '{wrong}'"):
            state.apply(wrong)
    assert state.phase == "veto" and state.turn == 1
    state.apply(REFUSE)
    state.apply(state.chance_action())
    with pytest.raises(IllegalActionError, match="there is no buy to refuse now"):
        state.apply(REFUSE)


def test_the_answers_are_typed_and_printed_as_allow_and_refuse():
    rules = load_ruleset("zioncheck-family")
    state = asked(rules)
    obs = state.observation(1)
    assert (str(ALLOW), str(REFUSE)) == ("allow", "refuse")
    for text, action in (("allow", ALLOW), ("refuse", REFUSE), ("yes", ALLOW), ("no", REFUSE), ("deny", REFUSE),
                         ("permit", ALLOW)):
        assert parse_input(rules, obs, text) == action
    window = stacked_rummy_round(rules, HANDS, "5C", STOCK)
    window.apply(DRAW)
    assert parse_input(rules, window.observation(2), "no") == PASS  # outside the question "no" passes
    with pytest.raises(IllegalActionError, match="allow or refuse the buy"):
        parse_input(rules, obs, "maybe")


class _Renderer:
    names = ["Ann", "Bob", "Cy", "Di"]

    def card(self, name):
        return name


def test_the_table_asks_the_player_in_turn_in_plain_words():
    rules = load_ruleset("zioncheck-family")
    state = asked(rules)
    view = RummyView(rules, _Renderer())
    assert view.prompt(state.observation(1), state.legal_actions()) == "Ann wants to buy 5C: allow or refuse?"


def test_the_observation_shows_the_buyer_and_the_card_but_no_other_hand():
    state = asked(load_ruleset("zioncheck-family"))
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.phase == "veto" and obs.turn == 1 and obs.player == 1
        assert obs.buyer == 0 and obs.top_discard == card("5C")
        assert obs.hand == tuple(state.hands[seat])  # its own hand only
        assert obs.hand_counts == tuple(len(h) for h in state.hands)


def play_and_replay(rules, path, seats, seed, tmp_path):
    state = new_game(rules, len(seats), seed, ruleset_ref=str(path) if path else None)
    play_out(state, make_policies(rules, seats, seed))
    assert state.is_over
    record = tmp_path / f"game-{seed}-{'-'.join(seats)}.jsonl"
    save_record(state, record)
    assert replay(record).state.totals == state.totals
    again = replay(record, check_deals=False)  # --any-deal: every outcome taken from the record
    assert again.complete and again.state.events[1:] == state.events[1:]  # (the game line names the file
    # relative to the record)
    return state


@pytest.mark.parametrize("veto", ["refuse", "take"])
def test_games_with_refusals_replay_exactly(tmp_path, veto):
    path = ruleset(tmp_path, veto, "take_discard:\n  may:\n    rule: \"round != 2\"\n    message: \"not in round 2\"\n"
                   if veto == "take" else "")
    rules = load_ruleset(path)
    refusals = allowed = 0
    for seed in range(3):
        for seats in (["bot"] * 4, ["random"] * 4, ["bot", "random", "bot"]):
            state = play_and_replay(rules, path, seats, seed, tmp_path)
            kinds = [e["event"] for e in state.events]
            refusals += kinds.count("refuse")
            allowed += kinds.count("buy")
            for i, e in enumerate(state.events):
                if e["event"] == "refuse":
                    follow = state.events[i + 1]
                    assert follow["event"] == "draw" and follow["seat"] == e["seat"]
                    assert follow["from"] == ("discard" if veto == "take" else "stock")
                    if veto == "take":
                        assert follow["card"] == e["card"] and e["round"] != 2
    assert refusals > 0 and allowed > 0


def veto_record(tmp_path, veto):
    """A bot game with refused buys under ``veto``, recorded: (the game, the record's lines)."""
    path = ruleset(tmp_path, veto)
    rules = load_ruleset(path)
    state = new_game(rules, 4, 0, ruleset_ref=str(path))
    play_out(state, make_policies(rules, ["bot"] * 4, 0))
    record = tmp_path / f"whole-{veto}.jsonl"
    save_record(state, record)
    lines = record.read_text().splitlines()
    assert any(json.loads(line)["event"] == "refuse" for line in lines)
    return state, lines


def replay_lines(tmp_path, lines):
    record = tmp_path / "edited.jsonl"
    record.write_text("\n".join(lines) + "\n")
    return replay(record)


@pytest.mark.parametrize("veto", ["refuse", "take"])
def test_a_record_that_lost_a_refuse_line_is_refused_at_the_draw_after_it(tmp_path, veto):
    # A refused buy leaves the game as if every seat had passed (which is not written), so
    # the draw after it says whose buy was refused, and a replay misses the line.
    state, lines = veto_record(tmp_path, veto)
    at = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "refuse")
    refusal, draw = json.loads(lines[at]), json.loads(lines[at + 1])
    assert draw == {"event": "draw", "round": refusal["round"], "seat": refusal["seat"],
                    "from": "discard" if veto == "take" else "stock", "card": draw["card"],
                    "refused": refusal["buyer"]}
    with pytest.raises(RecordError) as refused:
        replay_lines(tmp_path, lines[:at] + lines[at + 1:])
    assert refused.value.line == at + 1  # the draw's line, where the refuse line was
    assert str(refused.value).endswith(f'this draw follows a refused buy ("refused": {refusal["buyer"]}), but no '
                                       '"refuse" line comes before it')


@pytest.mark.parametrize("veto", ["refuse", "take"])
def test_no_line_of_a_veto_can_be_left_out_unseen(tmp_path, veto):
    state, lines = veto_record(tmp_path, veto)
    kinds = [json.loads(line)["event"] for line in lines]
    tried = [i for kind in ("refuse", "buy") for i in [j for j, k in enumerate(kinds) if k == kind][:4]]
    tried += [i + 1 for i in tried if kinds[i] == "refuse"]  # the draw after a refusal
    for i in tried:
        with pytest.raises(RecordError):
            replay_lines(tmp_path, lines[:i] + lines[i + 1:])


@pytest.mark.parametrize("veto", ["refuse", "take"])
def test_a_record_of_an_earlier_release_without_refused_on_its_draws_still_replays(tmp_path, veto):
    state, lines = veto_record(tmp_path, veto)
    earlier = [dump_event({k: v for k, v in json.loads(line).items() if k != "refused"}) for line in lines]
    assert earlier != lines
    result = replay_lines(tmp_path, earlier)
    assert result.complete and result.state.totals == state.totals


def test_a_draw_that_says_a_buy_was_refused_where_none_was_is_refused(tmp_path):
    state, lines = veto_record(tmp_path, "refuse")
    at = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "draw"
              and json.loads(lines[i - 1])["event"] == "buy")  # a draw after an allowed buy
    draw = json.loads(lines[at])
    lines[at] = json.dumps(dict(draw, refused=(draw["seat"] + 1) % 4))
    with pytest.raises(RecordError, match='no "refuse" line comes before it') as refused:
        replay_lines(tmp_path, lines)
    assert refused.value.line == at + 1


def test_a_game_saved_at_the_question_resumes_there(tmp_path):
    rules = load_ruleset("zioncheck-family")
    seats = ["bot", "random", "bot", "random"]
    policies = make_policies(rules, seats, 5)
    state = new_game(rules, 4, 5, ["a", "b", "c", "d"])
    moves = []
    while state.phase != "veto":
        if state.turn == CHANCE:
            state.apply(state.chance_action())
            continue
        action = policies[state.turn].act(state.observation(state.turn), state.legal_actions())
        moves.append(str(action))
        state.apply(action)
    header = new_header(rules, None, 5, None, ["human"] * 4, ["a", "b", "c", "d"])
    resumed, _, _ = restore(SavedGame(header, moves))
    assert resumed.phase == "veto" and resumed.turn == state.turn and resumed.buyer == state.buyer
    assert resumed.events == state.events and resumed.legal_actions() == state.legal_actions()
    for game in (state, resumed):
        game.apply(REFUSE)
    # and a save that ends with the answer resumes after it
    after, _, _ = restore(SavedGame(header, moves + ["refuse"]))
    assert after.events == state.events == resumed.events and after.turn == CHANCE


def test_veto_without_buying_is_a_warning(tmp_path):
    path = tmp_path / "no-buying.yaml"
    path.write_text("extends: zioncheck-family\nname: no-buying\nbuying: {allowed: false, veto: refuse}\n")
    warnings = [w.message for w in load_ruleset(path).warnings]
    assert warnings == ["buying is not allowed, so there is never a buy to refuse"]
    assert load_ruleset(ruleset(tmp_path, "take")).warnings == ()


def test_an_unknown_veto_is_refused_by_the_schema(tmp_path):
    from cardrules.interpreter.errors import RulesetError

    with pytest.raises(RulesetError, match="'deny' is not one of none, refuse, take"):
        load_ruleset(ruleset(tmp_path, "deny"))


def test_without_a_veto_nobody_is_asked(tmp_path):
    state = asked(load_ruleset(ruleset(tmp_path, "none")))  # the default, as written before the veto
    assert state.turn == CHANCE and state.phase == "draw"
    assert state.events[-1] == {"event": "buy", "round": 1, "seat": 0, "card": "5C", "penalty": ["2D"]}
    assert load_ruleset("contract-rummy-bicycle").section.buying.veto == "none"


def test_a_person_at_the_table_is_asked_and_can_quit_and_resume_at_the_question(run_cli, tmp_path):
    # seed 1: the person (seat 1, first to act) draws; bot-2 wants the flip card (a joker)
    game = ["zioncheck-family", "--seats", "bot,human,bot,bot", "--seed", "1", "--fast", "--ascii"]
    straight = tmp_path / "straight.jsonl"
    result = run_cli("play", *game, "--save", str(tmp_path / "s0.jsonl"), "--record", str(straight),
                     input="draw\nrefuse\nquit\n")
    assert "you, bot-2 wants to buy Jkr: allow or refuse? >" in result.output
    assert "you refuse bot-2's buy of Jkr" in result.output
    save = tmp_path / "s1.jsonl"
    first = run_cli("play", *game, "--save", str(save), input="draw\nquit\n")  # quits at the question
    assert "Game saved" in first.output
    resumed = tmp_path / "resumed.jsonl"
    second = run_cli("resume", str(save), "--fast", "--ascii", "--record", str(resumed), input="refuse\nquit\n")
    assert "bot-2 wants to buy Jkr: allow or refuse?" in second.output
    assert resumed.read_text() == straight.read_text()


def test_a_bank_of_buys_for_the_whole_game_is_a_counter(tmp_path):
    # "each player may buy six times in the whole game": the buys of earlier rounds are a
    # counter, this round's are `buys`; once six are used no seat is offered the discard
    from cardrules.interpreter import load_ruleset as load
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.driver import play_out
    from cardrules.interpreter.game import new_game
    path = tmp_path / "bank.yaml"
    path.write_text("extends: shanghai\nname: bank\ncounters: {bought: {update: \"bought + buys\"}}\n"
                    "buying: {limit: 99, may: {rule: \"bought + buys < 6\", message: \"six buys a game\"}}\n")
    rules = load(path)
    for seed in range(3):
        state = new_game(rules, 4, seed)
        play_out(state, make_policies(rules, ["bot"] * 4, seed))
        buys = [0] * 4
        for e in state.events:
            if e["event"] == "buy":
                buys[e["seat"]] += 1
        assert state.seat_counters["bought"] == buys
        assert max(buys) == 6  # the bots buy freely: without the bank they make 25-49 a game
