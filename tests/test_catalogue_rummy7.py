"""Catalogue, seventh batch: published contract-rummy variants written with the going-down
mechanisms (at least the contract, a rule on the go-down, parts of either kind, sets of
distinct suits, deuces wild, no taking or buying the discard once down), each checked against
what its source says, and a bot game to the end at every player count it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.cards import JOKER, card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.contract_rummy.actions import ALLOW, BUY, DRAW, PASS, REFUSE, Discard, GoDown, LayOff
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine, card_points
from cardrules.interpreter.families.contract_rummy.rules import wild_cards
from cardrules.interpreter.game import CHANCE
from helpers import rummy_draw, stacked_rummy_round

RULESETS = Path(__file__).parent.parent / "rulesets"
CATALOGUE = ["liverpool-rummy-weekend-america", "king-rummy", "progressive-rummy-parlett", "zioncheck-family",
             "liverpool-rummy-wikipedia"]
CATALOGUE = [name for name in CATALOGUE if (RULESETS / f"{name}.yaml").exists()]


def rules_of(name):
    return load_ruleset(RULESETS / f"{name}.yaml")


def cards(text):
    return tuple(card(c) for c in text.split())


def engine(name, players=4, round_index=0):
    rules = rules_of(name)
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, round_index),
                      rules.section.going_down)


def why_not(name, kind, text, players=4, round_index=0):
    check = engine(name, players, round_index)
    return check.why_not_run(cards(text)) if kind == "run" else check.why_not_set(cards(text))


def problem(name, round_index, *texts, players=4):
    """Why the melds ``texts`` do not meet round ``round_index``'s contract (None if they do)."""
    check = engine(name, players, round_index)
    contract = rules_of(name).section.contracts[round_index].melds
    return check.contract_problem([check.classify(cards(t)) for t in texts], contract)


def contracts(name):
    return [[str(m) for m in c.melds] for c in rules_of(name).section.contracts]


def going_out(name):
    return [c.going_out.value for c in rules_of(name).section.contracts]


def may_go_down(name, round_index, cards_left, players=4):
    """``going_down.may`` for a go-down leaving ``cards_left`` cards in round ``round_index``."""
    rules = rules_of(name)
    env = {**rules.setup(players).round_env(round_index), "seat": 1, "player": 1, "discarder": 0,
           "is_next": False, "is_down": False, "buys": 0, "buys_left": 0, "cards_in_hand": 11,
           "others_down": 0, "stock": 40, "went_down_this_turn": False,
           "cards_left": cards_left, "melds_put_down": 2, "extra_melds": 0}
    return rules.section.going_down.may.rule(env)


def seat_rule(rule, name, is_down, players=4):
    rules = rules_of(name)
    env = {**rules.setup(players).round_env(0), "seat": 2, "player": 1, "discarder": 0,
           "is_next": False, "is_down": is_down, "buys": 0, "buys_left": 3, "cards_in_hand": 11,
           "others_down": 0, "stock": 40, "went_down_this_turn": False}
    return getattr(rule, "rule", rule)(env)


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


# --- Liverpool Rummy (Weekend America) ---------------------------------------------------------
WA = "liverpool-rummy-weekend-america"


@pytest.mark.parametrize("players, size", [(3, 108), (4, 108), (5, 162)])
def test_wa_packs_and_jokers(players, size):
    # "For up to 4 players you use 2 decks including all 4 jokers. For 5 players you need 3 decks
    # and all 6 jokers."
    assert rules_of(WA).setup(players).deck_size == size


def test_wa_eleven_cards_and_seven_hands_the_last_all_out():
    # "the dealer gives each player 11 cards"; "7) Three Runs All Out (no discard ...)"
    assert list(rules_of(WA).setup(4).hand_sizes) == [11] * 7
    expected = [list(c) for c in SEVEN_CONTRACTS]
    expected[5] = ["run of 4", "run of 4", "set of 3"]  # "6) Two Runs, One Set"
    assert contracts(WA) == expected
    assert going_out(WA) == ["discard-required"] * 6 + ["no-discard"]


def test_wa_the_minimum_requirement_or_more():
    # "Once you have the minimum requirement of the hand (or more) you can "go down""
    assert problem(WA, 0, "7H 7S 7C", "9D 9S 9C") is None
    assert problem(WA, 0, "7H 7S 7C", "9D 9S 9C", "4D 5D 6D 7D") is None   # a run beyond two sets
    assert problem(WA, 0, "7H 7S 7C", "9D 9S 9C", "KD KS KC") is None      # a third set
    assert "at least" in problem(WA, 0, "7H 7S 7C")
    assert problem(WA, 1, "7H 7S 7C", "4D 5D 6D 7D", "QH QS JK") is None


def test_wa_the_last_hand_goes_down_with_every_card():
    # "All Out (no discard, even the last card you pick up must fit into your hand)"
    assert may_go_down(WA, 6, 0)
    assert not may_go_down(WA, 6, 1)
    assert may_go_down(WA, 0, 5)   # earlier hands: go down with the contract and keep the rest


def test_wa_no_taking_or_buying_the_discard_once_down():
    # "once you've gone down, you can no longer pick or buy cards off the discard pile"
    rules = rules_of(WA)
    for rule in (rules.section.take_discard, rules.section.buying.may):
        assert seat_rule(rule, WA, is_down=False)
        assert not seat_rule(rule, WA, is_down=True)


def test_wa_a_player_down_is_not_offered_the_discard():
    hands = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S 3C", "7S 7C 7D QD QS QC 7H 4S 9S KD 8C",
             "2H 3H 4D 6D 8C TS TH JD JC AS 3D", "3S 4C 6C 8H 8D TD JS QH AC AH 4D"]
    state = stacked(WA, hands, "5C", stock=["2D", "KC"])
    draw(state)                                  # seat 1 draws 2D
    state.apply(GoDown((cards("7S 7C 7D 7H"), cards("QD QS QC"))))
    state.apply(Discard(card("4S")))
    assert state.down[1]
    # seat 2 declines the 4S: seat 1, down, is not asked to buy
    state.apply(DRAW)
    asked = []
    while state.turn != CHANCE:
        asked.append(state.turn)
        state.apply(PASS)
    assert 1 not in asked and asked == [3, 0]


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "8H 8S 8C", True),        # "Sets are 3 or more of a kind"
    ("set", "8H 8S", False),
    ("set", "8H 8H JK", True),
    ("run", "AS 2S 3S 4S", True),     # "You can build ace, two three, four"
    ("run", "JH QH KH AH", True),     # "or you can build jack, queen, king, ace"
    ("run", "QH KH AH 2H", False),    # "but not queen, king, ace, two"
    ("run", "5H 6H 7H", False),       # "4 or more in a row"
    ("run", "5H 6H 7S 8H", False),    # "of the same suit"
])
def test_wa_meld_examples(kind, text, valid):
    why = why_not(WA, kind, text)
    assert (why is None) == valid, why


def test_wa_card_points():
    # "Jokers and Aces are 15 points, Face cards (Jack, Queen, King) are 10 points, all others
    # are equal to their numerical value."
    table = rules_of(WA).section.card_points
    assert card_points(cards("JK AS KH QD JC TC 7S 2H"), table) == 15 + 15 + 30 + 10 + 7 + 2


# --- King Rummy -------------------------------------------------------------------------------
KR = "king-rummy"


def test_king_four_players_108_cards_four_deals_of_ten():
    # "King Rummy uses 108 cards - two 52-card decks plus 4 jokers."; "(4p, ...)"
    rules = rules_of(KR)
    assert (rules.min_players, rules.max_players) == (4, 4)
    assert rules.setup(4).deck_size == 108
    assert list(rules.setup(4).hand_sizes) == [10] * 4   # "Ten cards ... in every deal"
    # "(1) #3 $4, (2) #3 #3 #3, (3) $4 $4, (4) #3 #3 $4"
    assert contracts(KR) == [["set of 3", "run of 4"], ["set of 3", "set of 3", "set of 3"],
                             ["run of 4", "run of 4"], ["set of 3", "set of 3", "run of 4"]]


def test_king_more_than_the_minimum_at_the_first_meld():
    # "You may make more than the minimum requirement when you first meld"
    assert problem(KR, 0, "7H 7S 7C", "4D 5D 6D 7D") is None
    assert problem(KR, 0, "7H 7S 7C", "4D 5D 6D 7D", "KS KH KC") is None
    assert problem(KR, 2, "4D 5D 6D 7D", "9S TS JS QS KS", "AH AC JK") is None
    assert "at least" in problem(KR, 2, "4D 5D 6D 7D")


def test_king_the_fourth_contract_requires_all_cards():
    # "On the 4th deal, the contract requires all cards"
    assert may_go_down(KR, 3, 1) and may_go_down(KR, 3, 0)
    assert not may_go_down(KR, 3, 2)
    assert may_go_down(KR, 0, 4)   # deals 1-3: keep cards, lay off later or at once


def test_king_go_out_blind_by_laying_off_at_once():
    # "They may do this immediately, without waiting for their next turn (and in this way "go out blind")"
    hands = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S", "7S 7C 7D 4D 5D 6D 7D 8D 8S 8H",
             "2H 3H 4H 6D 8C TS TH JD JC AS", "3S 4C 6C 8H 8D TD JS QH AC AH"]
    state = stacked(KR, hands, "QC", stock=["8C"])
    draw(state)                                   # seat 1 draws 8C
    state.apply(GoDown((cards("7S 7C 7D"), cards("4D 5D 6D 7D"), cards("8S 8H 8C"))))
    run = next(i for i, m in state.melds.items() if card("4D") in m.cards) if isinstance(state.melds, dict) \
        else next(i for i, m in enumerate(state.melds) if card("4D") in m.cards)
    state.apply(LayOff(run, (card("8D"),)))       # on the run, in the same turn
    assert any(e == {"event": "out", "round": 1, "seat": 1} for e in state.events)


def test_king_card_points():
    # "Jokers 25, Aces 15, courts 10, numerals face value"
    table = rules_of(KR).section.card_points
    assert card_points(cards("JK AS KH QD JC TC 7S 2H"), table) == 25 + 15 + 30 + 10 + 7 + 2


def test_king_no_joker_exchange():
    # the immediate joker capture by other players cannot be written: no exchange at all
    assert not rules_of(KR).section.joker_swap.allowed


# --- Progressive Rummy (Parlett) -----------------------------------------------------------------
PP = "progressive-rummy-parlett"


def test_parlett_seven_deals_of_ten_and_contracts_by_size():
    # "Seven deals of ten cards each." "Meld (1) three cards, (2) four cards, (3) five cards, (4) two
    # threes, (5) three and four, (6) three and five, (7) two fours."
    rules = rules_of(PP)
    assert (rules.min_players, rules.max_players) == (2, 6)
    assert list(rules.setup(4).hand_sizes) == [10] * 7
    assert rules.setup(4).deck_size == 104
    assert contracts(PP) == [["meld of 3"], ["meld of 4"], ["meld of 5"], ["meld of 3", "meld of 3"],
                             ["meld of 3", "meld of 4"], ["meld of 3", "meld of 5"], ["meld of 4", "meld of 4"]]
    assert going_out(PP) == ["discard-required"] * 7   # "You can go out only with a discard."


def test_parlett_deuces_wild():
    rules = rules_of(PP)
    wild = set(wild_cards(rules.section.melds, rules.setup(4), 2)) - {JOKER}
    assert wild == set(cards("2S 2H 2D 2C"))


def test_parlett_sets_or_sequences_or_one_of_each():
    # "The contract requirements may be met with sets or sequences or one of each."
    assert problem(PP, 0, "7H 7S 7C") is None
    assert problem(PP, 0, "4D 5D 6D") is None
    assert problem(PP, 3, "7H 7S 7C", "4D 5D 6D") is None
    assert problem(PP, 3, "7H 7S 7C", "9D 9S 9C") is None
    assert problem(PP, 4, "7H 7S 7C", "4D 5D 6D 7D") is None          # three and four
    assert problem(PP, 5, "4H 5H 6H", "9D TD JD QD KD") is None       # three and five
    assert problem(PP, 6, "7H 7S 7C 7D", "4D 5D 2S 7D") is None       # two fours, a deuce wild
    assert problem(PP, 4, "7H 7S 7C", "4D 5D 6D") is not None         # no meld of four


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "7H 7S 7C", True),        # "Sets of three must be of three different suits"
    ("set", "7H 7H 7C", False),
    ("set", "7H 7H", False),
    ("set", "7H 2S 7C", True),        # a deuce is wild
    ("set", "7H 7S 7C 7D", True),
    ("set", "7H 7S 7C 7H", False),    # no two naturals of one suit in a set of four either
    ("run", "4D 5D 6D", True),        # a meld of three cards may be a sequence
    ("run", "4D 2C 6D", True),
    ("run", "4D 5H 6D", False),
])
def test_parlett_meld_examples(kind, text, valid):
    why = why_not(PP, kind, text)
    assert (why is None) == valid, why


def test_parlett_card_points():
    # "Deuces 15, Aces 11, courts 10, numera[ls face value]"
    table = rules_of(PP).section.card_points
    assert card_points(cards("2S AS KH QD JC TC 7S 3H"), table) == 15 + 11 + 30 + 10 + 7 + 3


# --- Zioncheck (family rules) -------------------------------------------------------------------
ZC = "zioncheck-family"


def test_zioncheck_eleven_cards_seven_requirements_and_a_short_game():
    # "Deal eleven cards to each player."; "1. Two sets ... 4. Three sets (short games can end
    # here) ... 7. Three runs, no discard"
    rules = rules_of(ZC)
    assert list(rules.setup(4).hand_sizes) == [11] * 7
    assert rules.setup(4).deck_size == 108
    assert contracts(ZC) == SEVEN_CONTRACTS
    assert going_out(ZC) == ["discard-required"] * 6 + ["no-discard"]
    assert list(rules.setup(4, "short").round_numbers) == [1, 2, 3, 4]


def test_zioncheck_exactly_the_requirements_when_going_down():
    # "Once a player has collected the requirements of the round (i.e., two sets), the player
    # places those sets or runs on the table"
    assert problem(ZC, 0, "7H 7S 7C", "9D 9S 9C") is None
    assert problem(ZC, 0, "7H 7S 7C", "9D 9S 9C", "KD KS KC") is not None
    assert problem(ZC, 1, "7H 7S 7C", "4D 5D 6D 7D 8D") is None


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "8H 8S 8C", True),        # "minimum three cards of the same number"
    ("set", "8H 8S", False),
    ("set", "8H 8H 8S 8C", True),
    ("run", "5H 6H 7H 8H", True),     # "minimum four consecutive cards of the same suit"
    ("run", "5H 6H 7H", False),
    ("run", "5H 6H 7S 8H", False),
    ("run", "5H JK 7H 8H", True),
])
def test_zioncheck_meld_examples(kind, text, valid):
    why = why_not(ZC, kind, text)
    assert (why is None) == valid, why


def test_zioncheck_may_i_with_a_penalty_card_that_the_player_in_turn_may_permit_or_deny():
    # "Simply say "may I?" The person currently playing can permit your request or deny it. If
    # you "may I" you must also take a penalty card."
    hands = ["5S 5H 5D KS KH 2C 9D 9C 4H 6S 3C", "7S 7C 7D QD QS QC 7H 4S 9S KD 8C",
             "2H 3H 4D 6D 8C TS TH JD JC AS 3D", "3S 4C 6C 8H 8D TD JS QH AC AH 4D"]
    for answer in (ALLOW, REFUSE):
        state = stacked(ZC, hands, "5C", stock=["2D", "3D"])
        state.apply(DRAW)          # seat 1 passes on the flip card
        state.apply(PASS)          # seat 2
        state.apply(PASS)          # seat 3
        state.apply(BUY)           # seat 0: "may I?"
        assert state.turn == 1 and set(state.legal_actions()) == {ALLOW, REFUSE}  # seat 1 is asked
        state.apply(answer)
        if answer is ALLOW:
            assert state.events[-1] == {"event": "buy", "round": 1, "seat": 0, "card": "5C", "penalty": ["2D"]}
            assert len(state.hands[0]) == 13
        else:
            assert state.events[-1] == {"event": "refuse", "round": 1, "seat": 1, "buyer": 0, "card": "5C"}
            assert len(state.hands[0]) == 11 and state.pile == [card("5C")] and state.buys[0] == 0
        state.apply(state.chance_action())  # seat 1 draws from the stock either way
        assert state.events[-1]["event"] == "draw" and state.events[-1]["from"] == "stock"


def test_zioncheck_card_points():
    # "ten points for face cards, 15 for aces, and 20 for jokers"
    table = rules_of(ZC).section.card_points
    assert card_points(cards("JK AS KH QD JC 7S 2H"), table) == 20 + 15 + 30 + 7 + 2


# --- Liverpool Rummy (Wikipedia) ------------------------------------------------------------------
LW = "liverpool-rummy-wikipedia"


@pytest.mark.parametrize("players, decks", [(3, 2), (4, 2), (5, 3), (8, 3)])
def test_liverpool_wikipedia_two_packs_for_three_or_four_three_for_more(players, decks):
    # "2 packs for three or four players or 3 for more than four players"
    assert rules_of(LW).setup(players).deck_size == 54 * decks


def test_liverpool_wikipedia_deals_and_contracts_from_six_to_twelve_cards():
    # "10 cards to each player for the first 4 rounds, then 12 cards ... for the last 3 rounds";
    # "The number of cards required to lay down increases by one with each hand, from 6 to 12."
    rules = rules_of(LW)
    assert list(rules.setup(5).hand_sizes) == [10] * 4 + [12] * 3
    assert contracts(LW) == SEVEN_CONTRACTS
    assert [sum(m.min_size for m in c.melds) for c in rules.section.contracts] == [6, 7, 8, 9, 10, 11, 12]


def test_liverpool_wikipedia_exact_cut_takes_50_off():
    # "the cutting player's score is reduced by 50 points"
    rules = rules_of(LW)
    (cut,) = rules.section.chance_events
    env = rules.setup(4).round_env(0)
    assert cut.actor(env) == -50 and cut.others(env) == 0


@pytest.mark.parametrize("kind, text, valid", [
    ("set", "QH QS QC", True),        # "three or more cards of the same rank"
    ("set", "QH QS", False),
    ("run", "AD 2D 3D 4D", True),     # "aces can be used in a high run or low run"
    ("run", "JD QD KD AD", True),
    ("run", "KD AD 2D 3D", False),    # "but not wrap around"
    ("run", "4D 5D 6D", False),       # "four or more cards in sequence"
])
def test_liverpool_wikipedia_meld_examples(kind, text, valid):
    why = why_not(LW, kind, text)
    assert (why is None) == valid, why


# --- every ruleset, every player count ------------------------------------------------------------
GAMES = [(name, n) for name in CATALOGUE
         for n in range(rules_of(name).min_players, rules_of(name).max_players + 1)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{name}-{n}p" for name, n in GAMES])
def test_bots_finish_a_game(name, players):
    rules = rules_of(name)
    state = play_bots(rules, ["bot"] * players, seed=players)
    assert state.is_over
    assert sum(e["event"] == "deal" for e in state.events) == len(rules.setup(players).hand_sizes)
