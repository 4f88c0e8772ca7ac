"""Jokers above or below every card (`trump.jokers: highest | lowest`), cards promoted
above the ace of trump (`trump.high_cards`) and cards taken out of the pack
(`deck.remove`), on stacked deals a player can work out by hand."""

from __future__ import annotations

import pytest

from cardrules.interpreter import IllegalActionError, RulesetError, load_ruleset
from cardrules.interpreter.cards import JOKER, card
from cardrules.interpreter.families.trick_taking.actions import Bid, Play
from cardrules.interpreter.families.trick_taking.trickplay import trick_winner

from helpers import DATA
from test_trick_taking import bid_all, play_trick, stacked

HIGH = DATA / "good" / "jokers-highest.yaml"
LOW = DATA / "good" / "jokers-lowest.yaml"


def playable(state):
    return {str(a).removeprefix("play ") for a in state.legal_actions()}


def test_a_highest_joker_beats_the_ace_of_trump_and_the_first_of_two_wins():
    # spades are trump (the 9S turned); seat 1 leads the ace of trump
    state = stacked(HIGH, ["JK 4C", "AS 5D", "KS 6D", "JK 7D"], "9S", dealer=0)
    bid_all(state, [0, 0, 0, 1])
    assert play_trick(state, ["AS", "KS", "JK", "JK"])["winner"] == 3  # seat 3's joker came first


def test_a_highest_joker_led_leaves_the_others_free_and_may_be_played_at_any_time():
    state = stacked(HIGH, ["JK 4C", "AH 5D", "KS 6D", "QH 7D"], "9S", dealer=3)
    bid_all(state, [1, 0, 0, 0])
    assert playable(state) == {"JK", "4C"}
    state.apply(Play(JOKER))
    assert playable(state) == {"AH", "5D"}  # no suit to follow
    assert play_trick(state, ["AH", "KS", "QH"])["winner"] == 0  # not even a trump beats it
    # a joker may be played when its holder could follow suit (play.free)
    state = stacked(HIGH, ["4C 5C", "JK 6C", "KS 6D", "QH 7D"], "9S", dealer=3)
    bid_all(state, [0, 1, 0, 0])
    state.apply(Play(card("4C")))
    assert playable(state) == {"JK", "6C"}


def test_without_a_free_rule_a_suitless_joker_waits_for_a_void(tmp_path):
    path = tmp_path / "strict.yaml"
    path.write_text(f"extends: {HIGH}\nname: strict\nplay: {{free: null}}\n")
    state = stacked(path, ["4C 5C", "JK 6C", "KS 6D", "QH 7D"], "9S", dealer=3)
    bid_all(state, [0, 1, 0, 0])
    state.apply(Play(card("4C")))
    assert playable(state) == {"6C"}
    with pytest.raises(IllegalActionError, match="you must follow clubs$"):
        state.apply(Play(JOKER))


def test_a_lowest_joker_led_lets_the_next_card_set_the_suit():
    state = stacked(LOW, ["JK 4C", "AH 5D", "KH 6D", "QS 7D"], "9S", dealer=3)
    bid_all(state, [0, 1, 0, 0])
    state.apply(Play(JOKER))
    assert playable(state) == {"AH", "5D"}  # nothing to follow yet
    state.apply(Play(card("5D")))  # diamonds is now the suit led
    assert playable(state) == {"6D"}
    state.apply(Play(card("6D")))
    assert playable(state) == {"7D"}
    assert play_trick(state, ["7D"])["winner"] == 3  # the highest diamond; the joker never wins


def test_a_lowest_joker_loses_to_any_card_but_a_trick_of_jokers_goes_to_the_first():
    # seat 1 leads: the joker, then the other joker, then two clubs: the higher club wins
    state = stacked(LOW, ["2C 4C", "JK 5D", "3C 6D", "JK 7D"], "9S", dealer=0)
    bid_all(state, [0, 0, 0, 1])
    state.apply(Play(JOKER))
    state.apply(Play(card("3C")))
    state.apply(Play(JOKER))
    assert play_trick(state, ["2C"])["winner"] == 2
    # three players, every card a joker
    state = stacked(LOW, ["JK 4C", "JK 5D", "JK 6D"], "9S", players=3, dealer=0)
    bid_all(state, [0, 0, 1])
    assert play_trick(state, ["JK", "JK", "JK"])["winner"] == 1  # the leader, left of the dealer


def test_a_joker_in_a_play_rule_has_no_suit(tmp_path):
    path = tmp_path / "rule.yaml"
    path.write_text(f"extends: {LOW}\nname: rule\nplay:\n  restrictions:\n"
                    "    - {rule: \"card_suit != no_trump or not is_lead\", message: \"no joker leads\"}\n")
    state = stacked(path, ["JK 4C", "AH 5D", "KH 6D", "QS 7D"], "9S", dealer=3)
    bid_all(state, [0, 1, 0, 0])
    assert playable(state) == {"4C"}
    with pytest.raises(IllegalActionError, match="no joker leads"):
        state.apply(Play(JOKER))


JJDD = "spades-jjdd"


def full_hands(*firsts):
    """Four 13-card hands of the Joker-Joker-Deuce-Deuce pack: each seat's listed cards,
    then the rest of the pack dealt round in order."""
    pack = load_ruleset(JJDD)
    from cardrules.interpreter.cards import NAMES, make_deck
    setup = pack.setup(4)
    rest = make_deck(setup.decks, setup.jokers, setup.ranks, setup.removed)
    hands = [[card(c) for c in first.split()] for first in firsts]
    for cards in hands:
        for c in cards:
            rest.remove(c)
    for hand in hands:
        while len(hand) < 13:
            hand.append(rest.pop(0))
    return [" ".join(NAMES[c] for c in hand) for hand in hands]


def test_joker_joker_deuce_deuce_order():
    rules = load_ruleset(JJDD)
    setup = rules.setup(4)
    assert setup.deck_size == 52 and set(setup.removed) == {card("2H"), card("2C")}
    state = stacked(JJDD, full_hands("", "", "", ""), None, dealer=0)
    bid_all(state, [1, 1, 1, 1])
    top = ["JK", "2D", "2S", "AS", "KS"]  # highest first
    for higher, lower in zip(top, top[1:]):
        for plays in ([(0, higher), (1, lower)], [(0, lower), (1, higher)]):
            cards = [(seat, card(c)) for seat, c in plays]
            winner = trick_winner(cards, state.suits, state.power, state.trump)
            assert winner == next(seat for seat, c in plays if c == higher), (higher, lower)
    # a lone 2D beats the ace of hearts led: it is a trump
    assert trick_winner([(0, card("AH")), (1, card("2D"))], state.suits, state.power, state.trump) == 1


def test_the_deuce_of_diamonds_is_a_spade():
    # seat 1 leads diamonds; seat 2 holds the 2D and no other diamond, so it is void
    hands = full_hands("3D 5D 6D 7D 8D 9D TD JD QD KD AD", "4D", "2D", "")
    state = stacked(JJDD, hands, None, dealer=0)
    bid_all(state, [1, 1, 1, 1])
    state.apply(Play(card("4D")))
    assert playable(state) == set(hands[2].split())
    state.apply(Play(card("2D")))
    state.apply(state.legal_actions()[0])
    assert play_trick(state, ["AD"])["winner"] in (2, 3)  # a trump won it: the 2D or a higher spade


def test_high_cards_are_refused_when_they_cannot_be(tmp_path):
    for bad, message in [("[JK]", "trump.jokers"), ("[2D, 2D]", "listed twice"), ("[ZZ]", "not a card"),
                         ("[JH]", "bowers")]:
        path = tmp_path / "bad.yaml"
        path.write_text(f"extends: oh-hell\nname: bad\ntrump: {{kind: upcard, bowers: true, high_cards: {bad}}}\n")
        with pytest.raises(RulesetError, match=message):
            load_ruleset(path)


def test_cards_removed_for_some_player_counts(tmp_path):
    # three-handed Spades: "Remove the 2♣. Each player receives 17 cards."
    path = tmp_path / "cutthroat.yaml"
    path.write_text("extends: oh-hell\nname: cutthroat\nplayers: {min: 3, max: 4}\n"
                    "deck: {remove: [{cards: [2C], when: \"players == 3\"}]}\n"
                    "deal: {hand_size: \"[deck_size / players]\"}\ntrump: {suit: spades}\n")
    rules = load_ruleset(path)
    assert rules.setup(3).deck_size == 51 and rules.setup(3).hand_sizes == (17,)
    assert rules.setup(4).deck_size == 52 and rules.setup(4).removed == ()
    from cardrules.interpreter.game import new_game
    state = new_game(rules, 3, 5)
    state.apply(state.legal_actions()[0])  # the deal
    dealt = [c for hand in state.hands for c in hand]
    assert len(dealt) == 51 and card("2C") not in dealt


@pytest.mark.parametrize("entry, message", [
    ("[JK]", "deck.jokers"), ("[2C, 2C]", "listed twice"), ("[2Z]", "no suit"),
    ("[{cards: [2C], when: \"players\"}]", "bool"),
])
def test_deck_remove_mistakes(tmp_path, entry, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: oh-hell\nname: bad\ndeck: {{remove: {entry}}}\n")
    with pytest.raises(RulesetError, match=message):
        load_ruleset(path)


def test_removing_a_card_of_a_missing_rank_is_a_setup_problem(tmp_path, run_cli):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: oh-hell\nname: bad\ndeck: {ranks: [7, 8, 9, T, J, Q, K, A], remove: [2C]}\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and "no 2C to remove" in result.output and "Traceback" not in result.output


WIZARD = DATA / "good" / "wizard-jokers.yaml"


def test_a_turned_joker_lets_the_dealer_name_trump_before_the_bidding():
    from cardrules.interpreter.families.trick_taking.actions import ChooseTrump

    state = stacked(WIZARD, ["4C 5C", "AH 5D", "KS 6D", "QH 7D"], "JK", dealer=2)
    assert state.turn == 2 and {str(a) for a in state.legal_actions()} == \
        {"trump S", "trump H", "trump D", "trump C", "trump none"}
    with pytest.raises(IllegalActionError, match="seat 2 names the trump now"):
        state.apply(Bid(1))
    state.apply(ChooseTrump(1))
    assert state.events[-1] == {"event": "trump", "round": 1, "suit": "H", "seat": 2}
    assert state.turn == 3  # the bidding starts left of the dealer


def test_the_named_trump_ranks_the_cards():
    from cardrules.interpreter.families.trick_taking.actions import ChooseTrump

    state = stacked(WIZARD, ["4C 5C", "AH 5D", "KS 6D", "QH 7D"], "JK", dealer=3)
    state.apply(ChooseTrump(1))  # hearts
    bid_all(state, [0, 1, 0, 0])
    state.apply(Play(card("4C")))  # seat 0 leads clubs; seat 1 is void and trumps with the ace of hearts
    assert play_trick(state, ["AH", "KS", "QH"])["winner"] == 1
    # a card turned that is not a joker is trump as usual
    state = stacked(WIZARD, ["4C 5C", "AH 5D", "KS 6D", "QH 7D"], "9S", dealer=3)
    assert state.trump == 0 and state.turn == 0


def test_the_chooser_is_an_expression(tmp_path):
    path = tmp_path / "left.yaml"
    path.write_text(f"extends: {WIZARD}\nname: left\ntrump: {{chooser: \"dealer + 1\"}}\n")
    state = stacked(path, ["4C 5C", "AH 5D", "KS 6D", "QH 7D"], "JK", dealer=3)
    assert state.turn == 0  # left of the dealer, modulo the table


def test_a_chooser_that_never_chooses_is_a_warning(tmp_path, run_cli):
    path = tmp_path / "never.yaml"
    path.write_text("extends: oh-hell\nname: never\ntrump: {kind: upcard, chooser: dealer}\n")
    result = run_cli("validate", "--no-play", str(path))
    assert result.exit_code == 0 and "never gives `chosen`" in result.output


@pytest.mark.parametrize("seed", range(3))
def test_games_with_named_trumps_replay(tmp_path, seed):
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.driver import play_out
    from cardrules.interpreter.game import new_game
    from cardrules.interpreter.record import replay, save_record

    rules = load_ruleset(WIZARD)
    named = 0
    for game in range(40):
        state = new_game(rules, 6, seed * 100 + game, ruleset_ref=str(WIZARD))
        play_out(state, make_policies(rules, ["bot", "random"] * 3, game))
        chosen = [e for e in state.events if e["event"] == "trump" and "seat" in e]
        if not chosen:
            continue
        named += 1
        for e in chosen:  # the dealer named it, on a turned joker
            deal = next(x for x in state.events if x["event"] == "deal" and x["round"] == e["round"])
            assert deal["upcard"] == "JK" and e["seat"] == deal["dealer"]
        path = tmp_path / f"g{game}.jsonl"
        save_record(state, path)
        assert replay(path).state.totals == state.totals
        if named == 2:
            break
    assert named == 2


def test_trump_choices_limit_what_the_chooser_may_name(tmp_path, run_cli):
    """trump.choices: Judgement's dealer names one of the four suits, never no trump."""
    from cardrules.interpreter.families.trick_taking.actions import ChooseTrump
    from cardrules.interpreter.families.trick_taking.textio import parse_input
    from cardrules.interpreter.families.trick_taking.state import Phase

    path = tmp_path / "suits.yaml"
    path.write_text(f"extends: {WIZARD}\nname: suits\ntrump: {{choices: [S, H, D, C]}}\n")
    state = stacked(path, ["4C 5C", "AH 5D", "KS 6D", "QH 7D"], "JK", dealer=3)
    assert [a.suit for a in state.legal_actions()] == [0, 1, 2, 3]
    with pytest.raises(IllegalActionError, match=r"names the trump now \(spades, hearts, diamonds, clubs\)"):
        state.apply(ChooseTrump(None))
    state.apply(parse_input(Phase.CHOOSE_TRUMP, "hearts"))  # a suit alone at the trump prompt
    assert state.trump == 1
    assert "names the trump (one of the four suits; not no trump)" in run_cli("explain", str(path)).output


def test_a_bare_suit_or_no_trump_is_read_at_the_trump_prompt():
    from cardrules.interpreter.families.trick_taking.actions import ChooseTrump
    from cardrules.interpreter.families.trick_taking.state import Phase
    from cardrules.interpreter.families.trick_taking.textio import parse_input

    for text, suit in (("notrump", None), ("no trump", None), ("none", None), ("h", 1), ("Spades", 0),
                       ("trump clubs", 3)):
        assert parse_input(Phase.CHOOSE_TRUMP, text) == ChooseTrump(suit), text
    with pytest.raises(IllegalActionError, match="is not a suit"):
        parse_input(Phase.CHOOSE_TRUMP, "banana")


def test_trump_choices_without_anyone_naming_trump_is_a_warning(tmp_path, run_cli):
    path = tmp_path / "unused.yaml"
    path.write_text("extends: oh-hell\nname: unused\ntrump: {kind: upcard, choices: [S, H]}\n")
    result = run_cli("validate", "--no-play", str(path))
    assert result.exit_code == 0 and "these choices are never offered" in result.output
