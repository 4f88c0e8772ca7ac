"""melds.wild_natural: a wild card in its own place counts as the natural card it is
("deuces are wild, but a deuce may also be played as a natural two").  The house rule
of tests/data/good/deuces-natural.yaml: shanghai-isra with every deuce wild, at most one
wild card a meld and at least two natural cards in each; the same rules without
wild_natural read every deuce as a joker."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.cards import card
from cardrules.interpreter.families.contract_rummy.actions import GoDown
from cardrules.interpreter.families.contract_rummy.rules import RUN, SET
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.ruleset import ruleset_from_text
from helpers import DATA, rummy_draw, stacked_rummy_round

NATURAL = DATA / "good" / "deuces-natural.yaml"


def cards(text):
    return tuple(card(c) for c in text.split())


def engine(path: Path | str, off: bool = False):
    """The meld engine of round 1 of a game of ``path`` (``off``: without wild_natural)."""
    rules = load_ruleset(path) if not off else _off(path)
    state = new_game(rules, 4, seed=0)
    while state.turn < 0:
        state.apply(state.chance_action())
    return state.meld_engine


def _off(path):
    text = Path(path).read_text().replace("wild_natural: true", "wild_natural: false")
    return ruleset_from_text(text.replace("name: deuces-natural", "name: deuces-joker"))


@pytest.mark.parametrize("text, rank", [("2S 2H 2D", 0), ("2S 2H JK", 0), ("5S 5H 2C", 3), ("2C 2C 2H 2D", 0)])
def test_a_set_of_its_own_rank_holds_the_deuce_as_a_natural_two(text, rank):
    on, off = engine(NATURAL), engine(NATURAL, off=True)
    meld = on.make(SET, cards(text))
    assert meld.rank == rank  # (ranks by place: 0 is the two)
    assert on.wilds(meld) == (1 if "JK" in text or rank else 0)
    if rank == 0:  # as jokers: three wild cards where one is allowed
        assert off.why_not_set(cards(text)) is not None


@pytest.mark.parametrize("text, wilds", [("AH 2H 3H 4H", 0), ("2H 3H 4H 5H", 0), ("2H JK 4H 5H", 1),
                                         ("2C 3H 4H 5H", 1), ("2H 2C 4H 5H", 1), ("3H 4H 2H 6H", 1)])
def test_a_deuce_in_its_own_place_in_a_run_is_no_wild_card(text, wilds):
    on = engine(NATURAL)
    meld = on.make(RUN, cards(text))
    assert on.wilds(meld) == wilds
    if text in ("2H JK 4H 5H", "2H 2C 4H 5H"):  # two wild cards when the deuce is one
        assert engine(NATURAL, off=True).why_not_run(cards(text)) == "a run of 4 may hold at most 1 joker"


@pytest.mark.parametrize("text", ["2S 2H 5C", "5S 2H 2C", "2H JK JK 5H", "3H 2S 2C 6H"])
def test_deuces_out_of_their_own_place_are_wild_cards_within_the_limits(text):
    with pytest.raises(ValueError, match="at most 1 joker"):
        engine(NATURAL).classify(cards(text))


def test_a_deuce_in_its_own_place_is_never_swapped_out():
    on = engine(NATURAL)
    own = on.make(RUN, cards("AH 2H 3H 4H"))
    assert on.swap(own, card("2H")) is None and not on.swappable(own)
    stands = on.make(RUN, cards("3H 2S 5H 6H"))  # the 2S stands for the 4H
    assert on.swap(stands, card("4H")).cards == cards("3H 4H 5H 6H")
    deuces = on.make(SET, cards("2S 2H JK"))  # a swap puts in a card that is not wild: every two is
    assert on.swap(deuces, card("2D")) is None


def test_a_deuce_may_be_laid_off_in_its_own_place_where_a_joker_may_not():
    on = engine(NATURAL)
    full = on.make(RUN, cards("3H 4H JK 6H"))  # its one wild card
    assert on.lay_off(full, card("JK"), True) is None and on.lay_off(full, card("JK"), False) is None
    assert on.wild_ends(full, card("2H")) == (True,)  # the 2 of hearts below the 3: its own place
    assert on.lay_off(full, card("2H"), True).cards == cards("2H 3H 4H JK 6H")
    assert on.wild_ends(full, card("2C")) == ()  # another deuce would be a second wild card
    set_of_twos = on.make(SET, cards("2S 2H JK"))
    assert on.lay_off(set_of_twos, card("2C")).cards == cards("2S 2H JK 2C")
    assert on.lay_off(set_of_twos, card("JK")) is None


HOUSE = ("extends: shanghai\nname: deuces-natural-plain\nmelds:\n  wild: \"card_rank == 2\"\n  wild_natural: true\n"
         "  jokers: {per_meld: 1, min_natural: 2}\n")


def test_the_listing_finds_a_go_down_only_the_natural_reading_makes(tmp_path):
    rules = ruleset_from_text(HOUSE)  # round 1: two sets
    hands = ["2S 2H 2D 7C 7D 7S KH QH 9C 8D 4C", "3S 4S 5S 6S 8H 9H TH JH 3D 4D 5D",
             "3C 5C 6C 8C TC JC QC KC 3H 4H 5H", "6D 8S 9S TS JS QS KS AS 6H 9D TD"]
    state = stacked_rummy_round(rules, hands, "QD", ["AD", "KD", "JD"], dealer=3)
    assert state.turn == 0
    rummy_draw(state)
    listed = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert [sorted(sorted(m) for m in a.melds) for a in listed] == [sorted([sorted(cards("2S 2H 2D")),
                                                                            sorted(cards("7C 7D 7S"))])]
    state.apply(listed[0])
    meld = state.events[-1]
    assert [m["cards"] for m in meld["melds"]] == [["2S", "2H", "2D"], ["7S", "7D", "7C"]]
    # without the rule the three deuces are three jokers in one set: no go-down
    off = ruleset_from_text(HOUSE.replace("wild_natural: true", "wild_natural: false"))
    state = stacked_rummy_round(off, hands, "QD", ["AD", "KD", "JD"], dealer=3)
    rummy_draw(state)
    assert not [a for a in state.legal_actions() if isinstance(a, GoDown)]
    with pytest.raises(IllegalActionError, match="at most 1 joker"):
        state.verify(GoDown((cards("2S 2H 2D"), cards("7C 7D 7S"))))


def test_the_best_melding_of_a_hand_reads_the_deuces_as_twos_where_that_leaves_less():
    on = engine(NATURAL)
    points = [20 if c % 13 == 0 else 5 for c in range(60)]  # a deuce left in hand costs 20
    penalty, melds, left = on.best_melding(list(cards("2S 2H 2D 9C 9D KC")), points)
    assert [m.cards for m in melds] == [cards("2S 2H 2D")] and sorted(left) == sorted(cards("9C 9D KC"))
    penalty_off, melds_off, _ = engine(NATURAL, off=True).best_melding(list(cards("2S 2H 2D 9C 9D KC")), points)
    assert penalty == 15 and penalty_off == 45  # as jokers: 9C 9D and a deuce, 2S 2H KC left


def test_validate_warns_where_no_card_but_the_joker_is_wild(tmp_path, run_cli):
    path = tmp_path / "no-wild.yaml"
    path.write_text("extends: shanghai-isra\nname: no-wild\nmelds: {wild_natural: true}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 0
    assert "no card but the joker is wild" in result.output


def test_explain_says_so(run_cli):
    text = run_cli("explain", str(NATURAL)).output
    assert "A wild card in its own place counts as the natural card it is (`melds.wild_natural`)" in text
    assert "even in the place of its own rank" not in text


def test_a_freed_wild_card_owed_with_one_card_left_leaves_that_card_a_place():
    # Found by the legality test on this house rule: a seat down swapped a deuce out of a
    # run (owing it to the table this turn), then laid off a card, keeping two deuces: one
    # to pay the debt, the other its last card; both fitted only the same end of the same
    # run, so after paying the debt the last card fitted nowhere and the seat had no move.
    # A play that leaves one card and a debt must leave that card a place after the debt.
    import random
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.driver import play_out

    rules = load_ruleset(NATURAL)
    rng = random.Random("/work/main/tests/data/good/deuces-natural.yaml")  # (the test's draws that game)
    assert rng.randint(rules.min_players, rules.max_players) == 6
    state = new_game(rules, 6, seed=0)
    kinds = [rng.choice(["bot", "random"]) for _ in range(6)]
    assert kinds == ["bot", "random", "bot", "bot", "random", "random"]

    class Drawing:  # each decision draws from rng as the legality test's wrapper does
        def __init__(self, policy):
            self.policy, self.kind, self.needs_observation = policy, policy.kind, policy.needs_observation

        def act(self, observation, legal):
            rng.randrange(6)
            return self.policy.act(observation, legal)

    play_out(state, [Drawing(p) for p in make_policies(rules, kinds, 0)])
    assert state.is_over
    swaps = [i for i, e in enumerate(state.events) if e["event"] == "swap" and e["round"] == 2 and e["seat"] == 3]
    assert swaps  # the swap of round 2 that led to the dead end is still played
