"""going_down.later_melds naming kinds: once down, a player may put down new melds of the
kinds it lists on later turns, kinds of melds.kinds among them
(tests/data/good/later-kinds.yaml: Phase 10 with later sets, runs and colours)."""

from __future__ import annotations

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.contract_rummy.actions import GoDown
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.explain import explain
from cardrules.interpreter.record import replay, save_record

from helpers import DATA, TypedBack

RULES = DATA / "good" / "later-kinds.yaml"


def _later_melds(state):
    """The meld lines of seats already down in their round."""
    out, down = [], set()
    for i, e in enumerate(state.events):
        if e["event"] == "deal":
            down = set()
        elif e["event"] == "meld":
            if e["seat"] in down:
                out.append(i)
            down.add(e["seat"])
    return out


def _game_with_a_later_colour():
    """A bots' game with a later colour meld: (its rules, seed, the seats' moves in order,
    the meld line's place among the events)."""
    rules = load_ruleset(RULES)
    for seed in range(20):
        moves: list = []
        state = new_game(rules, 3, seed)
        play_out(state, make_policies(rules, ["bot"] * 3, seed), on_action=lambda seat, a: moves.append(a))
        for i in _later_melds(state):
            if any(m["kind"] == "colour" for m in state.events[i]["melds"]):
                return state, seed, moves, i
    raise AssertionError("no later colour meld in 20 games")


def test_a_later_meld_may_be_a_kind_of_the_rulesets_own_and_the_game_replays(tmp_path):
    state, _, _, at = _game_with_a_later_colour()
    meld = next(m for m in state.events[at]["melds"] if m["kind"] == "colour")
    colours = {c[-1] for c in meld["cards"] if c != "W"}
    assert len(colours) == 1 and len(meld["cards"]) >= 4
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path, str(RULES)).complete
    assert replay(path, str(RULES), check_deals=False).complete


def test_a_typed_later_meld_is_read_as_the_first_allowed_kind_its_cards_make():
    state, seed, moves, at = _game_with_a_later_colour()
    again = new_game(state.rules, 3, seed)
    played = iter(moves)
    while True:
        if again.turn == CHANCE:
            again.apply(again.chance_action())
            continue
        move = next(played)
        if isinstance(move, GoDown) and len(again.events) == at:
            break
        again.apply(move)
    typed = GoDown(move.melds, None, again.setup.pack)
    assert [m.name or m.kind.value for m in again.verify(typed)] == [m["kind"] for m in state.events[at]["melds"]]
    with pytest.raises(IllegalActionError, match="a new meld once down is a set or a run or a colour"):
        again.verify(GoDown(move.melds, ("pair",) * len(move.melds), again.setup.pack))
    again.apply(typed)
    assert again.events[at] == state.events[at]


def test_only_kinds_of_the_language_or_the_ruleset_are_named(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("extends: phase-10\nname: r\ngoing_down:\n  later_melds: [set, pair]\n")
    with pytest.raises(RulesetError, match="'pair' is no kind of meld: later melds are set, run or a kind of "
                                           r"melds.kinds \(colour\)"):
        load_ruleset(path)


def test_explain_names_the_kinds():
    assert "Once down, a player may also put down new sets, runs, colours (each of at least its least size)" \
        in explain(load_ruleset(RULES))


@pytest.mark.parametrize("later", [[], ["run"], ["run", "set"], ["colour", "run", "set"]])
def test_every_listed_later_meld_typed_back_is_the_same_meld(later, tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {RULES}\nname: r\n" + (f"going_down:\n  later_melds: [{', '.join(later)}]\n" if later else ""))
    rules = load_ruleset(path)
    checked = 0
    for seed in range(3):
        state = new_game(rules, 3, seed)
        seats = [TypedBack(p, state) for p in make_policies(rules, ["bot"] * 3, seed)]
        play_out(state, seats)
        checked += sum(s.checked for s in seats)
    assert checked
