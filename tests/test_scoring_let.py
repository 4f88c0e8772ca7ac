"""scoring.let: named values of one seat's scoring, read by the points and the counters."""

from __future__ import annotations

import pytest

from cardrules.interpreter import RulesetError, ruleset_from_text
from cardrules.interpreter.driver import play_bots

INLINE = """
extends: spades
name: inline
counters:
  bags:
    update: "(bags + (if team_tricks > team_bid then team_tricks - team_bid else 0)) % 10"
scoring:
  points: "if seat >= 2 then 0 else (if team_tricks >= team_bid then 10 * team_bid + (if team_tricks > team_bid then team_tricks - team_bid else 0) else -10 * team_bid) - (if bags + (if team_tricks > team_bid then team_tricks - team_bid else 0) >= 10 then 100 else 0)"
"""

NAMED = """
extends: spades
name: named
counters:
  bags:
    update: "(bags + over) % 10"
scoring:
  let:
    over: "if team_tricks > team_bid then team_tricks - team_bid else 0"
    made: "team_tricks >= team_bid"
    side: "if made then 10 * team_bid + over else -10 * team_bid"
  points: "if seat >= 2 then 0 else side - (if bags + over >= 10 then 100 else 0)"
"""


@pytest.mark.parametrize("seed", range(4))
def test_named_values_score_as_the_formula_written_out(seed):
    inline, named = ruleset_from_text(INLINE), ruleset_from_text(NAMED)
    a = play_bots(inline, ["bot"] * 4, seed)
    b = play_bots(named, ["bot"] * 4, seed)
    assert [e for e in a.events if e["event"] == "score"] == [e for e in b.events if e["event"] == "score"]
    assert a.counters == b.counters and any(a.totals)


def test_a_named_value_may_not_take_a_bound_name_and_is_checked_at_its_line():
    with pytest.raises(RulesetError) as err:
        ruleset_from_text(NAMED.replace("    made:", "    bid:"))
    assert "'bid' is a name the language" in str(err.value)
    with pytest.raises(RulesetError) as err:
        ruleset_from_text(NAMED.replace('"team_tricks >= team_bid"', '"team_trick >= team_bid"'))
    assert "<text>:10:12: unknown name 'team_trick'" in str(err.value)


def test_explain_lists_the_named_values():
    from cardrules.interpreter.explain import explain

    text = explain(ruleset_from_text(NAMED))
    assert "- `over` = `if team_tricks > team_bid then team_tricks - team_bid else 0`" in text
