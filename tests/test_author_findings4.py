"""What an outside author met writing house rules from docs/ruleset-language.md alone
(the trick-taking family, and validate): the places where the engine, validate and the
reference said different things."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.interpreter import ruleset_from_text

from test_cards_as_data import BASE, bid_all, play_trick, stacked


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- 1. a tier's suited cards off the suit led: off_suit ----------------------------------

KINGS = BASE + """
trump: {kind: none}
trick:
  order:
    - led
    - {rule: "card_rank == king and card_suit != spades", name: kings%s}
    - trump
"""


def _kings_trick(rules):
    # hearts led: 7H, QH, 4H, then the king of clubs off suit
    state = stacked(None, ["KC 3C", "7H 4C", "QH 5D", "4H 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    return play_trick(state, ["7H", "QH", "4H", "KC"])["winner"]


def test_a_tier_that_says_off_suit_loses_cannot_win_with_a_card_off_the_suit_led():
    rules = ruleset_from_text(KINGS % ", off_suit: loses")
    assert rules.warnings == ()
    assert _kings_trick(rules) == 2  # the queen of hearts, not the king of clubs
    state = stacked(None, ["KC 3C", "7H 4C", "KH 5D", "4H 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["7H", "KH", "4H", "KC"])["winner"] == 2  # a king of the suit led still wins


def test_a_tier_below_trump_that_leaves_off_suit_unsaid_wins_off_suit_as_before_and_is_warned():
    rules = ruleset_from_text(KINGS % "")
    assert _kings_trick(rules) == 0  # files that validated play as they did
    assert "tier 'kings': its cards keep their suit" in rules.warnings[0].message
    assert _kings_trick(ruleset_from_text(KINGS % ", off_suit: wins")) == 0
    assert ruleset_from_text(KINGS % ", off_suit: wins").warnings == ()


def test_explain_says_a_card_of_an_off_suit_losing_tier_cannot_win_off_suit(tmp_path, run_cli):
    text = run_cli("explain", str(_write(tmp_path, "k.yaml", KINGS % ", off_suit: loses"))).output
    assert "of a suit neither led nor trump, it cannot win" in text


# --- 2. deck.ranks of standard codes in an order of the author's own --------------------------

def _ten_trick(ranks):
    rules = ruleset_from_text(BASE + "trump: {kind: none}\ndeck: {ranks: %s}\n" % ranks)
    state = stacked(None, ["9D 9C", "JD 9H", "TD 9S", "AS JC"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    return play_trick(state, ["JD", "TD", "AS", "9D"])["winner"]


def test_standard_rank_codes_listed_out_of_their_order_rank_as_listed():
    assert _ten_trick("[9, J, Q, K, T, A]") == 2  # the ten above the jack, as written
    assert _ten_trick("[9, T, J, Q, K, A]") == 1  # the standard order, as before
    assert _ten_trick("[A, 9, 10, J, Q, K]") == 1  # the ace alone goes where deck.ace says


# --- 3. auction.tricks past the hand's tricks ---------------------------------------------

def _auction_state(rules):
    from cardrules.interpreter import new_game
    from cardrules.interpreter.game import CHANCE

    state = new_game(rules, 4, 0)
    while state.turn == CHANCE:
        state.apply(state.chance_action())
    return state


def test_a_call_of_more_tricks_than_the_hand_has_is_not_offered_nor_accepted_and_is_warned():
    from cardrules.interpreter import IllegalActionError
    from cardrules.interpreter.families.trick_taking.actions import Call

    rules = ruleset_from_text("extends: five-hundred\nname: wide-calls\nauction: {tricks: \"6..25\"}\n")
    assert any("round 1 has 10 tricks, so the calls of 11 to 25 cannot be made" in w.message
               for w in rules.warnings)
    state = _auction_state(rules)
    assert max(a.tricks for a in state.legal_actions() if isinstance(a, Call)) == 10
    with pytest.raises(IllegalActionError, match="not a call here: calls run from 6S to 10NT"):
        state.apply(Call(25, 0, "S"))


def test_a_call_of_the_kitty_book_too_is_still_offered_where_the_discards_count_as_a_trick():
    from cardrules.interpreter import load_ruleset
    from cardrules.interpreter.families.trick_taking.actions import Call

    rules = load_ruleset("bid-whist")  # twelve cards each, the kitty the first book: calls up to 13
    assert rules.warnings == ()
    assert max(a.tricks for a in _auction_state(rules).legal_actions() if isinstance(a, Call)) == 13


# --- 4. all_card_points counts the cards the kitty's taker laid aside ----------------------------

def test_all_card_points_counts_every_card_dealt_the_kitty_taker_s_discards_too():
    from cardrules.interpreter import new_game
    from cardrules.interpreter.bots import make_policies

    from helpers import play_until

    # every card worth a point: ten cards to each of four hands and three in the kitty
    rules = ruleset_from_text("extends: five-hundred\nname: counted\n"
                              "scoring: {let: null, card_points: \"1\", points: all_card_points}\n")
    state = new_game(rules, 4, 3)
    def kinds(s):
        return [e["event"] for e in s.events]

    play_until(state, make_policies(rules, ["random"] * 4, 3),
               lambda s: "discard" in kinds(s) and "score" in kinds(s)[kinds(s).index("discard"):])
    after = kinds(state).index("discard")
    score = next(e for e in state.events[after:] if e["event"] == "score")
    assert score["points"] == [43] * 4  # not 40, the cards played alone


# --- 5. a special card called Joker in a pack without jokers ------------------------------------

JOKER_SPECIAL = BASE + """
trump: {kind: none}
deck:
  specials: [{code: JO, name: Joker}]%s
trick: {order: [led, trump, {cards: [JO]}]}
"""


def test_one_special_card_called_joker_is_the_packs_joker_when_deck_jokers_adds_none():
    rules = ruleset_from_text(JOKER_SPECIAL % "")
    pack = rules.deck.pack
    assert pack.codes[pack.card("joker")] == "JO"  # as a player types it, too


def test_a_special_card_called_joker_beside_deck_jokers_is_refused_for_what_it_is():
    from cardrules.interpreter import RulesetError

    with pytest.raises(RulesetError, match="'Joker' is the name of the jokers of deck.jokers, which this pack has"):
        ruleset_from_text(JOKER_SPECIAL % "\n  jokers: 2")
    with pytest.raises(RulesetError, match="two special cards are called 'joker'"):
        ruleset_from_text(JOKER_SPECIAL.replace("[{code: JO, name: Joker}]", "[{code: JO, name: Joker}, "
                                                "{code: JP, name: joker}]").replace("[JO]", "[JO, JP]") % "")


# --- 7. a named call's refusal, and a tier only roles reach ---------------------------------------

def test_a_call_whose_suit_its_winner_names_is_refused_in_words_not_a_placeholder():
    from cardrules.interpreter import IllegalActionError, load_ruleset

    rules = load_ruleset("bid-whist")  # calls of books in a suit named on winning, or no trump
    state = _auction_state(rules)
    say = rules.family.parse_input
    state.apply(say(rules, state.observation(state.turn), "bid 9 suit"))
    with pytest.raises(IllegalActionError) as refused:
        state.apply(say(rules, state.observation(state.turn), "bid 9 suit"))
    assert str(refused.value) == ("'bid 9 in a suit named on winning' is not higher than bid 9 in a suit named on "
                                  "winning (seat 1): call higher, or pass")
    with pytest.raises(IllegalActionError, match="calls run from 9 in a suit named on winning to 13NT"):
        state.apply(say(rules, state.observation(state.turn), "bid 9 hearts"))


ROLES_ONLY = BASE + """
trump: {kind: none}
deck:
  specials: [{code: T, name: Trickster, count: 4}]
trick:
  order:
    - {cards: [], name: low, lead: next}
    - led
    - trump
    - {cards: [], name: high}
  roles:
    T: [low, high]
"""


def test_a_tier_only_a_role_reaches_is_written_with_no_cards(tmp_path, run_cli):
    rules = ruleset_from_text(ROLES_ONLY)
    state = stacked(None, ["T 3C", "9H 4C", "AH 5D", "KH 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["9H", "AH", "KH", "T as high"])["winner"] == 0
    state = stacked(None, ["T 3C", "9H 4C", "AH 5D", "KH 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["9H", "AH", "KH", "T as low"])["winner"] == 2
    text = run_cli("explain", str(_write(tmp_path, "r.yaml", ROLES_ONLY))).output
    assert "**Trickster played as `high`**" in text and "Trickster (T) is played as `low` or as `high`" in text


def test_a_tier_of_no_cards_that_no_role_reaches_is_refused():
    from cardrules.interpreter import RulesetError

    with pytest.raises(RulesetError, match="tier 'high' has no cards, and no card of trick.roles is played as it"):
        ruleset_from_text(ROLES_ONLY.replace("T: [low, high]", "T: [low, low2]").replace(
            "{cards: [], name: low, lead: next}", "{cards: [], name: low, lead: next}\n    - {cards: [], name: low2}"))
