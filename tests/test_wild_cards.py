"""Wild cards besides the jokers (``melds.wild``): deuces wild, red aces wild, a wild rank
that changes with the round.  A wild card is wild in every meld, counts toward the joker
limits, is swapped out like a joker, and scores its own rank's points."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.cards import JOKER, card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine
from cardrules.interpreter.families.contract_rummy.rules import RUN, SET, MeldSpec, wild_cards
from cardrules.interpreter.record import replay, save_record

DATA = Path(__file__).parent / "data"
DEUCES = DATA / "good" / "deuces-wild.yaml"  # shanghai-isra with every deuce wild
BY_ROUND = DATA / "good" / "wild-by-round.yaml"  # threes wild in round 1, fours in round 2...


def cards(text):
    return tuple(card(c) for c in text.split())


def engine(path, players=4, round_index=0):
    rules = load_ruleset(path)
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, round_index))


def test_the_wild_cards_of_each_round():
    rules = load_ruleset(DEUCES)
    setup = rules.setup(4)
    assert wild_cards(rules.section.melds, setup, 0) == {JOKER, *cards("2S 2H 2D 2C")}
    rules = load_ruleset(BY_ROUND)
    setup = rules.setup(4)
    assert wild_cards(rules.section.melds, setup, 0) == {JOKER, *cards("3S 3H 3D 3C")}
    assert wild_cards(rules.section.melds, setup, 9) == {JOKER, *cards("QS QH QD QC")}
    # without melds.wild only the joker is wild
    rules = load_ruleset("shanghai-isra")
    assert wild_cards(rules.section.melds, rules.setup(4), 0) == {JOKER}


@pytest.mark.parametrize("kind, text, problem", [
    ("set", "7H 2S 7C", None),  # a deuce stands in for a seven
    ("set", "7H 2S JK", None),  # ISRA: any number of wild cards in a meld
    ("set", "2S 2H 2D", None),  # an all-wild set (ISRA allows three jokers too)
    ("run", "5H 2C 7H 8H", None),  # the deuce is the six of hearts
    ("run", "AH 2H 3H 4H", None),  # the deuce in its own place, wild all the same
    ("run", "5H 2C 2D 8H", "side by side"),  # ISRA: no two wild cards side by side in a run
    ("run", "5H JK 2D 8H", "side by side"),
    ("run", "2C 2D 2H JK", "natural card"),
    ("set", "7H 7S 8C", "one rank"),
])
def test_deuces_are_wild_in_melds(kind, text, problem):
    checker = engine(DEUCES)
    got = checker.why_not_set(cards(text)) if kind == "set" else checker.why_not_run(cards(text))
    assert (got is None) if problem is None else (got is not None and problem in got), got


def test_wild_cards_count_toward_the_joker_limits():
    # shanghai: one joker in a set of 3, two in a run of 5 (seed 001): a deuce is one of them
    path = DATA / "deuces-shanghai.yaml"
    checker = engine(path)
    assert checker.why_not_set(cards("8H 8S 2C")) is None
    assert "at most 1 joker" in checker.why_not_set(cards("8H 2S JK"))
    assert "at most 1 joker" in checker.why_not_run(cards("3S 2H JK 6S"))
    assert checker.why_not_run(cards("3S 2H JK 6S 7S")) is None


def test_a_wild_card_is_laid_off_and_swapped_like_a_joker():
    checker = engine(DEUCES)
    run = checker.make(RUN, cards("5H 2C 7H 8H"))
    assert checker.fits(run, card("2D"))  # a deuce goes on at an end
    assert checker.lay_off(run, card("2D"), at_low=True).cards == cards("2D 5H 2C 7H 8H")
    assert checker.swappable(run) == {card("6H")}
    swapped = checker.swap(run, card("6H"))
    assert swapped.cards == cards("5H 6H 7H 8H")
    assert checker.freed_by(run, card("6H")) == card("2C")
    # a set of sevens frees its first wild card for a seven
    group = checker.make(SET, cards("7H 2S 7C"))
    assert checker.swap(group, card("7D")).cards == cards("7H 7D 7C")
    # a deuce never frees a wild card (it is one)
    assert checker.swap(run, card("2H")) is None


def test_the_go_down_search_uses_wild_cards_and_puts_the_real_ones_down():
    checker = engine(DEUCES)
    hand = list(cards("7H 7S 2C 9D 9S 9C KC 4H 5H QS"))
    options = checker.go_down_options(hand, (MeldSpec(SET, 3), MeldSpec(SET, 3)))
    assert options, "two sets: sevens with the deuce, and the nines"
    for option in options:
        put_down = [c for m in option for c in m.cards]
        assert card("2C") in put_down and JOKER not in put_down
        assert all(put_down.count(c) <= hand.count(c) for c in put_down)
    # one wild card cannot make two sets of the sevens and the kings
    hand = list(cards("7H 7S 2C KD KS 4C 5H 6H 8D QS"))
    assert not checker.go_down_options(hand, (MeldSpec(SET, 3), MeldSpec(SET, 3)))
    # a run of four with the deuce in a gap
    hand = list(cards("4H 5H 2C 7H 9S 9C KD QS JD TC"))
    (option,) = checker.go_down_options(hand, (MeldSpec(RUN, 4),))
    assert option[0].cards == cards("4H 5H 2C 7H")


def test_the_wild_rank_can_change_with_the_round():
    first, last = engine(BY_ROUND, round_index=0), engine(BY_ROUND, round_index=9)
    assert first.why_not_set(cards("8H 8S 3C")) is None
    assert last.why_not_set(cards("8H 8S 3C")) is not None
    assert last.why_not_set(cards("8H 8S QC")) is None


@pytest.mark.parametrize("path", [DEUCES, BY_ROUND], ids=lambda p: p.stem)
def test_bot_games_with_wild_cards_replay_exactly(path, tmp_path):
    rules = load_ruleset(path)
    wild_melded = 0
    for seed in range(3):
        game = play_bots(rules, ["bot"] * 4, seed, ruleset_ref=str(path))
        record = tmp_path / f"game-{seed}.jsonl"
        save_record(game, record)
        assert replay(record).state.totals == game.totals
        wild_melded += sum(game.jokers_melded)
    assert wild_melded > 0


def test_a_wild_rule_that_is_not_a_predicate_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: shanghai\nname: bad\nmelds:\n  wild: \"card_rank + 2\"\n")
    with pytest.raises(RulesetError, match="bad.yaml:4:10: .*boolean is needed"):
        load_ruleset(path)
    path.write_text("extends: shanghai\nname: bad\nmelds:\n  wild: \"card_rnak == 2\"\n")
    with pytest.raises(RulesetError, match="card_rank"):  # did you mean
        load_ruleset(path)
