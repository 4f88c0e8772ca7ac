"""Untrusted rulesets: a bundled ruleset with one value replaced by something random
either loads or is refused with located problems; if it loads, a game under it runs,
or stops with a clean error.  Never anything else."""

from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.errors import CardrulesError, RulesetError
from cardrules.interpreter.loader import bundled_dir, bundled_names, document_from_text
from cardrules.interpreter.ruleset import build_ruleset
from cardrules.interpreter.game import CHANCE, new_game

# (libyaml where PyYAML has it: every worker of a parallel run reads all of them)
_FAST_SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
BASES = {name: yaml.load((bundled_dir() / f"{name}.yaml").read_text(), Loader=_FAST_SAFE)
         for name in bundled_names()}

EXPRESSIONS = ["0..hand_size", "players", "size", "round", "[3..1]", "-1", "1 / 0", "[]", "2", "0", "99",
               "set", "run of 2", "run of 13", "set of 9", "high", "low", "either", "rotation", "upcard",
               "named-by-highest-bidder", "none", "simultaneous", "if is_last then false else true",
               "repeat(0, 3)", "bid in bids", "[10..1]", "deck_size / players", "tricks - bid",
               "if size > 4 then 0 else 1", "in_one_turn", "round % 2 == 0", "lowest", "highest"]

values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-30, 60), st.text(max_size=12),
              st.sampled_from(["0..hand_size", "players", "size", "round", "[3..1]", "-1", "1 / 0", "[]",
                               "set", "run of 2", "JK", "high", "either", "rotation", "upcard", "none",
                               "if is_last then false else true", "repeat(0, 3)", "bid in bids"])),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(["min", "max", "kind", "rounds", "name", "rule",
                                                                "message", "melds", "A", "JK", "when", "points"]),
                                               children, max_size=3)),
    max_leaves=6)


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, prefix + (i,))


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(BASES)))
    data = copy.deepcopy(BASES[name])
    where = draw(st.sampled_from(list(paths(data))[1:]))
    node = data
    for part in where[:-1]:
        node = node[part]
    old = node[where[-1]]
    if draw(st.booleans()):  # half the time a value of the same type: more of them load
        if isinstance(old, bool):
            new = draw(st.booleans())
        elif isinstance(old, int):
            new = draw(st.integers(-3, 40))
        elif isinstance(old, str):
            new = draw(st.sampled_from(EXPRESSIONS + [old]))
        else:
            new = draw(values)
    else:
        new = draw(values)
    node[where[-1]] = new
    return yaml.safe_dump(data, sort_keys=False)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.integers(0, 1000))
def test_a_mutated_ruleset_loads_or_is_refused_cleanly(text, seed):
    try:
        rules = build_ruleset(document_from_text(text, "fuzz.yaml"))
    except RulesetError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    players = rules.min_players
    try:
        state = new_game(rules, players, seed)
        policies = make_policies(rules, ["random"] * players, seed)
        for _ in range(3000):  # a bounded look at the game: enough to reach scoring
            if state.is_over:
                break
            turn = state.turn
            state.apply(state.chance_action() if turn == CHANCE else policies[turn].act(None, state.legal_actions()))
    except CardrulesError:
        pass  # a clean, explained stop (an expression failing at run time)


def test_a_scalar_for_a_whole_replaced_table_in_an_extending_ruleset_is_refused_cleanly():
    """Found by the test above: ``card_points: false`` in a ruleset that extends another
    crashed while the positions of the two files were merged."""
    data = copy.deepcopy(BASES["shanghai-pagat"])
    data["card_points"] = False
    try:
        build_ruleset(document_from_text(yaml.safe_dump(data, sort_keys=False), "fuzz.yaml"))
    except RulesetError as exc:
        assert any("card_points" in p.message for p in exc.problems)
    else:
        raise AssertionError("the ruleset loaded")


RANK_LETTERS = "23456789TJQKA"


@st.composite
def short_packs(draw):
    """A bundled ruleset (either family) whose pack lacks some ranks (written as a list
    or as an expression), its card points cut to the ranks left."""
    name = draw(st.sampled_from(sorted(BASES)))
    removed = draw(st.sets(st.sampled_from(RANK_LETTERS), min_size=1, max_size=9))
    ranks = [r for r in RANK_LETTERS if r not in removed]
    child = {"extends": name, "name": "short"}
    if draw(st.booleans()):
        child["deck"] = {"ranks": ranks}
    else:
        child["deck"] = {"ranks": "[" + ", ".join(str(RANK_LETTERS.index(r) + 2) for r in ranks) + "]"}
    points = document_from_text(yaml.safe_dump({"extends": name, "name": "x"}), "x.yaml").data.get("card_points")
    if isinstance(points, dict) and points:  # (an expression of the card reads any pack as it is)
        kept = {" ".join(r for r in str(k).split() if r in ranks or r == "JK"): v for k, v in points.items()}
        child["card_points"] = {k: v for k, v in kept.items() if k}
    return yaml.safe_dump(child, sort_keys=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(short_packs(), st.integers(0, 1000))
def test_a_pack_without_some_ranks_is_explained_and_played(text, seed):
    """explain ended in KeyError: 'A' for a contract-rummy pack without aces (its worked
    example scored AS KS JK 7S whatever the pack held): no rank is assumed, in explain or
    in play."""
    from cardrules.interpreter.explain import explain

    try:
        rules = build_ruleset(document_from_text(text, "short.yaml"))
    except RulesetError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    for notes in (False, True):
        words = explain(rules, notes=notes)
        if "Worked example: a hand of " in words:
            held = words.split("Worked example: a hand of ")[1].split(" left over")[0].split()
            assert all(card == "JK" or card[0] in rules.setup(rules.min_players).ranks for card in held), held
    try:
        play_bots(rules, ["bot"] * rules.min_players, seed)
    except CardrulesError:
        pass  # a clean, explained stop
