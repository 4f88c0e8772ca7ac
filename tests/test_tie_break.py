"""tie_break: of the seats tied for the best total, those best by each rule win (a tie
they leave is shared); Blackout's "the player who correctly bid the most rounds wins"."""

from __future__ import annotations

import textwrap

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import new_game


def _ruleset(tmp_path, extra):
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent("""\
        extends: oh-hell
        name: everyone-ties
        deal: {hand_size: "[1, 1]"}
        scoring: {points: "0"}
        counters:
          exact: {update: "exact + (if tricks == bid then 1 else 0)"}
        """) + extra)
    return load_ruleset(str(path))


def test_without_a_tie_break_every_seat_tied_for_the_best_total_wins(tmp_path):
    rules = _ruleset(tmp_path, "")
    state = new_game(rules, 4, 1)
    play_out(state, make_policies(rules, ["random"] * 4, 1))
    assert state.winners == [0, 1, 2, 3]


def test_the_tied_seat_with_the_most_exact_bids_wins_then_by_the_next_rule(tmp_path):
    rules = _ruleset(tmp_path, "tie_break:\n  - rule: exact\n  - {rule: seat, best: lowest}\n")
    for seed in range(6):
        state = new_game(rules, 4, seed)
        play_out(state, make_policies(rules, ["random"] * 4, seed))
        exact = state.counters["exact"]
        most = max(exact)
        assert state.winners == [min(s for s in range(4) if exact[s] == most)]
        assert state.events[-1]["winners"] == state.winners


def test_a_tie_break_only_splits_the_tied_best(tmp_path):
    # a seat ahead on the totals wins whatever the tie-break says of the others
    path = tmp_path / "r.yaml"
    path.write_text("extends: oh-hell\nname: ahead\ndeal: {hand_size: \"[2]\"}\nscoring: {points: \"seat\"}\n"
                    "tie_break:\n  - {rule: seat, best: lowest}\n")
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 2)
    play_out(state, make_policies(rules, ["bot"] * 4, 2))
    assert state.winners == [3]


def test_blackout_applies_its_tie_break(run_cli):
    result = run_cli("explain", "blackout-pbmserv")
    assert "A tie for the best total goes to the player with the highest `exact` (`tie_break`)" in result.output


@pytest.mark.parametrize("extra, message", [
    ("tie_break:\n  - rule: nobody\n", "unknown name 'nobody'"),
    ("team: \"seat % 2\"\ntie_break:\n  - rule: exact\n", "tie_break ranks seats, not partnerships"),
])
def test_validate_refuses_a_tie_break_it_cannot_use(tmp_path, run_cli, extra, message):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: oh-hell\nname: bad\ncounters:\n  exact: {update: \"exact\"}\n" + extra)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:" in result.output and message in result.output, result.output


def test_validate_warns_of_a_tie_break_that_fails_at_zero(tmp_path, run_cli):
    # worked out only on a tie at the game's end, so validate tries it with every total and counter 0
    path = tmp_path / "zero.yaml"
    path.write_text("extends: oh-hell\nname: zero\ntie_break: [{rule: \"100 / total\"}]\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.count("warning: tie_break '100 / total' gives an error when every total and counter is 0 "
                               "(division by zero)") == 1
