"""The scoring sees every seat's total before the round (``totals``, ``team_totals``):
Hearts' house rule "a player whose score reaches exactly 100 goes back to 50"."""

from __future__ import annotations

import textwrap

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import new_game

RESET = textwrap.dedent("""\
    extends: hearts
    name: hearts-hundred-resets
    scoring:
      let:
        shot_the_moon: "card_points == all_card_points"
        moon_shot_by_another: "max(card_points_by_seat) == all_card_points and card_points != all_card_points"
        base: "if shot_the_moon then 0 else if moon_shot_by_another then all_card_points else card_points"
      points: "if totals[seat] + base == 100 then 50 - totals[seat] else base"
    rounds: {end_when: "max(totals) > 100"}
    """)


def _points(card):
    return (1 if card[1] == "H" else 0) + (13 if card == "QS" else 0)


def test_a_score_of_exactly_100_goes_back_to_50(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(RESET)
    rules = load_ruleset(str(path))
    resets = 0
    for seed in range(12):
        state = new_game(rules, 4, seed)
        play_out(state, make_policies(rules, ["bot", "random", "bot", "random"], seed))
        totals = [0] * 4
        taken = [[] for _ in range(4)]
        plays = []
        for e in state.events:
            if e["event"] == "deal":
                taken, plays = [[] for _ in range(4)], []
            elif e["event"] == "play":
                plays.append(e["card"])
            elif e["event"] == "trick":
                taken[e["winner"]] += plays[-4:]
            elif e["event"] == "score":
                base = [sum(_points(c) for c in cards) for cards in taken]
                if 26 in base:
                    base = [0 if b == 26 else 26 for b in base]
                want = [50 - t if t + b == 100 else b for t, b in zip(totals, base)]
                resets += sum(1 for t, b in zip(totals, base) if t + b == 100)
                assert e["points"] == want
                totals = [t + p for t, p in zip(totals, want)]
        assert max(totals) > 100
    assert resets > 0, "some game reached exactly 100"
