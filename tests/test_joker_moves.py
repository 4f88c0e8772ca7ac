"""melds.jokers.move_to_end: a natural card laid off in the place of a run's joker that
stands for it, the joker moving to the run's high end (its low end when the run cannot go
higher): the meld engine's answers, listed moves, records that replay, the rules in words."""

from __future__ import annotations

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.contract_rummy.meld_checks import Meld
from cardrules.interpreter.families.contract_rummy.rules import RUN
from cardrules.interpreter.game import new_game
from cardrules.interpreter.record import replay, save_record

from helpers import DATA

MOVES = str(DATA / "good" / "shanghai-joker-moves.yaml")


def _engine(name):
    state = new_game(load_ruleset(name), 4, 1)
    state.apply(state.chance_action())
    pack = state.setup.pack
    return state.meld_engine, pack


def _run(engine, pack, codes):
    return engine.make(RUN, [pack.card(c) for c in codes])


@pytest.mark.parametrize("codes, card, after", [
    (["5H", "6H", "JK", "8H"], "7H", ["5H", "6H", "7H", "8H", "JK"]),  # to the high end
    (["TH", "JK", "QH", "KH"], "JH", ["TH", "JH", "QH", "KH", "JK"]),  # the joker above the king: an ace
])
def test_the_natural_takes_the_jokers_place_and_the_joker_moves_to_an_end(codes, card, after):
    engine, pack = _engine(MOVES)
    meld = _run(engine, pack, codes)
    moved = engine.lay_off(meld, pack.card(card))
    assert moved is not None and moved.names(pack.codes) == after, moved
    assert pack.card(card) in engine.accepts(meld)
    plain, _ = _engine("shanghai-isra")  # without the rule the card fits no end of the run
    assert plain.lay_off(_run(plain, pack, codes), pack.card(card)) is None


def test_the_joker_goes_low_when_the_run_cannot_go_higher():
    engine, pack = _engine(MOVES)
    meld = _run(engine, pack, ["JH", "JK", "KH", "AH"])  # up to the ace: no room above
    moved = engine.lay_off(meld, pack.card("QH"))
    assert moved is not None and moved.names(pack.codes) == ["JK", "JH", "QH", "KH", "AH"]


def test_a_card_no_joker_stands_for_is_not_taken():
    engine, pack = _engine(MOVES)
    meld = _run(engine, pack, ["5H", "6H", "JK", "8H"])
    assert engine.lay_off(meld, pack.card("7S")) is None and pack.card("7S") not in engine.accepts(meld)


def test_bots_lay_off_in_a_jokers_place_and_the_records_replay(tmp_path):
    rules = load_ruleset(MOVES)
    moved = 0
    for seed in range(6):
        state = new_game(rules, 4, seed)
        play_out(state, make_policies(rules, ["bot", "random", "bot", "bot"], seed))
        for e in state.events:
            if e["event"] == "layoff" and len(e["cards"]) == 1 and e["cards"][0] != "JK":
                after = e["cards_after"]
                naturals = [c for c in after if c != "JK"]
                is_run = len({c[1] for c in naturals}) == 1 and len(set(naturals)) == len(naturals)
                if is_run and after.index(e["cards"][0]) not in (0, len(after) - 1):  # in a joker's place
                    assert after[0] == "JK" or after[-1] == "JK"
                    moved += 1
        path = tmp_path / f"g{seed}.jsonl"
        save_record(state, path)
        assert replay(path, MOVES).state.totals == state.totals
    assert moved > 0


def test_explain_says_the_joker_moves(run_cli):
    result = run_cli("explain", MOVES)
    assert "the joker then moves to the run's high end (its low end when the run cannot go higher)" in result.output
