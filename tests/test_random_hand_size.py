"""A round's hand size drawn by chance (deal.random_hand_size): drawn at the deal from the
game's own RNG, named by the record's deal line, replayed from it, seen by the search's
samples and by OpenSpiel as a chance event of its own; validate's checks of the list."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

from helpers import DATA, play_until

RANDOM = str(DATA / "good" / "oh-hell-random-size.yaml")  # oh-hell, six rounds of 1 to 10 cards drawn


def _rounds(state):
    out = {}
    for e in state.events:
        out.setdefault(e.get("round"), []).append(e)
    out.pop(None, None)
    return out


@pytest.mark.parametrize("seats", [["bot", "random", "bot", "random"], ["search:6", "bot", "random", "bot"]])
def test_each_round_deals_the_size_it_drew_and_bids_and_plays_to_it(tmp_path, seats):
    rules = load_ruleset(RANDOM)
    state = new_game(rules, 4, 11)
    play_out(state, make_policies(rules, seats, 11))
    rounds = _rounds(state)
    assert len(rounds) == 6
    sizes = []
    for lines in rounds.values():
        deal = next(e for e in lines if e["event"] == "deal")
        size = deal["hand_size"]
        sizes.append(size)
        assert 1 <= size <= 10 and all(len(hand) == size for hand in deal["hands"])
        bids = [e["bid"] for e in lines if e["event"] == "bid"]
        assert all(0 <= b <= size for b in bids) and sum(bids) != size  # the range and the hook: the size drawn
        assert len([e for e in lines if e["event"] == "play"]) == 4 * size
    assert len(set(sizes)) > 1, sizes
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path, RANDOM).state.totals == state.totals
    # the same seed draws the same sizes, whoever sits
    again = new_game(rules, 4, 11)
    play_out(again, make_policies(rules, ["random"] * 4, 3))
    assert [next(e for e in lines if e["event"] == "deal")["hand_size"] for lines in _rounds(again).values()] == sizes


def test_every_size_of_the_list_is_drawn_about_as_often():
    rules = load_ruleset(RANDOM)
    drawn = Counter()
    for seed in range(60):
        state = new_game(rules, 4, seed)
        state.apply(state.chance_action())
        drawn[state.hand_size] += 1
    assert set(drawn) == set(range(1, 11)), drawn  # 60 draws of ten sizes: each at least once
    assert max(drawn.values()) <= 15


def test_a_record_whose_deal_is_not_a_size_the_rules_draw_does_not_replay(tmp_path, run_cli):
    rules = load_ruleset(RANDOM)
    state = new_game(rules, 4, 2)
    play_out(state, make_policies(rules, ["bot"] * 4, 2))
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert run_cli("replay", str(path), "--ruleset", RANDOM).exit_code == 0
    # a first deal of 11 cards: more than the schedule's 10
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"deal"' in line)
    deal = json.loads(lines[at])
    stock = [c for c in state.deck]  # (the cards are made up; the size is what is refused)
    deal["hands"] = [[state.setup.pack.codes[c] for c in stock[s * 11:(s + 1) * 11]] for s in range(4)]
    deal["hand_size"] = 11
    lines[at] = json.dumps(deal)
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("replay", str(path), "--ruleset", RANDOM, "--any-deal")
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "seat 0 is dealt 11 cards; this round draws its hand size from 1, 2, 3" in result.output


def test_the_search_samples_hands_of_the_size_drawn():
    from cardrules.interpreter.families.trick_taking import FAMILY
    rules = load_ruleset(RANDOM)
    state = new_game(rules, 4, 5)  # on to a round that did not draw the schedule's size
    play_until(state, make_policies(rules, ["bot"] * 4, 5), lambda s: s.turn != CHANCE and s.hand_size != 10)
    obs = state.observation(state.turn)
    for k in range(5):
        world = FAMILY.determinize(rules, obs, {}, random.Random(k))
        assert world.hand_size == state.hand_size and all(len(h) == len(state.hands[s])
                                                           for s, h in enumerate(world.hands))
        assert world.legal_actions() == state.legal_actions()


def test_openspiel_sees_the_size_as_a_chance_event_before_the_cards():
    pyspiel = pytest.importorskip("pyspiel")
    from cardrules import openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("cardrules", {"ruleset": RANDOM, "players": 4})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes[:2]] == \
        ["deal 1 card each", "deal 2 cards each"]
    state.apply_action(outcomes[2][0])  # three cards each: then the cards, one by one
    assert len(state.chance_outcomes()) == 52
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_rummy_round_may_draw_its_size_too(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("extends: shanghai-isra\nname: shanghai-random\ndeal:\n  random_hand_size: \"[hand_size - 1, hand_size]\"\n"
                    "mode: junior\n")
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 3)
    play_out(state, make_policies(rules, ["bot", "random", "bot", "search:4"], 3))
    schedule = rules.setup(4, "junior").hand_sizes
    drawn = [e["hand_size"] for e in state.events if e["event"] == "deal"]
    assert all(size in (full - 1, full) for size, full in zip(drawn, schedule))
    out = tmp_path / "g.jsonl"
    save_record(state, out)
    assert replay(out, str(path)).state.totals == state.totals


@pytest.mark.parametrize("rule, message", [
    ('"1..(hand_size + 1)"', "draws its hand size from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]: each must be 1 to the "
                             "schedule's 10"),
    ('"[0, 5]"', "each must be 1 to the schedule's 10"),
    ('"[x]"', "unknown name 'x'"),
])
def test_validate_refuses_a_size_list_the_schedule_cannot_deal(tmp_path, run_cli, rule, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: oh-hell\nname: bad\nplayers: {{min: 3, max: 5}}\ndeal:\n  hand_size: \"repeat(10, 6)\"\n"
                    f"  random_hand_size: {rule}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:6:" in result.output and message in result.output, result.output


def test_explain_says_the_size_is_drawn(run_cli):
    result = run_cli("explain", RANDOM)
    assert "Each round's hand size is drawn at random at the deal from `1..hand_size`" in result.output
