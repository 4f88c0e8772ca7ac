"""The catalogue of published variants (docs/catalogue.md), checked against the worked
examples of their sources: deal schedules, scores, the hook, trumps, melds, buying and card
points; and every ruleset played to the end by bots at every player count it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine, card_points
from cardrules.interpreter.families.trick_taking.actions import Bid, Play
from cardrules.interpreter.game import new_game

RULESETS = Path(__file__).parent.parent / "rulesets"

CATALOGUE = ["romanian-whist", "romanian-whist-3", "romanian-whist-5", "romanian-whist-6", "kachufool",
             "kachufool-fingers", "kachufool-tens", "nomination-whist", "up-and-down-the-river",
             "progressive-rummy", "carioca-two-player", "contract-rummy-bicycle", "plump",
             "spades", "boerenbridge", "oh-hell-guardian", "blackout-zero", "blackout-pbmserv",
             "boerenbridge-forehead"]


def rules_of(name):
    return load_ruleset(RULESETS / f"{name}.yaml")


def sizes(name, players):
    return list(rules_of(name).setup(players).hand_sizes)


def points(name, bid, tricks, hand_size=10, players=4):
    rules = rules_of(name)
    env = {**rules.setup(players).env, "round": 1, "hand_size": hand_size, "bid": bid, "tricks": tricks,
           "seat": 0, "is_dealer": False, "bids": [bid], "taken": [tricks]}
    return rules.section.scoring.points(env)


def hands(*texts):
    return tuple(tuple(card(c) for c in text.split()) for text in texts)


def stacked(name, players, hand_texts, upcard=None, dealer=None):
    state = new_game(rules_of(name), players, seed=0)
    state.stack_deal(hands(*hand_texts), card(upcard) if upcard else None, dealer=dealer)
    return state


def legal_bids(state):
    return [a.bid for a in state.legal_actions()]


def bid_all(state, bids):
    for b in bids:
        state.apply(Bid(b))


# --- Romanian Whist -------------------------------------------------------------------------
def test_romanian_whist_four_players_deal_schedule():
    # pagat: "With 4 players the whole game would consist of 24 deals ..."
    assert sizes("romanian-whist", 4) == [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1]


def test_romanian_whist_three_players_deal_schedule():
    # whist.live: "E.g. for 3 players: 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1"
    assert sizes("romanian-whist-3", 3) == [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1]


@pytest.mark.parametrize("name, players, deck", [("romanian-whist-3", 3, 24), ("romanian-whist", 4, 32),
                                                 ("romanian-whist-5", 5, 40), ("romanian-whist-6", 6, 48)])
def test_romanian_whist_eight_cards_a_player(name, players, deck):
    # "use 8 cards for every player (24 for 3 players, 32 for 4 players and so on)"
    assert rules_of(name).setup(players).deck_size == deck == 8 * players
    assert max(sizes(name, players)) == 8


def test_romanian_whist_eight_card_deals_are_played_without_trumps():
    # "In the games with 8 cards there is no card left to turn, and these games are played without trumps."
    state = play_bots(rules_of("romanian-whist"), ["bot"] * 4, 3)
    trumps = {e["round"]: e["suit"] for e in state.events if e["event"] == "trump"}
    deals = {e["round"]: e["hand_size"] for e in state.events if e["event"] == "deal"}
    assert [r for r, suit in trumps.items() if suit is None] == [r for r, n in deals.items() if n == 8] == [11, 12, 13, 14]


def test_romanian_whist_hook_worked_example():
    # "game with four cards, three players: The first player says "2", the next "1". The third
    # player is not allowed to say "1" ... The player has to bid either 0, 2, 3 or 4."
    state = stacked("romanian-whist-3", 3, ["9S TS JS QS", "9H TH JH QH", "9D TD JD QD"], "AC", dealer=2)
    bid_all(state, [2, 1])
    assert legal_bids(state) == [0, 2, 3, 4]
    with pytest.raises(IllegalActionError, match="may not bid 1: bids would total 4"):
        state.apply(Bid(1))


def test_romanian_whist_must_trump_when_void():
    # "Any player who has no card of the suit led must play a trump if they can."
    state = stacked("romanian-whist", 4, ["8C 9H", "AS TC", "KS JD", "QS QD"], "7H", dealer=0)
    bid_all(state, [0, 0, 0])
    assert 2 not in legal_bids(state)  # the dealer is hooked
    state.apply(Bid(0))
    for c in ["AS", "KS", "QS"]:
        state.apply(Play(card(c)))
    assert [str(a) for a in state.legal_actions()] == ["play 9H"]


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 8), (0, 0, 5), (8, 8, 13), (2, 5, -3), (4, 1, -3), (0, 1, -1)])
def test_romanian_whist_scoring(bid, took, scored):
    # goobix: "5 points + 1 point per trick made", otherwise "lowered with the difference"
    assert points("romanian-whist", bid, took, hand_size=8) == scored


# --- Kachufool ----------------------------------------------------------------------------
@pytest.mark.parametrize("players, rounds", [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_kachufool_as_many_rounds_as_the_pack_allows(players, rounds):
    # "for 6 players 8 rounds can be played": round n deals n cards while the pack lasts
    assert sizes("kachufool", players) == list(range(1, rounds + 1))


def test_kachufool_trumps_spades_diamonds_clubs_hearts():
    state = play_bots(rules_of("kachufool"), ["bot"] * 4, 1)
    suits = [e["suit"] for e in state.events if e["event"] == "trump"]
    assert suits == ["S", "D", "C", "H"] * 3 + ["S"]


def test_kachufool_the_final_person_cannot_complete_the_round():
    # "for round 5, if 4 tricks have been declared, the final person cannot declare 1 trick"
    state = stacked("kachufool", 4, ["2C 3C 4C 5C 6C", "7C 8C 9C TC JC", "2D 3D 4D 5D 6D", "7D 8D 9D TD JD"], dealer=3)
    bid_all(state, [1, 2, 1])
    assert legal_bids(state) == [0, 2, 3, 4, 5]


def test_kachufool_fingers_no_final_person():
    state = stacked("kachufool-fingers", 4, ["2C 3C 4C 5C 6C", "7C 8C 9C TC JC", "2D 3D 4D 5D 6D", "7D 8D 9D TD JD"],
                    dealer=3)
    bid_all(state, [1, 2, 1])
    assert legal_bids(state) == [0, 1, 2, 3, 4, 5]


def zero_five_times(name, players):
    """A game of ``name`` in which every seat declares zero whenever it may, for five rounds,
    and the sixth round dealt."""
    state = new_game(rules_of(name), players, 0)
    for _ in range(5):
        state.apply(state.chance_action())
        while state.phase == "bidding":
            state.apply(Bid(0) if 0 in legal_bids(state) else state.legal_actions()[0])
        while state.phase == "play":
            state.apply(state.legal_actions()[0])
    state.apply(state.chance_action())
    return state


@pytest.mark.parametrize("name", ["kachufool", "kachufool-fingers", "kachufool-tens"])
def test_kachufool_no_sixth_zero_in_a_row_with_more_than_five_players(name):
    # "If more than 5 players are playing, no player can bid zero more than 5 times in a row. If a
    # player bids zero five times in a row, the 6th time has to be a non-zero bid."
    state = zero_five_times(name, 6)
    zeros = state.counters["zeros"]
    assert 5 in zeros and all(z in (0, 5) for z in zeros)  # at most one hooked seat bid 1 each round
    while state.phase == "bidding":
        if zeros[state.turn] == 5:
            assert 0 not in legal_bids(state)
            with pytest.raises(IllegalActionError, match="declared zero 5 times in a row"):
                state.apply(Bid(0))
        state.apply(state.legal_actions()[0])


def test_kachufool_zero_streaks_are_free_with_five_players():
    state = zero_five_times("kachufool", 5)
    assert 5 in state.counters["zeros"]
    bid_all(state, [0, 0, 0, 0, 0])  # every seat, the fifth-in-a-row ones too, may declare zero
    assert state.phase == "play"


def test_kachufool_a_nonzero_bid_starts_the_count_again():
    state = zero_five_times("kachufool", 6)
    seat = state.counters["zeros"].index(5)
    while state.phase == "bidding":
        state.apply(state.legal_actions()[0])  # the lowest legal bid: 1 for that seat
    while state.phase == "play":
        state.apply(state.legal_actions()[0])
    assert state.counters["zeros"][seat] == 0


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 13), (0, 0, 10), (5, 5, 15), (3, 2, 0), (0, 1, 0)])
def test_kachufool_ten_plus_the_tricks(bid, took, scored):
    # "receives ten plus the number of tricks declared/taken ... does not ... gets 0 points"
    assert points("kachufool", bid, took) == scored


@pytest.mark.parametrize("bid, took, scored", [(1, 1, 10), (0, 0, 10), (2, 2, 20), (3, 3, 30), (2, 1, 0)])
def test_kachufool_tens_ten_a_trick(bid, took, scored):
    # "bets 1 hand and gets 1 hand ... 10 points ... bets zero he will still get 10 points and
    # if he bets 2 hands he will get 20 points"; the app: "either 13 or 30 points" for 3
    assert points("kachufool-tens", bid, took) == scored


# --- Nomination Whist -----------------------------------------------------------------------
@pytest.mark.parametrize("players, first", [(3, 10), (4, 10), (5, 10), (6, 8)])
def test_nomination_whist_deal_schedule(players, first):
    # "Ten cards ... 2, 1, 2, ... 8, 9, 10 (for 6 players the order is: 8, 7, ..., 2, 1, 2, ... 7, 8)"
    assert sizes("nomination-whist", players) == list(range(first, 0, -1)) + list(range(2, first + 1))


def test_nomination_whist_trump_rotation_with_no_trumps():
    # "rotating through Spades, Hearts, Clubs, Diamonds, No Trumps"
    state = play_bots(rules_of("nomination-whist"), ["bot"] * 6, 0)
    suits = [e["suit"] for e in state.events if e["event"] == "trump"]
    assert suits == ["S", "H", "C", "D", None] * 3


def test_nomination_whist_hook_worked_example():
    # "with 10 cards and 4 players, if the first three players bid 3, 0 and 3, then the final
    # player could not bid 4 because 3 + 0 + 3 + 4 = 10"
    deck = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    state = stacked("nomination-whist", 4, [" ".join(deck[i * 10:(i + 1) * 10]) for i in range(4)], dealer=3)
    bid_all(state, [3, 0, 3])
    assert 4 not in legal_bids(state) and legal_bids(state) == [0, 1, 2, 3, 5, 6, 7, 8, 9, 10]


@pytest.mark.parametrize("bid, took, scored", [(1, 2, 2), (3, 3, 13), (0, 0, 10), (4, 2, 2)])
def test_nomination_whist_scoring(bid, took, scored):
    # "if you bid 1 but win 2 you score 2; if you bid 3 and win 3 you score 3 + 10 = 13"
    assert points("nomination-whist", bid, took) == scored


# --- Up and Down the River ------------------------------------------------------------------
@pytest.mark.parametrize("players, first", [(4, 10), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_up_and_down_the_river_down_to_one_and_back(players, first):
    # "Each round is played with one less card than the round before until 1, before building
    # back up to the starting amount"
    assert sizes("up-and-down-the-river", players) == list(range(first, 0, -1)) + list(range(2, first + 1))


def test_up_and_down_the_river_hook_worked_example():
    # "in a round with 5 cards, and 4 tricks already declared, the dealer cannot call 1 trick.
    # They must call either zero or 2-5 tricks."
    state = stacked("up-and-down-the-river", 4, ["2C 3C 4C 5C 6C", "7C 8C 9C TC JC", "2D 3D 4D 5D 6D",
                                                 "7D 8D 9D TD JD"], "AS", dealer=3)
    bid_all(state, [2, 1, 1])
    assert legal_bids(state) == [0, 2, 3, 4, 5]


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 13), (3, 5, 5), (2, 0, 0)])
def test_up_and_down_the_river_scoring(bid, took, scored):
    # "Each trick won ... worth one point ... exactly the number of tricks they bid receives a
    # 10-point bonus. Penalties are not assessed"
    assert points("up-and-down-the-river", bid, took) == scored


# --- Plump ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_plump_ten_down_to_one_once_a_player_and_back(players):
    # "tio kort var, nästa nio kort ... ner tills alla får ett kort var. Man ger lika mång givar med
    # ett kort var som det är spelare med ... Sen ges två kort var, sen tre osv tills en sista giv
    # med tio kort var"
    assert sizes("plump", players) == list(range(10, 1, -1)) + [1] * players + list(range(2, 11))


def test_plump_is_played_without_trumps():
    # "Högsta kort i spelad färg tar sticket": no trump suit in any deal
    state = play_bots(rules_of("plump"), ["bot"] * 3, 0)
    assert {e["suit"] for e in state.events if e["event"] == "trump"} == {None}


def test_plump_dealer_hook_worked_example():
    # "om det är 10 kort utdelade och de övriga har valt 3,3,2 så får inte givaren välja 2 stick"
    deck = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    state = stacked("plump", 4, [" ".join(deck[i * 10:(i + 1) * 10]) for i in range(4)], dealer=3)
    bid_all(state, [3, 3, 2])
    assert legal_bids(state) == [0, 1, 3, 4, 5, 6, 7, 8, 9, 10]
    with pytest.raises(IllegalActionError, match="the dealer may not say 2: the bids would total 10"):
        state.apply(Bid(2))


def test_plump_the_highest_bidder_leads():
    # "Den spelare som valt flest antal stick ... börjar": seat 2 bids 3, the most
    state = stacked("plump", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], dealer=3)
    bid_all(state, [0, 1, 3, 0])
    assert state.turn == 2
    assert sorted(str(a) for a in state.legal_actions()) == ["play AH", "play KH", "play QH"]


def test_plump_a_tie_goes_to_the_first_after_the_dealer():
    # "(närmast efter given om flera valt lika)": seats 1 and 2 both bid 2; seat 1 is nearer
    # after the dealer (seat 3) in the bidding order 0, 1, 2, 3
    state = stacked("plump", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], dealer=3)
    bid_all(state, [0, 2, 2, 0])
    assert state.turn == 1


@pytest.mark.parametrize("bid, took, scored", [(5, 5, 15), (0, 0, 5), (10, 10, 110), (1, 1, 11), (3, 2, 0),
                                               (0, 1, 0)])
def test_plump_a_one_before_the_bid(bid, took, scored):
    # "tippade på 5 stick och lyckades ta det så får man 15 poäng. Har man sagt 0 (noll) så blir det
    # 5 ... gissat på 10 stick och lyckas med detta får man alltså 110 poäng"; a plump is worth 0
    assert points("plump", bid, took) == scored


# --- Spades --------------------------------------------------------------------------------
def spades_round(bids, taken, bags=(0, 0)):
    """Each seat's points for one deal of partnership Spades (seats 0 and 2 against 1 and 3),
    and each seat's bags after it; ``bags`` is each partnership's carried bags."""
    rules = rules_of("spades")
    base = rules.setup(4).round_env(0)
    scores, after = [], []
    for seat in range(4):
        env = {**base, "bid": bids[seat], "tricks": taken[seat], "seat": seat, "is_dealer": seat == 3,
               "bids": list(bids), "taken": list(taken), "team": seat % 2,
               "team_bid": bids[seat] + bids[(seat + 2) % 4], "team_tricks": taken[seat] + taken[(seat + 2) % 4],
               "bags": bags[seat % 2]}
        scores.append(rules.section.scoring.points(env))
        after.append(rules.section.counters[0].update({**env, "points": scores[-1]}))
    return [scores[0] + scores[2], scores[1] + scores[3]], after


def test_spades_a_made_contract_scores_ten_a_trick_bid_and_a_point_a_bag():
    # "receives a score equal to 10 times its bid. Additional tricks (bags) are worth an extra one
    # point each"; "if we bid 5 and get 7, then we get 2 bags"
    assert spades_round([3, 3, 2, 3], [4, 3, 3, 3]) == ([52, 60], [2, 0, 2, 0])
    # Wikipedia: "If the team made exactly 7 tricks, they would earn the full 70 points."
    assert spades_round([4, 2, 3, 4], [4, 2, 3, 4])[0] == [70, 60]


def test_spades_a_set_contract_loses_ten_a_trick_bid():
    # "If a side does not make its bid, they lose 10 points for each trick they bid."
    assert spades_round([4, 3, 4, 1], [3, 4, 4, 2])[0] == [-80, 42]


def test_spades_nil_bonus_with_a_set_partner():
    # "if one player successfully made a Nil bid, but their partner bid 5 tricks and only took 4
    # tricks, the partnership still gets the bonus ... -50 points + 100 points = 50 points"
    assert spades_round([5, 4, 0, 4], [4, 5, 0, 4])[0] == [50, 81]


def test_spades_failed_nil_loses_100_and_its_tricks_do_not_help_the_partner():
    # "a penalty if it fails"; the nil bidder's trick does not count toward the partner's 4 (a reading)
    assert spades_round([4, 4, 0, 4], [3, 5, 1, 4])[0] == [-40 - 100, 81]


def test_spades_ten_bags_cost_100_and_the_rest_carry_over():
    # "A side which (over several deals) accumulates 10 or more bags has 100 points deducted ...
    # Any bags beyond 10 are carried over to the next cycle."
    scores, bags = spades_round([2, 3, 2, 3], [4, 3, 3, 3], bags=(7, 9))
    assert scores == [4 * 10 + 3 - 100, 60]
    assert bags == [0, 9, 0, 9]
    scores, bags = spades_round([1, 3, 1, 3], [5, 3, 2, 3], bags=(8, 0))
    assert scores == [20 + 5 - 100, 60] and bags == [3, 0, 3, 0]


def test_spades_partnerships_win_together():
    rules = rules_of("spades")
    state = play_bots(rules, ["bot"] * 4, 5)
    team_totals = [state.totals[0] + state.totals[2], state.totals[1] + state.totals[3]]
    assert team_totals[0] != team_totals[1]
    assert state.counters["bags"][0] == state.counters["bags"][2] and state.counters["bags"][1] == state.counters["bags"][3]


def test_spades_are_always_trump_and_the_whole_pack_is_dealt():
    state = play_bots(rules_of("spades"), ["bot"] * 4, 2)
    assert {e["suit"] for e in state.events if e["event"] == "trump"} == {"S"}
    assert sizes("spades", 4) == [13] * 8


def test_spades_may_not_be_led_until_broken():
    # "The player to dealer's left leads any card (except a spade) ... Spades may not be led until
    # either some player has played a spade, or the leader has nothing but spades left in hand."
    state = stacked("spades", 4, ["2S 4D 5C", "3H 3S 4C", "AH 5S 6S", "KH 2D 3D"], dealer=3)
    bid_all(state, [1, 1, 1, 0])
    assert state.turn == 0
    assert sorted(str(a) for a in state.legal_actions()) == ["play 4D", "play 5C"]
    with pytest.raises(IllegalActionError, match="spades may not be led until a spade has been played"):
        state.apply(Play(card("2S")))
    state.apply(Play(card("5C")))   # seat 1 follows; seat 2 has no club and trumps: spades broken
    state.apply(Play(card("4C")))
    state.apply(Play(card("5S")))
    state.apply(Play(card("KH")))
    assert state.turn == 2
    assert sorted(str(a) for a in state.legal_actions()) == ["play 6S", "play AH"]


def test_spades_a_leader_with_only_spades_may_lead_one():
    state = stacked("spades", 4, ["2S 4S 5S", "3H 3C 4C", "AH 6H 7H", "KH 2D 3D"], dealer=3)
    bid_all(state, [1, 1, 1, 0])
    assert sorted(str(a) for a in state.legal_actions()) == ["play 2S", "play 4S", "play 5S"]


# --- Boerenbridge (kaartspeluitleg.nl) ------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_boerenbridge_one_to_eight_twice_eight_and_back(players):
    # "dit gaat door tot ronde acht. Ronde acht en negen worden beide met acht kaarten gespeeld ...
    # Vanaf ronde tien ... iedere ronde met een kaart minder" (1..8, 8, 7..1: see the notes)
    assert sizes("boerenbridge", players) == [1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1]


def test_boerenbridge_round_nine_has_no_trumps():
    # "echter wordt in ronde 9 zonder troef gespeeld"; every other deal turns a trump card
    state = play_bots(rules_of("boerenbridge"), ["bot"] * 5, 3)
    trumps = {e["round"]: e["suit"] for e in state.events if e["event"] == "trump"}
    assert [r for r, suit in trumps.items() if suit is None] == [9]
    assert len(trumps) == 16


def test_boerenbridge_bids_at_once_and_no_hook():
    # "Dit moet tegelijk gezegd worden": every bid 0..hand_size, whatever the others said
    state = stacked("boerenbridge", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [1, 1, 0])
    assert legal_bids(state) == [0, 1, 2, 3]


def test_boerenbridge_trumping_is_allowed_not_required():
    # "Kan hij niet volgen, dan mag hij een troefkaart spelen": a player void in the suit led who
    # holds a trump may still throw another card
    state = stacked("boerenbridge", 4, ["AC 3C", "2S 5D", "KC 4H", "QC 6H"], "9S", dealer=3)
    bid_all(state, [1, 1, 0, 0])
    assert state.turn == 0
    state.apply(Play(card("AC")))
    assert sorted(str(a) for a in state.legal_actions()) == ["play 2S", "play 5D"]


@pytest.mark.parametrize("bid, took, scored", [(7, 2, -5), (3, 3, 8), (0, 0, 5), (8, 8, 13), (1, 2, -1)])
def test_boerenbridge_five_and_a_point_a_trick_or_a_minus_point_a_trick_off(bid, took, scored):
    # "krijg je 5 punten. Voor iedere slag die je hebt gewonnen krijg je een extra punt";
    # "Was je voorspelling dat je 7 slagen zou winnen, maar heb je er maar 2? Dan heb je 5 minpunten."
    assert points("boerenbridge", bid, took, hand_size=8) == scored


# --- Blackout, compulsory zero bid (playerules.com) ------------------------------------------
@pytest.mark.parametrize("players, most", [(3, 17), (4, 12), (5, 10), (6, 8), (7, 7)])
def test_blackout_zero_one_up_to_the_most_and_back(players, most):
    # "start with one card each, add one card per round up to the maximum hand size, then decrease
    # back to one. Flip the top undealt card to determine trump each round."
    assert sizes("blackout-zero", players) == list(range(1, most + 1)) + list(range(most - 1, 0, -1))


def test_blackout_zero_dealer_hook():
    # "The dealer cannot bid a number that makes total bids equal available tricks."
    state = stacked("blackout-zero", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [1, 0, 1])
    assert legal_bids(state) == [0, 2, 3]


def to_the_last_deal(name, players):
    """A game of ``name`` in which seat 1 bids zero in the first deal and every other bid is the
    highest allowed (never zero), until the last deal, which is not dealt yet."""
    state = new_game(rules_of(name), players, 0)
    while state.round < len(state.setup.hand_sizes):
        state.apply(state.chance_action())
        while state.phase == "bidding":
            state.apply(Bid(0 if (state.round, state.turn) == (1, 1) else max(legal_bids(state))))
        while state.phase == "play":
            state.apply(state.legal_actions()[0])
    return state


def test_blackout_zero_every_player_must_bid_zero_once():
    # "Every player must bid zero on at least one round during the full game. Once used, mark it on
    # the score sheet." (read: in the last deal, a player who has not must bid zero)
    state = to_the_last_deal("blackout-zero", 4)
    marks = state.counters["zero_bids"]
    assert marks == [0, 1, 0, 0]
    state.apply(state.chance_action())
    while state.phase == "bidding":
        if marks[state.turn] == 0:
            assert legal_bids(state) == [0]
            with pytest.raises(IllegalActionError, match="must bid zero at least once"):
                state.apply(Bid(1))
        else:
            assert 1 in legal_bids(state) or state.turn == state.dealer
        state.apply(Bid(max(legal_bids(state))))
    while state.phase == "play":
        state.apply(state.legal_actions()[0])
    assert state.is_over and all(state.counters["zero_bids"])


def test_blackout_zero_the_requirement_overrides_the_hook_for_the_dealer():
    # the dealer who has never bid zero, in the last (1-card) deal after bids totalling 1: the hook
    # would forbid 0, the requirement allows nothing else; the requirement wins (see the notes)
    state = to_the_last_deal("blackout-zero", 4)
    marks = state.counters["zero_bids"]
    dealer = marks.index(0)
    first = next(s for s in ((dealer + k) % 4 for k in (1, 2, 3)) if marks[s])
    state.stack_deal(hands("2C", "3C", "4C", "5C"), card("9S"), dealer=dealer)
    while state.turn != dealer:
        state.apply(Bid(1 if state.turn == first else 0))
    assert legal_bids(state) == [0]


@pytest.mark.parametrize("players", [3, 5, 7])
def test_blackout_zero_bots_bid_zero_at_least_once(players):
    state = play_bots(rules_of("blackout-zero"), ["bot"] * players, seed=players)
    zeros = {e["seat"] for e in state.events if e["event"] == "bid" and e["bid"] == 0}
    assert zeros == set(range(players))


@pytest.mark.parametrize("bid, took, scored", [(0, 1, 0), (0, 0, 10), (3, 3, 13), (3, 2, 0), (2, 4, 0)])
def test_blackout_zero_scoring(bid, took, scored):
    # "Winning even a single trick when you've bid zero is called blacking out — and it scores you
    # nothing"; 10 plus the bid for an exact bid is a reading (see the notes)
    assert points("blackout-zero", bid, took) == scored


# --- Blackout (pbmserv) ----------------------------------------------------------------------
def test_pbmserv_blackout_thirteen_hands_of_one_to_thirteen():
    # "The first round, each player receives one card. The last round, each player receives 13
    # cards." "A game consists of 13 hands."
    assert sizes("blackout-pbmserv", 4) == list(range(1, 14))


def test_pbmserv_blackout_no_trump_in_the_last_round():
    # "In each round except the last, the next card in the deck is turned up ... In the last round,
    # there is no trump."
    state = play_bots(rules_of("blackout-pbmserv"), ["bot"] * 4, 3)
    trumps = {e["round"]: e["suit"] for e in state.events if e["event"] == "trump"}
    assert [r for r, suit in trumps.items() if suit is None] == [13] and len(trumps) == 13


def test_pbmserv_blackout_first_hand_is_indian():
    # "In the first hand, a player sees every card except his own."
    state = stacked("blackout-pbmserv", 4, ["2C", "9H", "KH", "3D"], "7S", dealer=0)
    seat = state.turn
    assert seat == 1
    seen = state.observation(seat)
    assert seen.hand == () and seen.hand_hidden
    assert [list(h) for h in seen.others] == [[card("2C")], [], [card("KH")], [card("3D")]]
    bid_all(state, [0, 1, 0])
    assert 0 not in legal_bids(state)  # the hook, in the one-card hand too
    state.apply(Bid(1))
    seen = state.observation(seat)  # "After all bids are placed, the cards will be played"
    assert seen.hand == (card("9H"),) and not seen.hand_hidden
    assert state.turn == 1  # "the first player to bid leads the first trick"


def test_pbmserv_blackout_second_hand_shows_your_own_cards_only():
    state = new_game(rules_of("blackout-pbmserv"), 4, 0)
    state.apply(state.chance_action())
    while state.round == 1:
        state.apply(state.legal_actions()[0])
    state.stack_deal(hands("2C 3C", "5C 6C", "AH KH", "2D 3D"), card("9S"))
    seen = state.observation(state.turn)
    assert len(seen.hand) == 2 and seen.others == () and not seen.hand_hidden


def test_pbmserv_blackout_hook():
    # "the last person to bid may not place a bid that would result in a total bid for all players
    # equal to the total number of tricks in the hand"
    state = stacked("blackout-pbmserv", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [1, 1, 0])
    assert legal_bids(state) == [0, 2, 3]


@pytest.mark.parametrize("bid, took, scored", [(0, 0, 10), (3, 3, 13), (13, 13, 23), (2, 3, 0), (4, 1, 0)])
def test_pbmserv_blackout_scoring(bid, took, scored):
    # "points equal to their bid plus 10 points"; "too high or too low ... 0 points"
    assert points("blackout-pbmserv", bid, took) == scored


def test_pbmserv_blackout_counts_correct_bids_for_the_tie_break():
    # "the player who correctly bid the most rounds wins" is not applied, but counted (`exact`)
    state = play_bots(rules_of("blackout-pbmserv"), ["bot"] * 4, 5)
    exact = [0] * 4
    for e in state.events:
        if e["event"] == "score":  # an exact bid scores 10 or more, a missed one 0
            for seat, scored in enumerate(e["points"]):
                exact[seat] += scored > 0
    assert state.counters["exact"] == exact


# --- Boerenbridge with the forehead round (nl.wikipedia) --------------------------------------
@pytest.mark.parametrize("players, most", [(3, 17), (4, 12), (5, 10), (7, 7)])
def test_boerenbridge_forehead_up_and_back_down(players, most):
    # "tot wanneer er net voldoende kaarten zijn ... (bijvoorbeeld met vijf spelers is het maximaal
    # aantal uitgedeelde kaarten per speler gelijk aan 10) ... terug afgebouwd, tot de laatste ronde
    # met één kaart per speler"
    assert sizes("boerenbridge-forehead", players) == list(range(1, most + 1)) + list(range(most - 1, 0, -1))


def test_boerenbridge_forehead_first_deal_on_the_forehead():
    # "Deze kaart mag niet bekeken worden door de speler en wordt voor het voorhoofd gehouden, zodat
    # alle andere spelers de kaart van de speler kunnen zien."
    state = stacked("boerenbridge-forehead", 4, ["2C", "9H", "KH", "3D"], "7S", dealer=0)
    seat = state.turn
    seen = state.observation(seat)
    assert seen.hand == () and seen.hand_hidden
    assert [list(h) for h in seen.others] == [[card("2C")], [], [card("KH")], [card("3D")]]
    assert seen.upcard == card("7S")  # "Deze kaart is troef", seen before bidding
    bid_all(state, [1, 1, 1])
    assert legal_bids(state) == [0, 1]  # one card: no hook ("hoger ... dan drie")
    state.apply(Bid(0))
    assert state.observation(seat).hand == (card("9H"),)


def test_boerenbridge_forehead_hook_worked_example():
    # "in ronde 7 krijgt ieder 7 kaarten. Speler 1 zegt dat hij geen slagen haalt, speler 2 zegt
    # drie slagen en speler 3 zegt twee slagen. Speler 4 ... mag dus niet zeggen dat hij twee
    # slagen gaat halen"
    state = stacked("boerenbridge-forehead", 4, ["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D",
                                                 "2H 3H 4H 5H 6H 7H 8H", "2S 3S 4S 5S 6S 7S 8S"], "AS", dealer=3)
    bid_all(state, [0, 3, 2])
    assert legal_bids(state) == [0, 1, 3, 4, 5, 6, 7]
    with pytest.raises(IllegalActionError, match="may not say 2"):
        state.apply(Bid(2))


def test_boerenbridge_forehead_no_hook_up_to_three_cards():
    # the hook only "Wanneer het aantal uitgedeelde kaarten per persoon hoger is dan drie"
    state = stacked("boerenbridge-forehead", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [1, 1, 0])
    assert legal_bids(state) == [0, 1, 2, 3]


@pytest.mark.parametrize("bid, took, scored", [(7, 2, -5), (3, 3, 8), (0, 0, 5), (10, 10, 15), (1, 2, -1)])
def test_boerenbridge_forehead_scoring(bid, took, scored):
    # kaartspeluitleg.nl (the article's scoring was not retrieved): "5 punten. Voor iedere slag ...
    # een extra punt"; "Was je voorspelling dat je 7 slagen ... er maar 2? Dan heb je 5 minpunten."
    assert points("boerenbridge-forehead", bid, took) == scored


# --- Oh Hell! (The Guardian) -----------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 5, 7])
def test_guardian_seven_down_to_one_or_back_up(players):
    # "usually seven to start ... deal out one fewer with each successive round, until the final
    # round of one card each. Some play down to one and then all the way back up"
    rules = rules_of("oh-hell-guardian")
    assert list(rules.setup(players).hand_sizes) == [7, 6, 5, 4, 3, 2, 1]
    assert list(rules.setup(players, "up-and-down").hand_sizes) == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_guardian_trumps_by_the_list_then_no_trumps():
    # "a predetermined list (hearts, diamonds, clubs, spades, then no trumps)"
    state = play_bots(rules_of("oh-hell-guardian"), ["bot"] * 4, 1, mode="up-and-down")
    suits = [e["suit"] for e in state.events if e["event"] == "trump"]
    assert suits == ["H", "D", "C", "S", None] * 2 + ["H", "D", "C"]


def test_guardian_hook_worked_example():
    # "if four of you are dealt seven cards each ... and the first three bid four, zero and two,
    # the last player may [not] bid one" (see the notes)
    deck = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    state = stacked("oh-hell-guardian", 4, [" ".join(deck[i * 7:(i + 1) * 7]) for i in range(4)], dealer=3)
    bid_all(state, [4, 0, 2])
    assert legal_bids(state) == [0, 2, 3, 4, 5, 6, 7]
    with pytest.raises(IllegalActionError, match="may not say 1: the bids would add up to 7"):
        state.apply(Bid(1))


@pytest.mark.parametrize("bid, took, scored", [(2, 2, 12), (0, 0, 10), (3, 1, 1), (1, 4, 4), (0, 2, 2)])
def test_guardian_scoring(bid, took, scored):
    # "A correct prediction earns 10 points, plus one point for each trick won. Those who fail in
    # their bids get only one point per trick."
    assert points("oh-hell-guardian", bid, took, hand_size=7) == scored


# --- contract rummy -----------------------------------------------------------------------
def cards(text):
    return tuple(card(c) for c in text.split())


def checker(name, players):
    rules = rules_of(name)
    return MeldEngine(rules.section.melds, rules.setup(players).env)


@pytest.mark.parametrize("name, players, kind, text, valid", [
    # rummy-games.com: "In Carioca, sequences may go "round the corner" (K-A-2)"
    ("carioca-two-player", 2, "run", "KS AS 2S 3S", True),
    ("carioca-two-player", 2, "run", "QH KH AH 2H", True),
    ("carioca-two-player", 2, "run", "AS 2S 3S 4S", True),
    ("carioca-two-player", 2, "run", "3S 4S 5S", False),          # an escala has four or more
    ("carioca-two-player", 2, "set", "9S 9H 9H", True),           # two decks: a suit may repeat
    ("carioca-two-player", 2, "set", "9S 9H", False),
    # Bicycle: "A, K, Q, ... 2, A. (Aces are high or low.)"; never round the corner
    ("contract-rummy-bicycle", 4, "run", "AS 2S 3S 4S", True),
    ("contract-rummy-bicycle", 4, "run", "JS QS KS AS", True),
    ("contract-rummy-bicycle", 4, "run", "KS AS 2S 3S", False),
    ("contract-rummy-bicycle", 4, "run", "3S JK 5S 6S", True),
    ("contract-rummy-bicycle", 4, "set", "8H JK JK", True),
    ("progressive-rummy", 4, "run", "KS AS 2S 3S", False),
    ("progressive-rummy", 4, "run", "5D 6D 7D 8D", True),          # "a 5, 6, 7 and 8"
    ("progressive-rummy", 4, "set", "7C 7D 7H", True),             # "three cards with the number 7"
])
def test_meld_matrix(name, players, kind, text, valid):
    check = checker(name, players)
    why = check.why_not_run(cards(text)) if kind == "run" else check.why_not_set(cards(text))
    assert (why is None) == valid, why


def test_progressive_rummy_six_to_twelve_cards():
    # "deal number one is 6 cards per player; deal number two is seven cards ... deal number
    # seven where 12 cards are dealt"
    assert sizes("progressive-rummy", 4) == [6, 7, 8, 9, 10, 11, 12]


def test_progressive_rummy_contracts_use_exactly_the_cards_dealt():
    # reference.com: "The contracts must be met exactly: three cards for a set and four cards
    # for a sequence. There are no extra cards."
    rules = rules_of("progressive-rummy")
    assert [c.cards_needed for c in rules.section.contracts] == list(rules.setup(5).hand_sizes)


def test_progressive_rummy_buying_takes_one_penalty_card():
    # "If someone does take the discard, he must take the top card off the stock pile as a penalty."
    rules = rules_of("progressive-rummy")
    env = rules.setup(4).round_env(0)
    assert rules.section.buying.allowed and rules.section.buying.penalty_cards(env) == 1
    assert rules.section.buying.priority == "clockwise-from-player-in-turn"


@pytest.mark.parametrize("name", ["progressive-rummy", "contract-rummy-bicycle"])
@pytest.mark.parametrize("players, total", [(3, 105), (4, 105), (5, 158), (8, 158)])
def test_double_pack_and_a_joker_or_triple_pack_and_two(name, players, total):
    # Bicycle: "a double pack with one joker is used (105 cards in all); five or more players use
    # a triple pack with two jokers (158 cards in all)"; ourpastimes gives the same totals
    assert rules_of(name).setup(players).deck_size == total


def test_bicycle_seven_deals_of_ten_then_twelve():
    # "In each of the first four deals, each player receives 10 cards. In each of the last three
    # deals, each player receives 12 cards."
    assert sizes("contract-rummy-bicycle", 6) == [10, 10, 10, 10, 12, 12, 12]


def test_bicycle_card_values():
    # "Ace, joker ... count as 15 points; each face card counts 10; each other card counts its pip value."
    table = rules_of("contract-rummy-bicycle").section.card_points
    assert card_points(cards("AS KH JK 7D TC 2S"), table) == 15 + 10 + 15 + 7 + 10 + 2


def test_carioca_eight_deals_of_twelve_ending_with_four_trios_and_three_escalas():
    # "players are always dealt 12 cards"; "Deal 7 Four Trios / Deal 8 Three Escalas"
    rules = rules_of("carioca-two-player")
    assert list(rules.setup(2).hand_sizes) == [12] * 8
    assert [c.name for c in rules.section.contracts[6:]] == ["four trios", "three escalas"]
    assert [c.cards_needed for c in rules.section.contracts] == [6, 7, 8, 9, 10, 11, 12, 12]
    assert not rules.section.buying.allowed


# --- every ruleset, every player count --------------------------------------------------------
GAMES = [(name, n) for name in CATALOGUE
         for n in range(rules_of(name).min_players, rules_of(name).max_players + 1)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{name}-{n}p" for name, n in GAMES])
def test_bots_finish_a_game(name, players):
    rules = rules_of(name)
    state = play_bots(rules, ["bot"] * players, seed=players)
    assert state.is_over
    assert sum(e["event"] == "deal" for e in state.events) == len(rules.setup(players).hand_sizes)
