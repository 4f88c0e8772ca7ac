"""Several decks: of two identical cards in one trick, the first played wins unless
`play.identical_cards: last-wins` ("the second beats the first")."""

from __future__ import annotations

import pytest

from cardrules.interpreter import ruleset_from_text
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.trick_taking.trickplay import winner_function

TWO_PACKS = """
extends: oh-hell
name: two-packs
deck: {decks: 2}
players: {min: 6, max: 8}
deal: {hand_size: "[8, 7, 6]"}
"""


@pytest.mark.parametrize("last, trick, winner", [
    (False, ["AS", "AS"], 0), (True, ["AS", "AS"], 1),
    (True, ["KS", "AS", "QS", "AS"], 3), (False, ["KS", "AS", "QS", "AS"], 1),
    (True, ["AS", "KS", "KS"], 0),  # the copies of a card that does not win change nothing
])
def test_which_identical_card_wins(last, trick, winner):
    plays = [(seat, card(c)) for seat, c in enumerate(trick)]
    suits = [c // 13 for c in range(52)] + [-1]
    power = [c % 13 for c in range(52)] + [0]
    for jokers in (False, True):  # the plain function and the one for packs with jokers
        assert winner_function(jokers, last)(plays, suits, power, None) == winner


def _tricks_with_the_winning_card_twice(rules, seeds):
    """(winner, seats that played the winning card, in order) of every trick whose
    winning card was played twice, over bot games of ``rules``."""
    found = []
    for seed in seeds:
        state = play_bots(rules, ["bot"] * 6, seed)
        plays: list[tuple[int, str]] = []
        for event in state.events:
            if event["event"] == "play":
                plays.append((event["seat"], event["card"]))
            elif event["event"] == "trick":
                won = next(c for s, c in plays if s == event["winner"])
                copies = [s for s, c in plays if c == won]
                if len(copies) > 1:
                    found.append((event["winner"], copies))
                plays = []
    return found


@pytest.mark.parametrize("rule, index", [("", 0), ("play: {identical_cards: first-wins}\n", 0),
                                         ("play: {identical_cards: last-wins}\n", -1)])
def test_whole_games_give_the_trick_to_the_copy_the_rule_names(rule, index):
    rules = ruleset_from_text(TWO_PACKS + rule)
    found = _tricks_with_the_winning_card_twice(rules, range(12))
    assert len(found) >= 3  # two packs and six hands: it happens
    assert all(winner == copies[index] for winner, copies in found)


def test_a_misspelt_choice_is_refused_at_its_line():
    from cardrules.interpreter.errors import RulesetError

    with pytest.raises(RulesetError, match="identical_cards"):
        ruleset_from_text(TWO_PACKS + "play: {identical_cards: second-wins}\n")
