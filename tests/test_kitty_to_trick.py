"""A kitty that goes with a trick to its winner (kitty.to_trick), and Hearts with a kitty:
checked against the rules (Wikipedia's Hearts: the cards left after the deal in a kitty
that the first trick takes) by a referee written from them, at every player count, with
bot, random and search seats; what each seat sees of the kitty."""

from __future__ import annotations

import random
import textwrap
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

from helpers import play_checking, play_until


def _points(card):
    return (1 if card[1] == "H" else 0) + (13 if card == "QS" else 0)


def referee(events, players):
    """Hearts with a kitty from the record: 52 cards dealt evenly, the rest face down in a
    kitty that the first trick's winner takes; a point a heart and 13 for the Q♠ taken,
    the kitty's included; all 26 taken: 0 for the shooter, 26 for each other; to 100."""
    size = 52 // players
    totals = [0] * players
    numbers = sorted({e["round"] for e in events if "round" in e})
    for number in numbers:
        lines = [e for e in events if e.get("round") == number]
        deal = next(e for e in lines if e["event"] == "deal")
        assert deal["hand_size"] == size and deal["stock"] == 52 - players * size
        dealt = {c for hand in deal["hands"] for c in hand}
        plays = [e for e in lines if e["event"] == "play"]
        tricks = [e for e in lines if e["event"] == "trick"]
        assert len(tricks) == size
        taken = [[] for _ in range(players)]
        for t, trick in enumerate(tricks):
            taken[trick["winner"]] += [p["card"] for p in plays[t * players:(t + 1) * players]]
        kitty = [e for e in lines if e["event"] == "kitty"]
        if players * size == 52:
            assert not kitty
        else:
            assert len(kitty) == 1 and kitty[0]["seat"] == tricks[0]["winner"]
            assert len(kitty[0]["cards"]) == 52 - players * size and not set(kitty[0]["cards"]) & dealt
            after_first = lines.index(tricks[0])
            assert lines.index(kitty[0]) == after_first + 1, "the kitty goes with the first trick"
            taken[tricks[0]["winner"]] += kitty[0]["cards"]
        points = [sum(_points(c) for c in cards) for cards in taken]
        if 26 in points:
            points = [0 if p == 26 else 26 for p in points]
        score = next(e for e in lines if e["event"] == "score")
        assert score["points"] == points
        totals = [a + b for a, b in zip(totals, points)]
        if number != numbers[-1]:
            assert max(totals) < 100
    assert max(totals) >= 100 and events[-1]["winners"] == [s for s in range(players) if totals[s] == min(totals)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hearts_with_a_kitty_follows_its_rules(tmp_path, players):
    rules = load_ruleset("hearts-kitty")
    kinds = ["bot", "random", "search:6", "bot", "random", "bot"][:players]
    state = new_game(rules, players, players)
    policies = make_policies(rules, kinds, players)
    deck = Counter(state.deck)

    def every_card_once(state):  # in a hand, in the kitty, taken with it, or played
        held = Counter(c for hand in state.hands for c in hand) + Counter(state.played) + \
            Counter(state.kitty) + Counter(state.kitty_taken)
        if state.phase == "exchange":  # (cards being passed are put aside until all have passed)
            held += Counter(c for cards in state.passing for c in cards)
        assert held == deck

    play_checking(state, policies, every_card_once)
    referee(state.events, players)
    path = tmp_path / "k.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


def _after_the_first_trick(seed):
    rules = load_ruleset("hearts-kitty")
    state = new_game(rules, 3, seed)
    return play_until(state, make_policies(rules, ["bot"] * 3, seed),
                      lambda s: s.turn != CHANCE and s.kitty_taker >= 0)


def test_only_the_winner_of_the_first_trick_sees_the_kitty():
    state = _after_the_first_trick(3)
    taker = state.kitty_taker
    for viewer in (0, 1, 2, None):
        shown = [e for e in state.event_views(viewer) if e["event"] == "kitty"]
        assert len(shown) == 1 and shown[0]["seat"] == taker
        assert (None not in shown[0]["cards"]) == (viewer == taker)
        if viewer is not None:
            obs = state.observation(viewer)
            assert obs.kitty_taker == taker and obs.kitty_size == 1
            assert obs.kitty == (tuple(state.kitty_taken) if viewer == taker else ())
    # before the first trick, nobody sees it
    fresh = new_game(state.rules, 3, 3)
    fresh.apply(fresh.chance_action())
    for viewer in range(3):
        assert fresh.observation(viewer).kitty == () and fresh.observation(viewer).kitty_size == 1


@pytest.mark.parametrize("seed", [3, 8])
def test_the_search_samples_the_kitty_from_the_cards_it_has_not_seen(seed):
    from cardrules.interpreter.families.trick_taking import FAMILY
    state = _after_the_first_trick(seed)
    for viewer in range(3):
        obs = state.observation(viewer)
        for k in range(6):
            world = FAMILY.determinize(state.rules, obs, {}, random.Random(k))
            cards = Counter(c for hand in world.hands for c in hand) + Counter(world.played) + \
                Counter(world.kitty) + Counter(world.kitty_taken)
            assert cards == Counter(state.deck)
            assert world.kitty_taker == state.kitty_taker and world.hands[viewer] == state.hands[viewer]
            if viewer == state.kitty_taker:
                assert world.kitty_taken == state.kitty_taken
            assert world.card_points[state.kitty_taker] >= 0


@pytest.mark.parametrize("extra, message", [
    ("kitty: {cards: 1, to_trick: 18}\n", "cannot go with trick 18"),
    ("kitty: {cards: 1, to_trick: 1, taker: dealer}\n", "kitty.taker is for a kitty taken into a hand"),
    ("phases: [deal, kitty, exchange, play, score]\nkitty: {cards: 1, to_trick: 1}\n",
     "take 'kitty' out of phases"),
])
def test_validate_refuses_a_kitty_to_a_trick_that_cannot_be(tmp_path, run_cli, extra, message):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: hearts\nname: bad\nplayers: {min: 3, max: 3}\n" + extra)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:" in result.output and message in result.output, result.output


def test_a_kitty_with_the_last_trick_counts_for_its_winner(tmp_path):
    # "the last trick takes the kitty": to_trick hand_size, the points counted for its winner
    path = tmp_path / "last.yaml"
    path.write_text(textwrap.dedent("""\
        extends: hearts-kitty
        name: hearts-kitty-last
        kitty: {cards: "deck_size - players * hand_size", to_trick: hand_size}
        """))
    rules = load_ruleset(str(path))
    state = new_game(rules, 5, 2)
    play_until(state, make_policies(rules, ["bot"] * 5, 2),  # the first round
               lambda s: any(e["event"] == "score" for e in s.events))
    lines = [e for e in state.events if e.get("round") == 1]
    kitty = next(e for e in lines if e["event"] == "kitty")
    tricks = [e for e in lines if e["event"] == "trick"]
    assert kitty["seat"] == tricks[-1]["winner"] and lines.index(kitty) == lines.index(tricks[-1]) + 1
    from cardrules.interpreter.explain import explain
    assert "with the last trick to its winner" in explain(rules)
