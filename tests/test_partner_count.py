"""going_out.counted: whose hand scores at the round's end.  Push (pagat; rummyrulebook):
"When one player gets rid of all their cards, the cards remaining in the other team's
hands score penalty points"; the partner of the player who went out scores nothing."""

from __future__ import annotations

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.driver import play_bots
from helpers import DATA

RULES = DATA / "good" / "partners-count-opponents.yaml"


def _rounds(state):
    """(who went out or None, the round's points) for each round of a finished game."""
    out, rounds = None, []
    for e in state.events:
        if e["event"] == "out" and out is None:
            out = e["seat"]
        elif e["event"] == "score":
            rounds.append((out, e["points"]))
            out = None
    return rounds


def test_going_out_scores_only_the_other_sides_hands(tmp_path):
    everyone = tmp_path / "everyone.yaml"  # the same game, every hand counted
    everyone.write_text(RULES.read_text().replace('  counted: "goer < 0 or team != goer_team"\n', "  count: all\n"))
    partners, plain = load_ruleset(RULES), load_ruleset(everyone)
    checked = partner_held = 0
    for seed in range(6):
        ours, theirs = play_bots(partners, ["bot"] * 4, seed=seed), play_bots(plain, ["bot"] * 4, seed=seed)
        # the bots do not read the scoring: the same seed plays the same game
        assert [e for e in ours.events if e["event"] not in ("score", "end", "game")] == \
               [e for e in theirs.events if e["event"] not in ("score", "end", "game")]
        for (goer, got), (_, all_points) in zip(_rounds(ours), _rounds(theirs)):
            if goer is None:
                assert got == all_points  # no one out: every hand counts
                continue
            for seat in range(4):
                partner = seat != goer and seat % 2 == goer % 2
                assert got[seat] == (0 if partner else all_points[seat])  # (the goer's bonus as before)
                partner_held += partner and all_points[seat] > 0
            checked += 1
    assert checked > 20 and partner_held > 10  # partners did hold cards that were not counted


def test_validate_refuses_a_count_rule_with_an_unknown_name(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(RULES.read_text().replace("team != goer_team", "team != winner_team"))
    with pytest.raises(RulesetError, match="winner_team"):
        load_ruleset(path)


def test_explain_says_whose_hands_score():
    from cardrules.interpreter.explain import explain
    text = explain(load_ruleset(RULES))
    assert "Only a hand for which `goer < 0 or team != goer_team` holds scores" in text
