"""The trick-taking family, checked against the worked examples of the seed pages
and against stacked decks whose outcome a player can work out by hand."""

from __future__ import annotations

import random

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.trick_taking.actions import Bid, ChooseTrump, Play
from cardrules.interpreter.cards import JOKER as JOKER_CARD, card
from cardrules.interpreter.game import CHANCE, new_game

from helpers import DATA


def points(name, bid, tricks, hand_size=10):
    rules = load_ruleset(name)
    env = {**rules.setup(4).env, "round": 1, "hand_size": hand_size, "bid": bid, "tricks": tricks,
           "seat": 0, "is_dealer": False, "bids": [bid], "taken": [tricks]}
    return rules.section.scoring.points(env)


@pytest.mark.parametrize("bid, took, scored", [(3, 5, 5), (2, 2, 12), (4, 3, 3)])
def test_oh_hell_most_popular_scoring_worked_example(bid, took, scored):
    # "PlayerA/bid 3/won 5/scores 5, PlayerB/bid 2/won 2/scores 12, PlayerC/bid 4/won 3/scores 3"
    assert points("oh-hell", bid, took) == scored


@pytest.mark.parametrize("bid, took, scored", [(3, 5, 0), (2, 2, 10), (0, 0, 10), (4, 3, 0)])
def test_oh_hell_exact_only_scoring(bid, took, scored):
    assert points("oh-hell-exact-only", bid, took) == scored


@pytest.mark.parametrize("bid, took, scored", [(3, 5, -2), (2, 2, 10), (4, 1, -3), (0, 1, -1)])
def test_oh_hell_penalty_scoring(bid, took, scored):
    assert points("oh-hell-penalty", bid, took) == scored


@pytest.mark.parametrize("name", ["oh-shit", "oh-heck"])
def test_one_point_a_trick_and_ten_for_the_bid(name):
    assert points(name, 4, 4) == 14 and points(name, 4, 6) == 6


def hands_of(*hands):
    return tuple(tuple(card(c) for c in hand.split()) for hand in hands)


def stacked(name, hands, upcard, players=4, seed=0, dealer=None):
    """A game whose first round is dealt ``hands`` (seat 0 first) with ``upcard``."""
    state = new_game(load_ruleset(name), players, seed)
    state.stack_deal(hands_of(*hands), card(upcard) if upcard else None, dealer=dealer)
    return state


def bid_all(state, bids):
    for b in bids:
        state.apply(Bid(b))


def play_trick(state, cards):
    for c in cards:
        state.apply(Play(card(c)))
    return state.events[-1]


def test_trump_beats_the_suit_led():
    # Spades are trumps; a lead of the ace of hearts is beaten by the two of spades
    # (the seed's own example).  Seat 1 leads (left of dealer 0).
    state = stacked("oh-hell", ["3C 4C", "AH 5C", "2S 6C", "KH 7C"], "9S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    trick = play_trick(state, ["AH", "2S", "KH", "3C"])
    assert trick == {"event": "trick", "round": 1, "trick": 1, "winner": 2}


def test_highest_card_of_the_suit_led_wins_without_trumps():
    state = stacked("oh-hell", ["QH 4C", "TH 5C", "AD 6C", "KH 7C"], "9S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    trick = play_trick(state, ["TH", "AD", "KH", "QH"])  # the ace of diamonds is off-suit
    assert trick["winner"] == 3


def test_the_highest_trump_wins_when_several_are_played():
    state = stacked("oh-hell", ["3S 4C", "AH 5C", "2S 6C", "KS 7C"], "9S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    assert play_trick(state, ["AH", "2S", "KS", "3S"])["winner"] == 3


def test_must_follow_suit_quotes_the_rule():
    state = stacked("oh-hell", ["3C 4C", "AH 5C", "2S 6H", "KH 7C"], "9S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    state.apply(Play(card("AH")))
    with pytest.raises(IllegalActionError, match="you must follow hearts"):
        state.apply(Play(card("2S")))
    assert [str(a) for a in state.legal_actions()] == ["play 6H"]
    with pytest.raises(IllegalActionError, match="you do not hold KH"):
        state.apply(Play(card("KH")))


def test_bowers_jack_of_trump_highest_jack_of_same_colour_second():
    # "if spades was trumps the highest valued card in the game would be the Jack of
    # Spades and the second highest would be the Jack of Clubs"
    state = stacked("oh-shit", ["JC 4D", "AS 5D", "JS 6D", "KS 7D"], "2S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    trick = play_trick(state, ["AS", "JS", "KS", "JC"])
    assert trick["winner"] == 2  # the jack of spades beats everything
    state = stacked("oh-shit", ["JC 4D", "AS 5D", "QS 6D", "KS 7D"], "2S", dealer=0)
    bid_all(state, [1, 0, 0, 0])
    assert play_trick(state, ["AS", "QS", "KS", "JC"])["winner"] == 0  # then the jack of clubs


def test_left_bower_is_played_as_a_spade():
    # "the Jack of Clubs would be played at any time a spade could be played":
    # a spade is led, so the jack of clubs must follow it, the four of clubs may not
    state = stacked("oh-shit", ["JC 4C", "AS 5D", "QD 6D", "KD 7D"], "2S", dealer=0)
    bid_all(state, [0, 0, 0, 0])
    state.apply(Play(card("AS")))  # seat 1 leads the ace of trumps
    state.apply(Play(card("QD")))
    state.apply(Play(card("KD")))
    assert [str(a) for a in state.legal_actions()] == ["play JC"]
    with pytest.raises(IllegalActionError, match="you must follow spades"):
        state.apply(Play(card("4C")))


def test_left_bower_does_not_follow_its_printed_suit():
    state = stacked("oh-shit", ["JC 4D", "AC 5D", "QD 6D", "KD 7D"], "2S", dealer=0)
    bid_all(state, [0, 0, 0, 0])
    state.apply(Play(card("AC")))  # clubs led; seat 2 and 3 have none
    state.apply(Play(card("QD")))
    state.apply(Play(card("KD")))
    # seat 0 holds JC, but it is a spade this round: not a club, so any card may be played
    assert {str(a) for a in state.legal_actions()} == {"play JC", "play 4D"}
    state.apply(Play(card("JC")))
    assert state.events[-1]["winner"] == 0  # and as a trump it wins the trick


def test_no_trump_round_when_the_whole_deck_is_dealt():
    # oh-heck, 4 players: 13 cards each, "if the trump card is empty, there is no trump"
    state = new_game(load_ruleset("oh-heck"), 4, seed=3)
    state.apply(state.chance_action())
    assert state.events[1]["upcard"] is None and state.events[1]["hand_size"] == 13
    assert state.events[2] == {"event": "trump", "round": 1, "suit": None}


def test_trump_rotation_with_a_no_trump_round():
    rules = load_ruleset(DATA / "good" / "rotation-must-trump.yaml")
    state = new_game(rules, 4, seed=1)
    play_out(state, make_policies(rules, ["random"] * 4, 1))
    suits = [e["suit"] for e in state.events if e["event"] == "trump"]
    assert suits == ["H", "S", "D", "C", None]


def test_must_trump_when_void():
    rules = load_ruleset(DATA / "good" / "rotation-must-trump.yaml")  # round 1: hearts are trumps
    state = new_game(rules, 4, seed=0)
    state.stack_deal(hands_of("2C 3H", "AS 4C", "KS 5D", "QS 6D"), dealer=0)
    bid_all(state, [0, 0, 0, 0])
    play_trick(state, ["AS", "KS", "QS"])  # seat 1 leads spades; seat 0 has none
    assert [str(a) for a in state.legal_actions()] == ["play 3H"]
    with pytest.raises(IllegalActionError, match=r"you have no spades, so you must play a trump \(hearts\)"):
        state.apply(Play(card("2C")))
    state.apply(Play(card("3H")))
    assert state.events[-1]["winner"] == 0


def test_hook_dealer_may_not_make_bids_total_the_tricks():
    state = stacked("oh-hell", ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS", dealer=3)
    bid_all(state, [1, 0, 1])  # seats 0, 1, 2; the dealer (seat 3) bids last
    assert state.turn == 3
    assert [a.bid for a in state.legal_actions()] == [0, 2, 3]
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Bid(1))
    assert str(refused.value) == "the dealer may not bid 1: bids would total 3, the number of tricks"
    with pytest.raises(IllegalActionError, match="bids run from 0 to 3"):
        state.apply(Bid(4))
    state.apply(Bid(2))
    assert state.phase == "play"


def test_the_hook_constrains_only_the_last_bidder():
    state = stacked("oh-hell", ["2C 3C", "5C 6C", "8C 9C", "JC QC"], "AS", dealer=3)
    assert [a.bid for a in state.legal_actions()] == [0, 1, 2]  # seat 0 may bid the lot


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_hook_holds_in_every_round_of_games_sharing_a_setup(players):
    """Legal bids are remembered for every game of a setup; over whole games, round after
    round, the last bidder may bid anything but the number that makes the total the
    tricks, and everyone else may bid anything."""
    rules = load_ruleset("oh-hell")
    checked = 0

    class Hook:
        kind, needs_observation = "check", False

        def __init__(self):
            self.rng = random.Random(players)

        def act(self, observation, legal):
            state = game
            if state.phase == "bidding":
                size = state.hand_size
                everything = list(range(size + 1))
                made = [state.bids[s] for s in state.bid_order if state.bids[s] is not None]
                if len(made) == players - 1:
                    if size - sum(made) in everything:
                        everything.remove(size - sum(made))
                assert [a.bid for a in legal] == everything, (state.round, made)
                nonlocal checked
                checked += 1
            return legal[self.rng.randrange(len(legal))]

    for seed in range(6):
        game = new_game(rules, players, seed=seed)
        play_out(game, [Hook() for _ in range(players)])
        assert game.is_over
    assert checked > 6 * players * 10


def test_named_by_highest_bidder_and_simultaneous_bids(tmp_path):
    path = tmp_path / "named.yaml"
    path.write_text("extends: oh-hell\nname: named\ntrump: {kind: named-by-highest-bidder}\n"
                    "bidding: {order: simultaneous, restrictions: null}\n")
    state = stacked(path, ["2C 3C", "5C 6C", "8C 9C", "JC QC"], None, dealer=3)
    state.apply(Bid(1))
    obs = state.observation(1)
    assert obs.bids == (None, None, None, None)  # seat 0's bid is hidden until all have bid
    state.apply(Bid(2))
    state.apply(Bid(2))
    state.apply(Bid(0))
    assert state.phase == "trump" and state.turn == 1  # first of the highest bidders in order
    with pytest.raises(IllegalActionError, match="names the trump"):
        state.apply(Play(card("5C")))
    state.apply(ChooseTrump(1))
    assert state.events[-1] == {"event": "trump", "round": 1, "suit": "H", "seat": 1}
    assert state.turn == 0  # the player left of the dealer leads


def test_observation_never_shows_another_seats_hand():
    state = new_game(load_ruleset("oh-shit"), 4, seed=11)
    state.apply(state.chance_action())
    deal = state.events[1]
    for seat in range(4):
        obs = state.observation(seat)
        others = {card(c) for s, hand in enumerate(deal["hands"]) if s != seat for c in hand}
        assert sorted(obs.hand) == sorted(card(c) for c in deal["hands"][seat])
        # the cards in the rest of the observation: the upcard, the trick and the cards played
        visible = [obs.upcard] + [c for _, c in obs.trick] + list(obs.played)
        assert not others & set(visible)


def test_chance_acts_first_and_the_same_seed_deals_the_same_cards():
    rules = load_ruleset("oh-shit")
    a, b = new_game(rules, 4, seed=5), new_game(rules, 4, seed=5)
    assert a.turn == CHANCE
    assert a.chance_action() == b.chance_action()
    assert new_game(rules, 4, seed=6).chance_action() != a.chance_action()


def test_wrong_player_count_is_refused():
    with pytest.raises(IllegalActionError, match="for 3 to 5 players"):
        new_game(load_ruleset("oh-shit"), 6, seed=1)


def test_an_action_of_the_wrong_phase_is_refused_even_after_listing_legal_actions():
    state = stacked("oh-hell", ["2C 3C", "5C 6C", "8C 9C", "JC QC"], "AS", dealer=3)
    assert [a.bid for a in state.legal_actions()] == [0, 1, 2]
    with pytest.raises(IllegalActionError, match="it is time to bid"):
        state.apply(Play(1))  # card 1 (3S) shares its number with a legal bid
    bid_all(state, [0, 0, 0, 1])
    assert [str(a) for a in state.legal_actions()] == ["play 2C", "play 3C"]
    with pytest.raises(IllegalActionError, match="it is time to play a card"):
        state.apply(Bid(card("2C")))


JOKERS = DATA / "good" / "jokers-top-trump.yaml"


def test_a_top_trump_joker_beats_the_bowers_and_the_first_joker_wins():
    # seat 1 leads; seat 2 plays the right bower; seat 3 and seat 0 play jokers
    state = stacked(JOKERS, ["JK 4C", "AS 5D", "JS 6D", "JK 7D"], "2S", dealer=0)
    bid_all(state, [0, 0, 0, 1])
    assert play_trick(state, ["AS", "JS", "JK", "JK"])["winner"] == 3  # the first joker played wins


def test_a_joker_wins_even_in_a_no_trump_round_and_when_led_frees_the_others(tmp_path):
    path = tmp_path / "nt.yaml"
    path.write_text(f"extends: {JOKERS}\nname: nt\ntrump: {{kind: none, jokers: top-trump}}\n")
    state = stacked(path, ["JK 4C", "AS 5D", "KS 6D", "QH 7D"], None, dealer=3)
    bid_all(state, [1, 0, 0, 0])
    assert {str(a) for a in state.legal_actions()} == {"play JK", "play 4C"}
    state.apply(Play(card("4C")))  # seat 0 leads clubs, keeping its joker
    state.apply(Play(card("5D")))
    state.apply(Play(card("6D")))
    assert play_trick(state, ["7D"])["winner"] == 0
    state = stacked(path, ["JK 4C", "AS 5D", "KS 6D", "QH 7D"], None, dealer=3)
    bid_all(state, [1, 0, 0, 0])
    state.apply(Play(JOKER_CARD))
    assert {str(a) for a in state.legal_actions()} == {"play AS", "play 5D"}  # nothing to follow
    assert play_trick(state, ["AS", "KS", "QH"])["winner"] == 0


def test_jokers_are_trumps_to_follow_in_a_trump_round():
    state = stacked(JOKERS, ["2S 4C", "JK 5D", "KH 6D", "QH 7D"], "9S", dealer=3)
    bid_all(state, [0, 0, 0, 1])
    state.apply(Play(card("2S")))  # spades (trump) led: seat 1 must follow with its joker
    assert [str(a) for a in state.legal_actions()] == ["play JK"]


def test_jokers_need_a_rule_in_trick_taking(tmp_path):
    from cardrules.interpreter import RulesetError

    path = tmp_path / "j.yaml"
    path.write_text("extends: oh-hell\nname: j\ndeck: {jokers: 1}\n")
    with pytest.raises(RulesetError, match="trump.jokers: top-trump"):
        load_ruleset(path)


@pytest.mark.parametrize("seed", range(6))
def test_games_with_jokers_finish_and_replay(tmp_path, seed):
    from cardrules.interpreter.record import replay, save_record

    rules = load_ruleset(JOKERS)
    players = 3 + seed % 3
    state = new_game(rules, players, seed, ruleset_ref=str(JOKERS))
    play_out(state, make_policies(rules, ["bot" if s % 2 else "random" for s in range(players)], seed))
    taken = sum(1 for e in state.events if e["event"] == "trick")
    assert taken == sum(state.setup.hand_sizes)
    assert any("JK" in hand for e in state.events if e["event"] == "deal" for hand in e["hands"])
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


PARTNERS = DATA / "good" / "partners.yaml"


def test_partnerships_score_by_team_and_the_best_team_wins():
    rules = load_ruleset(PARTNERS)
    state = new_game(rules, 4, seed=2)
    play_out(state, make_policies(rules, ["bot" if s % 2 == 0 else "random" for s in range(4)], 2))
    end = state.events[-1]
    assert end["teams"] == [0, 1, 0, 1]
    team_totals = {t: sum(end["totals"][s] for s in range(4) if s % 2 == t) for t in (0, 1)}
    best = max(team_totals, key=team_totals.get)
    assert end["winners"] == [s for s in range(4) if s % 2 == best]
    # every round: a point a trick, and 10 each when the team made its combined bid
    bids, taken = {}, [0] * 4
    for event in state.events:
        if event["event"] == "deal":
            bids, taken = {}, [0] * 4
        elif event["event"] == "bid":
            bids[event["seat"]] = event["bid"]
        elif event["event"] == "trick":
            taken[event["winner"]] += 1
        elif event["event"] == "score":
            made = {t: sum(taken[s] for s in range(4) if s % 2 == t) == sum(bids[s] for s in range(4) if s % 2 == t)
                    for t in (0, 1)}
            assert event["points"] == [taken[s] + (10 if made[s % 2] else 0) for s in range(4)]


def test_partnerships_need_two_teams(tmp_path):
    from cardrules.interpreter import RulesetError

    path = tmp_path / "one-team.yaml"
    path.write_text("extends: oh-hell\nname: one-team\nteam: \"0\"\n")
    with pytest.raises(RulesetError, match="partnerships need two teams"):
        load_ruleset(path)
