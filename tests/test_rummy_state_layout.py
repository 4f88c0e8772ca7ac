"""The contract-rummy state is composed of one class per phase (interpreter/families/
contract_rummy/state.py); these keep the composition as fast as one class was: every
field a slot, declared once, no instance dict, and a clone as independent as before."""

from __future__ import annotations

from cardrules.interpreter import load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import Stop, play_out
from cardrules.interpreter.families.contract_rummy.round import RoundState
from cardrules.interpreter.families.contract_rummy.state import RummyState


def test_every_field_of_the_round_is_a_slot_and_every_slot_a_declared_field():
    assert set(RoundState.__slots__) == set(RoundState.__annotations__)
    assert len(RoundState.__slots__) == len(set(RoundState.__slots__))


def test_the_phases_add_no_slots_and_no_instance_dict():
    # a phase's class without `__slots__ = ()` would give every state a __dict__ (slower
    # attribute reads, and clone() copying it); one with slots of its own would clash
    for cls in RummyState.__mro__[:RummyState.__mro__.index(RoundState)]:
        assert cls.__dict__.get("__slots__") == (), cls
    rules = load_ruleset("shanghai-isra")
    state = new_game(rules, players=4, seed=1)
    count = [0]

    def stop(seat: int, action: object) -> None:
        count[0] += 1
        if count[0] >= 60:
            raise Stop

    play_out(state, make_policies(rules, ["bot"] * 4, 1), on_action=stop)
    assert not hasattr(state, "__dict__")
    assert not hasattr(state.clone(), "__dict__")


def test_every_field_is_set_by_a_new_game():
    state = new_game(load_ruleset("shanghai-isra"), players=4, seed=1)
    missing = [name for name in RoundState.__slots__ if not hasattr(state, name)]
    assert missing == []
