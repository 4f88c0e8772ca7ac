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

from helpers import DATA

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
        by_family.setdefault(load_ruleset(name).family.name, []).append(name)
    # a few rulesets of each family: the first, the last, and one between (all of them is
    # test_golden_all.py's and test_legality.py's job)
    picked = [(family, names[i]) for family, names in sorted(by_family.items())
              for i in sorted({0, len(names) // 2, len(names) - 1})]
    return picked + [("high-card", "toy")]


class Watch:
    """A seat's policy that checks each decision's listing as it plays."""

    def __init__(self, policy, state):
        self.policy, self.state = policy, state
        self.kind, self.needs_observation = policy.kind, True
        self.checked = 0

    def act(self, observation, legal):
        state = self.state
        assert state.legal_count() == len(legal)
        for action in legal:
            state.verify(action)
        if self.checked % 5 == 0:  # what the table shows a move as, typed back
            family = state.rules.family
            for action in list(legal)[:20]:
                state.verify(family.parse_input(state.rules, observation, str(action)))
        self.checked += 1
        return self.policy.act(observation, legal)


def _game(rules, players, seed, tmp_path):
    kinds = ["bot" if (seat + seed) % 2 == 0 else "random" for seat in range(players)]
    state = new_game(rules, players, seed)
    seats = [Watch(p, state) for p in make_policies(rules, kinds, seed)]
    turns = []

    def watch_turn(event):
        turns.append(state.turn)

    play_out(state, seats, on_event=watch_turn)
    assert state.turn == OVER and state.moves < 200_000
    assert all(t >= 0 or t in (CHANCE, OVER) for t in turns)
    assert sum(s.checked for s in seats) > 0
    return state, kinds


@pytest.mark.parametrize("family,ref", _cases(), ids=lambda v: v)
def test_the_family_checklist(family, ref, tmp_path, request):
    rules = request.getfixturevalue("toy_family") if ref == "toy" else load_ruleset(ref)
    assert rules.family.name == family
    counts = sorted({rules.min_players, min(rules.max_players, rules.min_players + 2)})
    for players in counts:
        seed = players * 7
        state, kinds = _game(rules, players, seed, tmp_path)
        # 3. the record replays, and the seed decides the game
        if ref != "toy":  # (a ruleset from a text has no file a record could name)
            record = tmp_path / f"{players}.jsonl"
            save_record(state, record)
            result = replay(record)
            assert result.complete and result.state.totals == state.totals
        again = new_game(rules, players, seed)
        play_out(again, make_policies(rules, kinds, seed))
        assert again.events == state.events
        # 4. every event kind declared, every field with an audience
        declared = {**CORE_EVENTS}
        declared.update(rules.family.event_visibility(rules))
        kinds_written = {e["event"] for e in state.events}
        assert kinds_written <= set(CORE_EVENTS) | set(rules.family.record_events) | set(declared), \
            kinds_written - set(declared)
        for event in state.events:
            assert event["event"] in declared, f"{event['event']} has no declared audience"
            audience = visibility_of(event, declared)
            missing = set(event) - {"event", "round"} - set(audience)
            assert not missing, f"{event['event']}: {sorted(missing)} have no declared audience"
        # 5. the deal's views and a spectator's observation
        deal = next(i for i, e in enumerate(state.events) if e["event"] == "deal")
        for seat in range(players):
            hands = state.event_views(seat, deal)[0].get("hands")
            if hands is not None:
                assert hands[seat] == state.events[deal]["hands"][seat]
                assert all(c is None for s, hand in enumerate(hands) if s != seat for c in hand)
        assert state.observation(None).hand == ()
    # 6. a clone is independent
    state = new_game(rules, counts[0], 3)
    policies = make_policies(rules, ["random"] * counts[0], 3)
    rng = random.Random(3)
    for _ in range(rng.randint(5, 40)):
        if state.turn == OVER:
            break
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(None, state.legal_actions()))
    before = (list(state.events), [state.observation(s) for s in range(counts[0])], state.turn)
    copy = state.clone()
    play_out(copy, make_policies(rules, ["random"] * counts[0], 4))
    assert copy.turn == OVER
    assert (state.events, [state.observation(s) for s in range(counts[0])], state.turn) == before


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
