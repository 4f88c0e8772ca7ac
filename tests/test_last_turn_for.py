"""going_out.last_turn_for: which of the others take the last turns after a player goes out
(where going_out.last_turns gives them).  Played over five-crowns: every other player (its
box rules, the default); only those after the goer in the round's turn order ("to the end of
the circuit": place > goer_place); no one."""

from __future__ import annotations

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.driver import play_bots


def _variant(tmp_path, rule):
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: five-crowns\nname: v\ngoing_out:\n  last_turn_for: {rule!r}\n")
    return load_ruleset(path)


def _last_turns(state):
    """For each round a player went out in: (the goer, the goer's place in the round's turn
    order, the seats that drew after it before the round's score)."""
    out = []
    first = None
    goer = None
    drew: list[int] = []
    for e in state.events:
        if e["event"] == "deal":
            first, goer, drew = (e["dealer"] + 1) % len(state.totals), None, []
        elif e["event"] == "out" and goer is None:
            goer = e["seat"]
        elif e["event"] == "draw" and goer is not None:
            drew.append(e["seat"])
        elif e["event"] == "score" and goer is not None:
            out.append((goer, (goer - first) % len(state.totals), first, drew))
    return out


@pytest.mark.parametrize("players", [3, 5])
def test_only_the_players_after_the_goer_in_the_circuit_take_a_last_turn(players, tmp_path):
    rules = _variant(tmp_path, "place > goer_place")
    rounds = 0
    for seed in range(3):
        state = play_bots(rules, ["bot"] * players, seed=seed)
        for goer, place, first, drew in _last_turns(state):
            expected = [(first + k) % players for k in range(place + 1, players)]
            assert drew == expected, (seed, goer, drew)
            rounds += 1
    assert rounds


def test_by_default_every_other_player_takes_one_and_with_none_the_round_ends_at_once(tmp_path):
    state = play_bots(load_ruleset("five-crowns"), ["bot"] * 4, seed=1)
    for goer, _, _, drew in _last_turns(state):
        assert sorted(drew) == sorted(s for s in range(4) if s != goer)
    state = play_bots(_variant(tmp_path, "false"), ["bot"] * 4, seed=1)
    assert all(drew == [] for *_, drew in _last_turns(state))
    assert state.is_over


def test_the_rule_needs_last_turns_and_its_names_are_taken(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("extends: shanghai-isra\nname: r\ngoing_out:\n  last_turn_for: 'place > goer_place'\n")
    with pytest.raises(RulesetError, match="last_turn_for says who takes the last turns, so it needs "
                                           "going_out.last_turns"):
        load_ruleset(path)
    path.write_text("extends: five-crowns\nname: r\ncounters:\n  goer_place: {initial: 0, update: '0'}\n")
    with pytest.raises(RulesetError, match="'goer_place' is a name the language"):
        load_ruleset(path)


def test_explain_says_who(tmp_path):
    from cardrules.interpreter.explain import explain
    text = explain(_variant(tmp_path, "place > goer_place"))
    assert "each other player for whom `place > goer_place` holds (`going_out.last_turn_for`) takes one last turn" in text
