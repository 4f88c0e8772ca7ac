"""What an outside author met writing real variants from docs/ruleset-language.md alone
(Slobberhannes, Cancellation Hearts, Liverpool Rummy, Short Whist, Push): the places where
`explain` or `validate` told them less than, or other than, the rules."""

from __future__ import annotations

from pathlib import Path


SLOBBERHANNES = """
name: slobberhannes-test
title: Slobberhannes
family: trick-taking
players: {min: 4, max: 4}
deck:
  ranks: [7, 8, 9, T, J, Q, K, A]
deal:
  hand_size: "repeat(8, 4)"
phases: [deal, play, score]
scoring:
  card_points: "if card_suit == clubs and card_rank == queen then 1 else 0"
  trick_points: "(if trick == 1 then 1 else 0) + (if is_last_trick then 1 else 0)"
  points: "card_points + trick_points"
winner: lowest
notes:
  - "Not expressible: the first thing."
  - "Not expressible: the second thing."
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_worked_examples_count_the_points_of_the_tricks_themselves(tmp_path, run_cli):
    # a point for the first trick, one for the last, one for the Q♣: a player who took every
    # trick scores 3 (the examples had counted the tricks' own points as 0)
    text = run_cli("explain", str(_write(tmp_path, "s.yaml", SLOBBERHANNES))).output
    assert "the player's tricks are the first ones played" in text
    assert "| took every trick | 3 |" in text
    assert "| took one trick of cards worth nothing | 1 |" in text  # the first trick
    assert "| took no trick, the next player every trick | 0 |" in text


def test_two_notes_of_one_file_that_start_alike_are_both_shown(tmp_path, run_cli):
    text = run_cli("explain", "--notes", str(_write(tmp_path, "s.yaml", SLOBBERHANNES))).output
    assert "Not expressible: the first thing." in text and "Not expressible: the second thing." in text


def test_a_childs_labelled_note_still_replaces_its_parents(tmp_path, run_cli):
    parent = _write(tmp_path, "s.yaml", SLOBBERHANNES)
    child = _write(tmp_path, "c.yaml", "extends: ./s.yaml\nname: child-test\nnotes:\n"
                   "  - \"Not expressible: nothing any more.\"\n")
    assert parent.exists()
    text = run_cli("explain", "--notes", str(child)).output
    assert "Not expressible: nothing any more." in text
    assert "the first thing" not in text and "the second thing" not in text


def test_cancelling_identical_cards_are_not_also_said_to_rank(tmp_path, run_cli):
    path = _write(tmp_path, "c.yaml", "extends: hearts\nname: cancel-test\ndeck: {decks: 2}\nplayers: {min: 8, max: 8}\n"
                  "deal: {hand_size: \"repeat(13, 20)\"}\nplay: {identical_cards: cancel}\n"
                  "exchange: null\nphases: [deal, play, score]\n")
    text = run_cli("explain", str(path)).output
    assert "cancel each other: neither can win it" in text
    assert "ranks higher" not in text
    assert "goes to the player who led it" in text


def test_a_value_no_alternative_takes_is_told_what_would_do(tmp_path, run_cli):
    path = _write(tmp_path, "b.yaml", "extends: shanghai\nname: prio-test\nbuying:\n  priority: clockwise\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert ("'clockwise' is not one of clockwise-from-player-in-turn, clockwise-from-dealer-left or a mapping of "
            "first, direction") in result.output
    assert "not valid under any of the given schemas" not in result.output
