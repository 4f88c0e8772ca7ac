"""Meld refusals say which meld failed and why, in the kind of meld the cards look like;
a run written high to low is read as the run it is; joker counts are right."""

from __future__ import annotations

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.families.contract_rummy.textio import parse_input

from helpers import stacked_rummy_round, rummy_draw

HANDS = ["2S 3S 4S 5S 6S 7S 8S 9H TH JH QH", "8H 7H 6H 5H 9S 9D 9C JK JK 2C 3D",
         "2D 4D 5D 6D 7D 8D TD JD QD KD AD", "3C 4C 5C 6C 7C 8C TC JC QC KC AC"]


def seat_one_to_play(tmp_path, contract="[set, run]"):
    path = tmp_path / "c.yaml"
    path.write_text(f"extends: shanghai\nname: c\ncontracts:\n  - {contract}\ndeal: {{hand_size: 11}}\n")
    state = stacked_rummy_round(load_ruleset(path), HANDS, "KS")
    rummy_draw(state)
    assert state.turn == 1
    return state


def test_a_run_written_high_to_low_goes_down_low_to_high(tmp_path):
    state = seat_one_to_play(tmp_path)
    state.apply(parse_input(state.phase, "meld 9s 9d 9c | 8h 7h 6h 5h"))
    meld = next(e for e in state.events if e["event"] == "meld")["melds"]
    assert [m["cards"] for m in meld] == [["9S", "9D", "9C"], ["5H", "6H", "7H", "8H"]]
    assert [m["kind"] for m in meld] == ["set", "run"]


@pytest.mark.parametrize("typed, reason", [
    ("meld 9s 9d | 5h 6h 7h 8h", "meld 1 (9S 9D) is not a meld: a set needs at least 3 cards"),
    ("meld 9s 9d 9c | 2c 3d jk", "meld 2 (2C 3D JK) is not a meld: it is neither a set (a set's cards must all "
                                 "be of one rank) nor a run (a run needs at least 4 cards)"),
    ("meld 9s 9d 9c | 5h 6h 8h 7h", "meld 2 (5H 6H 8H 7H) is not a meld: those cards are not in sequence"),
    ("meld 9s 9d 9c | 5h 6h jk jk jk", "you hold 2 JK; this needs 3"),
    ("meld 9s 9d 9c | 5h 5h 6h 7h", "you hold 1 5H; this needs 2"),
    ("meld 9s 9d 9c | 5h 6h 7h 4h", "you do not hold 4H"),
])
def test_a_refused_meld_says_what_failed(tmp_path, typed, reason):
    state = seat_one_to_play(tmp_path)
    with pytest.raises(IllegalActionError) as refused:
        state.verify(parse_input(state.phase, typed))
    assert str(refused.value).startswith(reason)
