"""Whist (short whist, the game of five), bundled as `whist`: "Each player is dealt 13
cards ... finishing with the dealer's last and 13th card, which is turned up and calls
trumps. This card belongs to the dealer" (whiteknucklecards.com), written with
`trump.no_upcard: dealer-last`; "the side which has won the most tricks scores 1 point for
each trick they won in excess of 6. The partnership which first reaches 5 points wins"."""

from __future__ import annotations

from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import CHANCE
from cardrules.interpreter.record import replay, save_record


def _game(seats, seed):
    rules = load_ruleset("whist")
    state = new_game(rules, 4, seed)
    play_out(state, make_policies(rules, seats, seed))
    assert state.is_over
    return state


@pytest.mark.parametrize("seats", [["bot"] * 4, ["random"] * 4, ["search:8", "bot", "random", "bot"]])
def test_the_dealers_last_card_calls_trumps_and_the_side_over_six_scores(seats, tmp_path):
    for seed in range(3):
        state = _game(seats, seed)
        events = state.events
        totals = [0, 0, 0, 0]
        deal = trump = None
        taken: Counter[int] = Counter()
        for e in events:
            if e["event"] == "deal":
                deal, taken = e, Counter()
                assert e["upcard"] is None and e["stock"] == 0  # the whole pack dealt
            elif e["event"] == "trump":
                trump = e
                last = deal["hands"][deal["dealer"]][-1]  # the dealer's last card
                assert e["upcard"] == last and e["suit"] == last[-1]
            elif e["event"] == "trick":
                taken[e["winner"]] += 1
            elif e["event"] == "score":
                assert trump is not None and sum(taken.values()) == 13
                sides = [taken[0] + taken[2], taken[1] + taken[3]]
                points = [max(0, sides[0] - 6), max(0, sides[1] - 6), 0, 0]  # on each side's first seat
                assert e["points"] == points
                assert max(totals[0] + totals[2], totals[1] + totals[3]) < 5  # no side had 5 before this deal
                totals = [t + p for t, p in zip(totals, points)]
        team_totals = [totals[0] + totals[2], totals[1] + totals[3]]
        assert max(team_totals) >= 5  # the game ended at the first deal a side reached 5
        best = team_totals.index(max(team_totals))
        assert sorted(state.winners) == [best, best + 2]
        record = tmp_path / f"whist-{seed}-{len(seats)}.jsonl"
        save_record(state, record)
        assert replay(record).state.totals == state.totals
        again = replay(record, check_deals=False)
        assert again.complete and again.state.totals == state.totals


def test_the_turned_card_is_the_dealers_and_every_seat_sees_it_until_played():
    rules = load_ruleset("whist")
    state = new_game(rules, 4, 5)
    state.apply(state.chance_action())
    dealer = state.dealer
    turned = state.upcard
    assert turned is not None and turned in state.hands[dealer] and len(state.hands[dealer]) == 13
    assert state.trump == state.setup.pack.suit_of[turned]
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.upcard == turned and obs.picked_up
        assert (turned in obs.hand) == (seat == dealer)
    assert state.turn != CHANCE


def test_validate_points_a_whole_pack_deal_to_it(tmp_path, run_cli):
    path = tmp_path / "w.yaml"
    path.write_text("extends: whist\nname: whist-forbidden\ntrump: {no_upcard: forbidden}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert "or dealer-last to turn the dealer's own last card, as in Whist" in result.output
