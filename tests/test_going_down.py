"""How a contract is met when going down: parts of either kind (`meld of N`), at least
the contract (`going_down.extra_melds`), contract melds of exactly their size
(`going_down.exact_sizes`), a rule on the go-down (`going_down.may`), and sets of
distinct suits (`melds.set.distinct_suits`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import IllegalActionError, RulesetError, load_ruleset
from cardrules.interpreter.cards import card, name
from cardrules.interpreter.families.contract_rummy.actions import GoDown
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine
from cardrules.interpreter.families.contract_rummy.rules import EITHER, RUN, SET, MeldSpec, wild_cards
from cardrules.interpreter.game import new_game
from helpers import rummy_draw

DATA = Path(__file__).parent / "data"


def cards(text):
    return tuple(card(c) for c in text.split())


def ruleset(tmp_path, text, name="house"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\n" + text)
    return load_ruleset(path)


def engine(rules, players=4):
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, 0),
                      rules.section.going_down)


def melds(checker, *texts):
    return [checker.classify(cards(t)) for t in texts]


def test_a_part_of_either_kind_is_met_by_a_set_or_a_run(tmp_path):
    # Parlett's Progressive Rummy: "The contract requirements may be met with sets or
    # sequences or one of each. Meld ... (4) two threes"
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[meld of 3, meld of 3]]\nmelds: {run: {min_size: 3}}\n")
    assert rules.section.contracts[0].melds == (MeldSpec(EITHER, 3), MeldSpec(EITHER, 3))
    checker = engine(rules)
    contract = rules.section.contracts[0].melds
    assert checker.contract_problem(melds(checker, "7H 7S 7C", "4D 5D 6D"), contract) is None
    assert checker.contract_problem(melds(checker, "7H 7S 7C", "9D 9S 9C"), contract) is None
    assert checker.contract_problem(melds(checker, "4H 5H 6H", "9D TD JD"), contract) is None
    assert "exactly" in checker.contract_problem(melds(checker, "7H 7S 7C"), contract)
    options = checker.go_down_options(list(cards("7H 7S 7C 4D 5D 6D KS QH 2C 9S 8S")), contract)
    # the sevens and 4-5-6 of diamonds, or 7-8-9 of spades and 4-5-6 of diamonds
    assert {tuple(sorted(m.kind.value for m in o)) for o in options} == {("run", "set"), ("run", "run")}


def test_the_parts_of_one_kind_take_the_smallest_melds_that_meet_them(tmp_path):
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[set of 3, meld of 4]]\n")
    checker = engine(rules)
    contract = rules.section.contracts[0].melds
    # the set of 4 must go to 'meld of 4', the set of 3 to 'set of 3'
    assert checker.contract_problem(melds(checker, "8H 8S 8C 8D", "7H 7S 7C"), contract) is None
    assert "no set or run of 4" in checker.contract_problem(melds(checker, "8H 8S 8C", "7H 7S 7C"), contract)


def test_at_least_the_contract(tmp_path):
    # King Rummy: "You may make more than the minimum requirement when you first meld"
    exact = ruleset(tmp_path, "extends: shanghai-isra\n", "exact")
    more = load_ruleset(DATA / "good" / "at-least-contracts.yaml")
    hand = ("7H 7S 7C", "9D 9S 9C", "4D 5D 6D 7D")
    contract = more.section.contracts[0].melds  # ISRA round 1: two sets
    assert "exactly" in engine(exact).contract_problem(melds(engine(exact), *hand), contract)
    checker = engine(more)
    assert checker.contract_problem(melds(checker, *hand), contract) is None
    assert "at least" in checker.contract_problem(melds(checker, "7H 7S 7C"), contract)
    # the listing offers the contract alone and the fullest go-down a greedy pass finds
    held = list(cards("7H 7S 7C 9D 9S 9C 3D 4D 5D 6D KS"))
    options = checker.go_down_options(held, contract)
    fuller = checker.fuller_go_downs(held, options, contract)
    assert fuller and all(len(o) == 3 and sum(len(m.cards) for m in o) == 10 for o in fuller)
    # a pass that is greedy: the sevens took 7D, so 4-5-6 of diamonds make no run of 4,
    # and the last seven joins the set
    held = list(cards("7H 7S 7C 9D 9S 9C 4D 5D 6D 7D KS"))
    (option,) = checker.fuller_go_downs(held, checker.go_down_options(held, contract), contract)
    assert sorted(len(m.cards) for m in option) == [3, 4]


def test_contract_melds_of_exactly_their_size(tmp_path):
    # Progressive Rummy (reference.com): "three cards for a set and four cards for a
    # sequence. There are no extra cards."
    rules = ruleset(tmp_path, "extends: shanghai\ngoing_down: {exact_sizes: true}\n")
    checker = engine(rules)
    contract = (MeldSpec(SET, 3), MeldSpec(RUN, 4))
    assert checker.contract_problem(melds(checker, "7H 7S 7C", "4D 5D 6D 7D"), contract) is None
    problem = checker.contract_problem(melds(checker, "7H 7S 7C 7D", "4D 5D 6D 7D"), contract)
    assert "no set of 3" in problem and "exactly their size" in problem


def test_sets_of_distinct_suits(tmp_path):
    # Parlett's Progressive Rummy: "Sets of three must be of three different suits"
    rules = ruleset(tmp_path, "extends: shanghai\nmelds: {set: {distinct_suits: true}}\n")
    checker = engine(rules)
    assert checker.why_not_set(cards("7H 7S 7C")) is None
    assert "different suits" in checker.why_not_set(cards("7H 7H 7C"))
    assert checker.why_not_set(cards("7H JK 7C")) is None
    group = checker.make(SET, cards("7H 7S 7C"))
    assert checker.lay_off(group, card("7H")) is None and checker.lay_off(group, card("7D")) is not None
    assert checker.accepts(group) == {card("7D")}
    # the search makes a set of one card of each suit only
    options = checker.go_down_options(list(cards("7H 7H 7C 9S 9D 9C KS")), (MeldSpec(SET, 3), MeldSpec(SET, 3)))
    assert options == []
    assert checker.go_down_options(list(cards("7H 7H 7C 7S 9S 9D 9C")), (MeldSpec(SET, 3), MeldSpec(SET, 3)))


def _whole_hand_round(seat_1, stock):
    rules = load_ruleset(DATA / "good" / "whole-hand.yaml")  # going down is going out
    state = new_game(rules, 4, seed=0)
    state.stack_deal((cards("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H"), cards(seat_1),
                      cards("8S 8H 8D 9S 9D TS TH TD JS JH JD"), cards("QS QH QD AS AH AD 3C 4C 5C 6C 7C")),
                     card("8C"), cards(stock))
    assert state.turn == 1
    rummy_draw(state)
    return state


def test_a_rule_on_the_go_down_is_listed_and_checked():
    # 12 cards: sevens (with the deuce), 4-5-6 of diamonds, kings, and 9C 9H QS that make
    # nothing: no go-down leaves at most one card
    state = _whole_hand_round("7H 7S 2C 4D 5D 6D KS KH KD 9C 9H", "QS")
    assert [a for a in state.legal_actions() if isinstance(a, GoDown)] == []
    with pytest.raises(IllegalActionError, match=r"you must go down with your whole hand \(9 cards would be left"):
        state.verify(GoDown((cards("7H 7S 2C"),)))
    # with 3D drawn instead: sevens, kings, 3-4-5 of diamonds, the 6D and the deuce laid
    # to them, and the 9C to discard
    state = _whole_hand_round("7H 7S 7C 4D 5D 6D KS KH KD 9C 2H", "3D")
    listed = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert listed and all(sum(map(len, a.melds)) == 11 for a in listed)
    state.verify(GoDown((cards("7H 7S 7C 2H"), cards("KS KH KD"), cards("3D 4D 5D 6D"))))


def test_meld_parts_are_checked_for_every_kind_they_may_be(tmp_path):
    # two packs and one joker a meld: no set of 10 (8 naturals and a joker), but a run of 10
    text = "extends: shanghai\nmelds: {jokers: {per_meld: 1}}\ncontracts: [[%s]]\n"
    with pytest.raises(RulesetError, match="asks for a set of 10, but with 2 deck"):
        ruleset(tmp_path, text % "set of 10", "sets")
    assert ruleset(tmp_path, text % "meld of 10", "melds").section.contracts[0].melds == (MeldSpec(EITHER, 10),)
    with pytest.raises(RulesetError, match="asks for a meld of 15, but with 2 deck"):
        ruleset(tmp_path, text % "meld of 15", "long")


def test_a_go_down_that_reads_both_ways_keeps_its_kinds(tmp_path):
    # deuces wild, runs of three: 7S 2H 2C is a set of sevens and the run 7-8-9 of spades;
    # a listed or recorded go-down says which, so a replay puts down the same meld
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[meld of 3]]\n"
                    "melds: {wild: \"card_rank == 2\", run: {min_size: 3}, jokers: {per_meld: size, min_natural: 1}}\n")
    checker = engine(rules)
    contract = rules.section.contracts[0].melds
    written = (cards("7S 2H 2C"),)
    assert [m.kind for m in checker.make_contract(written, ("run",), contract)] == [RUN]
    assert [m.kind for m in checker.make_contract(written, ("set",), contract)] == [SET]
    with pytest.raises(ValueError, match="is not a run"):
        checker.make_contract((cards("7S 7H 2C"),), ("run",), contract)
    with pytest.raises(ValueError, match="a meld is a set or a run"):
        checker.make_contract(written, ("meld",), contract)


def test_a_rule_over_the_melds_of_a_go_down_runs_of_different_suits(tmp_path):
    # "the two runs must be of different suits": a rule over the go-down's runs
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[run, run]]\n"
                    "going_down: {may: {rule: \"distinct(run_suits) == len(run_suits)\", "
                    "message: \"the runs must be of different suits (suits {run_suits})\"}}\n")
    state = new_game(rules, 4, seed=0)
    state.stack_deal((cards("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H"), cards("4H 5H 6H 7H 9H TH JH QH 4S 5S 6S"),
                      cards("8S 8H 8D 9S 9D TS TD JS JD 2D 2H"), cards("QS QD AS AH AD 3D 4D 5D 6D 7C 8C")),
                     card("KC"), cards("7S"))
    assert state.turn == 1
    rummy_draw(state)
    listed = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert listed
    for action in listed:  # a hearts run with the spades run, never the two hearts runs
        assert sorted(name(meld[0])[-1] for meld in action.melds) == ["H", "S"], action
    with pytest.raises(IllegalActionError, match=r"the runs must be of different suits \(suits \[1, 1\]\)"):
        state.verify(GoDown((cards("4H 5H 6H 7H"), cards("9H TH JH QH"))))
    state.verify(GoDown((cards("4H 5H 6H 7H"), cards("4S 5S 6S 7S"))))


def test_a_rule_over_where_the_runs_stand_two_runs_of_one_suit_ranks_apart(tmp_path):
    # "two runs of the same suit must have at least two ranks between them": where each
    # run starts and ends (run_lows, run_highs) is a name of the go-down rule
    rule = ("len(run_suits) < 2 or run_suits[0] != run_suits[1] or run_lows[1] - run_highs[0] > 2 "
            "or run_lows[0] - run_highs[1] > 2")
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[run, run]]\n"
                    f"going_down: {{may: {{rule: \"{rule}\", message: \"two runs of one suit need two ranks "
                    "between them (runs {run_lows} to {run_highs})\"}}\n")
    state = new_game(rules, 4, seed=0)
    state.stack_deal((cards("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H"), cards("4H 5H 6H 7H 9H TH JH QH 4S 5S 6S"),
                      cards("8S 8H 8D 9S 9D TS TD JS JD 2D 2H"), cards("QS QD AS AH AD 3D 4D 5D 6D 7C 8C")),
                     card("KC"), cards("7S"))
    rummy_draw(state)
    listed = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert listed
    for action in listed:  # 4-7 and 9-Q of hearts have one rank between them (the eight): never both
        assert sorted(name(meld[0])[-1] for meld in action.melds) == ["H", "S"], action
    with pytest.raises(IllegalActionError, match=r"need two ranks between them \(runs \[4, 9\] to \[7, 12\]\)"):
        state.verify(GoDown((cards("4H 5H 6H 7H"), cards("9H TH JH QH"))))
    state.verify(GoDown((cards("4H 5H 6H 7H"), cards("4S 5S 6S 7S"))))
    # an ace played low stands at 1, and a joker at the place it fills
    env = state._go_down_env(1, [state.meld_engine.make(RUN, cards("AS 2S 3S 4S")),
                                 state.meld_engine.make(RUN, cards("JK QH KH AH"))])
    assert (env["run_lows"], env["run_highs"]) == ([1, 11], [4, 14])


def test_distinct_counts_the_different_values_of_a_list():
    from cardrules.interpreter.expressions import Type, compile_checked
    assert compile_checked("distinct([1, 1, 2, 3, 3])", {})({}) == 3
    assert compile_checked("distinct(xs)", {"xs": Type.LIST})({"xs": []}) == 0


def _later_round(tmp_path, later=True):
    rules = ruleset(tmp_path, "extends: shanghai\n" + ("going_down: {later_melds: true}\n" if later else ""),
                    "later" if later else "plain")
    state = new_game(rules, 4, seed=0)
    state.dealer = 0
    state.stack_deal((cards("3S 3H 3C 4S 4H 4C 5S 5H 5D 6S 6H"), cards("7H 7S 7C 8H 8S 8D 9S 9D 9C KC 4D"),
                      cards("TS TH TD JS JH JD QC KS KH AS AH"), cards("2S 2H 2D 2C 6D 6C AC AD 3D JC TC")),
                     card("KD"), cards("5C QS QH QD 8C"))
    return state


def _discard_first(state, text=None):
    from cardrules.interpreter.families.contract_rummy.actions import Discard
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)
                     and (text is None or a.card == card(text))))


def test_new_melds_once_down_wait_for_a_later_turn(tmp_path):
    # "once you have gone down you may put down further sets and runs on later turns"
    state = _later_round(tmp_path)
    assert state.turn == 1
    rummy_draw(state)  # 5C
    state.apply(GoDown((cards("7H 7S 7C"), cards("8H 8S 8D"))))  # the contract: exactly two sets
    assert not [a for a in state.legal_actions() if isinstance(a, GoDown)]  # the nines wait
    with pytest.raises(IllegalActionError, match="you went down this turn: new melds wait for a later turn"):
        state.verify(GoDown((cards("9S 9D 9C"),)))
    _discard_first(state, "4D")
    for _ in range(3):  # the others draw and discard
        rummy_draw(state)
        _discard_first(state)
    assert state.turn == 1
    rummy_draw(state)  # 8C
    listed = [a for a in state.legal_actions() if isinstance(a, GoDown)]
    assert [sorted(name(c) for c in a.melds[0]) for a in listed] == [["9C", "9D", "9S"]]
    state.apply(listed[0])
    meld = state.events[-1]
    assert meld["event"] == "meld" and meld["seat"] == 1 and [m["cards"] for m in meld["melds"]] == [["9S", "9D", "9C"]]
    assert sorted(name(c) for c in state.hands[1]) == ["5C", "8C", "KC"]
    assert state.down_turn[1] < state.turn_number  # still the turn it went down
    # the table says it as a player would
    from cardrules.narration.render import Renderer
    said = []
    renderer = Renderer(["Ann", "Bob", "Cy", "Dee"], state.rules, narrate=True, ascii_only=True)
    renderer.say = said.append
    for event in state.events:
        renderer.event(event)
    assert "Bob goes down: [1] 7H 7S 7C; [2] 8H 8S 8D" in said and "Bob puts down a new meld: [3] 9S 9D 9C" in said


def _to_the_next_turn_down(state):
    """Seat 1 draws, goes down with its sevens and eights and discards 4D; the others
    draw and discard; seat 1 draws again: its first turn down after the go-down."""
    rummy_draw(state)
    state.apply(GoDown((cards("7H 7S 7C"), cards("8H 8S 8D"))))
    _discard_first(state, "4D")
    for _ in range(3):
        rummy_draw(state)
        _discard_first(state)
    rummy_draw(state)


def test_without_later_melds_a_player_down_only_lays_off(tmp_path):
    state = _later_round(tmp_path, later=False)
    _to_the_next_turn_down(state)
    assert not [a for a in state.legal_actions() if isinstance(a, GoDown)]
    with pytest.raises(IllegalActionError, match="already down this round: lay off instead"):
        state.verify(GoDown((cards("9S 9D 9C"),)))


@pytest.mark.parametrize("parent", ["shanghai-isra", "shanghai"])
def test_games_with_later_melds_list_only_legal_moves_and_replay(tmp_path, parent):
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.game import CHANCE
    from cardrules.interpreter.record import replay, save_record
    path = tmp_path / "later.yaml"
    path.write_text(f"extends: {parent}\nname: later\ngoing_down: {{later_melds: true}}\n")
    rules = load_ruleset(path)
    later = 0
    games = [(seed, ["bot"] * 4) for seed in range(4)]
    if parent == "shanghai-isra":
        games.append((9, ["bot", "random", "search:4", "bot"]))
    for seed, seats in games:
        state = new_game(rules, 4, seed)
        policies = make_policies(rules, seats, seed)
        while not state.is_over:
            if state.turn == CHANCE:
                state.apply(state.chance_action())
                continue
            legal = state.legal_actions()
            for action in legal:
                assert state.can_apply(action), action
            down = list(state.down)
            action = policies[state.turn].act(state.observation(state.turn), legal)
            if isinstance(action, GoDown) and down[state.turn]:
                later += 1
            state.apply(action)
        record = tmp_path / f"g{seed}.jsonl"
        save_record(state, record)
        assert replay(record, str(path)).state.totals == state.totals
    assert later > 0, "the bots put down new melds once down"


def test_a_new_meld_once_down_must_hold_cards_of_a_set_or_a_run(tmp_path):
    # a record line can say anything: an empty meld, or a kind a new meld cannot be
    state = _later_round(tmp_path)
    _to_the_next_turn_down(state)
    with pytest.raises(IllegalActionError, match="at least one meld"):
        state.verify(GoDown(()))
    with pytest.raises(IllegalActionError, match="a set or a run, one kind for each meld"):
        state.verify(GoDown((cards("9S 9D 9C"),), ("colour",)))
    with pytest.raises(IllegalActionError, match="a set or a run, one kind for each meld"):
        state.verify(GoDown((cards("9S 9D 9C"),), ("set", "run")))
    state.verify(GoDown((cards("9S 9D 9C"),), ("set",)))


def test_set_ranks_are_rank_values_as_card_rank_is(tmp_path):
    # kings are 13 and aces 14, as card_rank and run_lows count them (not places from 0)
    rules = ruleset(tmp_path, "extends: shanghai\ncontracts: [[set, set]]\n", "values")
    state = new_game(rules, 4, seed=0)
    engine = state.meld_engine
    env = state._go_down_env(1, [engine.make(SET, cards("KS KH KD")), engine.make(SET, cards("AS AH AD")),
                                 engine.make(SET, cards("2S 2H 2D"))])
    assert env["set_ranks"] == [13, 14, 2]


def test_a_run_turning_the_corner_is_placed_alike_however_it_was_made(tmp_path):
    # K-A-2-3-4 of clubs stands from 13 to 17 whether a player typed it or a lay-off of the king
    # below A-2-3-4 made it (that one keeps its start in another form: 0)
    rules = ruleset(tmp_path, "extends: liverpool-rummy-reference\nmelds:\n  run: {wrap: true}\n", "corner")
    state = new_game(rules, 4, seed=0)
    while state.turn < 0:
        state.apply(state.chance_action())
    engine = state.meld_engine
    typed = engine.make(RUN, cards("KC AC 2C 3C 4C"))
    laid = engine.lay_off(engine.make(RUN, cards("AC 2C 3C 4C")), card("KC"))
    assert laid is not None and laid.cards == typed.cards
    for meld in (typed, laid):
        env = state._go_down_env(state.turn, [meld])
        assert (env["run_lows"], env["run_highs"]) == ([13], [17]), meld


def test_going_down_may_holds_in_a_round_with_no_contract_typed_or_listed(tmp_path):
    # Five Crowns with a house rule "no runs": a typed go-out with a run is refused as the
    # listing leaves it out (a replay used to accept it)
    rules = ruleset(tmp_path, "extends: five-crowns\ngoing_down:\n  may: {rule: \"len(run_sizes) == 0\", "
                    "message: \"sets only here\"}\n", "sets-only")
    state = new_game(rules, 2, seed=0)
    state.stack_deal((cards("3S 4S 5S"), cards("6H 7H 8H")), card("9C"), cards("3H 3D"))
    assert state.turn >= 0
    rummy_draw(state)
    hand = state.hands[state.turn]
    assert not [a for a in state.legal_actions() if isinstance(a, GoDown)]
    run = tuple(sorted(c for c in hand if c != card("3H") and c != card("3D")))[:3]
    with pytest.raises(IllegalActionError):
        state.verify(GoDown((run,)))
