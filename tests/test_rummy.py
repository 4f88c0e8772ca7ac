"""Contract rummy, checked against the seed pages: melds, contracts, buying, lay-offs,
joker swaps, going out, scoring, the cut and the slam."""

from __future__ import annotations

import json

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.families.contract_rummy.actions import (BUY, DRAW, PASS, TAKE, CutOutcome, Discard, GoDown,
                                                                   LayOff, StockCard, Swap)
from cardrules.interpreter.cards import JOKER, card
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine, card_points
from cardrules.interpreter.families.contract_rummy.rules import MeldKind
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import dump_event, replay, save_record
from helpers import rummy_draw


def cards(text):
    return tuple(card(c) for c in text.split())


def checker(name, players=4):
    rules = load_ruleset(name)
    return MeldEngine(rules.section.melds, rules.setup(players).env)


# --- the meld matrix --------------------------------------------------------------------------
@pytest.mark.parametrize("name, kind, text, problem", [
    # ISRA: "aces can be high or low ... But you cannot wrap around the ace"
    ("shanghai-isra", "run", "AS 2S 3S 4S", None),
    ("shanghai-isra", "run", "JS QS KS AS", None),
    ("shanghai-isra", "run", "KS AS 2S 3S", "not in sequence"),
    ("shanghai-isra", "run", "3S 4H 5S 6S", "one suit"),
    ("shanghai-isra", "run", "3S 5S 6S 7S", "not in sequence"),
    # ISRA: "Jokers can be used in RUNS - but not next to each other"; no limit otherwise
    ("shanghai-isra", "run", "3S JK JK 6S", "side by side"),
    ("shanghai-isra", "run", "3S JK 5S JK 7S", None),
    ("shanghai-isra", "run", "JK 4S JK", "at least 4"),
    ("shanghai-isra", "set", "8H 8S JK", None),
    ("shanghai-isra", "set", "8H JK JK JK", None),
    ("shanghai-isra", "set", "JK JK JK", None),  # "Three JOKERS can be used to form a set"
    ("shanghai-isra", "set", "8H 8S 9S", "one rank"),
    # pagat: "Aces are always high in a run. A-2-3-4 is not a run"; one joker a meld
    ("shanghai-pagat", "run", "AS 2S 3S 4S", "an ace is high in runs here (above the king), so it cannot stand below the 2"),
    ("shanghai-pagat", "run", "KS AS 2S 3S", "may not turn the corner"),
    ("shanghai-pagat", "run", "AS 3S 4S 5S", "not in sequence"),
    ("shanghai-pagat", "run", "JS QS KS AS", None),
    ("shanghai-pagat", "set", "8H JK JK", "at most 1 joker"),
    ("shanghai-pagat", "run", "3S JK 5S 6S", None),
    ("shanghai-pagat", "run", "3S JK 5S JK 7S", "at most 1 joker"),
    # seed 001: "1 joker ... in a set of 3, or a run of 4; 2 jokers ... in a run of 5"
    ("shanghai", "set", "8H 8S JK", None),
    ("shanghai", "set", "8H JK JK", "at most 1 joker"),
    ("shanghai", "run", "3S JK JK 6S", "at most 1 joker"),
    ("shanghai", "run", "3S JK JK 6S 7S", None),
    ("shanghai", "run", "3S JK 5S JK JK 8S 9S", None),  # 3 jokers in a run of 7
    ("shanghai", "run", "AS 2S 3S 4S", None),
])
def test_meld_matrix(name, kind, text, problem):
    check = checker(name)
    why = check.why_not_run(cards(text)) if kind == "run" else check.why_not_set(cards(text))
    if problem is None:
        assert why is None
    else:
        assert why is not None and problem in why


def test_run_values_and_joker_places():
    meld = checker("shanghai-isra").make(MeldKind.RUN, cards("JK 4D 5D 6D"))
    assert meld.start == 3 and meld.stands_for(0) == card("3D")
    low = checker("shanghai-isra").make(MeldKind.RUN, cards("JK 2D 3D 4D"))
    assert low.stands_for(0) == card("AD")


def test_lay_off_extends_a_run_at_either_end_and_never_round_the_corner():
    check = checker("shanghai-isra")
    run = check.make(MeldKind.RUN, cards("JD QD KD AD"))
    assert check.lay_off(run, card("TD")).cards == cards("TD JD QD KD AD")
    assert check.lay_off(run, card("2D")) is None  # K-A-2 would wrap
    assert check.lay_off(run, card("9D")) is None
    assert check.lay_off(run, JOKER).cards == cards("JK JD QD KD AD")  # the high end is closed
    ace_low = check.make(MeldKind.RUN, cards("AD 2D 3D 4D"))
    assert check.lay_off(ace_low, card("5D")).cards == cards("AD 2D 3D 4D 5D")
    sets = check.make(MeldKind.SET, cards("8H 8S JK"))
    assert check.lay_off(sets, card("8C")).cards == cards("8H 8S JK 8C")
    assert check.lay_off(sets, card("9C")) is None


def test_joker_swap_only_for_the_card_it_stands_for():
    check = checker("shanghai-isra")
    run = check.make(MeldKind.RUN, cards("5D 6D JK 8D"))
    assert check.swap(run, card("7D")).cards == cards("5D 6D 7D 8D")
    assert check.swap(run, card("7H")) is None
    assert check.swap(run, card("9D")) is None


# --- a stacked round ----------------------------------------------------------------------------
def stacked(name, hands, upcard, stock=(), players=4, dealer=0, cut=False):
    """Round 1 of ``name`` dealt exactly ``hands`` (seat 0 first), the flip card ``upcard``,
    and a stock whose first cards (from the top) are ``stock``."""
    rules = load_ruleset(name)
    state = new_game(rules, players, seed=0)
    state.dealer = dealer
    for i, _ in enumerate(rules.section.chance_events):
        state.apply(CutOutcome(i, cut))
    state.stack_deal(tuple(cards(h) for h in hands), card(upcard), cards(" ".join(stock)))
    return state


draw = rummy_draw  # the player in turn declines the discard; every window seat passes; the stock card


ISRA_HANDS = ["8H 8S 8D 9C 9D 9H 2C 3C 4C KD KS", "2H 3H 4H 5H 7S 7S 7C JK QD QS QC",
              "5C 6C 7D 8C TS TH TD 2S 2D AS AH", "3S 4S 6S 9S JS KC 4D 5D 6D 6H JH"]


def test_buy_priority_isra_clockwise_from_the_player_in_turn():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H", stock=["AC", "QH", "JC", "3D"])
    assert state.turn == 1  # left of the dealer
    state.apply(DRAW)  # seat 1 passes on the flip card: the window opens at seat 2
    assert state.phase == "window" and state.turn == 2
    state.apply(PASS)
    assert state.turn == 3
    state.apply(BUY)
    buy = state.events[-1]
    # two penalty cards from the top of the stock, then seat 1 draws its card
    assert buy == {"event": "buy", "round": 1, "seat": 3, "card": "7H", "penalty": ["AC", "QH"]}
    assert state.turn == CHANCE
    state.apply(state.chance_action())
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "stock", "card": "JC"}
    assert len(state.hands[3]) == 14 and state.buys[3] == 1


def test_buy_priority_seed001_closest_to_the_dealers_left():
    # dealer 2: the player in turn is seat 3 and the dealer's left is seat 3, so the
    # window runs 0, 1 (2 is the dealer, who discarded nothing: it may buy the flip card too)
    state = stacked("shanghai", ISRA_HANDS, "7H", dealer=2)
    assert state.turn == 3
    state.apply(DRAW)
    assert state.window == [0, 1, 2]
    assert state.turn == 0
    state.apply(BUY)  # seat 0 buys: one buy per discard, no one else is asked
    assert state.events[-1]["seat"] == 0 and len(state.events[-1]["penalty"]) == 1  # "an extra card"
    assert state.turn == CHANCE


def test_the_player_in_turn_takes_the_discard_free():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H")
    state.apply(TAKE)
    assert state.events[-1] == {"event": "draw", "round": 1, "seat": 1, "from": "discard", "card": "7H"}
    assert state.buys == [0, 0, 0, 0] and len(state.hands[1]) == 12


def test_two_buys_a_round_then_shopped_out():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H")
    state.buys[2] = 2
    state.apply(DRAW)
    assert state.turn == 3  # seat 2 is shopped out: it is not even asked
    state.buys[3] = 2  # and seat 3, asked, has made its buys too (as after two earlier buys)
    with pytest.raises(IllegalActionError, match="you have made your 2 buys this round"):
        state.apply(BUY)


def test_going_down_needs_exactly_the_contract():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H", stock=["KH"])
    draw(state)  # seat 1 draws KH: it holds sets of 7s and queens (SET SET)
    with pytest.raises(IllegalActionError, match="exactly set of 3, set of 3"):
        state.apply(GoDown((cards("7S 7S 7C"),)))
    with pytest.raises(IllegalActionError, match="is not a meld"):
        state.apply(GoDown((cards("7S 7S QD"), cards("QS QC JK"))))
    with pytest.raises(IllegalActionError, match="you put down 3 meld"):
        state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"), cards("2H 3H 4H 5H"))))
    options = [sorted(map(sorted, a.melds)) for a in state.legal_actions() if isinstance(a, GoDown)]
    assert sorted(map(sorted, (cards("7S 7S 7C"), cards("QD QS QC")))) in options
    state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"))))
    meld = state.events[-1]
    assert meld["melds"] == [{"id": 1, "kind": "set", "cards": ["7S", "7S", "7C"]},
                             {"id": 2, "kind": "set", "cards": ["QD", "QS", "QC"]}]
    with pytest.raises(IllegalActionError, match="already down"):
        state.apply(GoDown((cards("2H 3H 4H"), cards("5H KH JK"))))


def test_pagat_initial_meld_rules():
    check = checker("shanghai-pagat")
    contract = load_ruleset("shanghai-pagat").section.contracts
    two_sets = [check.make(MeldKind.SET, cards("8H 8S 8D")), check.make(MeldKind.SET, cards("8C 8H 8S"))]
    assert "two sets of the same rank" in check.contract_problem(two_sets, contract[0].melds)
    runs = [check.make(MeldKind.RUN, cards("6S 7S 8S 9S")), check.make(MeldKind.RUN, cards("TS JS QS KS"))]
    assert "join end to end" in check.contract_problem(runs, contract[2].melds)
    apart = [check.make(MeldKind.RUN, cards("6S 7S 8S 9S")), check.make(MeldKind.RUN, cards("JS QS KS AS"))]
    assert check.contract_problem(apart, contract[2].melds) is None


def test_lay_off_only_once_down_then_on_any_meld():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H", stock=["KH", "4C", "8C"])
    draw(state)
    state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"))))
    state.apply(Discard(card("KH")))
    draw(state)  # seat 2 draws 4C; it is not down
    with pytest.raises(IllegalActionError, match="only once you are down"):
        state.apply(LayOff(1, (card("7D"),)))
    assert not any(isinstance(a, LayOff) for a in state.legal_actions())


def test_joker_swap_isra_freed_joker_must_be_played_this_turn():
    hands = ["8H 8S 8D 9C 9D 9H 2C 3C 4C KD KS", "5D 6D JK 8D 7S 7S 7C QD QS QC 2H",
             "5C 6C 7D 8C TS TH TD 2S 3D AS AH", "3S 4S 6S 9S JS KC 4D 5H 6C 6H JH"]
    state = stacked("shanghai-isra", hands, "7H", stock=["KH", "4H", "AD"])
    draw(state)  # seat 1
    state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"))))
    state.apply(Discard(card("KH")))
    draw(state)  # seat 2 draws 4H
    state.apply(Discard(card("4H")))
    draw(state)  # seat 3 draws AD
    state.apply(Discard(card("AD")))
    draw(state)  # seat 0
    state.apply(Discard(card("KD")))
    # seat 1 is down; to test the swap put a run with a joker on the table for it
    assert state.place_meld(3, cards("4S JK 6S 7S")) == 3
    state.hands[1].append(card("5S"))
    draw(state)
    with pytest.raises(IllegalActionError, match="runs only"):
        state.apply(Swap(1, card("7D")))
    state.apply(Swap(3, card("5S")))
    assert state.events[-1] == {"event": "swap", "round": 1, "seat": 1, "meld": 3, "card": "5S"}
    assert state.melds[3].cards == cards("4S 5S 6S 7S") and state.joker_debt == 1
    with pytest.raises(IllegalActionError, match="lay off the joker you freed"):
        state.apply(Discard(card("2H")))
    assert not any(isinstance(a, Discard) for a in state.legal_actions())
    state.apply(LayOff(1, (JOKER,)))
    assert state.joker_debt == 0 and state.melds[1].cards == cards("7S 7S 7C JK")


def queens_on_the_table(state, seat=1):
    """Seat ``seat`` is down and a set of queens (owned by seat 0) is on the table."""
    state.down[seat] = True
    assert state.place_meld(0, cards("QC QC QD")) == 1


def test_isra_goes_out_only_onto_the_table():
    # "A person must go all the way out by playing all their cards onto the table"
    state = stacked("shanghai-isra", ["7S 7C", "QD QS", "2H 3H", "4S 5S"], "7H", stock=["7D"])
    queens_on_the_table(state)
    draw(state)  # seat 1 holds QD QS 7D
    state.apply(LayOff(1, (card("QD"),)))
    # laying off the other queen would leave the 7D, which can be neither played nor
    # discarded to go out: the turn could never end, so the lay-off is refused
    with pytest.raises(IllegalActionError, match="never by a discard"):
        state.apply(LayOff(1, (card("QS"),)))
    state.apply(Discard(card("7D")))  # "You discard the non-player, keep the player"
    assert state.hands[1] == [card("QS")]

    state = stacked("shanghai-isra", ["7S 7C", "QD QS", "2H 3H", "4S 5S"], "7H", stock=["QH"])
    queens_on_the_table(state)
    draw(state)  # QD QS QH: all players
    state.apply(LayOff(1, (card("QD"),)))
    state.apply(LayOff(1, (card("QS"),)))
    with pytest.raises(IllegalActionError, match="may not go out by discarding"):
        state.apply(Discard(card("QH")))
    state.apply(LayOff(1, (card("QH"),)))
    assert state.events[-2] == {"event": "out", "round": 1, "seat": 1}


def test_going_out_by_laying_off_every_card_scores_zero():
    state = stacked("shanghai-isra", ["AS KH", "QD QS", "2H 3H", "4S JK"], "7H", stock=["QH"])
    queens_on_the_table(state)
    draw(state)  # QD QS QH
    for c in ("QD", "QS", "QH"):
        state.apply(LayOff(1, (card(c),)))
    assert state.events[-2] == {"event": "out", "round": 1, "seat": 1}
    score = state.events[-1]
    # ISRA values: ace 20 + king 10; 5 + 5; 5 + joker 50
    assert score["points"] == [30, 0, 10, 55]


def test_seed001_may_go_out_with_a_last_discard():
    state = stacked("shanghai", ["AS KH", "QD 9S", "2H 3H", "4S JK"], "7H", stock=["QH"])
    queens_on_the_table(state)
    draw(state)
    state.apply(LayOff(1, (card("QD"),)))
    state.apply(LayOff(1, (card("QH"),)))
    state.apply(Discard(card("9S")))
    assert state.events[-2] == {"event": "out", "round": 1, "seat": 1}
    # seed 001: number cards 5, face cards 10, ace 15, joker 15
    assert state.events[-1]["points"] == [25, 0, 10, 20]


def test_isra_left_over_hand_scores_85():
    # the example: "a hand of ace, king, joker and seven left over scores 85"
    table = load_ruleset("shanghai-isra").section.card_points
    assert card_points(cards("AS KH JK 7D"), table) == 85


def test_the_cut_puts_50_on_every_other_score():
    state = stacked("shanghai-isra", ["AS KH", "QD QS", "2H 3H", "4S JK"], "7H", stock=["QH"], cut=True,
                    dealer=0)
    assert state.events[1] == {"event": "cut", "round": 1, "seat": 3, "success": True}
    queens_on_the_table(state)
    draw(state)
    for c in ("QD", "QS", "QH"):
        state.apply(LayOff(1, (card(c),)))
    # the cutter (seat 3, right of the dealer) scores its hand only; everyone else +50
    assert state.events[-1]["points"] == [30 + 50, 0 + 50, 10 + 50, 55]


def test_the_slam_down_and_out_in_one_turn_while_no_one_is_down():
    state = stacked("shanghai-isra", ["AS KH", "7S 7C", "2H 3H", "4S JK"], "7H", stock=["7D"])
    draw(state)  # seat 1: 7S 7C 7D, and (for the test) three jokers: every card a player
    state.hands[1] += [JOKER, JOKER, JOKER]
    state.apply(GoDown((cards("7S 7C 7D"), (JOKER, JOKER, JOKER))))
    assert state.events[-3] == {"event": "out", "round": 1, "seat": 1}
    assert state.events[-2] == {"event": "bonus", "round": 1, "name": "slam", "seat": 1}
    # "a ton of points" (100, the ruleset's reading) on every other score, plus their hands
    assert state.events[-1]["points"] == [30 + 100, 0, 10 + 100, 55 + 100]


def test_seed001_blind_go_out_bonus():
    state = stacked("shanghai", ["AS KH", "7S 7C", "2H 3H", "4S 5S"], "7H", stock=["7D"])
    draw(state)
    state.hands[1] += [card("8S"), card("8C"), card("8D")]
    state.apply(GoDown((cards("7S 7C 7D"), cards("8S 8C 8D"))))
    # "you earn a bonus of 25 points (50 if you haven't used a joker) ... subtracts"
    assert state.events[-2] == {"event": "bonus", "round": 1, "name": "blind", "seat": 1}
    assert state.events[-1]["points"][1] == -50


def test_stock_draw_is_chance_and_replays_name_the_card():
    state = stacked("shanghai-isra", ISRA_HANDS, "7H", stock=["KH", "2D"])
    state.apply(DRAW)
    while state.turn != CHANCE:
        state.apply(PASS)
    state.stock = [c for c in state.stock if c != card("7H")]  # every 7H is elsewhere
    with pytest.raises(IllegalActionError, match="the stock holds no 7H"):
        state.apply(StockCard(card("7H")))
    state.apply(StockCard(card("2D")))  # a replay may name a card anywhere in the stock
    assert state.events[-1]["card"] == "2D"


def test_runs_may_turn_the_corner_where_a_ruleset_says_so(tmp_path):
    path = tmp_path / "wrap.yaml"
    path.write_text("extends: shanghai-isra\nname: wrap\nmelds:\n  run: {wrap: true}\n")
    rules = load_ruleset(path)
    check = MeldEngine(rules.section.melds, rules.setup(4).env)
    assert check.why_not_run(cards("KS AS 2S 3S")) is None
    assert check.why_not_run(cards("QS KS AS 2S 3S")) is None
    run = check.make(MeldKind.RUN, cards("KS AS 2S 3S"))
    assert check.lay_off(run, card("4S")).cards == cards("KS AS 2S 3S 4S")
    assert check.lay_off(run, card("QS")).cards == cards("QS KS AS 2S 3S")
    assert checker("shanghai-isra").why_not_run(cards("KS AS 2S 3S")) is not None


def test_a_meld_that_is_both_a_set_and_a_run_is_read_as_the_contract_needs(tmp_path):
    # With as many jokers as a meld's size allowed, JK JK JK QS is a set of queens and
    # the run 9-10-J-Q of spades; in a set-and-run contract it must be read as the run
    # that the other meld (a set) leaves wanting.
    path = tmp_path / "jokers.yaml"
    path.write_text("extends: shanghai\nname: jokers\nmelds: {jokers: {per_meld: size}}\n")
    rules = load_ruleset(path)
    check = MeldEngine(rules.section.melds, rules.setup(4).env)
    set_and_run = rules.section.contracts[1].melds  # round 2: a set and a run of 4
    melds = check.read_contract((cards("7S 7H 7C"), cards("JK JK JK QS")), set_and_run)
    assert [m.kind for m in melds] == [MeldKind.SET, MeldKind.RUN]
    assert melds[1].start == 9
    two_sets = rules.section.contracts[0].melds
    melds = check.read_contract((cards("7S 7H 7C"), cards("JK JK JK QS")), two_sets)
    assert [m.kind for m in melds] == [MeldKind.SET, MeldKind.SET]
    with pytest.raises(ValueError, match="meld 2 .* is not a meld"):
        check.read_contract((cards("7S 7H 7C"), cards("JK QS 2D")), set_and_run)


def test_a_go_down_written_with_a_meld_that_reads_both_ways_is_accepted(tmp_path):
    # The go-down as a record or a player writes it, verified from the cards alone: the
    # engine once read JK JK JK QS as a set and refused the go-down it had listed.
    path = tmp_path / "jokers.yaml"
    path.write_text("extends: shanghai\nname: jokers\ncontracts: [[set, run]]\n"
                    "melds: {jokers: {per_meld: size}}\n")
    state = stacked(path, ["2C 3C 4C 5C 6C 7C 8C 9C TC JC KD", "7S 7H 7C JK JK JK QS 2D 3D 4D 5H",
                           "2H 3H 4H 5H 6H 7H 8H 9H TH JH KH", "2S 3S 4S 5S 6S 8S 9S TS JS KS AS"], "AD",
                    stock=["6D"])
    draw(state)
    assert state.turn == 1
    state.apply(GoDown((cards("7S 7H 7C"), cards("JK JK JK QS"))))
    assert [m["kind"] for m in state.events[-1]["melds"]] == ["set", "run"]
    assert state.events[-1]["melds"][1]["cards"] == ["JK", "JK", "JK", "QS"]


def read_stock_line_by_line(lines, deck):
    """Follow the stock and the discard pile through a record as docs/game-records.md
    tells a reader to, line by line: fail where a line takes from the stock a card it
    cannot hold or from the pile a card not on top, or a reshuffle makes a stock of
    another size.  The places of the reshuffles that fell in the middle of a buy."""
    from collections import Counter
    stock, pile, in_buys = Counter(), [], []
    for i, e in enumerate(lines):
        kind, drawn = e["event"], []
        if kind == "deal":
            stock = Counter(deck) - Counter(c for hand in e["hands"] for c in hand) - Counter([e["upcard"]])
            pile = [e["upcard"]]
        elif kind == "discard":
            pile.append(e["card"])
        elif kind == "draw" and e["from"] == "discard":
            assert pile[-1:] == [e["card"]], f"line {i + 1}: {e['card']} is not on top of the pile"
            pile.pop()
        elif kind == "draw":
            drawn = [e["card"]]
        elif kind == "reshuffle" and lines[i + 1]["event"] == "buy" and (+stock or lines[i - 1]["event"] == "buy"):
            in_buys.append(i)  # in the middle of the buy on the next line: read there
        elif kind == "reshuffle":
            assert not +stock, f"line {i + 1}: the stock is reshuffled before it is empty"
            stock, pile = Counter(pile[:-1]), pile[-1:]
            assert sum(stock.values()) == e["stock"], f"line {i + 1}: the new stock's size"
        elif kind == "buy":
            assert pile[-1:] == [e["card"]], f"line {i + 1}: {e['card']} is not on top of the pile"
            pile.pop()
            drawn = e["penalty"]
            if in_buys and in_buys[-1] == i - 1:  # the buyer took what the stock held, then the reshuffle
                held = sum(stock.values())
                assert not stock - Counter(drawn[:held]), f"line {i + 1}: the buy does not take what the stock holds"
                stock, pile, drawn = Counter(pile[:-1]), pile[-1:], drawn[held:]
                assert sum(stock.values()) == lines[i - 1]["stock"], f"line {i}: the new stock's size"
        for c in drawn:
            assert stock[c] > 0, f"line {i + 1}: {c} cannot be in the stock"
            stock[c] -= 1
    return in_buys


def penalty_games(tmp_path, seeds):
    path = tmp_path / "penalty.yaml"
    path.write_text("extends: shanghai\nname: penalty\nbuying: {penalty_cards: 4, limit: 6}\n")
    rules = load_ruleset(path)
    return [play_bots(rules, ["bot"] * 6, seed, ruleset_ref=str(path)) for seed in seeds]


def test_a_reshuffle_comes_before_the_buy_whose_penalty_cards_run_past_the_stock(tmp_path):
    # As before a draw, the reshuffle line comes before the line that takes a card from
    # the stock it makes; the buyer took the discard and what the stock held first.
    in_buys = 0
    for seed, game in enumerate(penalty_games(tmp_path, range(4))):
        in_buys += len(read_stock_line_by_line(game.events, [game.setup.pack.codes[c] for c in game.deck]))
        record = tmp_path / f"game-{seed}.jsonl"
        save_record(game, record)
        assert replay(record).state.totals == game.totals
        assert replay(record, check_deals=False).state.events[1:] == game.events[1:]
    assert in_buys > 0


def test_a_record_of_an_earlier_release_with_the_reshuffle_after_its_buy_still_replays(tmp_path):
    game, = penalty_games(tmp_path, [3])
    lines = [dump_event(e) for e in game.events]
    in_buys = read_stock_line_by_line(game.events, [game.setup.pack.codes[c] for c in game.deck])
    assert in_buys
    for i in in_buys:  # the order of releases before: the buy, then the reshuffle its penalty cards called for
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    record = tmp_path / "earlier.jsonl"
    record.write_text("\n".join(lines) + "\n")
    assert replay(record).state.totals == game.totals
    again = replay(record, check_deals=False)
    assert again.complete and again.state.totals == game.totals


def down_and_two_discards(path):
    """ISRA's stacked round 1 under ``path``: seat 1 goes down (sets of 7s and queens) and
    discards KH; seat 2 draws and discards 5C; seat 3 declines it: the window opens."""
    state = stacked(path, ISRA_HANDS, "7H", stock=["KH"])
    draw(state)
    state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"))))
    state.apply(Discard(card("KH")))
    draw(state)
    state.apply(Discard(card("5C")))
    state.apply(DRAW)  # seat 3 declines 5C: seats 0 and 1 may buy it, in that order
    return state


def test_who_may_buy_is_a_rule_a_player_who_is_down_may_not(tmp_path):
    path = tmp_path / "down.yaml"
    path.write_text("extends: shanghai-isra\nname: down\nbuying:\n  may:\n"
                    "    rule: \"not is_down\"\n    message: \"you are down: you may not buy\"\n")
    state = down_and_two_discards(path)
    assert state.turn == 0 and BUY in state.legal_actions()
    state.apply(PASS)
    assert state.turn == CHANCE  # seat 1, down, is not asked: the stock card comes next
    plain = down_and_two_discards("shanghai-isra")
    plain.apply(PASS)
    assert plain.turn == 1 and BUY in plain.legal_actions()


def test_a_seat_the_buying_rule_refuses_is_not_asked(tmp_path):
    # "The next player may not buy: they may take it free in their turn" (a reading
    # some tables use): seat 0, next after seat 3, is passed over; seat 1 is asked.
    path = tmp_path / "next.yaml"
    path.write_text("extends: shanghai-isra\nname: next\nbuying:\n  may:\n"
                    "    rule: \"not is_next\"\n    message: \"seat {seat} plays next: take it in your turn\"\n")
    state = down_and_two_discards(path)
    assert state.turn == 1 and BUY in state.legal_actions()


def test_who_may_take_the_discard_in_turn_is_a_rule(tmp_path):
    # Liverpool (Weekend America): "once you've gone down, you can no longer pick or buy
    # cards off the discard pile"
    path = tmp_path / "liverpool.yaml"
    path.write_text("extends: shanghai-isra\nname: liverpool\n"
                    "take_discard:\n  may:\n    rule: \"not is_down\"\n"
                    "    message: \"you are down: draw from the stock\"\n"
                    "buying:\n  may:\n    rule: \"not is_down\"\n    message: \"you are down: you may not buy\"\n")
    state = down_and_two_discards(path)
    while state.turn != CHANCE:
        state.apply(PASS)
    state.apply(state.chance_action())  # seat 3 draws
    state.apply(Discard(state.hands[3][0]))
    assert state.turn == 0 and TAKE in state.legal_actions()  # seat 0 is not down
    draw(state)
    state.apply(Discard(state.hands[0][0]))
    assert state.turn == 1 and state.legal_actions() == [DRAW]  # seat 1 is down
    with pytest.raises(IllegalActionError, match="you are down: draw from the stock"):
        state.apply(TAKE)


def test_who_may_lay_off_is_a_rule_beyond_the_switches(tmp_path):
    # A table rule "no laying off in the turn you go down": written as a predicate here
    # (same_turn_as_going_down says the same); the lay-off comes in the next turn.
    path = tmp_path / "later.yaml"
    path.write_text("extends: shanghai-isra\nname: later\nlay_off:\n  may:\n"
                    "    rule: \"not went_down_this_turn\"\n    message: \"lay off from your next turn\"\n")
    state = stacked(path, ISRA_HANDS, "7H", stock=["KH", "4C", "8C"])
    draw(state)
    state.apply(GoDown((cards("7S 7S 7C"), cards("QD QS QC"))))
    assert not any(isinstance(a, LayOff) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="lay off from your next turn"):
        state.apply(LayOff(1, (card("7S"),)))


def test_who_may_swap_a_joker_is_a_rule(tmp_path):
    path = tmp_path / "noswap.yaml"
    path.write_text("extends: shanghai-isra\nname: noswap\njoker_swap:\n  may:\n"
                    "    rule: \"others_down == 0\"\n    message: \"no swaps once another player is down\"\n")
    rules = load_ruleset(path)
    swaps = 0
    for seed in range(16):  # (bot games: enough of them that some swap)
        game = play_bots(rules, ["bot"] * 4, seed)
        down: set[int] = set()
        for event in game.events:
            if event["event"] == "deal":
                down = set()
            elif event["event"] == "meld":
                down.add(event["seat"])
            elif event["event"] == "swap":
                swaps += 1
                assert not down - {event["seat"]}, "a joker was swapped while another player was down"
    assert swaps > 0  # the rule allows some: before anyone else is down


DISCARD_RULES = str(__import__("helpers").DATA / "good" / "discard-rules.yaml")


def discards(state):
    return sorted(a.card for a in state.legal_actions() if isinstance(a, Discard) and not a.call)


def test_a_discard_rule_refuses_wild_cards_and_cards_that_fit_the_table():
    # discard.may: "not card_is_wild and not card_fits_table" (deuces wild too)
    state = stacked(DISCARD_RULES, ["7S 7C 8C 9C TC", "QD 2H 5C JK 9S", "3H 3S 4H 5H 6H", "4S 5S 6S 8S TS"], "7H",
                    stock=["KD"])
    queens_on_the_table(state)
    draw(state)  # seat 1 holds QD 2H 5C JK 9S KD
    assert discards(state) == sorted(cards("5C 9S KD"))
    for refused in ("QD", "2H", "JK"):
        with pytest.raises(IllegalActionError, match="you may not discard a wild card or a card that fits a meld"):
            state.apply(Discard(card(refused)))
    state.apply(Discard(card("9S")))
    assert state.pile[-1] == card("9S")


def test_a_discard_rule_that_refuses_every_card_refuses_none():
    # every card seat 1 holds is wild or fits the queens: the turn still ends with a discard
    state = stacked(DISCARD_RULES, ["7S 7C 8C", "QD 2H JK", "3H 3S 4H", "4S 5S 6S"], "7H", stock=["QS"])
    queens_on_the_table(state)
    state.down[1] = False  # not down: no lay-off, no go-down, only a discard ends the turn
    draw(state)
    assert discards(state) == sorted(cards("QD 2H JK QS"))
    state.apply(Discard(card("JK")))
    assert state.pile[-1] == JOKER


def test_without_a_discard_rule_any_card_may_be_discarded():
    state = stacked("shanghai-isra", ["7S 7C 8C 9C TC", "QD 2H 5C JK 9S", "3H 3S 4H 5H 6H", "4S 5S 6S 8S TS"], "7H",
                    stock=["KD"])
    queens_on_the_table(state)
    draw(state)
    assert discards(state) == sorted(cards("QD 2H 5C JK 9S KD"))


def test_an_ace_at_both_ends_of_a_run_unless_runs_hold_at_most_13(tmp_path):
    """With aces high or low, a run may hold an ace at each end (two packs); "high or low
    but not both" is melds.run.max_size: 13."""
    both = checker("shanghai-isra")
    low_run = both.make(MeldKind.RUN, cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))
    assert both.lay_off(low_run, card("AH")) is not None and card("AH") in both.accepts(low_run)
    assert both.why_not_run(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")) is None
    path = tmp_path / "not-both.yaml"
    path.write_text("extends: shanghai-isra\nname: not-both\nmelds: {run: {max_size: 13}}\n")
    one = checker(str(path))
    low_run = one.make(MeldKind.RUN, cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))
    assert one.lay_off(low_run, card("AH")) is None and card("AH") not in one.accepts(low_run)
    assert one.why_not_run(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")) == "a run holds at most 13 cards"
    assert one.lay_off(low_run, JOKER) is None  # nor a joker in the fourteenth place


def test_a_run_longer_than_its_maximum_cannot_be_asked_for(tmp_path, run_cli):
    path = tmp_path / "short-runs.yaml"
    path.write_text("extends: shanghai-isra\nname: short-runs\nmelds: {run: {min_size: 4, max_size: 3}}\n")
    result = run_cli("validate", "--no-play", str(path))
    assert result.exit_code == 1 and "cannot hold at most 3" in result.output


def test_a_record_buy_by_a_seat_that_may_not_buy_names_the_reason(tmp_path):
    import json

    from cardrules.interpreter.errors import RecordError

    state = play_bots(load_ruleset("shanghai-isra"), ["bot"] * 4, 3)
    lines = [dict(e) for e in state.events]
    i = next(i for i, e in enumerate(lines) if e["event"] == "buy" and i > 0 and lines[i - 1]["event"] == "discard")
    lines[i]["seat"] = lines[i - 1]["seat"]  # the discarder buys its own discard
    path = tmp_path / "own.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    with pytest.raises(RecordError, match=rf"seat {lines[i]['seat']} may not buy this discard: it discarded that card"):
        replay(path)


def test_bots_do_not_pass_the_same_cards_round_until_the_turn_limit():
    # Two bots of carioca-two-player, seeds 3 and 7, round 6 (one trio, two escalas): each took
    # the other's discard as a partial meld and threw another card the other wanted, the same
    # three or four cards going round for 400 turns until the turn limit ended the round.  Late
    # in a round a bot no longer takes back a card it threw itself unless it then goes down.
    from cardrules.interpreter.driver import play_bots
    rules = load_ruleset("carioca-two-player")
    for seed in (3, 7):
        state = play_bots(rules, ["bot", "bot"], seed)
        assert state.is_over
        assert not [e for e in state.events if e["event"] == "exhausted" and e["reason"] == "turns"], seed


def test_a_run_turning_the_corner_replays_after_a_lay_off_below_it(tmp_path):
    # Liverpool with runs that turn the corner: a king laid off below A-JK-3-4 of clubs made a
    # run read from the king (13) on, whose joker's place (15) was looked up past the ace, and
    # the record failed to replay ("malformed layoff event"); a run's places now go round the
    # deck's ranks wherever a wild card's natural is looked up
    from cardrules.interpreter.driver import play_bots
    from cardrules.interpreter.record import dump_event, replay, save_record
    from cardrules.interpreter.ruleset import ruleset_from_text
    path = tmp_path / "lw.yaml"
    path.write_text("extends: liverpool-rummy-reference\nname: liverpool-corner\nmelds:\n  run: {wrap: true}\n")
    rules = load_ruleset(path)
    assert ruleset_from_text(path.read_text()).name == "liverpool-corner"
    for seed in (14, 17, 21):
        state = play_bots(rules, ["bot"] * 4, seed, ruleset_ref=str(path))
        record = tmp_path / f"game-{seed}.jsonl"
        save_record(state, record)
        assert replay(record).state.totals == state.totals, seed


def test_a_round_reshuffles_the_discards_as_often_as_stock_reshuffles_says_past_twenty(tmp_path):
    # stock.reshuffles had an undocumented ceiling of 20 that bounded nothing: a round
    # reshuffles no more often than it has turns, and stock.turn_limit ends it.
    path = tmp_path / "often.yaml"
    path.write_text("extends: shanghai-isra\nname: often\nstock: {reshuffles: 30}\n")
    state = stacked(str(path), ISRA_HANDS, "7H", stock=["AC"])
    state.reshuffles = 29  # this round has reshuffled 29 times; its stock is down to AC
    state.pile[:0], state.stock[:] = state.stock[:-1], state.stock[-1:]
    rummy_draw(state)  # seat 1 draws AC
    state.apply(Discard(card("AC")))
    rummy_draw(state)  # the stock is empty for seat 2: the 30th reshuffle
    assert [e["event"] for e in state.events[-2:]] == ["reshuffle", "draw"] and state.reshuffles == 30
    state.stock.clear()
    state.apply(Discard(state.hands[2][0]))
    assert {"event": "exhausted", "round": 1, "reason": "stock"} in state.events[-2:]  # no 31st
