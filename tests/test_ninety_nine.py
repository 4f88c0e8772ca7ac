"""Cards laid aside face down (exchange.direction: aside) and bids made of them
(exchange.bid), and Ninety-Nine: checked against its published rules (Fosdick's
rules of David Parlett's game) by a referee written from the rules, over whole games
with bot, random and search seats; what each seat sees of the bids laid aside."""

from __future__ import annotations

import textwrap
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

from helpers import play_checking, play_until

SUIT_BID = {"C": 3, "H": 2, "S": 1, "D": 0}  # 'a diamond ... 0 tricks, a spade 1, a heart 2, a club 3'
BONUS = {1: 30, 2: 20, 3: 10}  # made alone, one of two, all three


def _beats(card, best, led, trump):
    order = "6789TJQKA"
    if card[1] == best[1]:
        return order.index(card[0]) > order.index(best[0])
    return card[1] == trump


def referee(events):
    """Ninety-Nine from the record, as the rules say: 12 cards each from 36; three laid
    aside face down whose suits are the bid; trump diamonds in the first hand, then by
    how many made their bids (0 diamonds, 1 spades, 2 hearts, 3 clubs); a point a trick
    and 30/20/10 to those who made their bids when one/two/three did; to 100."""
    rounds = {}
    for e in events:
        rounds.setdefault(e.get("round"), []).append(e)
    totals = [0, 0, 0]
    made_before = None
    numbers = sorted(r for r in rounds if r is not None)
    for number in numbers:
        lines = rounds[number]
        deal = next(e for e in lines if e["event"] == "deal")
        assert deal["hand_size"] == 12 and all(len(h) == 12 for h in deal["hands"])
        dealt = [c for h in deal["hands"] for c in h]
        assert len(set(dealt)) == 36 and {c[0] for c in dealt} == set("6789TJQKA")
        trump = next(e for e in lines if e["event"] == "trump")["suit"]
        assert trump == ("D" if number == 1 else "DSHC"[made_before])
        aside = {s: [e["card"] for e in lines if e["event"] == "pass" and e["seat"] == s] for s in range(3)}
        assert all(e.get("aside") is True and "to" not in e for e in lines if e["event"] == "pass")
        for s in range(3):
            assert len(aside[s]) == 3 and set(aside[s]) <= set(deal["hands"][s])
        bids = [sum(SUIT_BID[c[1]] for c in aside[s]) for s in range(3)]
        shown = {e["seat"]: e for e in lines if e["event"] == "laid_aside"}
        assert [shown[s]["bid"] for s in range(3)] == bids and [shown[s]["cards"] for s in range(3)] == \
            [aside[s] for s in range(3)]
        hands = [Counter(deal["hands"][s]) - Counter(aside[s]) for s in range(3)]
        plays = [e for e in lines if e["event"] == "play"]
        assert len(plays) == 27, "nine tricks of three"
        leader = (deal["dealer"] + 1) % 3
        taken = [0, 0, 0]
        for t in range(9):
            trick = plays[3 * t:3 * t + 3]
            assert [p["seat"] for p in trick] == [(leader + k) % 3 for k in range(3)]
            led = trick[0]["card"][1]
            for p in trick:
                hand = hands[p["seat"]]
                assert hand[p["card"]] > 0, "a card laid aside is never played"
                if p["card"][1] != led:
                    assert not any(c[1] == led for c in +hand), "follow suit if able"
                hand[p["card"]] -= 1
            best = trick[0]
            for p in trick[1:]:
                if _beats(p["card"], best["card"], led, trump):
                    best = p
            leader = best["seat"]
            taken[leader] += 1
        made = [taken[s] == bids[s] for s in range(3)]
        points = [taken[s] + (BONUS[sum(made)] if made[s] else 0) for s in range(3)]
        score = next(e for e in lines if e["event"] == "score")
        assert score["points"] == points
        totals = [a + b for a, b in zip(totals, points)]
        assert score["totals"] == totals
        made_before = sum(made)
        if number != numbers[-1]:
            assert max(totals) < 100, "the game ends at 100"
    end = events[-1]
    assert end["event"] == "end" and max(totals) >= 100
    assert end["winners"] == [s for s in range(3) if totals[s] == max(totals)]


@pytest.mark.parametrize("seats", [("bot", "bot", "bot"), ("random", "bot", "random"), ("search:6", "bot", "random")])
def test_ninety_nine_follows_its_rules(tmp_path, seats):
    rules = load_ruleset("ninety-nine")
    seed = len("".join(seats))
    state = new_game(rules, 3, seed)
    policies = make_policies(rules, list(seats), seed)
    deck = Counter(state.deck)

    def every_card_somewhere(state):  # in a hand, laid aside, or played
        held = Counter(c for hand in state.hands for c in hand) + Counter(state.played) + \
            Counter(c for cards in state.passing for c in cards)
        assert held == deck

    play_checking(state, policies, every_card_somewhere)
    referee(state.events)
    path = tmp_path / "99.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


def _after_the_laying_aside(seed=4):
    rules = load_ruleset("ninety-nine")
    state = new_game(rules, 3, seed)
    policies = make_policies(rules, ["bot"] * 3, seed)
    play_until(state, policies, lambda s: s.turn != CHANCE and s.phase == "play")
    return state, policies


def test_a_bid_laid_aside_is_its_own_seats_alone_until_the_round_is_over():
    state, policies = _after_the_laying_aside()
    codes = state.setup.pack.codes
    for viewer in range(3):
        obs = state.observation(viewer)
        assert obs.bids[viewer] == sum(SUIT_BID[codes[c][1]] for c in state.passing[viewer])
        assert all(b is None for s, b in enumerate(obs.bids) if s != viewer), "the others' bids lie face down"
        assert obs.passing == tuple(state.passing[viewer]) and obs.pass_to == -3
        for e in state.event_views(viewer):
            if e["event"] == "pass":
                assert e["aside"] is True and (e["card"] is not None) == (e["seat"] == viewer)
        assert not [e for e in state.event_views(viewer) if e["event"] == "laid_aside"]
    spectator = state.observation(None)
    assert spectator.bids == (None, None, None) and spectator.passing == ()
    # the round over, every bid and its cards are shown to all
    number = state.round
    while state.round == number and not state.is_over:
        if state.turn == CHANCE:
            break
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    for viewer in (0, 1, 2, None):
        shown = [e for e in state.event_views(viewer) if e["event"] == "laid_aside"]
        assert len(shown) == 3 and all(None not in e["cards"] and e["bid"] is not None for e in shown)
    assert state.observation(None).bids == tuple(state.bids)


def test_the_search_samples_the_others_cards_laid_aside_and_their_bids_from_them():
    import random

    state, _ = _after_the_laying_aside(6)
    rules = state.rules
    codes = state.setup.pack.codes
    obs = state.observation(0)
    from cardrules.interpreter.families.trick_taking import FAMILY
    for k in range(10):
        world = FAMILY.determinize(rules, obs, {}, random.Random(k))
        assert world.passing[0] == state.passing[0] and world.hands[0] == state.hands[0]
        cards = Counter(c for hand in world.hands for c in hand) + Counter(c for p in world.passing for c in p)
        assert cards == Counter(state.deck), "every card once: in a hand or laid aside"
        for s in range(3):
            assert len(world.passing[s]) == 3 and len(world.hands[s]) == 9
            assert world.bids[s] == sum(SUIT_BID[codes[c][1]] for c in world.passing[s])


def test_the_bot_lays_aside_a_bid_close_to_what_it_keeps():
    # bots that choose their bid-cards make their bids far more often than random ones
    rules = load_ruleset("ninety-nine")
    exact = {}
    for kind in ("bot", "random"):
        hits = rounds = 0
        for seed in range(6):
            state = new_game(rules, 3, seed)
            play_out(state, make_policies(rules, [kind, "bot", "bot"], seed))
            for e in state.events:
                if e["event"] == "laid_aside" and e["seat"] == 0:
                    rounds += 1
                    score = next(x for x in state.events if x["event"] == "score" and x["round"] == e["round"])
                    hits += score["points"][0] >= 10
        exact[kind] = hits / rounds
    assert exact["bot"] > exact["random"] + 0.1, exact


def _write(tmp_path, text):
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize("extra, message", [
    ("phases: [deal, trump, exchange, bidding, play, score]\n", "take 'bidding' out of phases"),
    ("exchange: {direction: left}\n", "every round lays some aside"),
    ("exchange: {cards: 12}\n", "leaves no card to play"),
])
def test_validate_refuses_a_bid_laid_aside_that_cannot_be(tmp_path, run_cli, extra, message):
    path = _write(tmp_path, "extends: ninety-nine\nname: bad\n" + extra)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:" in result.output and message in result.output, result.output


def test_cards_laid_aside_without_a_bid_leave_the_round_unseen(tmp_path):
    # "each player discards two cards face down before the play": no bid, out of the round
    path = _write(tmp_path, """\
        extends: oh-hell
        name: discard-two
        phases: [deal, trump, exchange, bidding, play, score]
        deal: {hand_size: "[7, 6, 5]"}
        exchange: {cards: 2, direction: aside}
        """)
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 2)
    play_out(state, make_policies(rules, ["bot", "random", "search:4", "bot"], 2))
    for number, size in ((1, 7), (2, 6), (3, 5)):
        lines = [e for e in state.events if e.get("round") == number]
        assert len([e for e in lines if e["event"] == "pass"]) == 8
        assert not [e for e in lines if e["event"] in ("receive", "laid_aside")]
        assert len([e for e in lines if e["event"] == "play"]) == 4 * (size - 2)
        assert all(0 <= e["bid"] <= size for e in lines if e["event"] == "bid")
    views = state.event_views(1)
    assert all(e["card"] is None for e in views if e["event"] == "pass" and e["seat"] != 1)
    out = tmp_path / "g.jsonl"
    save_record(state, out)
    assert replay(out, str(path)).state.totals == state.totals


def test_matches_counts_the_places_two_lists_agree():
    from cardrules.interpreter.expressions import Type, compile_checked
    program = compile_checked("matches(bids, taken)", {"bids": Type.LIST, "taken": Type.LIST}, Type.INT)
    assert program({"bids": [3, 0, 4], "taken": [3, 1, 4]}) == 2
    assert program({"bids": [1], "taken": [2, 1]}) == 0  # place by place, as far as the shorter goes


def test_the_explain_page_and_the_terminal_say_how_a_bid_is_laid_aside(run_cli):
    result = run_cli("explain", "ninety-nine")
    assert result.exit_code == 0
    assert "## Laying aside" in result.output and "They are the player's bid" in result.output
    result = run_cli("play", "ninety-nine", "--seats", "human,bot,bot", "--seed", "3", "--ascii",
                     input="quit\n")
    assert "a card to lay aside as part of your bid (1 of 3; each worth" in result.output, result.output
    assert "clubs 3" in result.output and "diamonds 0" in result.output
