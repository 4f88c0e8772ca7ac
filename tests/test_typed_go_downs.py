"""A listed go-down, written as a player types it, reads back as the same move: its text
names each meld's kind (`meld set: 8H 8S JK | run: 5D 6D JK 8D`), so a bot's go-down kept
in a save resumes, a web button's move is the move shown, and a player can type a meld that
the cards alone would read as another kind (a run of one natural card and wild cards, a
kind of the ruleset's own smaller than a set)."""

from __future__ import annotations

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.contract_rummy.textio import parse_input
from cardrules.interpreter.game import new_game

from helpers import TypedBack

ACES = """extends: contract-rummy-best-family
name: aces-pair
melds:
  kinds:
    aces: {like: set, min_size: 2, rule: "len(ranks) >= 1 and count(ranks, ace) == len(ranks)"}
contracts:
  - {melds: [aces, set], name: "a pair of aces and a set"}
deal:
  hand_size: "[10]"
"""


def _rules(name, tmp_path):
    if name != "aces":
        return load_ruleset(name)
    path = tmp_path / "aces.yaml"
    path.write_text(ACES)
    return load_ruleset(path)


@pytest.mark.parametrize("name", ["aces", "phase-10", "liverpool-rummy-reference", "five-crowns"])
def test_every_listed_go_down_typed_back_is_the_same_move(name, tmp_path):
    rules = _rules(name, tmp_path)
    checked = 0
    for seed in range(2):
        state = new_game(rules, 3, seed)
        seats = [TypedBack(p, state) for p in make_policies(rules, ["bot"] * 3, seed)]
        play_out(state, seats)
        checked += sum(s.checked for s in seats)
    assert checked


def test_a_kind_may_lead_each_meld_typed_for_every_meld_or_none():
    typed = parse_input("call", "meld aces: ah jk | set:7h 7d 7c")
    assert typed.kinds == ("aces", "set") and len(typed.melds) == 2
    assert parse_input("call", "meld ah jk | 7h 7d 7c").kinds is None
    with pytest.raises(IllegalActionError, match="give every meld its kind"):
        parse_input("call", "meld aces: ah jk | 7h 7d 7c")


@pytest.mark.parametrize("name", ["aces", "phase-10"])
def test_a_bots_go_downs_survive_a_save_and_resume(name, tmp_path):
    """The outside author's report: a bot went down with a pair of aces (a kind smaller than
    a set), the save kept the move's text, and the game could not be resumed."""
    from cardrules.interpreter.saves import SavedGame, new_header, restore
    rules = _rules(name, tmp_path)
    seats = ["bot"] * 3
    for seed in range(2):
        state = new_game(rules, 3, seed)
        moves: list[str] = []
        play_out(state, make_policies(rules, seats, seed), on_action=lambda seat, a: moves.append(str(a)))
        assert any(m.startswith("meld ") for m in moves)
        header = new_header(rules, None, seed, None, seats, ["a", "b", "c"])
        restored, _, _ = restore(SavedGame(header, moves), rules=rules)
        assert restored.events[1:] == state.events[1:]  # (the game line names the seats)
