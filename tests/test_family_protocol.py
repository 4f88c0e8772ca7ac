"""The checklist every family is held to (docs/architecture.md, "The family checklist"),
run the same way against each: the two bundled families on every bundled ruleset, and
the plug-in family of tests/data/plugin. A new family passes this file before it is
anything else.

Over whole games with bots and random seats at two player counts, for each family:
1. the game ends, and whose turn it is is always a seat, chance or the end;
2. every listed move verifies, ``legal_count`` counts them, and what the table shows
   for a move (``str``) is read back by ``parse_input`` as a move that verifies;
3. the record replays to the same totals, and the same seed plays the same game;
4. every event kind written is declared (the core's or the family's ``record_events``)
   and every field of it has a declared audience (``event_visibility``): a field the
   family forgot would be seen by nobody, silently;
5. a seat's view of the deal holds its own hand and no other, and a spectator's
   observation holds no hand;
6. a clone is independent: playing it to the end leaves the original as it was.
"""

from __future__ import annotations

import random

import pytest

from cardrules.interpreter import families, load_ruleset, new_game
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import CHANCE, OVER
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.privacy import CORE_EVENTS, Seen, visibility_of
from cardrules.interpreter.record import replay, save_record
from cardrules.interpreter.ruleset import ruleset_from_text
from cardrules.testing import check_family

from helpers import bundled, DATA

TOY = """\
family: high-card
name: high-card-toy
players: {min: 2, max: 4}
deal: {hand_size: [3, 5, 3]}
high_card: {points: "round * 2"}
winner: highest
"""


@pytest.fixture(scope="module")
def toy_family():
    import sys

    sys.path.insert(0, str(DATA / "plugin"))
    import cardrules_highcard

    families.register(cardrules_highcard.FAMILY)
    yield ruleset_from_text(TOY)
    families.unregister("high-card")
    sys.path.remove(str(DATA / "plugin"))


def _cases():
    by_family: dict[str, list[str]] = {}
    for name in bundled_names():
        by_family.setdefault(bundled(name).family.name, []).append(name)
    # a few rulesets of each family: the first, the last, and one between (all of them is
    # test_golden_all.py's and test_legality.py's job)
    picked = [(family, names[i]) for family, names in sorted(by_family.items())
              for i in sorted({0, len(names) // 2, len(names) - 1})]
    return picked + [("high-card", "toy")]


@pytest.mark.parametrize("family,ref", _cases(), ids=lambda v: v)
def test_the_family_checklist(family, ref, tmp_path, request):
    """The shipped kit (cardrules.testing.check_family) on a few rulesets of each family."""
    if ref == "toy":
        request.getfixturevalue("toy_family")
        ref = tmp_path / "toy.yaml"
        ref.write_text(TOY)
    rules = load_ruleset(ref)
    assert rules.family.name == family
    for players in sorted({rules.min_players, min(rules.max_players, rules.min_players + 2)}):
        check_family(ref, players=[players], seeds=[players * 7], tmp_dir=tmp_path)


def _broken_family(fault):
    from cardrules_highcard import HighCard, HighCardState, Lay

    class State(HighCardState):
        def legal_actions(self):
            legal = super().legal_actions()
            if fault == "lists a card not held" and self.turn >= 0:
                return legal + [Lay(52)]  # the joker: nobody holds it
            return legal

        def observation(self, seat):
            seen = super().observation(seat)
            if fault == "leaks a hand" and seat is None:
                return seen._replace(hand=tuple(self.hands[0]))
            return seen

    class Family(HighCard):
        name = "high-card-broken"

        def new_state(self, rules, players, seed, names, mode, ref):
            return State(rules, players, seed, names, mode, ref)

    return Family()


@pytest.mark.parametrize("fault,message", [("lists a card not held", "is refused by verify"),
                                           ("leaks a hand", "a spectator's observation holds a hand")])
def test_the_kit_fails_a_broken_family(toy_family, tmp_path, fault, message):
    families.register(_broken_family(fault))
    try:
        ref = tmp_path / "broken.yaml"
        ref.write_text(TOY.replace("family: high-card", "family: high-card-broken").replace("-toy", "-broken"))
        with pytest.raises(AssertionError, match=message) as failed:
            check_family(ref, players=[3], seeds=[5], tmp_dir=tmp_path)
        assert "high-card-broken (high-card-broken family), 3 players, seed 5" in str(failed.value)
    finally:
        families.unregister("high-card-broken")


def test_the_checklist_finds_a_field_without_an_audience(toy_family):
    """The declaration check can fail: a field the family forgot to declare."""
    state = new_game(toy_family, 2, 1)
    play_out(state, make_policies(toy_family, ["random", "random"], 1))
    lay = next(e for e in state.events if e["event"] == "lay")
    audience = visibility_of(dict(lay, secret="x"), toy_family.family.event_visibility(toy_family))
    assert "secret" not in audience and audience["card"] is Seen.ALL


@pytest.mark.parametrize("name", bundled_names())
def test_a_clone_plays_as_its_original_would(name):
    """The same move applied first to a clone, then to the original, leaves both in the
    same position: a clone holds nothing of its original's (a method bound to the
    original, kept in a slot, once made a clone of a trick.order game take its tricks
    by the original's cards, which OpenSpiel's clone check found)."""
    rules = load_ruleset(name)
    state = new_game(rules, rules.min_players, seed=3)
    text = rules.family.observation_encoder(rules, rules.min_players).text  # (a rummy table compares by identity)
    rng = random.Random(3)
    for _ in range(400):
        if state.turn == OVER:
            break
        action = state.chance_action() if state.turn == CHANCE else rng.choice(state.legal_actions())
        clone = state.clone()
        clone.apply(action)
        state.apply(action)
        assert (clone.turn, clone.totals, clone.round_index) == (state.turn, state.totals, state.round_index)
        if state.turn >= 0:
            assert text(clone.observation(state.turn)) == text(state.observation(state.turn))


def _members(protocol):
    own = set(protocol.__dict__.get("__annotations__", {}))
    own |= {name for name, value in protocol.__dict__.items() if callable(value) and not name.startswith("_")}
    return own


def test_the_architecture_doc_lists_every_member_of_the_protocols_as_they_are():
    """docs/architecture.md's table of members is the protocol's: each member of
    GameFamily, SearchableFamily and EncodableFamily once, under its protocol, optional
    exactly when FamilyDefaults gives it a default."""
    import re

    from cardrules.interpreter.family import EncodableFamily, FamilyDefaults, GameFamily, SearchableFamily

    text = (DATA.parents[1] / "docs" / "architecture.md").read_text("utf-8")
    rows = re.findall(r"^\| `(\w+)(?:\([^`]*\))?` \| `(\w+)` \| (required|optional)\b", text, re.M)
    documented = {(name, protocol, kind) for name, protocol, kind in rows}
    assert len(rows) == len(documented)
    actual = {(name, protocol.__name__, "optional" if hasattr(FamilyDefaults, name) else "required")
              for protocol in (GameFamily, SearchableFamily, EncodableFamily) for name in _members(protocol)}
    assert documented == actual, (sorted(documented - actual), sorted(actual - documented))
    defaults = {name for name in dir(FamilyDefaults) if not name.startswith("_")}
    assert defaults <= {name for name, _, _ in actual}, defaults  # no default for a member nobody declared


def test_a_family_object_of_an_earlier_release_is_completed_by_the_registry(toy_family):
    """An object that does not inherit FamilyDefaults and holds event_visibility as a
    mapping (as plug-ins were written before) still loads and plays: the registry gives
    it the optional members' defaults and reads its mapping."""
    import types

    from cardrules.interpreter.family import FamilyDefaults, GameFamily

    modern = toy_family.family
    required = {name: getattr(modern, name) for name in _members(GameFamily)
                if not hasattr(FamilyDefaults, name) and name != "event_visibility"}
    legacy = types.SimpleNamespace(**required, event_visibility=modern.event_visibility(toy_family))
    families.register(legacy)
    try:
        rules = ruleset_from_text(TOY)
        assert rules.family.steps_per_line(2) == 1 and tuple(rules.family.counter_names(rules.section)) == ()
        state = new_game(rules, 2, 1)
        play_out(state, make_policies(rules, ["random", "random"], 1))
        lay = next(v for v in state.event_views(None) if v["event"] == "lay")
        assert lay["card"] is not None  # the mapping's Seen.ALL, read
    finally:
        families.register(modern)
