"""The general mechanisms of the ruleset language, each on a position a player can work
out by hand: trump by expression, play restrictions as predicates (must overtake, no
trump lead until trumps are broken, waived when no card meets them), free cards, the
first leader by expression, and counters carried from round to round."""

from __future__ import annotations

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.cards import card
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.trick_taking.actions import Bid, Play
from cardrules.interpreter.game import new_game
from cardrules.interpreter.record import replay, save_record


def child(tmp_path, text, parent="oh-hell"):
    path = tmp_path / "child.yaml"
    path.write_text(f"extends: {parent}\nname: child\n{text}")
    return path


def stacked(path, hands, upcard, players=4, dealer=0):
    state = new_game(load_ruleset(path), players, 0)
    state.stack_deal([[card(c) for c in h.split()] for h in hands], card(upcard) if upcard else None, dealer=dealer)
    return state


def bids(state, values):
    for b in values:
        state.apply(Bid(b))


def names(state):
    return sorted(str(a).removeprefix("play ") for a in state.legal_actions())


# --- trump by expression -----------------------------------------------------------------------
TRUMP = 'trump:\n  suit: "if upcard_rank == ace then no_trump else if round == 2 then hearts else upcard_suit"\n'


def test_trump_by_expression_reads_the_turned_card_and_the_round(tmp_path):
    path = child(tmp_path, TRUMP)
    assert stacked(path, ["2C", "3C", "4C", "5C"], "9S").trump == 0  # spades: the turned card
    assert stacked(path, ["2C", "3C", "4C", "5C"], "AS").trump is None  # a turned ace: no trump
    game = play_bots(load_ruleset(path), ["bot"] * 4, 3)
    trumps = {e["round"]: e["suit"] for e in game.events if e["event"] == "trump"}
    assert trumps[2] == "H"


def test_trump_by_expression_must_give_a_suit(tmp_path):
    path = child(tmp_path, 'trump:\n  suit: "round + 3"\n')
    from cardrules.interpreter.errors import EvaluationError
    with pytest.raises(EvaluationError, match="gave 4 in round 1: a suit is spades, hearts, diamonds, clubs"):
        stacked(path, ["2C", "3C", "4C", "5C"], "9S")


# --- play restrictions ----------------------------------------------------------------------------
OVERTAKE = '''play:
  restrictions:
    - rule: "is_lead or not can_beat or beats"
      message: "you must beat {card_rank} when you can"
'''


def test_must_overtake_when_able(tmp_path):
    # Pocha: "must beat the highest card of the suit led when able".  Spades are trump;
    # seat 1 leads the 9 of hearts; seat 2 holds the 5 and the king of hearts.
    state = stacked(child(tmp_path, OVERTAKE), ["2C 3C", "9H 4D", "5H KH", "2D 3D"], "7S")
    bids(state, [0, 0, 0, 0])
    state.apply(Play(card("9H")))
    assert names(state) == ["KH"]
    with pytest.raises(IllegalActionError, match="you must beat 5 when you can"):
        state.apply(Play(card("5H")))
    state.apply(Play(card("KH")))


def test_a_restriction_no_card_meets_is_waived(tmp_path):
    # The seat following the king holds only lower hearts: it follows with either.
    state = stacked(child(tmp_path, OVERTAKE), ["2C 3C", "KH 4D", "5H 9H", "2D 3D"], "7S")
    bids(state, [0, 0, 0, 0])
    state.apply(Play(card("KH")))
    assert names(state) == ["5H", "9H"]


BROKEN = '''play:
  restrictions:
    - rule: "not (is_lead and card_is_trump and not trump_broken)"
      message: "trumps may not be led until a trump has been played"
'''


def test_trumps_may_not_be_led_until_broken_unless_nothing_else(tmp_path):
    path = child(tmp_path, BROKEN)
    state = stacked(path, ["2C 3C", "2S 4D", "5H 9H", "2D 3D"], "7S")  # spades trump; seat 1 leads
    bids(state, [0, 0, 0, 0])
    assert names(state) == ["4D"]
    with pytest.raises(IllegalActionError, match="trumps may not be led until a trump has been played"):
        state.apply(Play(card("2S")))
    only_trumps = stacked(path, ["2C 3C", "2S 4S", "5H 9H", "2D 3D"], "7S")
    bids(only_trumps, [0, 0, 0, 0])
    assert names(only_trumps) == ["2S", "4S"]  # nothing else to lead: the rule is waived


def test_a_trump_played_breaks_trumps_for_later_leads(tmp_path):
    state = stacked(child(tmp_path, BROKEN), ["2C 3C 4C", "4D 5S 6C", "2S 4S 9H", "2D 3D 5D"], "7S")
    bids(state, [0, 0, 0, 0])
    state.apply(Play(card("4D")))  # seat 1 leads diamonds; seat 2 has none and trumps
    state.apply(Play(card("2S")))
    state.apply(Play(card("2D")))
    state.apply(Play(card("2C")))
    assert state.turn == 2  # the trump won the trick: seat 2 leads, and may lead a trump now
    assert names(state) == ["4S", "9H"]


FREE = '''deck: {jokers: 1}
trump: {kind: upcard, jokers: top-trump}
play:
  free: "card_is_joker"
'''


def test_a_free_card_may_be_played_whatever_was_led(tmp_path):
    state = stacked(child(tmp_path, FREE), ["2C 3C", "9H 4D", "5H JK", "2D 3D"], "7S")
    bids(state, [0, 0, 0, 0])
    state.apply(Play(card("9H")))
    assert names(state) == ["5H", "JK"]  # the joker, though the seat can follow hearts


# --- the first leader ---------------------------------------------------------------------------
def test_the_highest_bidder_leads_the_first_trick(tmp_path):
    state = stacked(child(tmp_path, 'play:\n  leader: "highest_bidder"\n'),
                    ["2C 3C", "9H 4D", "5H KH", "2D 3D"], "7S")
    bids(state, [0, 2, 1, 0])  # seats 1, 2, 3, 0: seat 2 bids 2
    assert state.turn == 2


# --- counters -----------------------------------------------------------------------------------
ZEROS = '''counters:
  zeros:
    update: "if bid == 0 then zeros + 1 else 0"
bidding:
  restrictions:
    - rule: "not (bid == 0 and zeros >= 2)"
      message: "you have bid zero {zeros} times running"
deal:
  hand_size: "[3, 3, 3, 3]"
'''


def test_a_counter_carries_zero_bids_from_round_to_round(tmp_path):
    rules = load_ruleset(child(tmp_path, ZEROS))
    state = new_game(rules, 4, 0)
    for _ in range(2):  # two rounds in which every seat bids zero
        state.apply(state.chance_action())
        bids(state, [0, 0, 0, 0])
        while state.phase == "play":
            state.apply(state.legal_actions()[0])
    assert state.counters["zeros"] == [2, 2, 2, 2]
    state.apply(state.chance_action())
    assert 0 not in [a.bid for a in state.legal_actions()]
    with pytest.raises(IllegalActionError, match="you have bid zero 2 times running"):
        state.apply(Bid(0))
    state.apply(Bid(1))


SANDBAGS = '''counters:
  bags:
    update: "(bags + max(0, tricks - bid)) % 10"
scoring:
  points: "(if tricks >= bid then 10 * bid + tricks - bid else -10 * bid) - (if bags + max(0, tricks - bid) >= 10 then 100 else 0)"
'''


def test_sandbags_cost_100_at_ten_and_start_again(tmp_path):
    rules = load_ruleset(child(tmp_path, SANDBAGS))
    points = rules.section.scoring.points
    base = {**rules.setup(4).round_env(0), "seat": 0, "is_dealer": False, "bids": [], "taken": [],
            "team": 0, "team_bid": 0, "team_tricks": 0}
    assert points({**base, "bid": 3, "tricks": 5, "bags": 4}) == 32
    assert points({**base, "bid": 3, "tricks": 5, "bags": 8}) == 32 - 100
    counter = rules.section.counters[0]
    assert counter.update({**base, "bid": 3, "tricks": 5, "bags": 8, "points": -68}) == 0


@pytest.mark.parametrize("text", [TRUMP, OVERTAKE, BROKEN, FREE, 'play:\n  leader: "highest_bidder"\n', ZEROS,
                                  SANDBAGS])
def test_games_under_each_mechanism_finish_and_replay(tmp_path, text):
    path = child(tmp_path, text)
    rules = load_ruleset(path)
    for players in (3, 5):
        for seed in range(3):
            game = play_bots(rules, ["bot"] * players, seed, ruleset_ref=str(path))
            assert game.is_over
            record = tmp_path / f"{players}-{seed}.jsonl"
            save_record(game, record)
            assert replay(record).state.totals == game.totals


# --- the pack as an expression of the player count -------------------------------------------
def test_the_ranks_in_the_pack_can_depend_on_the_player_count(tmp_path):
    # Romanian Whist: "the pack has 8 cards for each player", the lowest removed
    path = child(tmp_path, 'players: {min: 3, max: 6}\ndeck:\n  ranks: "[15 - 2 * players..14]"\n'
                           'deal:\n  hand_size: "[1, 2, 8]"\ntrump: {kind: upcard, no_upcard: no-trump}\n')
    rules = load_ruleset(path)
    assert rules.setup(3).ranks == tuple("9TJQKA") and rules.setup(3).deck_size == 24
    assert rules.setup(4).ranks == tuple("789TJQKA") and rules.setup(4).deck_size == 32
    game = play_bots(rules, ["bot"] * 4, 1)
    dealt = {c for e in game.events if e["event"] == "deal" for hand in e["hands"] for c in hand}
    assert {c[0] for c in dealt} <= set("789TJQKA") and len(dealt) == 32  # the 8-card round deals all


@pytest.mark.parametrize("ranks, problem", [
    ("[2..15]", "deck.ranks gives 15: a rank is 2 to 14"),
    ("[10, 10, 11]", "gives a rank twice"),
    ("[]", "the deck has no ranks"),
])
def test_ranks_that_are_no_pack_are_reported_at_the_rule(run_cli, tmp_path, ranks, problem):
    path = child(tmp_path, f'deck:\n  ranks: "{ranks}"\n')
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and problem in result.output and "child.yaml:4:" in result.output


def test_explain_works_for_a_scoring_that_reads_another_seats_bid(run_cli, tmp_path):
    # the worked example once gave 'bids' one element, so indexing by seat failed
    path = child(tmp_path, 'scoring:\n  points: "tricks + (if bids[(seat + 1) % players] == 0 then 1 else 0)"\n')
    result = run_cli("explain", str(path))
    assert result.exit_code == 0, result.output
    assert "in a round of 10 cards; the other players bid and took nothing" in result.output
    assert "| bid 3, took 5 | 6 |" in result.output


# --- information: Indian rounds -----------------------------------------------------------------
INDIAN = 'information:\n  own_hand: "round != 1"\n  others_hands: "round == 1"\n'


def test_an_indian_round_shows_the_others_cards_and_hides_your_own_while_bidding(tmp_path):
    state = stacked(child(tmp_path, INDIAN), ["2C", "9H", "KH", "3D"], "7S")
    seat = state.turn  # seat 1 bids first
    seen = state.observation(seat)
    assert seen.hand == () and seen.hand_hidden
    assert [list(h) for h in seen.others] == [[card("2C")], [], [card("KH")], [card("3D")]]
    bids(state, [0, 1, 0, 1])
    seen = state.observation(seat)  # the bidding is over: the card is played, so it is seen
    assert seen.hand == (card("9H"),) and not seen.hand_hidden


def test_a_round_without_the_rule_shows_only_your_own_hand(tmp_path):
    rules = load_ruleset(child(tmp_path, INDIAN))
    state = new_game(rules, 4, 0)
    state.apply(state.chance_action())
    bids(state, [0, 0, 0, 0])  # round 1: bids the hook allows
    while state.round == 1:
        state.apply(state.legal_actions()[0])
    state.apply(state.chance_action())  # round 2: the usual view
    seen = state.observation(state.turn)
    assert len(seen.hand) == state.hand_size and seen.others == () and not seen.hand_hidden


def test_the_trump_can_be_revealed_only_after_the_bidding(tmp_path):
    state = stacked(child(tmp_path, 'information:\n  trump_while_bidding: "round > 1"\n'),
                    ["2C", "9H", "KH", "3D"], "7S")
    seen = state.observation(state.turn)
    assert seen.upcard is None and seen.trump is None
    bids(state, [0, 1, 0, 1])
    seen = state.observation(state.turn)
    assert seen.upcard == card("7S") and seen.trump == 0  # spades, shown once the bids are in


def test_explain_puts_every_new_rule_in_words(run_cli, tmp_path):
    from helpers import DATA
    text = run_cli("explain", str(DATA / "good" / "rules-as-predicates.yaml")).output
    assert "Each round's trump is `if not has_upcard" in text
    assert "may be played whatever was led" in text and "- You must beat the trick when you can." in text
    assert "`zeros` starts at `0` and becomes `if bid == 0 then zeros + 1 else 0`" in text
    assert "The highest bidder (the first in bidding order on a tie) leads the first trick" in text
    text = run_cli("explain", str(DATA / "good" / "indian-first-round.yaml")).output
    assert "see their own hand while bidding only when `round != 1`" in text
    assert "When `round == 1`, every player sees all the other players' hands." in text
    path = tmp_path / "seats.yaml"
    path.write_text("extends: shanghai-isra\nname: seats\n"
                    "take_discard:\n  may: {rule: \"not is_down\", message: \"you are down\"}\n"
                    "buying:\n  may: {rule: \"not is_down\", message: \"down: no buys\"}\n"
                    "lay_off:\n  may: {rule: \"not went_down_this_turn\", message: \"next turn\"}\n"
                    "joker_swap:\n  may: {rule: \"others_down == 0\", message: \"too late\"}\n")
    text = run_cli("explain", str(path)).output  # for players: the rules' own words
    for words in ("Buying: down: no buys.", "Taking the discard: you are down.", "Laying off: next turn.",
                  "Swapping a joker: too late."):
        assert words in text
    text = run_cli("explain", "--notes", str(path)).output  # for the author: the formulas too
    for words in ("Buying: down: no buys (allowed when `not is_down`).", "(allowed when `not went_down_this_turn`)",
                  "Swapping a joker: too late (allowed when `others_down == 0`)."):
        assert words in text


def test_a_card_is_turned_only_when_trump_suit_reads_the_turned_card(tmp_path):
    # the names an expression reads decide it, not its text: a let whose name contains
    # 'upcard' turns no card
    path = tmp_path / "up.yaml"
    path.write_text("extends: oh-hell\nname: up\nlet: {no_upcard_here: 1}\n"
                    "trump: {kind: null, suit: \"if no_upcard_here == 1 then spades else hearts\"}\n")
    assert load_ruleset(path).deal.upcard is False
    path.write_text("extends: oh-hell\nname: up\ntrump: {kind: null, suit: \"if has_upcard then upcard_suit else spades\"}\n")
    assert load_ruleset(path).deal.upcard is True
