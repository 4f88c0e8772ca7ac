"""Actions as ids and observations as vectors (interpreter/encoding.py), for every
bundled ruleset, without any toolkit: every listed move's ids read back as that move
and begin no other listed move's (so a tool can choose a move id by id); the ids lie in
the codec's space; every observation's vector has the encoder's size; and the id steps
of a game (interpreter/environment.py) deal each round card by card and end."""

from __future__ import annotations

import random

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.environment import CHANCE, StepGame
from cardrules.interpreter.families.trick_taking import EXAMPLE
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.ruleset import ruleset_from_text


@pytest.mark.parametrize("name", bundled_names())
def test_every_listed_move_has_ids_that_read_back_and_begin_no_other(name):
    rules = load_ruleset(name)
    steps = StepGame(rules, rules.min_players)
    codec, encoder = steps.codec, steps.encoder
    state = steps.new_state()
    rng = random.Random(1)
    for _ in range(250):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        listed = state.engine.legal_actions()
        encoded = {codec.encode(a) for a in listed}
        for a in listed:
            ids = codec.encode(a)
            assert all(0 <= t < codec.size for t in ids)
            assert codec.decode(ids) == a, (name, a)
            assert all(ids[:k] not in encoded for k in range(1, len(ids))), (name, a)
        seat = state.current_player()
        assert len(encoder.tensor(state.observation(seat))) == encoder.size
        if not state.prefix:
            assert state.legal_actions() == sorted({ids[0] for ids in encoded})
        state.apply(rng.choice(state.legal_actions()))


def test_ids_outside_the_space_are_refused():
    steps = StepGame(ruleset_from_text(EXAMPLE), 3)
    with pytest.raises(ValueError, match="no move"):
        steps.codec.decode([steps.codec.size])
    with pytest.raises(ValueError):
        StepGame(ruleset_from_text(EXAMPLE), 9)
    with pytest.raises(ValueError, match="no mode"):
        StepGame(ruleset_from_text(EXAMPLE), 3, mode="quick")


def test_a_game_of_steps_ends_with_the_engines_totals():
    rules = ruleset_from_text(EXAMPLE)
    steps = StepGame(rules, 3, rounds=2)
    state = steps.new_state()
    rng = random.Random(4)
    chance_steps = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            chance_steps += 1
            state.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.engine.round_index == 2
    assert chance_steps == (3 * 10 + 1) + (3 * 9 + 1)  # each round's hands, then its upcard
    assert sum(state.returns()) == pytest.approx(0)


def test_a_family_without_ids_says_so():
    import sys

    from cardrules.interpreter import families
    from cardrules.interpreter.environment import EncodingUnavailable

    from helpers import DATA

    sys.path.insert(0, str(DATA / "plugin"))
    try:
        import cardrules_highcard

        families.register(cardrules_highcard.FAMILY)
        rules = ruleset_from_text("family: high-card\nname: toy\nplayers: {min: 2, max: 4}\n"
                                  "deal: {hand_size: [3]}\nhigh_card: {points: \"round\"}\nwinner: highest\n")
        with pytest.raises(EncodingUnavailable, match="the high-card family gives no action ids"):
            StepGame(rules, 2)
    finally:
        families.unregister("high-card")
        sys.path.remove(str(DATA / "plugin"))
