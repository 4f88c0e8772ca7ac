"""A game that ends on a score (`rounds.end_when`): "the first team to reach 500 points
is the winner of the game" (Spades)."""

from __future__ import annotations

import pytest

from cardrules.interpreter import EvaluationError, load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.record import replay, save_record


@pytest.mark.parametrize("seed", range(4))
def test_spades_ends_after_the_deal_in_which_a_partnership_reaches_500(tmp_path, seed):
    rules = load_ruleset("spades-500")
    state = new_game(rules, 4, seed, ruleset_ref="spades-500")
    play_out(state, make_policies(rules, ["bot", "random", "bot", "random"] if seed % 2 else ["bot"] * 4, seed))
    scores = [e for e in state.events if e["event"] == "score"]
    team = lambda totals, t: sum(x for s, x in enumerate(totals) if s % 2 == t)  # noqa: E731
    before, last = scores[:-1], scores[-1]
    assert all(max(team(e["totals"], 0), team(e["totals"], 1)) < 500 for e in before)
    assert max(team(last["totals"], 0), team(last["totals"], 1)) >= 500 or len(scores) == 60
    assert state.round_index == len(scores)
    end = state.events[-1]
    best = max((0, 1), key=lambda t: team(end["totals"], t))
    assert set(end["winners"]) == {best, best + 2}
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


def test_a_target_on_individual_totals(tmp_path):
    path = tmp_path / "to30.yaml"
    path.write_text("extends: oh-hell\nname: to30\nrounds: {end_when: \"max(totals) >= 30\"}\n")
    rules = load_ruleset(path)
    state = new_game(rules, 4, 3)
    play_out(state, make_policies(rules, ["bot"] * 4, 3))
    scores = [e for e in state.events if e["event"] == "score"]
    assert max(scores[-1]["totals"]) >= 30 and all(max(e["totals"]) < 30 for e in scores[:-1])
    assert len(scores) < len(state.setup.hand_sizes)


def test_a_failing_end_rule_names_itself(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: oh-hell\nname: bad\nrounds: {end_when: \"totals[9] > 0\"}\n")
    rules = load_ruleset(path)
    state = new_game(rules, 4, 0)
    with pytest.raises(EvaluationError, match="rounds.end_when"):
        play_out(state, make_policies(rules, ["random"] * 4, 0))


def test_explain_and_simulate_say_how_the_game_ends(run_cli):
    explained = run_cli("explain", "spades-500")
    assert "`max(team_totals) >= 500` holds" in explained.output
    result = run_cli("simulate", "spades-500", "--games", "4", "--seed", "1", "--json")
    import json
    stats = json.loads(result.output)
    assert stats["mean_rounds_per_game"] < 60
