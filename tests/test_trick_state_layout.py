"""The trick-taking state is composed of one class per phase; these keep the composition
as fast as one class was: every field a slot of the composed class itself, declared
once, and no instance dict."""

from __future__ import annotations

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.families.trick_taking.round import FIELDS, RoundState
from cardrules.interpreter.families.trick_taking.state import TrickTakingState


def test_every_field_of_the_round_is_a_slot_of_the_state_and_every_slot_a_declared_field():
    assert TrickTakingState.__dict__["__slots__"] is FIELDS
    assert set(FIELDS) == set(RoundState.__annotations__)
    assert len(FIELDS) == len(set(FIELDS))


def test_the_phases_add_no_slots_and_no_instance_dict():
    # a phase's class without `__slots__ = ()` would give every state a __dict__ (slower
    # attribute reads, and clone() copying it); one with slots of its own would clash,
    # and a slot held by a base is read by name more slowly (state.py)
    phases = TrickTakingState.__mro__[1:TrickTakingState.__mro__.index(RoundState) + 1]
    for cls in phases:
        assert cls.__dict__.get("__slots__") == (), cls
    state = new_game(load_ruleset("oh-hell"), players=4, seed=1)
    state.apply(state.chance_action())
    assert not hasattr(state, "__dict__")
    assert not hasattr(state.clone(), "__dict__")
