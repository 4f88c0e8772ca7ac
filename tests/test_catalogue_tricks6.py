"""Seven more Oh Hell-family variants of the catalogue (oh-hell-traditional, oh-shit-spades,
oh-hell-mrpikes, ascenseur, elevator, blob, oh-hell-jaylipp), checked against the worked examples of their
sources: deal schedules, the hook and its exceptions, trumps, bids at once, scores; each one
validates and is played to the end by bots at every player count it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.trick_taking.actions import Bid, ChooseTrump, Play
from cardrules.interpreter.game import CHANCE, new_game

RULESETS = Path(__file__).parent.parent / "rulesets"

NEW = ["oh-hell-traditional", "oh-shit-spades", "oh-hell-mrpikes", "ascenseur", "elevator", "blob", "oh-hell-jaylipp"]


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


def at_round(name, players, number, hand_texts, upcard=None):
    """Play the rounds before `number` with the first legal move, then stack its deal."""
    state = new_game(rules_of(name), players, seed=0)
    while state.round < number:
        state.apply(state.chance_action() if state.turn == CHANCE else state.legal_actions()[0])
    state.stack_deal(hands(*hand_texts), card(upcard) if upcard else None)
    return state


def legal_bids(state):
    return [a.bid for a in state.legal_actions()]


def legal_plays(state):
    return sorted(str(a) for a in state.legal_actions())


def bid_all(state, bids):
    for b in bids:
        state.apply(Bid(b))


def trumps(name, players, seed=0):
    state = play_bots(rules_of(name), ["bot"] * players, seed)
    return [e["suit"] for e in state.events if e["event"] == "trump"]


DECK = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]


def dealt(players, size):
    return [" ".join(DECK[i * size:(i + 1) * size]) for i in range(players)]


# --- validate ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_validates(run_cli, name):
    result = run_cli("validate", str(RULESETS / f"{name}.yaml"))
    assert result.exit_code == 0, result.output
    assert ": ok (" in result.output


# --- Oh Hell (traditionalgamerules.neocities.org) ---------------------------------------------
@pytest.mark.parametrize("players, first", [(2, 10), (3, 10), (4, 10), (5, 10), (6, 8), (7, 7), (8, 6), (9, 5)])
def test_traditional_first_hand_by_table_and_down_to_one(players, first):
    # "2-5 10 / 6 8 / 7 7 / 8 6 / 9 5"; "one card less than the previous round ... by the last
    # round of the game, hand size is one"
    assert sizes("oh-hell-traditional", players) == list(range(first, 0, -1))


def test_traditional_turned_trump_every_hand():
    # "The flipped-up card determines the suit of the trump for the hand."
    assert None not in trumps("oh-hell-traditional", 9)


def test_traditional_hook_worked_example():
    # "in a ten-card hand for four players, with the first three bids as 4,2,3, the dealer cannot bid 1"
    state = stacked("oh-hell-traditional", 4, dealt(4, 10), "AS", dealer=3)
    bid_all(state, [4, 2, 3])
    assert legal_bids(state) == [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    with pytest.raises(IllegalActionError, match="may not bid 1: bids would total 10"):
        state.apply(Bid(1))


def test_traditional_no_hook_in_the_last_round():
    # "In the last round of the game, all players (including the dealer) can bid whatever value they choose."
    state = at_round("oh-hell-traditional", 4, 10, ["2C", "5C", "AH", "3D"], "9S")
    assert state.hand_size == 1 and state.dealer == 1
    bid_all(state, [0, 0, 0])
    assert legal_bids(state) == [0, 1]
    state.apply(Bid(1))  # the bids total 1, the tricks: allowed in the last round


def test_traditional_hook_still_applies_one_round_before_the_last():
    state = at_round("oh-hell-traditional", 4, 9, ["2C 3C", "5C 6C", "AH KH", "2D 3D"], "9S")
    bid_all(state, [0, 1, 0])
    assert legal_bids(state) == [0, 2]


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 8), (0, 0, 5), (2, 4, 4), (4, 1, 1), (10, 10, 15)])
def test_traditional_scoring(bid, took, scored):
    # "the number of tricks that they took, plus 5 points if they met their bid exactly"
    assert points("oh-hell-traditional", bid, took) == scored


# --- Oh Shit! (bradwilson.dev) ------------------------------------------------------------------
@pytest.mark.parametrize("players, first", [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_oh_shit_spades_most_cards_then_one_fewer(players, first):
    # "If four players are playing, the first round starts with 13 cards each (52 / 4 = 13). There
    # will be thirteen total rounds." "If five players ... 10 cards each ... ten total rounds."
    assert sizes("oh-shit-spades", players) == list(range(first, 0, -1))


@pytest.mark.parametrize("players", [3, 4, 8])
def test_oh_shit_spades_are_always_trump(players):
    # "Spades are trump (meaning, spades always beat non-spades)": also when all 52 cards are dealt
    assert set(trumps("oh-shit-spades", players)) == {"S"}


def test_oh_shit_spades_hook_worked_example():
    # "if you have five cards in your hand and there are three players, and the first play bids 2
    # and the second player bids 1, then" the third may not bid 2
    state = stacked("oh-shit-spades", 3, dealt(3, 5), dealer=2)
    bid_all(state, [2, 1])
    assert legal_bids(state) == [0, 1, 3, 4, 5]
    with pytest.raises(IllegalActionError, match="may not bid 2: the bids would add up to 5"):
        state.apply(Bid(2))


def test_oh_shit_spades_void_may_trump_or_discard():
    # "if you do not have a card in the played suit, you may choose to play spades to take the
    # trick, or you may play an off suit card"
    state = stacked("oh-shit-spades", 3, ["AC KD", "2S 3H", "QC JC"], dealer=2)
    bid_all(state, [1, 1, 1])
    state.apply(Play(card("AC")))
    assert legal_plays(state) == ["play 2S", "play 3H"]
    state.apply(Play(card("2S")))
    state.apply(Play(card("QC")))
    assert state.turn == 1  # the two of spades took the trick


@pytest.mark.parametrize("bid, took, scored", [(2, 2, 12), (0, 0, 10), (13, 13, 23), (3, 2, 0), (1, 4, 0)])
def test_oh_shit_spades_scoring(bid, took, scored):
    # "you get 10 points plus your bid (so, if you bid 2, you get 12 points) ... If you don't take
    # the number of tricks you bid, you don't get any points."
    assert points("oh-shit-spades", bid, took) == scored


# --- Oh Hell! (MrPikes' House Rules) ------------------------------------------------------------
@pytest.mark.parametrize("players, first", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_mrpikes_down_to_one_and_back(players, first):
    # "3 to 5 players, 10 cards each; 6 players, 8 cards each; 7 players, 7 cards each"
    assert sizes("oh-hell-mrpikes", players) == list(range(first, 0, -1)) + list(range(2, first + 1))


def test_mrpikes_seven_players_thirteen_hands():
    # "With 7 players, the hands are: 7 cards, then 6,5,4,3,2,1, then 2,3,4,5,6,7, for a total of 13 hands"
    assert sizes("oh-hell-mrpikes", 7) == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_mrpikes_bids_shown_at_once_and_no_hook():
    # "they put a fist on the table. When everyone's fist is out, the group says 'One, Two, Three'"
    state = stacked("oh-hell-mrpikes", 4, dealt(4, 3), "AS", dealer=3)
    state.apply(Bid(1))
    assert state.observation(1).bids == (None, None, None, None)  # seat 0's bid is not yet shown
    bid_all(state, [1, 1])
    assert legal_bids(state) == [0, 1, 2, 3]  # the bids may total the tricks
    state.apply(Bid(0))
    assert state.observation(2).bids == (1, 1, 1, 0)


def test_mrpikes_turned_trump():
    # "turning over the top card left on the deck after the deal; the suit of that card is trump"
    assert None not in trumps("oh-hell-mrpikes", 7)


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 13), (3, 2, -11), (0, 0, 10), (0, 2, -12), (5, 1, -14)])
def test_mrpikes_scoring(bid, took, scored):
    # "If I win exactly 3 tricks, I get 3 points plus a 10-point bonus ... If instead I only won 2
    # tricks, I lose 10 points plus the difference ... for a total of -11."
    assert points("oh-hell-mrpikes", bid, took) == scored


# --- L'Ascenseur (onfaitunjeu.fr) and Elevator (wikiboardgames.com) ------------------------------
def test_ascenseur_six_players_eight_up_then_down_to_the_fifteenth():
    # "à six joueurs on ira jusqu'à huit tours croissants, le mode décroissant se déroulant du
    # neuvième au quinzième tour"
    assert sizes("ascenseur", 6) == [1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("name", ["ascenseur", "elevator"])
@pytest.mark.parametrize("players, top", [(3, 17), (4, 12), (5, 10), (7, 7), (8, 6)])
def test_up_to_the_most_with_a_trump_card_and_back_down(name, players, top):
    # "une carte, ... deux cartes, ... trois cartes etc"; Elevator: "until there are no more cards to deal"
    assert sizes(name, players) == list(range(1, top + 1)) + list(range(top - 1, 0, -1))


@pytest.mark.parametrize("name", ["ascenseur", "elevator"])
def test_a_trump_card_is_turned_every_deal(name):
    # "retourne la carte du dessus qui désigne ainsi la couleur de l'Atout"; "The dealer turns over
    # the first card of the stockpile and it will be used as a trump card"
    assert None not in trumps(name, 4)


def test_ascenseur_hook():
    # "le nombre total de levées à annoncer ne peut être égal au nombre total de plis réalisables"
    state = stacked("ascenseur", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [1, 1, 0])
    assert legal_bids(state) == [0, 2, 3]
    with pytest.raises(IllegalActionError, match="may not announce 1: the announcements would total 3"):
        state.apply(Bid(1))


@pytest.mark.parametrize("name", ["ascenseur", "elevator"])
@pytest.mark.parametrize("bid, took, scored", [(3, 3, 5), (0, 0, 2), (8, 8, 10), (2, 4, -2), (5, 1, -4)])
def test_ascenseur_scoring(name, bid, took, scored):
    # "marque deux points plus un point par levées ... perd un point par levée de différence"
    assert points(name, bid, took) == scored


def test_elevator_worked_example():
    # "3 players each have 8 cards in hand. The first player announces 2 tricks, the second player
    # announces 3 tricks, the third player is not allowed to announce 3 tricks ... must then announce
    # 2 or 1 trick (less than 8)"; 0 keeps the total below 8 as well
    state = stacked("elevator", 3, dealt(3, 8), "AS", dealer=2)
    bid_all(state, [2, 3])
    assert legal_bids(state) == [0, 1, 2]
    with pytest.raises(IllegalActionError, match="may not announce 3: the announcements would total 8"):
        state.apply(Bid(3))


def test_elevator_every_announcement_keeps_the_total_below_the_cards():
    # "The total number of tricks announced must never be equal to (or greater than) the number of
    # cards dealt": the first may not announce all 8, the second not 6 after 2
    state = stacked("elevator", 3, dealt(3, 8), "AS", dealer=2)
    assert legal_bids(state) == list(range(0, 8))
    state.apply(Bid(2))
    assert legal_bids(state) == list(range(0, 6))


def test_elevator_one_card_deals_are_announced_zero():
    # with one card each the total must stay below 1
    state = stacked("elevator", 4, ["2C", "5C", "AH", "3D"], "9S", dealer=3)
    for _ in range(4):
        assert legal_bids(state) == [0]
        state.apply(Bid(0))


# --- Blob (mickrushton.co.uk) ---------------------------------------------------------------------
@pytest.mark.parametrize("players, first", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_blob_ten_down_to_one_and_back_fewer_for_big_tables(players, first):
    # "10 cards each, the second 9 cards each, going down to 1 card each and back up to 10 cards
    # each"; "If there are 8 players for instance, the first hand would be 6 cards each ... down to
    # 1 card each and back up to 6 cards each."
    assert sizes("blob", players) == list(range(first, 0, -1)) + list(range(2, first + 1))


def test_blob_hook_worked_example():
    # "if in a 5 card hand there are 3 tricks called before the dealer's call, the dealer can't
    # call 2. The dealer can call 0, 1, 3, 4 or 5."
    state = stacked("blob", 4, dealt(4, 5), dealer=3)
    bid_all(state, [1, 2, 0])
    assert legal_bids(state) == [0, 1, 3, 4, 5]
    with pytest.raises(IllegalActionError, match="the dealer can't call 2"):
        state.apply(Bid(2))


def test_blob_first_highest_caller_nominates_trumps_then_dealers_left_leads():
    # "Whoever calls the largest number of tricks nominates trumps ... If more than 1 player calls
    # the highest number of tricks, the player who called that number first nominates trumps."
    state = stacked("blob", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], dealer=3)
    bid_all(state, [0, 2, 2, 0])
    assert state.phase == "trump" and state.turn == 1
    assert sorted(str(a) for a in state.legal_actions()) == ["trump C", "trump D", "trump H", "trump S",
                                                             "trump none"]
    state.apply(ChooseTrump(None))  # "This may be any of the suits or 'No Trumps'."
    assert state.events[-1] == {"event": "trump", "round": 1, "suit": None, "seat": 1}
    assert state.turn == 0  # "the player on the dealer's left leads a card"


def test_blob_nominated_trump_wins():
    state = stacked("blob", 3, ["AC KC", "2H 3C", "QD JD"], dealer=2)
    bid_all(state, [1, 1, 1])  # seat 0 called 1 first
    assert state.turn == 0
    state.apply(ChooseTrump(1))  # hearts
    state.apply(Play(card("AC")))
    assert legal_plays(state) == ["play 3C"]  # must follow suit
    state.apply(Play(card("3C")))
    state.apply(Play(card("QD")))
    assert state.turn == 0


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 13), (0, 0, 10), (2, 3, 0), (4, 1, 0)])
def test_blob_scoring(bid, took, scored):
    # a reading (see the notes): 10 plus the call, a blob (nothing) for a missed call
    assert points("blob", bid, took) == scored


# --- Oh Hell (jaylipp, oocities.org) -------------------------------------------------------------
def test_jaylipp_thirteen_down_to_one_and_back():
    # "dealing 13 cards to each player ... one less card until the deal has only 1 card. Then each
    # hand is dealt with one more card until the deal has 13 cards"
    assert sizes("oh-hell-jaylipp", 4) == list(range(13, 0, -1)) + list(range(2, 14))


def test_jaylipp_no_trump_only_in_the_thirteen_card_hands():
    # "On all hands with less than 13 cards a trump card is randomly selected."
    suits = trumps("oh-hell-jaylipp", 4, seed=2)
    assert len(suits) == 25
    assert [n for n, suit in enumerate(suits, 1) if suit is None] == [1, 25]


def test_jaylipp_hook():
    # "The last player to bid may not allow the total bid to add up to the total number of cards in their hand."
    state = stacked("oh-hell-jaylipp", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=3)
    bid_all(state, [2, 0, 0])
    assert legal_bids(state) == [0, 2, 3]


@pytest.mark.parametrize("dealer, leader", [(3, 1), (0, 2), (1, 3), (2, 0)])
def test_jaylipp_the_player_opposite_the_dealer_leads(dealer, leader):
    # "The player opposite the dealer starts the play by leading any card they choose."
    state = stacked("oh-hell-jaylipp", 4, ["2C 3C 4C", "5C 6C 7C", "AH KH QH", "2D 3D 4D"], "9S", dealer=dealer)
    assert state.turn == (dealer + 1) % 4  # the player left of the dealer bids first
    bid_all(state, [1, 1, 1, 1])
    assert state.turn == leader


@pytest.mark.parametrize("bid, took, scored", [(3, 3, 8), (0, 0, 5), (13, 13, 18), (2, 4, -2), (5, 1, -4)])
def test_jaylipp_scoring(bid, took, scored):
    # "awarded 5 points plus their bid ... loses a point for each trick over or under their bid"
    assert points("oh-hell-jaylipp", bid, took) == scored


# --- every ruleset, every player count ----------------------------------------------------------
GAMES = [(name, n) for name in NEW for n in range(rules_of(name).min_players, rules_of(name).max_players + 1)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{name}-{n}p" for name, n in GAMES])
def test_bots_finish_a_game(name, players):
    rules = rules_of(name)
    state = play_bots(rules, ["bot"] * players, seed=players)
    assert state.is_over
    assert sum(e["event"] == "deal" for e in state.events) == len(rules.setup(players).hand_sizes)
