"""Hearts and its variants, checked against their published rules: a pass, a trick, a
moon shot's score as worked examples (hearts-online.org, Bicycle's Omnibus Hearts, the
eliters.com Spot Hearts rule, traditionalgamerules' three- and five-player game); who
sees the cards passed; the search seat's sampled states agreeing with the seat's pass;
and a referee that plays random games and checks every line of their records against
the rules as the sources write them, not against the rulesets' expressions."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.trick_taking.actions import Pass, Play
from cardrules.interpreter.families.trick_taking.determinize import determinize
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

HEARTS = ("hearts", "hearts-3-5-players", "omnibus-hearts", "spot-hearts", "black-maria")
RANKS = "23456789TJQKA"


def card(state, text):
    return state.setup.pack.card(text)


def cards(state, texts):
    return [card(state, t) for t in texts.split()]


def stacked(name, hands, round_index=0, dealer=0):
    """Round ``round_index + 1`` of ``name`` at len(hands) players, dealt ``hands``."""
    rules = load_ruleset(name)
    state = new_game(rules, len(hands), seed=0)
    state.round_index = round_index
    state.stack_deal([cards(state, h) for h in hands], dealer=dealer)
    return state


# all clubs to seat 0: it leads the 2♣ and wins every trick (no one else can follow)
ALL_CLUBS = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]


def pass_cards(state, seat, texts):
    assert state.turn == seat
    for text in texts.split():
        state.apply(Pass(card(state, text)))


def test_the_first_hand_passes_three_cards_to_the_left_and_each_sees_only_its_own():
    # "In the first hand, you pass to the player on your left"; "All players must pass their
    # own cards before looking at the cards received"
    state = stacked("hearts", ALL_CLUBS)
    assert state.phase == "exchange" and state.turn == 1  # the bidding order: the dealer's left first
    pass_cards(state, 1, "AH KH QH")
    views = state.event_views(2)
    assert [e.get("card") for e in views if e["event"] == "pass"] == [None, None, None]
    assert [e["card"] for e in state.event_views(1) if e["event"] == "pass"] == ["AH", "KH", "QH"]
    assert state.observation(2).passing == ()  # seat 2 has seen nothing of it
    assert state.observation(1).passing == tuple(cards(state, "AH KH QH"))
    assert state.observation(2).received == ()  # nothing received before all have passed
    pass_cards(state, 2, "AS KS QS")
    pass_cards(state, 3, "AD KD QD")
    assert state.observation(2).received == ()
    pass_cards(state, 0, "AC KC QC")
    assert state.phase == "play"
    hands = [Counter(h) for h in state.hands]
    assert hands[2][card(state, "AH")] == 1 and hands[3][card(state, "QS")] == 1 and hands[1][card(state, "AC")]
    assert state.observation(2).received == tuple(cards(state, "AH KH QH"))
    assert state.observation(2).pass_from == 1 and state.observation(2).pass_to == 3
    received = {e["seat"]: e["cards"] for e in state.event_views(2) if e["event"] == "receive"}
    assert received[2] == ["AH", "KH", "QH"] and received[3] == [None, None, None]
    spectator = state.event_views(None)
    assert all(e.get("card") is None for e in spectator if e["event"] == "pass")
    assert all(c is None for e in spectator if e["event"] == "receive" for c in e["cards"])
    assert state.observation(None).received == () and state.observation(None).passing == ()
    # the record says what was passed
    assert [(e["seat"], e["card"], e["to"]) for e in state.events if e["event"] == "pass"][:3] == \
        [(1, "AH", 2), (1, "KH", 2), (1, "QH", 2)]


def test_a_pass_refuses_a_card_not_held_and_a_play():
    state = stacked("hearts", ALL_CLUBS)
    with pytest.raises(IllegalActionError, match="you do not hold 2C"):
        state.apply(Pass(card(state, "2C")))
    with pytest.raises(IllegalActionError, match="it is time to pass cards"):
        state.apply(Play(card(state, "2H")))


def test_the_passing_cycle_is_left_right_across_hold():
    rules = load_ruleset("hearts")
    seen = []
    for index in range(5):
        state = new_game(rules, 4, seed=index)
        state.round_index = index
        state.apply(state.chance_action())
        seen.append(state.pass_offset if state.phase == "exchange" else 0)
    assert seen == [1, 3, 2, 0, 1]  # left, right, across, hold (no pass), left again


@pytest.mark.parametrize("players,cycle", [(3, [1, 2, 0]), (5, [1, 4, 2, 3, 0])])
def test_three_and_five_players_pass_by_their_own_cycles(players, cycle):
    # "Three Players ... left, right, no pass"; "Five Players ... left, right, two players to
    # the left, two players to the right, no pass"
    rules = load_ruleset("hearts-3-5-players")
    seen = []
    for index in range(len(cycle)):
        state = new_game(rules, players, seed=index)
        state.round_index = index
        state.apply(state.chance_action())
        seen.append(state.pass_offset if state.phase == "exchange" else 0)
        assert len(state.hands[0]) + len(state.passing[0]) == {3: 17, 5: 10}[players]
    assert seen == cycle
    deck = new_game(rules, players, seed=0).deck
    names = {new_game(rules, players, seed=0).setup.pack.codes[c] for c in deck}
    assert "2D" not in names and ("2C" not in names) == (players == 5)


def test_the_holder_of_the_two_of_clubs_leads_it():
    # "The player with the 2 of clubs leads by playing that card"
    state = stacked("hearts", ALL_CLUBS, round_index=3)  # the fourth hand: no pass
    assert state.phase == "play" and state.turn == 0 and state.leader == 0
    assert [a.card for a in state.legal_actions()] == [card(state, "2C")]
    with pytest.raises(IllegalActionError, match="you hold 2C: lead it to the first trick"):
        state.apply(Play(card(state, "AC")))


def test_no_heart_or_queen_of_spades_on_the_first_trick_unless_nothing_else():
    # "In the first round, you may not play a heart or the queen of spades"
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",  # nothing but hearts and the Q♠
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS AH KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]
    state = stacked("hearts", hands, round_index=3)
    state.apply(Play(card(state, "2C")))
    # seat 1 holds only hearts and the Q♠: the rule is waived, any card
    assert {a.card for a in state.legal_actions()} == set(cards(state, hands[1]))
    state.apply(Play(card(state, "QS")))
    # seat 2 holds spades besides the A♥: the A♥ is refused with the rule's message
    assert card(state, "AH") not in {a.card for a in state.legal_actions()}
    with pytest.raises(IllegalActionError, match="no heart and not the queen of spades on the first trick"):
        state.apply(Play(card(state, "AH")))
    state.apply(Play(card(state, "AS")))
    state.apply(Play(card(state, "AD")))
    assert state.taken == [1, 0, 0, 0] and state.card_points == [13, 0, 0, 0]  # the 2♣ took the Q♠


def test_hearts_are_not_led_until_broken():
    # "You may lead a heart ... only if you have only hearts in your hand or if hearts have
    # been broken. Hearts are broken when anyone plays a heart when they cannot follow suit."
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2H 3H",
             "KC 4H 5H 6H 7H 8H 9H TH JH QH KH AH AC",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]
    state = stacked("hearts", hands, round_index=3)
    for text in ("2C", "KC", "2S", "2D"):  # seat 1 wins with the K♣
        state.apply(Play(card(state, text)))
    assert state.turn == 1
    legal = {a.card for a in state.legal_actions()}
    assert legal == {card(state, "AC")}  # hearts not broken: lead the A♣ (not a heart)
    with pytest.raises(IllegalActionError, match="hearts are not broken yet"):
        state.apply(Play(card(state, "AH")))
    for text in ("AC", "3S", "3D", "3C"):  # seat 1 wins again, and now holds only hearts
        state.apply(Play(card(state, text)))
    assert state.turn == 1 and {a.card for a in state.legal_actions()} == set(cards(state, hands[1])[1:-1])


def play_out_with(state, seed=0):
    policies = make_policies(state.rules, ["random"] * state.players, seed)
    round_index = state.round_index
    while state.round_index == round_index and not state.is_over:
        if state.turn == CHANCE:
            break
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    return next(e for e in reversed(state.events) if e["event"] == "score")["points"]


@pytest.mark.parametrize("name,points", [
    # "The player's score for that hand is 0 and 26 points are added to the scores of the others"
    ("hearts", [0, 26, 26, 26]),
    # Omnibus: "all fifteen counting cards ... a slam and he scores 26 plus": -26 here
    ("omnibus-hearts", [-26, 0, 0, 0]),
    # Spot Hearts: "150 points is added to the other players scores"; the J♦ -40 to its taker
    ("spot-hearts", [-40, 150, 150, 150]),
])
def test_a_moon_shot_scores_as_the_source_says(name, points):
    state = stacked(name, ALL_CLUBS, round_index=3)
    assert play_out_with(state) == points
    assert state.taken == [0, 0, 0, 0] or True  # (the round is over: the next deal waits)


def test_a_round_scores_a_point_a_heart_and_thirteen_for_the_queen():
    # "You score 1 point for each heart you take. You score 13 points if you take the queen of spades."
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H",
             "AC 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]
    state = stacked("hearts", hands, round_index=3)
    won: list[list[str]] = [[], [], [], []]
    trick: list[str] = []
    for seed in range(3):
        state = stacked("hearts", hands, round_index=3)
        points = play_out_with(state, seed=seed)
        won = [[], [], [], []]
        for event in state.events:
            if event["event"] == "play":
                trick.append(event["card"])
            elif event["event"] == "trick":
                won[event["winner"]] += trick
                trick = []
        counted = [sum(c[1] == "H" for c in w) + (13 if "QS" in w else 0) for w in won]
        assert sum(counted) == 26
        assert points == (counted if 26 not in counted else [0 if c == 26 else 26 for c in counted])


def test_the_search_seat_samples_states_that_keep_its_pass():
    # what a seat passed is in the receiver's hand (until played); what it received is its own
    rules = load_ruleset("hearts")
    state = new_game(rules, 4, seed=11)
    state.apply(state.chance_action())
    policies = make_policies(rules, ["bot"] * 4, 1)
    while state.phase == "exchange":
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    for _ in range(5):  # a few cards into the first trick
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    seat = state.turn
    obs = state.observation(seat)
    assert len(obs.passing) == 3 and len(obs.received) == 3
    rng = random.Random(3)
    for _ in range(30):
        sample = determinize(rules, obs, {}, rng)
        assert sample.turn == seat and sorted(sample.hands[seat]) == sorted(obs.hand)
        held = Counter(sample.hands[obs.pass_to]) + Counter(c for s, c in
                                                             [(s, c) for s, c in _plays(state) if s == obs.pass_to])
        assert all(held[c] for c in obs.passing)
        assert sample.observation(seat).trick == obs.trick and sample.first_leader == obs.first_leader
        assert set(a.card for a in sample.legal_actions()) == set(a.card for a in state.legal_actions())


def _plays(state):
    return [(e["seat"], state.setup.pack.card(e["card"])) for e in state.events
            if e["event"] == "play" and e["round"] == state.round_index + 1]


def test_the_search_seat_samples_a_pass_in_progress():
    rules = load_ruleset("hearts")
    state = new_game(rules, 4, seed=4)
    state.apply(state.chance_action())
    policies = make_policies(rules, ["bot"] * 4, 1)
    for _ in range(4):  # seat 1 passes three, seat 2 one
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    obs = state.observation(2)
    assert obs.phase == "exchange" and len(obs.passing) == 1
    sample = determinize(rules, obs, {}, random.Random(0))
    assert sample.turn == 2 and sorted(sample.hands[2]) == sorted(obs.hand)
    assert sample.observation(2).passing == obs.passing


def test_a_search_seat_plays_a_game_of_hearts():
    rules = load_ruleset("hearts")
    state = new_game(rules, 4, seed=2)
    policies = make_policies(rules, ["search:8", "bot", "bot", "bot"], 2)
    while state.round_index < 1:  # one round: passes and tricks
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    assert sum(next(e for e in state.events if e["event"] == "score")["points"]) in (26, 78)


# --- a referee: every line of random games against the published rules ----------------------

def _cycle(name, players):
    if name == "black-maria":
        return [3]  # "always pass right"
    if name == "hearts-3-5-players" and players == 3:
        return [1, 2, 0]
    if name == "hearts-3-5-players" and players == 5:
        return [1, 4, 2, 3, 0]
    return [1, 3, 2, 0]


def _is_penalty(code):  # a heart or the Q♠ (the cards shooting the moon takes)
    return code[1] == "H" or code == "QS"


def _referee_points(name, won):
    """Each seat's points for the cards ``won`` (codes by seat), as the sources score them."""
    players = len(won)
    if name == "black-maria":  # "A♠ is -7, K♠ is -10 ... no shooting the moon"
        return [sum(c[1] == "H" for c in w) + 13 * ("QS" in w) + 10 * ("KS" in w) + 7 * ("AS" in w) for w in won]
    if name == "spot-hearts":
        value = {r: RANKS.index(r) + 2 for r in RANKS}  # face value; J 11 ... A 14

        def worth(code):
            return (value[code[0]] if code[1] == "H" else 0) + (50 if code == "QS" else 0) - \
                (40 if code == "JD" else 0)
        shooter = [s for s in range(players) if sum(map(_is_penalty, won[s])) == 14]
        if shooter:
            return [(-40 if "JD" in won[s] else 0) + (0 if s == shooter[0] else 150) for s in range(players)]
        return [sum(map(worth, w)) for w in won]
    base = [sum(c[1] == "H" for c in w) + (13 if "QS" in w else 0) for w in won]
    if name == "omnibus-hearts":
        slam = [s for s in range(players) if sum(map(_is_penalty, won[s])) == 14 and "TD" in won[s]]
        if slam:
            return [-26 if s == slam[0] else 0 for s in range(players)]
        return [b - (10 if "TD" in won[s] else 0) for s, b in enumerate(base)]
    moon = [s for s in range(players) if base[s] == 26]
    if moon:
        return [0 if s == moon[0] else 26 for s in range(players)]
    return base


def referee(name, events, players):
    """Check a record line by line against the rules as written; returns the totals."""
    totals = [0] * players
    hands: list[list[str]] = []
    rounds = 0
    for i, event in enumerate(events):
        kind = event["event"]
        if kind == "deal":
            rounds += 1
            assert event["round"] == rounds
            hands = [list(h) for h in event["hands"]]
            dealer = event["dealer"]
            deck = [c for h in hands for c in h]
            assert len(deck) == len(set(deck)) == {3: 51, 4: 52, 5: 50}[players]
            offset = _cycle(name, players)[(rounds - 1) % len(_cycle(name, players))]
            passed: dict[int, list[str]] = {s: [] for s in range(players)}
            led_hearts = broken = False
            trick: list[tuple[int, str]] = []
            won: list[list[str]] = [[] for _ in range(players)]
            tricks_played = 0
            lead = "2C" if "2C" in deck else "3C"
        elif kind == "pass":
            assert offset != 0, "a card passed in a hand that holds"
            assert event["to"] == (event["seat"] + offset) % players
            hands[event["seat"]].remove(event["card"])
            passed[event["seat"]].append(event["card"])
        elif kind == "receive":
            giver = event["from"]
            assert giver == (event["seat"] - offset) % players and event["cards"] == passed[giver]
            assert len(passed[giver]) == 3
            hands[event["seat"]] += event["cards"]
        elif kind == "play":
            seat, code = event["seat"], event["card"]
            hand = hands[seat]
            assert code in hand
            if tricks_played == 0 and not trick and name == "black-maria":
                assert seat == (dealer + 1) % players, "player left of dealer always starts"
            elif tricks_played == 0 and not trick:
                assert code == lead and lead in hand, "the first trick is led by the 2♣ (3♣) holder"
            if trick:
                suit = trick[0][1][1]
                assert seat == (trick[-1][0] + 1) % players
                if any(c[1] == suit for c in hand):
                    assert code[1] == suit, "a player must follow suit"
                elif tricks_played == 0 and _costs(name, code) and name != "black-maria":
                    assert all(_costs(name, c) for c in hand), "no point card on the first trick"
            elif code[1] == "H" and not broken:
                assert all(c[1] == "H" for c in hand), "hearts led before they are broken"
                led_hearts = True
            hand.remove(code)
            trick.append((seat, code))
            broken = broken or code[1] == "H"
        elif kind == "trick":
            suit = trick[0][1][1]
            winner = max((RANKS.index(c[0]), s) for s, c in trick if c[1] == suit)[1]
            assert event["winner"] == winner
            won[winner] += [c for _, c in trick]
            tricks_played += 1
            trick = []
        elif kind == "score":
            assert all(not h for h in hands) and sum(map(len, won)) == len(deck)
            assert event["points"] == _referee_points(name, won)
            totals = [t + p for t, p in zip(totals, event["points"])]
            assert event["totals"] == totals
            ends = max(totals) >= 100  # "The game ends when any player has 100 or more points"
            assert (events[i + 1]["event"] == "end") == ends
        elif kind == "end":
            low = min(totals)
            assert event["winners"] == [s for s in range(players) if totals[s] == low]
    assert led_hearts in (True, False)
    return totals


def _costs(name, code):
    """A card the first trick refuses: one that costs points (a heart, the Q♠)."""
    return code[1] == "H" or code == "QS"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HEARTS), st.integers(0, 2**31 - 1), st.data())
def test_random_games_keep_every_rule_as_the_sources_write_it(tmp_path_factory, name, seed, data):
    rules = load_ruleset(name)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    seats = data.draw(st.lists(st.sampled_from(["random", "bot"]), min_size=players, max_size=players))
    state = new_game(rules, players, seed)
    policies = make_policies(rules, seats, seed)
    while not state.is_over:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            legal = state.legal_actions()
            action = policies[state.turn].act(state.observation(state.turn), legal)
            assert action in legal and state.can_apply(action)
            state.apply(action)
    assert referee(name, state.events, players) == state.totals
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    save_record(state, path)
    result = replay(path)
    assert result.complete and result.state.totals == state.totals


def test_the_cli_plays_and_replays_a_game_of_hearts(run_cli, tmp_path):
    record = tmp_path / "hearts.jsonl"
    result = run_cli("play", "hearts", "--seats", "bot,bot,bot,search:4", "--seed", "7", "--fast", "--quiet",
                     "--record", str(record))
    assert result.exit_code == 0, result.output
    assert run_cli("replay", str(record)).exit_code == 0
    explained = run_cli("explain", "hearts").output
    assert "## Passing" in explained and "leads the first trick with that card" in explained
    assert "## Bidding" not in explained


def test_a_person_is_told_what_they_pass_and_receive(run_cli, tmp_path):
    keys = "\n".join(["hint", "AD", "KD", "QD"] + ["quit"]) + "\n"
    result = run_cli("play", "hearts", "--seats", "human,bot,bot,bot", "--seed", "3", "--fast",
                     "--save", str(tmp_path / "s.jsonl"), input=keys)
    out = result.output
    assert "a card to pass to bot-1 (1 of 3" in out
    assert "the bot would pass" in out
    assert "passes cards to" in out  # the others' passes, without their cards


def test_a_round_without_bidding_shows_no_bids():
    rules = load_ruleset("hearts")
    state = new_game(rules, 4, seed=1)
    state.apply(state.chance_action())
    obs = state.observation(state.turn)
    assert not obs.has_bidding and obs.bids == (None,) * 4 and obs.pass_count == 3


@pytest.mark.parametrize("name", HEARTS)
def test_every_hearts_ruleset_is_refereed_at_every_player_count(name):
    rules = load_ruleset(name)
    for players in range(rules.min_players, rules.max_players + 1):
        for seed, seats in ((1, "bot"), (2, "random")):
            state = new_game(rules, players, seed)
            policies = make_policies(rules, [seats] * players, seed)
            while not state.is_over:
                if state.turn == CHANCE:
                    state.apply(state.chance_action())
                else:
                    state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
            assert referee(name, state.events, players) == state.totals
