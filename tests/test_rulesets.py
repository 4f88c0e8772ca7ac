"""The bundled rulesets say what their sources say; inheritance behaves as documented."""

from __future__ import annotations

import pytest

from cardrules.interpreter.errors import RulesetError
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.ruleset import load_ruleset

from helpers import DATA

DOWN_AND_UP_10 = tuple(range(10, 0, -1)) + tuple(range(2, 11))


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_names_its_seed_and_notes_its_readings(name):
    rules = load_ruleset(name)
    # a seed page of ../shared/seeds, or (the catalogue's) a published page's address
    assert rules.source.get("file", "").endswith(".txt") or rules.source.get("url", "").startswith(("https://", "http://"))
    assert rules.source.get("section"), f"{name} does not say which part of its source it follows"
    assert rules.notes, f"{name} writes down no reading of its source"
    assert rules.name == name


@pytest.mark.parametrize("players", [3, 4, 5])
def test_oh_shit_plays_19_rounds_10_down_to_1_and_up(players):
    assert load_ruleset("oh-shit").setup(players).hand_sizes == DOWN_AND_UP_10


@pytest.mark.parametrize("players, first", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_oh_hell_first_hand_by_player_count(players, first):
    sizes = load_ruleset("oh-hell").setup(players).hand_sizes
    assert sizes == tuple(range(first, 0, -1)) + tuple(range(2, first + 1))


def test_oh_hell_six_players_example_from_the_page():
    # "In a 6 player game, first hand everyone gets dealt 8 cards ... 15th and final hand 8 cards."
    assert load_ruleset("oh-hell").setup(6).hand_sizes == (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize("players, rounds, first", [(2, 20, 26), (3, 20, 17), (4, 15, 13), (5, 12, 10),
                                                    (6, 10, 8)])
def test_oh_heck_whole_deck_first_and_round_caps(players, rounds, first):
    sizes = load_ruleset("oh-heck").setup(players).hand_sizes
    assert len(sizes) == rounds
    assert sizes[0] == first == 52 // players
    down = list(range(first, 0, -1)) + list(range(2, first + 1))
    assert list(sizes) == down[:rounds]


@pytest.mark.parametrize("name, rounds", [("shanghai", 10), ("shanghai-pagat", 7), ("shanghai-isra", 7),
                                          ("shanghai-isra-junior", 3), ("shanghai-isra-express", 4)])
def test_shanghai_round_counts_and_eleven_cards(name, rounds):
    rules = load_ruleset(name)
    setup = rules.setup(rules.min_players)
    assert len(setup.hand_sizes) == rounds and set(setup.hand_sizes) == {11}


def test_isra_modes_play_the_right_contracts():
    junior = load_ruleset("shanghai-isra-junior")
    express = load_ruleset("shanghai-isra-express")
    contracts = junior.section.contracts
    assert [contracts[n - 1].name for n in junior.setup(4).round_numbers] == ["SET SET", "SET RUN", "RUN RUN"]
    assert express.setup(5).round_numbers == (4, 5, 6, 7)
    assert contracts[3].name.startswith("SET SET SET")


def test_isra_deck_is_162_cards():
    setup = load_ruleset("shanghai-isra").setup(4)
    assert setup.deck_size == 162 and setup.jokers == 6


def test_card_point_tables():
    isra = load_ruleset("shanghai-isra").section.card_points
    assert (isra["JK"], isra["A"], isra["K"], isra["T"], isra["9"], isra["2"]) == (50, 20, 10, 10, 5, 5)
    pagat = load_ruleset("shanghai-pagat").section.card_points
    assert (pagat["7"], pagat["8"], pagat["K"], pagat["A"], pagat["JK"]) == (5, 10, 10, 20, 50)
    seed001 = load_ruleset("shanghai").section.card_points
    assert {seed001[r] for r in "23456789T"} == {5}


def test_shanghai_contracts_from_the_table():
    names = [c.name for c in load_ruleset("shanghai").section.contracts]
    assert names[4] == "set of 3, run of 7"
    assert names[7] == "set of 3, run of 10"
    assert names[9] == "run of 5, run of 5, run of 5"


def test_shanghai_buy_limits_and_joker_limits_by_size():
    rules = load_ruleset("shanghai")
    env = rules.setup(4).env
    limit = rules.section.buying.limit
    assert [limit({**env, "round": r}) for r in range(1, 11)] == [3] * 8 + [4, 4]
    per_meld = rules.section.melds.jokers_per_meld
    assert [per_meld({**env, "size": s, "is_run": True, "is_set": False}) for s in (3, 4, 5, 7, 10)] == \
        [1, 1, 2, 3, 4]


def test_child_overrides_and_null_deletes():
    rules = load_ruleset(DATA / "good" / "house-no-hook.yaml")
    assert rules.section.bidding.restrictions == ()
    assert rules.min_players == 3 and rules.max_players == 7  # inherited from oh-hell
    env = {"tricks": 3, "bid": 3}
    assert rules.section.scoring.points(env) == 16


def test_a_chain_of_files_resolves_relative_to_each_child():
    rules = load_ruleset(DATA / "good" / "rotation-must-trump.yaml")
    assert rules.section.trump.rotation == (1, 0, 2, 3, None)  # hearts, spades, diamonds, clubs, no trump
    assert rules.section.play.must_trump and rules.section.bidding.restrictions == ()
    assert rules.setup(4).hand_sizes == (7, 7, 7, 7, 7)


def test_the_hash_changes_with_the_rules():
    assert load_ruleset("oh-hell").sha256 != load_ruleset("oh-hell-penalty").sha256
    assert load_ruleset("oh-hell").sha256 == load_ruleset("oh-hell").sha256


def test_cycle_is_an_error():
    with pytest.raises(RulesetError, match="cycle"):
        load_ruleset(DATA / "bad" / "cycle-a.yaml")


@pytest.mark.parametrize("name", bundled_names())
def test_explain_docs_are_current(run_cli, name):
    """docs/rulesets/NAME.md is `cardrules explain --notes NAME`; regenerate with
    `for n in $(cardrules list | cut -d' ' -f1); do cardrules explain --notes $n > docs/rulesets/$n.md; done`."""
    from helpers import REPO

    result = run_cli("explain", "--notes", name)
    assert result.exit_code == 0
    assert result.output == (REPO / "docs" / "rulesets" / f"{name}.md").read_text()


def test_explain_has_a_worked_scoring_example_and_the_schedule(run_cli):
    text = run_cli("explain", "oh-hell").output
    assert "| bid 3, took 5 | 5 |" in text and "| bid 2, took 2 | 12 |" in text and "| bid 4, took 3 | 3 |" in text
    assert "| 1 | 10 | 10 | 10 | 8 | 7 |" in text
    rummy = run_cli("explain", "shanghai-isra").output
    assert "a hand of AS KS JK 7S left over scores 85" in rummy
    assert "| 4 | SET SET SET (the lightning round) (set of 3, set of 3, set of 3) | no-discard |" in rummy


def test_child_notes_follow_the_parents():
    notes = load_ruleset("shanghai-isra-junior").notes
    assert notes[0].startswith("'All 162 cards") and notes[-1].startswith("'Only the first three hands")


@pytest.mark.parametrize("path", sorted((DATA / "good").glob("*.yaml")), ids=lambda p: p.stem)
def test_explain_works_for_every_good_example(run_cli, path):
    result = run_cli("explain", str(path))
    assert result.exit_code == 0 and result.output.startswith("# "), result.output
