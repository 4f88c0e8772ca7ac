"""Cards as data in trick play: the bundled Wizard and Skull King on stacked deals a
player can work out from the published rules (each test names the rule it checks), a
Skull King referee of this file's own that re-decides every trick and re-scores every
round of random games from the record alone, and the trick order's general pieces
(a tier a rule picks from the turned card, identical cards cancelling) on small
rulesets of the tests' own."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter import IllegalActionError, RulesetError, load_ruleset, new_game, ruleset_from_text
from cardrules.interpreter.families.trick_taking.actions import Bid, Play
from cardrules.interpreter.families.trick_taking.state import Phase

from test_properties import playout


def stacked(name, hands, upcard=None, dealer=0, rules=None):
    """A game whose first round deals ``hands`` (seat 0 first, codes of the ruleset's pack)."""
    rules = rules or load_ruleset(name)
    state = new_game(rules, len(hands), 0)
    pack = state.setup.pack
    state.stack_deal([[pack.card(c) for c in hand.split()] for hand in hands],
                     pack.card(upcard) if upcard else None, dealer=dealer)
    return state


def bid_all(state, bids):
    for b in bids:
        state.apply(Bid(b))


def play(state, text):
    """A card as a player types it at the prompt ("TIG as pirate")."""
    rules = state.rules
    action = rules.family.parse_input(rules, state.observation(state.turn), text)
    state.apply(action)
    return action


def play_trick(state, texts):
    for text in texts:
        play(state, text)
    return next(e for e in reversed(state.events) if e["event"] == "trick")


def playable(state):
    pack = state.setup.pack
    return {pack.codes[a.card] + (f" as {a.role}" if a.role else "") for a in state.legal_actions()}


# --- Wizard (the Amigo rules: wizards win, jesters lose, either may be played at any time) ---

def test_a_wizard_led_wins_and_leaves_the_others_free():
    state = stacked("wizard", ["2C 3C", "Z 4H", "AH 5D", "KH 6D"], "9S")
    bid_all(state, [1, 0, 0, 0])  # seat 1 (left of the dealer) bids first
    play(state, "Z")
    assert playable(state) == {"AH", "5D"}  # nothing to follow after a wizard
    assert play_trick(state, ["AH", "KH", "2C"])["winner"] == 1


def test_of_two_wizards_the_first_played_wins_even_over_trumps():
    state = stacked("wizard", ["AS 3C", "4H 5C", "Z 5D", "Z 6D"], "9S")
    bid_all(state, [0, 1, 0, 0])
    assert play_trick(state, ["4H", "Z", "Z", "AS"])["winner"] == 2


def test_a_jester_led_lets_the_next_suited_card_set_the_suit():
    state = stacked("wizard", ["2C 3C", "N 4H", "5D 8C", "KH 6D"], "9S")
    bid_all(state, [0, 0, 1, 0])
    play(state, "N")
    assert playable(state) == {"5D", "8C"}  # a jester led sets no suit
    play(state, "5D")
    assert playable(state) == {"6D"}  # diamonds now: seat 3 must follow
    assert play_trick(state, ["6D", "2C"])["winner"] == 3


def test_a_trick_of_jesters_alone_goes_to_the_first():
    state = stacked("wizard", ["N 3C", "N 4H", "N 5D", "N 6D"], "9S")
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["N", "N", "N", "N"])["winner"] == 1


def test_wizards_and_jesters_may_be_played_by_a_player_who_could_follow():
    state = stacked("wizard", ["2C 3C", "4H 5C", "AH N", "Z 6H"], "9S")
    bid_all(state, [0, 0, 0, 0])
    play(state, "4H")
    assert playable(state) == {"AH", "N"}
    play(state, "N")
    assert playable(state) == {"Z", "6H"}


def test_a_jester_turned_means_no_trump_and_a_wizard_turned_lets_the_dealer_name_one():
    state = stacked("wizard", ["2C", "4H", "5D"], "N")
    trump = next(e for e in state.events if e["event"] == "trump")
    assert trump["suit"] is None
    state = stacked("wizard", ["2C", "4H", "5D"], "Z", dealer=2)
    assert state.turn == 2 and state.phase is Phase.CHOOSE_TRUMP
    assert {str(a) for a in state.legal_actions()} == {"trump S", "trump H", "trump D", "trump C"}
    rules = state.rules
    state.apply(rules.family.parse_input(rules, state.observation(2), "hearts"))
    assert state.events[-1] == {"event": "trump", "round": 1, "suit": "H", "seat": 2}


def test_wizards_last_round_deals_every_card_and_has_no_trump():
    rules = load_ruleset("wizard")
    state = new_game(rules, 3, 5)
    playout(state, ["random"] * 3, 5, 10_000, lambda s: None)
    deals = [e for e in state.events if e["event"] == "deal"]
    assert [d["hand_size"] for d in deals] == list(range(1, 21))
    assert deals[-1]["upcard"] is None and deals[-1]["stock"] == 0
    last_trump = [e for e in state.events if e["event"] == "trump"][-1]
    assert last_trump["round"] == 20 and last_trump["suit"] is None


# --- Skull King (2021 rules) ---------------------------------------------------------------

def test_the_jolly_roger_beats_the_suit_led_and_a_pirate_beats_the_jolly_roger():
    state = stacked("skull-king", ["1G 2G", "12G 3G", "3B 4P", "14G 5G"])
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["12G", "3B", "14G", "1G"])["winner"] == 2
    state = stacked("skull-king", ["1G 2G", "14B 3G", "PIR 4P", "14G 5G"])
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["14B", "PIR", "14G", "1G"])["winner"] == 2


def test_of_two_pirates_the_first_wins():
    state = stacked("skull-king", ["PIR 2G", "7Y 3G", "PIR 4G", "14Y 5G"])
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["7Y", "PIR", "14Y", "PIR"])["winner"] == 2


def test_the_skull_king_takes_the_pirates_for_30_each_the_tigress_as_a_pirate_too():
    # a one-card round: seat 2 bids 1 and takes the Skull King's trick
    state = stacked("skull-king", ["5G", "PIR", "SK", "TIG"])
    bid_all(state, [0, 1, 0, 0])  # seats 1, 2, 3, 0
    assert play_trick(state, ["PIR", "SK", "TIG as pirate", "5G"])["winner"] == 2
    score = next(e for e in state.events if e["event"] == "score")
    # 20 for the trick bid and taken, 2 x 30 for the pirates; the zero bids made: 10 x 1 card
    assert score["points"] == [10, 10, 80, 10]


def test_a_tigress_played_as_an_escape_is_no_pirate_for_the_bonus():
    state = stacked("skull-king", ["5G", "PIR", "SK", "TIG"])
    bid_all(state, [0, 1, 0, 0])
    play_trick(state, ["PIR", "SK", "TIG as escape", "5G"])
    score = next(e for e in state.events if e["event"] == "score")
    assert score["points"] == [10, 10, 50, 10]


def test_a_mermaid_takes_the_skull_king_for_40_whatever_else_is_in_the_trick():
    state = stacked("skull-king", ["2G", "SK", "MER", "PIR"])
    bid_all(state, [1, 0, 0, 0])  # seat 1 expects the Skull King to win (bids: seats 1, 2, 3, 0)
    assert play_trick(state, ["SK", "MER", "PIR", "2G"])["winner"] == 2
    score = next(e for e in state.events if e["event"] == "score")
    assert score["points"] == [10, -10, -10, 10]  # the mermaid's seat bid 0 and took one
    state = stacked("skull-king", ["2G", "SK", "MER", "PIR"])
    bid_all(state, [0, 1, 0, 0])  # now seat 2 bids the trick its mermaid takes: 20 + 40
    play_trick(state, ["SK", "MER", "PIR", "2G"])
    assert next(e for e in state.events if e["event"] == "score")["points"] == [10, 10, 60, 10]


def test_a_pirate_takes_the_mermaids_for_20_each_and_a_14_for_10():
    state = stacked("skull-king", ["14G", "MER", "PIR", "MER"])
    bid_all(state, [0, 1, 0, 0])
    assert play_trick(state, ["MER", "PIR", "MER", "14G"])["winner"] == 2
    # 20 for the trick, 2 x 20 for the mermaids, 10 for the green 14
    assert next(e for e in state.events if e["event"] == "score")["points"] == [10, 10, 70, 10]


def test_the_black_14_is_worth_20_but_only_to_an_exact_bid():
    state = stacked("skull-king", ["14B 2P", "3G 4G", "5G 6G", "7G 8P"])
    bid_all(state, [0, 0, 0, 1])  # seats 1, 2, 3 bid 0; seat 0 bids 1
    play_trick(state, ["3G", "5G", "7G", "14B"])  # seat 0 trumps in with the black 14
    play_trick(state, ["2P", "4G", "6G", "8P"])  # seat 3's 8P takes the second
    points = next(e for e in state.events if e["event"] == "score")["points"]
    # seat 0: 20 for its trick and 20 for the black 14; a zero bid in a 2-card round: +-20
    assert points == [40, 20, 20, -20]
    state = stacked("skull-king", ["14B 2P", "3G 4G", "5G 6G", "7G 8P"])
    bid_all(state, [0, 0, 0, 2])  # seat 0 bids 2 and takes one: no bonus for the 14
    play_trick(state, ["3G", "5G", "7G", "14B"])
    play_trick(state, ["2P", "4G", "6G", "8P"])
    assert next(e for e in state.events if e["event"] == "score")["points"] == [-10, 20, 20, -20]


def test_an_escape_led_lets_the_next_suited_card_set_the_suit_and_escapes_alone_go_to_the_first():
    state = stacked("skull-king", ["2G 3G", "ESC 4G", "7P 5G", "9P 14Y"])
    bid_all(state, [0, 0, 0, 0])
    play(state, "ESC")
    play(state, "7P")
    assert playable(state) == {"9P"}
    state = stacked("skull-king", ["ESC", "ESC", "ESC", "ESC"])
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["ESC"] * 4)["winner"] == 1


def test_the_tigress_is_played_as_a_pirate_or_an_escape_and_must_say_which():
    state = stacked("skull-king", ["2G", "TIG", "3G", "4G"])
    bid_all(state, [0, 0, 0, 0])
    assert playable(state) == {"TIG as pirate", "TIG as escape"}
    with pytest.raises(IllegalActionError, match="say how you play TIG"):
        state.apply(Play(state.setup.pack.card("TIG")))
    action = play(state, "tigress escape")
    assert action.role == "escape"
    assert state.events[-1]["as"] == "escape"


def test_a_made_zero_bid_scores_ten_a_card_dealt_and_a_missed_one_loses_as_much():
    state = stacked("skull-king", ["2G 3G 4G", "5G 6G 7G", "8G 9G 10G", "11G 12G 13G"])
    bid_all(state, [0, 0, 0, 0])
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    points = next(e for e in state.events if e["event"] == "score")["points"]
    assert points == [30, 30, 30, -30]  # seat 3 holds the highest greens, takes all three: -10 x 3


# --- a referee of the tests' own: every trick and score of random Skull King games ---------

SPECIAL = {"ESC", "PIR", "TIG", "MER", "SK"}


def referee_winner(plays):
    """The published hierarchy, written from the rules alone: plays are (seat, code, role)."""
    kinds = [("PIR" if role == "pirate" else "ESC") if code == "TIG" else code if code in SPECIAL else "suit"
             for _, code, role in plays]

    def first(kind):
        return plays[kinds.index(kind)][0]

    if "MER" in kinds and "SK" in kinds:
        return first("MER")
    for kind in ("SK", "PIR", "MER"):
        if kind in kinds:
            return first(kind)
    suited = [(seat, int(code[:-1].replace("T", "10")), code[-1]) for (seat, code, _), kind in zip(plays, kinds)
              if kind == "suit"]
    if not suited:
        return first("ESC")
    black = [s for s in suited if s[2] == "B"]
    led = suited[0][2]
    best = max(black or [s for s in suited if s[2] == led], key=lambda s: s[1])
    return best[0]


def referee_bonus(plays, winner):
    """The bonuses the winner of ``plays`` would get for an exact bid."""
    won = next((code, role) for seat, code, role in plays if seat == winner)
    as_ = "PIR" if won == ("TIG", "pirate") else won[0]
    codes = [c for _, c, _ in plays]
    bonus = sum(20 if c == "14B" else 10 for c in codes if c in ("14G", "14P", "14Y", "14B"))
    if as_ == "PIR":
        bonus += 20 * codes.count("MER")
    if as_ == "SK":
        bonus += 30 * sum(1 for _, c, r in plays if c == "PIR" or (c == "TIG" and r == "pirate"))
    if as_ == "MER" and "SK" in codes:
        bonus += 40
    return bonus


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 8), st.integers(0, 2**31 - 1), st.lists(st.sampled_from(["random", "bot"]), min_size=8,
                                                               max_size=8))
def test_every_trick_and_score_of_skull_king_follows_the_published_rules(players, seed, kinds):
    rules = load_ruleset("skull-king")
    state = new_game(rules, players, seed)
    playout(state, kinds[:players], seed, 10_000, lambda s: None)
    plays, bids, taken, bonus, size = [], {}, Counter(), Counter(), 0
    totals = [0] * players
    for event in state.events:
        kind = event["event"]
        if kind == "deal":
            bids, taken, bonus, size = {}, Counter(), Counter(), event["hand_size"]
            assert sum(map(len, event["hands"])) == size * players
        elif kind == "bid":
            bids[event["seat"]] = event["bid"]
        elif kind == "play":
            plays.append((event["seat"], event["card"], event.get("as")))
            assert (event["card"] == "TIG") == ("as" in event)
        elif kind == "trick":
            winner = referee_winner(plays)
            assert event["winner"] == winner, plays
            taken[winner] += 1
            bonus[winner] += referee_bonus(plays, winner)
            plays = []
        elif kind == "score":
            expected = []
            for seat in range(players):
                bid, took = bids[seat], taken[seat]
                if bid == 0:
                    expected.append(10 * size if took == 0 else -10 * size)
                elif took == bid:
                    expected.append(20 * bid + bonus[seat])
                else:
                    expected.append(-10 * abs(took - bid))
            assert event["points"] == expected
            totals = [t + p for t, p in zip(totals, expected)]
    assert state.totals == totals
    assert len([e for e in state.events if e["event"] == "score"]) == 10


# --- the general pieces, on rulesets of the tests' own ---------------------------------------

BASE = """
name: tiers
family: trick-taking
players: {min: 3, max: 4}
deal: {hand_size: "[2]"}
bidding: {range: "0..hand_size"}
scoring: {points: tricks}
winner: highest
"""


def test_a_tier_a_rule_picks_from_the_turned_card_beats_the_trumps_and_keeps_its_suit():
    # cards of the turned card's rank are above every trump, and follow their own suit
    rules = ruleset_from_text(BASE + """
trump: {kind: upcard}
trick:
  order:
    - led
    - trump
    - {rule: "card_rank == upcard_rank", name: matching}
""")
    state = stacked(None, ["2C 3C", "9H 4H", "AS 5D", "KH 6D"], "9S", rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["4H", "AS", "KH", "2C"])["winner"] == 2  # a four: the ace of trump wins
    state = stacked(None, ["2C 3C", "9H 4H", "AS 5D", "KH 6D"], "9S", rules=rules)
    bid_all(state, [0, 0, 0, 0])
    play(state, "9H")  # a nine, the turned card's rank: above the trumps, led as a heart
    assert playable(state) == {"AS", "5D"}  # no heart in seat 2's hand: anything goes
    assert play_trick(state, ["AS", "KH", "2C"])["winner"] == 1


def test_identical_cards_cancel_and_a_trick_of_cancelled_cards_goes_to_its_leader():
    rules = ruleset_from_text(BASE + """
deck: {decks: 2}
trump: {kind: none}
play: {identical_cards: cancel}
""")
    state = stacked(None, ["KH 3C", "AH 4C", "AH 5D", "2H 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["AH", "AH", "2H", "KH"])["winner"] == 0  # the aces cancel: the king wins
    state = stacked(None, ["AH 3C", "AH 4C", "QD 5D", "QD 6D"], None, rules=rules)
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["AH", "QD", "QD", "AH"])["winner"] == 1  # all cancel: the leader takes it


@pytest.mark.parametrize("text,message", [
    ("trick: {order: [led, trump, {cards: [XX]}]}", "'XX' is not a special card of the pack"),
    ("trick: {order: [led, {cards: [Z]}]}", "trick.order needs 'trump'"),
    ("trick: {order: [led, trump]}", "the special card Z has no place in trick.order"),
    ("trick: {order: [led, trump, {cards: [Z], wins_over: [nobody]}]}", "'nobody' is not a tier of trick.order"),
    ("trick: {order: [led, trump, {cards: [Z]}], roles: {Z: [led, trump]}}", "Z has a place in trick.order already"),
])
def test_a_trick_order_that_cannot_work_is_refused_at_its_key(text, message):
    with pytest.raises(RulesetError, match=message):
        ruleset_from_text(BASE + "trump: {kind: none}\ndeck:\n  specials: [{code: Z, name: Wizard}]\n" + text)


# --- the other bundled rulesets of this issue, each on its source's rule ---------------------

def test_the_dragon_beats_the_wizards_and_the_fairy_takes_the_dragon():
    # wizard-dragon-fairy: "the Dragon beats every card ... unless the Fairy is in the trick"
    state = stacked("wizard-dragon-fairy", ["2C 3C", "Z 4H", "DR 5D", "KH 6D"], "9S")
    bid_all(state, [1, 1, 0, 0])
    assert play_trick(state, ["Z", "DR", "KH", "2C"])["winner"] == 2
    state = stacked("wizard-dragon-fairy", ["FE 3C", "Z 4H", "DR 5D", "KH 6D"], "9S")
    bid_all(state, [0, 1, 0, 1])
    assert play_trick(state, ["Z", "DR", "KH", "FE"])["winner"] == 0
    state = stacked("wizard-dragon-fairy", ["FE 3C", "N 4H", "N 5D", "N 6D"], "9S")
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["N", "N", "N", "FE"])["winner"] == 1  # below the jesters: the first jester


def test_the_super_trump_is_the_turned_cards_rank_in_the_other_suit_of_its_colour():
    # super-screw-your-neighbour: 7D turned, the 7H is the Super Trump: above the ace of trumps
    state = stacked("super-screw-your-neighbour", ["AD 3C", "7H 4C", "2D 5S", "KH 6S"], "7D")
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["7H", "2D", "KH", "AD"])["winner"] == 1
    # it keeps its own suit: a heart led, its holder must follow with it
    state = stacked("super-screw-your-neighbour", ["AD 3C", "KH 4C", "7H 5S", "2D 6S"], "7D")
    bid_all(state, [0, 0, 0, 0])
    play(state, "KH")
    assert playable(state) == {"7H"}


def test_the_super_and_loser_jokers_stand_above_the_super_trump_and_may_be_played_at_any_time():
    state = stacked("super-screw-your-neighbour", ["LJ 3C", "7H 4C", "SJ 5H", "KH 6S"], "7D")
    bid_all(state, [0, 0, 0, 0])
    play(state, "7H")
    assert playable(state) == {"SJ", "5H"}  # a joker even when holding a heart
    assert play_trick(state, ["5H", "KH", "LJ"])["winner"] == 0  # the Loser Joker over the Super Trump
    state = stacked("super-screw-your-neighbour", ["LJ 3C", "7H 4C", "SJ 5H", "KH 6S"], "7D")
    bid_all(state, [0, 0, 0, 0])
    assert play_trick(state, ["7H", "SJ", "KH", "LJ"])["winner"] == 2  # the Super Joker over both


def test_the_big_joker_takes_a_trick_the_little_one_is_in_whichever_came_first():
    # spades-big-little-joker: "If both Jokers go down in one trick, the Big Joker takes it"
    state = stacked("spades-big-little-joker", ["AS 3C 4C", "5C LJ 6C", "BJ 7C 8C", "KS 2S 9D"], None)
    bid_all(state, [1, 1, 1, 0])
    assert play_trick(state, ["5C", "7C", "2S", "3C"])["winner"] == 3  # seat 3, void, trumps: spades broken
    play(state, "KS")
    assert playable(state) == {"AS"}
    play(state, "AS")
    assert playable(state) == {"LJ"}  # the little joker is a spade: it must follow
    assert play_trick(state, ["LJ", "BJ"])["winner"] == 2


def test_the_jokers_are_spades_above_the_deuces_and_the_2d_is_a_spade():
    # spades-jjdd-big-little: big joker, little joker, 2D, 2S, then the ace of spades
    state = stacked("spades-jjdd-big-little", ["2D 3C 4C", "5C LJ 6C", "AS 7C 8C", "2S KS TD"], None)
    bid_all(state, [1, 1, 1, 1])
    assert play_trick(state, ["5C", "7C", "2S", "3C"])["winner"] == 3
    play(state, "KS")
    assert playable(state) == {"2D"}  # the 2D follows spades
    assert play_trick(state, ["2D", "LJ", "AS"])["winner"] == 1


def test_the_2013_skull_king_scores_zero_bids_by_the_round_and_50_for_the_mermaid():
    state = stacked("skull-king-2013", ["2R 3R 4R", "5R 6R 7R", "8R 9R 10R", "11R 12R 13R"])
    bid_all(state, [0, 0, 0, 0])
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    # "10 points times the round number": round 1, though 3 cards were dealt
    assert next(e for e in state.events if e["event"] == "score")["points"] == [10, 10, 10, -10]
    state = stacked("skull-king-2013", ["2R", "SK", "MER", "PIR"])
    bid_all(state, [0, 1, 0, 0])
    assert play_trick(state, ["SK", "MER", "PIR", "2R"])["winner"] == 2
    assert next(e for e in state.events if e["event"] == "score")["points"] == [10, 10, 70, 10]


def test_wizards_common_variant_stops_the_bids_totalling_the_tricks():
    state = stacked("wizard-bids-not-total", ["2C 3C", "Z 4H", "AH 5D"], "9S")
    bid_all(state, [1, 0])  # seats 1 and 2; the dealer (seat 0) bids last
    with pytest.raises(IllegalActionError, match="may not bid 1"):
        state.apply(Bid(1))
    state.apply(Bid(0))


def test_a_losing_tier_that_can_never_take_a_trick_is_a_warning(run_cli, tmp_path):
    # two jesters below led, and at least three players: a trick of jesters alone never happens
    path = tmp_path / "jesters.yaml"
    path.write_text(BASE + "trump: {kind: none}\ndeck:\n  specials: [{code: N, name: Jester, count: 2}]\n"
                    "trick: {order: [{cards: [N], lead: next}, led, trump]}\n")
    result = run_cli("validate", "--no-play", str(path))
    assert result.exit_code == 0
    assert "warning: N never takes a trick" in result.output
    path.write_text(path.read_text().replace("count: 2", "count: 3"))  # three players: a trick of jesters
    assert "warning" not in run_cli("validate", "--no-play", str(path)).output
