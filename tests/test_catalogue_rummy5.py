"""Catalogue, fifth batch: four published contract-rummy variants (continental-rummy,
liverpool-rummy-reference, contract-rummy-best-family, onze), each checked against what its
source says: packs, deal schedule, contracts, wild cards and meld examples, buying, card points,
and a bot game to the end at every player count it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.cards import JOKER, card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.contract_rummy.actions import BUY, DRAW, PASS, Discard, GoDown, LayOff, Swap
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine, card_points
from cardrules.interpreter.families.contract_rummy.rules import RUN, wild_cards
from cardrules.interpreter.game import CHANCE, new_game
from helpers import rummy_draw, stacked_rummy_round

RULESETS = Path(__file__).parent.parent / "rulesets"
CATALOGUE = ["continental-rummy", "liverpool-rummy-reference", "contract-rummy-best-family", "onze"]


def rules_of(name):
    return load_ruleset(RULESETS / f"{name}.yaml")


def cards(text):
    return tuple(card(c) for c in text.split())


def engine(name, players=4, round_index=0):
    rules = rules_of(name)
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, round_index))


def why_not(name, kind, text, players=4, round_index=0):
    check = engine(name, players, round_index)
    return check.why_not_run(cards(text)) if kind == "run" else check.why_not_set(cards(text))


def contracts(name):
    return [[str(m) for m in c.melds] for c in rules_of(name).section.contracts]


def stacked(name, hands, upcard, stock=(), players=4, dealer=0):
    """Round 1 dealt exactly ``hands`` (seat 0 first), the flip card, the stock's top cards."""
    return stacked_rummy_round(rules_of(name), hands, upcard, stock, players, dealer)


draw = rummy_draw


SEVEN_CONTRACTS = [["set of 3", "set of 3"], ["set of 3", "run of 4"], ["run of 4", "run of 4"],
                   ["set of 3", "set of 3", "set of 3"], ["set of 3", "set of 3", "run of 4"],
                   ["set of 3", "run of 4", "run of 4"], ["run of 4", "run of 4", "run of 4"]]


@pytest.mark.parametrize("name", CATALOGUE)
def test_validates(run_cli, name):
    result = run_cli("validate", str(RULESETS / f"{name}.yaml"))
    assert result.exit_code == 0, result.output
    assert ": ok (" in result.output


# --- Continental Rummy ------------------------------------------------------------------------
@pytest.mark.parametrize("players, decks", [(4, 2), (5, 3), (6, 3), (7, 4), (8, 4)])
def test_continental_decks_by_players_with_two_jokers_each(players, decks):
    # "4 players use 2 decks / 5 players use 3 decks / 6 ... 3 / 7 ... 4 / 8 ... 4";
    # "Two 52-card decks are used plus two Jokers per deck"
    setup = rules_of("continental-rummy").setup(players)
    assert setup.deck_size == 54 * decks


def test_continental_seven_hands_of_seven_to_thirteen_cards():
    # "First | Two Trios | Seven Cards" ... "Seventh | Three Runs | Thirteen Cards"
    assert list(rules_of("continental-rummy").setup(6).hand_sizes) == [7, 8, 9, 10, 11, 12, 13]
    assert contracts("continental-rummy") == SEVEN_CONTRACTS
    assert [c.name for c in rules_of("continental-rummy").section.contracts][::6] == ["two trios", "three runs"]


def test_continental_jokers_and_red_aces_are_wild():
    rules = rules_of("continental-rummy")
    setup = rules.setup(4)
    for round_index in range(7):
        assert wild_cards(rules.section.melds, setup, round_index) == {JOKER, card("AH"), card("AD")}


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "TS JK JK", True),       # "(10, Joker, Joker) counts as a trio of 10's"
    ("set", "TS AH JK", True),       # a red ace is as wild as a joker
    ("set", "3C 3C 3H", True),       # "a trio with two cards of the same suit"
    ("set", "AS AC AD", True),       # black aces are natural: the red one stands in for an ace
    ("set", "AS AH AD", True),       # one natural ace and two wild cards
    ("set", "AH AD JK", False),      # all wild: no natural card fixes the rank
    ("set", "AS AC", False),
    ("run", "9S AH JS QS", True),    # the red ace stands for the ten of spades
    ("run", "JH QH KH AH", True),    # wild in the place of its own rank, all the same
    ("run", "AS 2S 3S 4S", True),    # "either high card or low card"
    ("run", "JC QC KC AC", True),
    ("run", "QS KS AS 2S", False),   # "but not both in the same run"
    ("run", "5S 6S 7S", False),      # "four or more cards"
    ("run", "5S 6H 7S 8S", False),   # "of the same suit"
])
def test_continental_meld_examples(kind, text, valid):
    why = why_not("continental-rummy", kind, text)
    assert (why is None) == valid, why


def test_continental_a_red_ace_in_a_run_is_swapped_like_a_joker_in_the_engine():
    check = engine("continental-rummy")
    run = check.make(RUN, cards("6H 7H AD 9H"))
    assert check.swappable(run) == {card("8H")}


def test_continental_card_points():
    # "Aces are 20 points and Jokers are 50"; "10 and face cards count as 10"; others face value
    table = rules_of("continental-rummy").section.card_points
    assert card_points(cards("AS AH JK KD TC 7C 2S"), table) == 20 + 20 + 50 + 10 + 10 + 7 + 2


def test_continental_buying_takes_a_card_from_the_draw_pile_too():
    # "any other player may take that card ... they must also draw a card from the top of the draw pile"
    rules = rules_of("continental-rummy")
    buying = rules.section.buying
    env = rules.setup(4).round_env(0)
    assert buying.allowed and buying.penalty_cards(env) == 1


def test_continental_going_down_with_red_aces_and_out_in_one_turn():
    hands = ["AS JK 7D TC 2S 3S 4S", "9S 9D AH 9C KC KS AD", "AH KD 5C 5D 6H 8H 9H", "2C 3C 4D 5S 6S 8C 8D"]
    state = stacked("continental-rummy", hands, "QC", stock=["KH"])
    assert state.turn == 1
    draw(state)  # seat 1 draws KH
    state.apply(GoDown((cards("9S 9D AH 9C"), cards("KC KS AD KH"))))
    assert state.events[-2] == {"event": "out", "round": 1, "seat": 1}
    # seat 0: ace 20, joker 50, 7, 10, 2, 3, 4; seat 2: a red ace in hand scores as an ace (20)
    assert state.events[-1]["points"] == [96, 0, 63, 36]


# --- Liverpool Rummy (reference.com) ------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 5, 7])
def test_liverpool_seven_deals_of_seven_ten_twelve_fourteen(players):
    # "On the first deal, each player gets seven cards. On the second through fourth deal, the
    # players get 10 cards each. The fifth and sixth deals are 12 cards. The last deal is 14 cards."
    rules = rules_of("liverpool-rummy-reference")
    setup = rules.setup(players)
    assert list(setup.hand_sizes) == [7, 10, 10, 10, 12, 12, 14]
    assert setup.deck_size == 106  # "two decks of 52 cards, with two jokers"
    assert contracts("liverpool-rummy-reference") == SEVEN_CONTRACTS


def test_liverpool_card_points_jokers_52():
    # "Cards from 2 to 10 are worth their face value in points. Face cards are 10 points. Jokers are 52 points."
    table = rules_of("liverpool-rummy-reference").section.card_points
    assert card_points(cards("2S 9H TD JC QS KH JK"), table) == 2 + 9 + 10 + 30 + 52
    assert card_points(cards("AS"), table) == 15  # not on the page: a reading


def test_liverpool_first_dealer_by_a_random_draw():
    # "The first dealer is determined by a random draw."
    rules = rules_of("liverpool-rummy-reference")
    assert len({new_game(rules, 4, seed=s).dealer for s in range(40)}) == 4


def test_liverpool_no_buying_out_of_turn():
    rules = rules_of("liverpool-rummy-reference")
    assert not rules.section.buying.allowed
    hands = ["AS 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H", "AD 2D 3D 4D 5D 6D 7D", "AC 2C 3C 4C 5C 6C 7C"]
    state = stacked("liverpool-rummy-reference", hands, "KH")
    state.apply(DRAW)  # seat 1 declines the flip card: no one is asked to buy it
    assert state.turn == CHANCE


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "8H 8S 8C", True),      # "three or more cards with the same value"
    ("set", "8H JK JK", True),
    ("run", "5H 6H 7H 8H", True),   # "four or more cards of the same suit in consecutive order"
    ("run", "5H 6H 7H", False),
    ("run", "KD AD 2D 3D", False),
])
def test_liverpool_meld_examples(kind, text, valid):
    why = why_not("liverpool-rummy-reference", kind, text)
    assert (why is None) == valid, why


# --- Contract Rummy (best-family-games.com) -------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_best_family_jokers_one_fewer_than_the_players(players):
    # "The number of jokers you have in the deck is 1 less than the number of players. So if 3
    # people are playing you put 2 jokers in the deck."
    assert rules_of("contract-rummy-best-family").setup(players).deck_size == 104 + players - 1


def test_best_family_ten_cards_three_times_then_twelve_four_times():
    # "During the first 3 rounds everyone gets dealt 10 cards. During the last 4 rounds everyone
    # gets dealt 12 cards."
    assert list(rules_of("contract-rummy-best-family").setup(4).hand_sizes) == [10, 10, 10, 12, 12, 12, 12]


def test_best_family_contracts_a_four_of_a_kind_in_round_two_and_no_discard_to_finish():
    # "2. 1 group of 3 and 1 group of 4 (ex 5,5,5 and k,k,k,k)"; "7. 3 sequences of 4 and no discard"
    rules = rules_of("contract-rummy-best-family")
    assert contracts("contract-rummy-best-family") == [
        ["set of 3", "set of 3"], ["set of 3", "set of 4"], ["run of 4", "run of 4"],
        ["set of 3", "set of 3", "set of 3"], ["set of 3", "set of 3", "run of 4"],
        ["set of 3", "run of 4", "run of 4"], ["run of 4", "run of 4", "run of 4"]]
    going_out = [c.going_out.value for c in rules.section.contracts]
    assert going_out == ["discard-required"] * 6 + ["no-discard"]


def test_best_family_may_i_costs_one_card_from_the_deck():
    # "they can draw the card from the discard pile, but must draw 1 card from the deck as a penalty"
    hands = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S", "7S 7C 7D QD QS QC 7H 4S 9S KD",
             "2H 3H 4D 6D 8C TS TH JD JC AS", "3S 4C 6C 8H 8D TD JS QH AC AH"]
    state = stacked("contract-rummy-best-family", hands, "5C", stock=["2D", "3D"])
    state.apply(DRAW)          # seat 1 passes on the flip card
    assert state.turn == 2     # the next player is asked first
    state.apply(PASS)
    state.apply(PASS)          # seat 3 passes
    state.apply(BUY)           # seat 0 says "May I"
    assert state.events[-1] == {"event": "buy", "round": 1, "seat": 0, "card": "5C", "penalty": ["2D"]}
    assert len(state.hands[0]) == 12


def test_best_family_no_lay_off_in_the_turn_one_goes_down():
    # "If you don't have the right cards to lie down, but have put cards down on another turn you
    # can lay off of something else"
    hands = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S", "7S 7C 7D QD QS QC 7H 4S 9S KD",
             "2H 3H 4D 6D 8C TS TH JD JC AS", "3S 4C 6C 8H 8D TD JS QH AC AH"]
    state = stacked("contract-rummy-best-family", hands, "5C", stock=["2D"])
    draw(state)
    state.apply(GoDown((cards("7S 7C 7D"), cards("QD QS QC"))))
    with pytest.raises(IllegalActionError, match="not lay off in the turn you go down"):
        state.apply(LayOff(1, (card("7H"),)))


# --- Onze ---------------------------------------------------------------------------------------
def test_onze_eleven_cards_then_thirteen_in_the_last_round():
    # "Each player gets 11 cards in each round except the last, when you get 13 cards."
    rules = rules_of("onze")
    assert list(rules.setup(4).hand_sizes) == [11] * 6 + [13]
    assert contracts("onze") == SEVEN_CONTRACTS


def test_onze_jokers_and_twos_are_wild():
    rules = rules_of("onze")
    setup = rules.setup(4)
    assert wild_cards(rules.section.melds, setup, 3) == {JOKER, *cards("2S 2H 2D 2C")}


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "7H 2S 7C", True),            # one wild card in three
    ("set", "7H 2S JK", False),           # "at least as many natural cards as wild cards"
    ("run", "5H 2C 7H 2D", True),         # "a 4-card run can have up to 2 wild cards"
    ("run", "5H JK 2C 8H", True),
    ("run", "5H 2C 7H 2D 9H JK", True),   # "a 6-card run can have up to 3 wild cards"
    ("run", "2H 2C JK 8H", False),        # three wild in four
    ("run", "AH 2H 3H 4H", True),         # the two of hearts is wild even in its own place
    ("run", "AH 2H 2C 4H", True),
])
def test_onze_meld_examples(kind, text, valid):
    why = why_not("onze", kind, text)
    assert (why is None) == valid, why


def test_onze_a_wild_card_on_the_board_is_exchanged_for_the_natural_card():
    # "Exchange a natural card in your hand for a wild card on the board"
    check = engine("onze")
    run = check.make(RUN, cards("5H 2C 7H 8H"))
    assert check.swappable(run) == {card("6H")}
    assert check.swap(run, card("6H")).cards == cards("5H 6H 7H 8H")
    swap = rules_of("onze").section.joker_swap
    assert swap.allowed and not swap.requires_down


def test_onze_a_player_not_yet_down_may_exchange_a_wild_two():
    # the page lists the exchange among the actions of any turn, before laying down the targets
    hands = ["AS 3S 5S 7H 9C JD KD 4C 6C 8C TC", "6H 3C 5D 9H JH KH 4D 8D TD 3D AD",
             "AH 3H 5H 9S JS KS 4H 8H TH 5C QC", "AC 7S 9D JC KC 6D 6S 8S TS QS QH"]
    state = stacked("onze", hands, "QD", stock=["KS"])
    assert state.place_meld(0, cards("5H 2C 7H 8H")) == 1  # seat 0's run, the two for the six
    draw(state)  # seat 1, not down, draws KS
    assert not state.down[1]
    state.apply(Swap(1, card("6H")))
    assert state.melds[1].cards == cards("5H 6H 7H 8H") and card("2C") in state.hands[1]


def test_onze_may_i_at_most_three_times_a_round_with_one_penalty_card():
    rules = rules_of("onze")
    buying = rules.section.buying
    env = rules.setup(4).round_env(0)
    assert buying.limit(env) == 3 and buying.penalty_cards(env) == 1
    assert buying.priority.value == "clockwise-from-player-in-turn"


@pytest.mark.parametrize("round_index, earned", [(0, 5), (1, 10), (2, 15), (3, 20), (4, 25), (5, 30), (6, 35)])
def test_onze_points_earned_by_the_player_who_goes_out(round_index, earned):
    rules = rules_of("onze")
    bonus = rules.section.bonuses[0]
    env = {**rules.setup(4).round_env(round_index), "in_one_turn": False, "jokers_melded": 0,
           "others_down": 0, "buys": 0}
    assert bonus.goer(env) == earned


def test_onze_going_out_in_round_one_earns_five():
    hands = ["AS 3S 5S 7H 9C JD KD 4C 6C 8C TC", "7S 7C 7D 7H 7S 7C QD QS QC QH QS",
             "AH 3H 5H 9H JH KH 4D 6D 8D TD 3D", "AC 3C 5C 9S JS KS 4H 6H 8H TH 5D"]
    state = stacked("onze", hands, "9D", stock=["JC"])
    draw(state)  # seat 1 draws JC
    state.apply(GoDown((cards("7S 7C 7D 7H 7S 7C"), cards("QD QS QC QH QS"))))
    state.apply(Discard(card("JC")))  # "at the end of your turn, you must discard a card"
    assert any(e == {"event": "out", "round": 1, "seat": 1} for e in state.events)
    assert state.totals == [0, 5, 0, 0]


# --- every ruleset, every player count ------------------------------------------------------------
GAMES = [(name, n) for name in CATALOGUE
         for n in range(rules_of(name).min_players, rules_of(name).max_players + 1)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{name}-{n}p" for name, n in GAMES])
def test_bots_finish_a_game(name, players):
    rules = rules_of(name)
    state = play_bots(rules, ["bot"] * players, seed=players)
    assert state.is_over
    assert sum(e["event"] == "deal" for e in state.events) == len(rules.setup(players).hand_sizes)
