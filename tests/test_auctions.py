"""Auctions (trump.kind: auction) and the kitty, against the rule sources of the bundled
Five Hundred, Bid Whist and Estimation: who wins an auction and with what contract, the
calls refused and why, a hand everyone passes, the kitty taken and discarded (and who
sees it), the Avondale schedule for a contract made and set, the estimates after an
auction; playouts with bots and a search seat keeping the cards (the kitty's too), every
game ending and the kitty hidden from the seats that did not take it; validate's refusals
at FILE:LINE:COL."""

from __future__ import annotations

from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import Stop, play_out
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.trick_taking.actions import DECLINE, Call, Discard
from cardrules.interpreter.game import CHANCE, OVER, new_game
from cardrules.interpreter.record import replay, save_record

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
# Five Hundred: 43 cards, 10 each and 3 in the kitty (stacked on top of what is left)
HANDS_500 = ["4H 5H 6H 7H 8H 9H 5S 6S 7S 8S",
             "JH JD AH KH QH TH JK AS KS QS",   # seat 1: the joker, both red bowers and five hearts
             "5D 6D 7D 8D 9D TD 5C 6C 7C 8C",
             "QD KD AD 9C TC JC QC KC AC 9S"]
KITTY_500 = ["4D", "JS", "TS"]


def stacked(name="five-hundred", hands=HANDS_500, kitty=KITTY_500, dealer=0):
    rules = load_ruleset(name) if isinstance(name, str) else name
    state = new_game(rules, 4, seed=0)
    pack = state.setup.pack
    state.stack_deal([[pack.card(c) for c in h.split()] for h in hands], None,
                     [pack.card(c) for c in kitty], dealer=dealer)
    return state


def call(state, text):
    """A call as typed at the table ('7H', '6NT', 'pass')."""
    from cardrules.interpreter.families.trick_taking.textio import parse_call
    return parse_call(text, state.setup.pack)


def test_the_auction_goes_around_until_all_but_one_pass_and_the_highest_call_declares():
    # "Starting with the player to the dealer's left, each player takes it in turn to bid ...
    # Each bid must be higher than the previous, and a player who does not want to bid may
    # pass, but, by so doing, may not re-enter the bidding process" (whiteknucklecards.com)
    state = stacked()
    assert state.phase == "auction" and state.turn == 1
    legal = state.legal_actions()
    assert legal[0] == Call(6, SPADES) and legal[-2] == Call(10, None) and legal[-1] == DECLINE
    assert len(legal) == 5 * 5 + 1  # six to ten tricks in spades, clubs, diamonds, hearts, no trump; a pass
    state.apply(call(state, "6S"))
    state.apply(DECLINE)                   # seat 2 passes: out of the auction
    state.apply(call(state, "6C"))         # seat 3: same number, a higher suit
    with pytest.raises(IllegalActionError, match="not higher than bid 6C"):
        state.apply(call(state, "6S"))     # seat 0
    state.apply(DECLINE)                   # seat 0 passes
    assert state.turn == 1                 # seat 2 is skipped from now on
    state.apply(call(state, "8H"))
    assert state.turn == 3
    state.apply(DECLINE)
    # all but one have passed: seat 1 declares eight hearts, hearts are trump
    assert state.declarer == 1 and state.contract == 8 and state.trump == HEARTS and state.maker == 1
    calls = [e for e in state.events if e["event"] in ("call", "decline", "contract")]
    assert [(e["event"], e["seat"]) for e in calls] == [("call", 1), ("decline", 2), ("call", 3), ("decline", 0),
                                                        ("call", 1), ("decline", 3), ("contract", 1)]
    assert calls[-1] == {"event": "contract", "round": 1, "seat": 1, "tricks": 8, "suit": "H"}
    obs = state.observation(2)
    assert obs.auction[-1] == (3, 0, -2) and obs.declarer == 1 and obs.contract == 8 and obs.contract_suit == HEARTS


def test_the_declarer_takes_the_kitty_and_discards_three_that_no_one_else_sees():
    # "the winning bidder ... pick up the kitty and discard three cards" (thatbiz.org); the
    # declarer leads to the first trick
    state = stacked()
    for text in ("7H", "pass", "pass", "pass"):
        state.apply(call(state, text))
    pack = state.setup.pack
    assert state.phase == "kitty" and state.turn == 1 and len(state.hands[1]) == 13
    assert state.observation(1).kitty == tuple(pack.card(c) for c in KITTY_500)
    assert state.observation(0).kitty == () and state.observation(0).kitty_taker == 1
    assert state.observation(None).kitty == () and state.observation(None).kitty_size == 3
    with pytest.raises(IllegalActionError, match="you do not hold 2H"):
        state.apply(Discard(pack.card("2H")) if "2H" in pack.codes else Discard(pack.card("4S")))
    for code in ("4D", "QS", "TS"):
        state.apply(Discard(pack.card(code)))
    assert state.phase == "play" and state.turn == 1 and len(state.hands[1]) == 10
    assert state.observation(1).kitty_discards == tuple(pack.card(c) for c in ("4D", "QS", "TS"))
    for viewer in (0, 2, 3, None):
        kitty = [e for e in state.event_views(viewer) if e["event"] == "kitty"][0]
        assert kitty["seat"] == 1 and kitty["cards"] == [None, None, None]
        assert all(e["card"] is None for e in state.event_views(viewer) if e["event"] == "discard")
        assert state.observation(viewer).kitty_discards == ()
    assert [e["cards"] for e in state.event_views(1) if e["event"] == "kitty"] == [KITTY_500]


def test_a_hand_everyone_passes_is_thrown_in_and_the_next_dealer_deals():
    # "If all the players are abstained, it is necessary to throw away the hands of the card,
    # issued by the next card issued" (blogs.elle.com.hk)
    state = stacked()
    for _ in range(4):
        state.apply(DECLINE)
    assert state.turn == CHANCE and state.totals == [0, 0, 0, 0] and state.dealer == 1


def test_the_same_dealer_deals_again_or_the_dealer_must_call(tmp_path):
    child = tmp_path / "same.yaml"
    child.write_text("extends: five-hundred\nname: same\nauction: {tricks: '6..10', all_pass: redeal-same-dealer}\n")
    state = stacked(load_ruleset(str(child)))
    for _ in range(4):
        state.apply(DECLINE)
    assert state.turn == CHANCE and state.dealer == 0
    # Bid Whist: "if the first three pass, the dealer must bid" (auction.all_pass: dealer-bids)
    rules = load_ruleset("bid-whist")
    state = new_game(rules, 4, seed=1)
    state.apply(state.chance_action())
    for _ in range(3):
        state.apply(DECLINE)
    assert state.turn == state.dealer and DECLINE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="you must call"):
        state.apply(DECLINE)


def _side_points(rules, *, contract, suit, team_tricks, declaring=True):
    """Five Hundred's scoring of the seat 0 (its side's first seat) for one hand."""
    suits = rules.section.auction.suits
    env = {**new_game(rules, 4, seed=0).setup.round_env(0), "contract": contract, "contract_suit": suit,
           "contract_rank": suits.index(suit), "declarer": 0 if declaring else 1, "is_declarer": declaring,
           "is_declarer_side": declaring, "seat": 0, "team": 0, "team_tricks": team_tricks, "tricks": team_tricks,
           "bid": 0, "team_bid": 0, "bids": [0] * 4, "taken": [0] * 4}
    return rules.section.scoring.points(env)


@pytest.mark.parametrize("contract,suit,team_tricks,points", [
    (6, SPADES, 6, 40), (6, CLUBS, 7, 60), (7, DIAMONDS, 7, 180), (7, HEARTS, 9, 200), (8, None, 8, 320),
    (10, HEARTS, 10, 500), (10, None, 10, 520),
    (7, HEARTS, 6, -200), (9, SPADES, 8, -340), (10, None, 9, -520),
    (7, SPADES, 10, 250),  # all ten tricks on a contract worth less than 250 scores 250
    (8, SPADES, 10, 250), (9, CLUBS, 10, 360),
])
def test_the_avondale_schedule_for_a_contract_made_and_set(contract, suit, team_tricks, points):
    # the Avondale table: six spades 40 ... ten no trumps 520, 100 more a trick and 20 more a
    # suit (spades, clubs, diamonds, hearts, no trumps); a set loses the contract's value
    assert _side_points(load_ruleset("five-hundred"), contract=contract, suit=suit, team_tricks=team_tricks) == points


def test_the_defenders_score_ten_a_trick():
    assert _side_points(load_ruleset("five-hundred"), contract=8, suit=HEARTS, team_tricks=3, declaring=False) == 30


def test_estimates_follow_the_auction_from_the_declarer_capped_by_its_bid():
    # "The maximum number of tricks a player can estimate is the number estimated by the
    # winner of the bidding round" (jawaker.com)
    rules = load_ruleset("estimation-whist")
    state = new_game(rules, 4, seed=3)
    state.apply(state.chance_action())
    first = state.turn
    state.apply(Call(5, HEARTS))
    for _ in range(3):
        state.apply(DECLINE)
    assert state.phase == "bidding" and state.turn == first and state.trump == HEARTS
    assert [a.bid for a in state.legal_actions()] == [5]
    with pytest.raises(IllegalActionError, match="your estimate is your winning bid, 5"):
        state.apply(state.legal_actions()[0].__class__(4))
    state.apply(state.legal_actions()[0])
    assert max(a.bid for a in state.legal_actions()) == 5
    with pytest.raises(IllegalActionError, match="above the declarer's bid of 5"):
        state.apply(state.legal_actions()[0].__class__(6))


def test_bid_whist_discards_count_as_a_book_and_no_trump_doubles():
    rules = load_ruleset("bid-whist")
    state = new_game(rules, 4, seed=2)
    state.apply(state.chance_action())
    state.apply(Call(9, None, "", True))     # nine books, uptown: a suit named after winning
    for _ in range(3):
        state.apply(DECLINE)
    declarer = state.declarer
    assert state.phase == "trump" and state.turn == declarer
    state.apply(next(a for a in state.legal_actions() if a.suit == SPADES))
    assert state.trump == SPADES and state.phase == "kitty" and len(state.hands[declarer]) == 16
    while state.phase == "kitty":
        state.apply(state.legal_actions()[0])
    assert state.taken[declarer] == 1 and len(state.hands[declarer]) == 12
    env = {"contract": 10, "contract_suit": -1, "is_declarer_side": True, "team_tricks": 11, "seat": 0}
    base = {**new_game(rules, 4, seed=0).setup.round_env(0), "contract_rank": 1, "declarer": 0, "is_declarer": True,
            "team": 0, "tricks": 0, "bid": 0, "team_bid": 0, "bids": [0] * 4, "taken": [0] * 4}
    assert rules.section.scoring.points({**base, **env}) == 10          # five books over six, doubled
    assert rules.section.scoring.points({**base, **env, "team_tricks": 9}) == -8   # set: the bid of 4, doubled


def _check_cards(state, deck_size):
    kitty = len(state.kitty) + (len(state.kitty_discards) if state.kitty_taker >= 0 else 0)
    held = [c for hand in state.hands for c in hand] + list(state.played) + list(state.kitty) + \
        list(state.kitty_discards)
    assert len(held) == len(set(held)), "a card is in two places"
    assert len(held) == state.players * state.hand_size + (len(state.kitty_taken) or len(state.kitty)) or \
        state.phase in ("kitty",)
    assert kitty <= deck_size


@pytest.mark.parametrize("name", ["five-hundred", "bid-whist", "estimation-whist"])
@pytest.mark.parametrize("seed,seats", [(0, ["bot"] * 4), (1, ["bot", "random", "bot", "random"]),
                                        (2, ["search:4", "bot", "bot", "bot"])])
def test_playouts_keep_the_cards_end_and_hide_the_kitty(name, seed, seats, tmp_path):
    rules = load_ruleset(name)
    state = new_game(rules, 4, seed=seed)
    deck_size = state.setup.deck_size
    policies = make_policies(rules, seats, seed)
    steps = 0

    def check(action):
        nonlocal steps
        steps += 1
        if state.turn < 0:
            return
        _check_cards(state, deck_size)
        for seat in range(4):
            obs = state.observation(seat)
            if seat != state.kitty_taker:
                assert obs.kitty == () and obs.kitty_discards == ()
        if state.kitty_taker >= 0:
            assert set(state.observation(state.kitty_taker).kitty) == set(state.kitty_taken)

    searching = seats[0].startswith("search")

    def hook(seat, action):
        check(action)
        if searching and state.round_index >= 2:  # (a search seat is slow: two hands are enough)
            raise Stop

    play_out(state, policies, on_action=hook)
    assert state.turn == OVER or searching
    for seat in (0, 1, 2, 3, None):
        for event in state.event_views(seat):
            if event["event"] == "kitty" and seat != event["seat"]:
                assert all(c is None for c in event["cards"])
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path).complete or searching


BAD_KITTY = """\
extends: five-hundred
name: bad-kitty
kitty:
  cards: 9
"""
NOBODY_WINS = """\
extends: five-hundred
name: nobody-wins
auction:
  tricks: "11..12"
"""


@pytest.mark.parametrize("text,line,column,words", [
    (BAD_KITTY, 4, 10, "leaves 3 for a kitty of 9"),
    (NOBODY_WINS, 4, 11, "an auction nobody can win"),
])
def test_validate_refuses_an_impossible_kitty_or_auction_at_its_place(run_cli, tmp_path, text, line, column, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = run_cli("validate", "--no-play", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line}:{column}:" in result.output and words in result.output, result.output


def _blind_state():
    """A deal of spades-blind-nil in which the first bidder's side trails by 150."""
    rules = load_ruleset("spades-blind-nil")
    state = new_game(rules, 4, seed=4)
    state.totals = [0] * 4
    state.totals[(state.dealer + 2) % 4] = 150  # the dealer's side leads, the first bidder's trails
    state.apply(state.chance_action())
    return state


def test_a_side_behind_by_100_may_bid_blind_nil_before_looking():
    # "Before looking at their cards, players also have the option to bid blind nil ... only
    # allowed if your team is losing by at least 100 points" (traditionalgamerules)
    from cardrules.interpreter.families.trick_taking.actions import LOOK, BlindBid
    state = _blind_state()
    first = state.turn
    assert first == state.bid_order[0] == (state.dealer + 1) % 4
    assert state.phase == "blind" and state.legal_actions() == [BlindBid(0), LOOK]
    obs = state.observation(first)
    assert obs.hand == () and obs.hand_hidden
    assert all(not e.get("hands") or e["hands"][first] is None for e in state.event_views(first) if e["event"] == "deal")
    with pytest.raises(IllegalActionError, match="may not bid 3 blind"):
        state.apply(BlindBid(3))
    state.apply(BlindBid(0))
    assert state.bids[first] == 0 and state.blind_bids[first] and state.observation(first).hand
    assert [e for e in state.events if e["event"] == "bid"][-1]["blind"] is True
    # the leading side's seat is offered no blind bid: it bids as usual
    assert state.phase == "bidding" and state.observation(state.turn).hand
    state.apply(state.legal_actions()[0])
    assert state.phase == "blind"          # the other trailing seat chooses too
    state.apply(LOOK)
    assert state.phase == "bidding" and [e["event"] for e in state.events][-1] == "look"


def test_blind_nil_scores_200_made_and_loses_200_set():
    rules = load_ruleset("spades-blind-nil")
    base = {**new_game(rules, 4, seed=0).setup.round_env(0), "bid": 0, "seat": 2, "team_bid": 4, "team_tricks": 4,
            "bags": 0, "bids": [4, 3, 0, 3], "taken": [4, 5, 0, 4], "team": 0, "is_dealer": False}
    assert rules.section.scoring.points({**base, "tricks": 0, "blind": True}) == 200
    assert rules.section.scoring.points({**base, "tricks": 1, "team_tricks": 5, "blind": True}) == -200
    assert rules.section.scoring.points({**base, "tricks": 0, "blind": False}) == 100


@pytest.mark.parametrize("seats", [["random"] * 4, ["search:4", "random", "bot", "random"]])
def test_blind_bids_play_and_replay(seats, tmp_path):
    rules = load_ruleset("spades-blind-nil")
    state = new_game(rules, 4, seed=6)
    searching = seats[0].startswith("search")

    def hook(seat, action):
        if state.turn >= 0 and state.phase != "play":
            for s in range(4):
                if not state.looked[s]:
                    assert state.observation(s).hand == ()
        if searching and state.round_index >= 2:
            raise Stop

    play_out(state, make_policies(rules, seats, 6), on_action=hook)
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path).complete or searching


def test_the_search_seat_samples_keeping_the_kitty_it_took_and_discarded():
    import random

    from cardrules.interpreter.families.trick_taking.determinize import determinize
    state = stacked()
    for text in ("7H", "pass", "pass", "pass"):
        state.apply(call(state, text))
    pack = state.setup.pack
    state.apply(Discard(pack.card("4D")))
    # seat 1 still discarding: what it took and discarded so far is kept
    sample = determinize(state.rules, state.observation(1), {}, random.Random(1))
    assert sample.phase == "kitty" and sorted(sample.hands[1]) == sorted(state.hands[1])
    assert sample.kitty_discards == [pack.card("4D")] and all(pack.card("4D") not in h for h in sample.hands)
    for code in ("QS", "TS"):
        state.apply(Discard(pack.card(code)))
    lead = state.legal_actions()[0]
    state.apply(lead)
    for seat in range(4):
        sample = determinize(state.rules, state.observation(seat), {}, random.Random(seat))
        assert sample.phase == "play" and sorted(sample.hands[seat]) == sorted(state.hands[seat])
        cards = [c for h in sample.hands for c in h] + list(sample.played)
        assert len(cards) == len(set(cards)) == 40  # ten a seat: nine held and the one led by seat 1
        if seat == 1:  # its discards are out of play in every sample
            assert not {pack.card(c) for c in ("4D", "QS", "TS")} & set(cards)
        assert sample.declarer == 1 and sample.trump == HEARTS and sample.kitty_taker == 1


def test_a_person_calls_at_the_terminal_and_is_told_why_a_call_is_refused(run_cli, tmp_path):
    keys = "\n".join(["hint", "6S", "5S", "7 diamonds", "quit"]) + "\n"
    result = run_cli("play", "five-hundred", "--seats", "human,bot,bot,bot", "--seed", "3", "--fast", "--ascii",
                     "--save", str(tmp_path / "s.jsonl"), input=keys)
    out = result.output
    assert "bot-3 calls 6 diamonds" in out and "Auction: bot-1 pass, bot-2 pass, bot-3 6 diamonds" in out, out
    assert "Kitty: 3 cards face down" in out and "the bot would pass" in out
    assert "'bid 6S' is not higher than bid 6D (bot-3): call higher, or pass" in out
    assert "'bid 5S' is not a call here: calls run from 6S to 10NT" in out
    assert "you call 7 diamonds" in out


# A call of no tricks (a misère-like contract: the declarer's side takes none) is a call,
# as a call of six is: it outbids a pass, declares, and scores by its own rule.
NO_TRICKS = """\
extends: five-hundred
name: no-tricks-call
auction:
  tricks: "0..10"
scoring:
  let:
    value: "if contract == 0 then 250 else 40 + 100 * (contract - 6) + 20 * contract_rank"
    side_points: >-
      if not is_declarer_side then 10 * team_tricks
      else if contract == 0 then (if team_tricks == 0 then value else -value)
      else (if team_tricks >= contract then value else -value)
"""


@pytest.fixture
def no_tricks_path(tmp_path):
    path = tmp_path / "no-tricks.yaml"
    path.write_text(NO_TRICKS)
    return path


@pytest.fixture
def no_tricks(no_tricks_path):
    return load_ruleset(str(no_tricks_path))


def test_a_call_of_no_tricks_is_a_call_and_wins_the_auction_when_everyone_passes(no_tricks):
    state = stacked(no_tricks)
    legal = state.legal_actions()
    assert legal[0] == Call(0, SPADES) and legal.count(DECLINE) == 1 and len(legal) == 11 * 5 + 1
    state.apply(call(state, "0S"))
    assert DECLINE in state.legal_actions() and Call(0, SPADES) not in state.legal_actions()
    for _ in range(3):
        state.apply(DECLINE)
    assert state.declarer == 1 and state.contract == 0 and state.trump == SPADES and state.phase == "kitty"
    calls = [e for e in state.events if e["event"] in ("call", "decline", "contract")]
    assert calls[0] == {"event": "call", "round": 1, "seat": 1, "tricks": 0, "suit": "S"}
    assert [e["event"] for e in calls[1:4]] == ["decline"] * 3
    assert calls[-1] == {"event": "contract", "round": 1, "seat": 1, "tricks": 0, "suit": "S"}
    obs = state.observation(2)
    assert obs.auction[0] == (1, 0, SPADES) and obs.declarer == 1 and obs.contract == 0
    assert all(entry != obs.auction[0][1:] for entry in (e[1:] for e in obs.auction[1:]))  # a pass looks unlike it
    from cardrules.web.families.trick_taking import TrickWebView
    facts = {f["label"]: f["value"] for p in TrickWebView(no_tricks).panels(obs, ["A", "B", "C", "D"], False)
             for f in p.get("items", [])}
    assert facts["Auction"] == "B 0 spades, C pass, D pass, A pass" and facts["Contract"] == "B: 0 spades"


def test_a_person_sees_a_call_of_no_tricks_as_a_call_and_may_make_one(run_cli, no_tricks_path):
    result = run_cli("play", str(no_tricks_path), "--seats", "bot,human,bot,bot", "--seed", "3", "--fast",
                     "--ascii", input="0S\nquit\n")
    out = result.output
    assert "your call (0S to 10NT, e.g. '0S', or 'pass')" in out and "you call 0 spades" in out, out
    assert "Auction: you 0 spades, bot-2 " in out, out


def test_the_calls_of_no_tricks_have_ids_of_their_own_beside_the_pass(no_tricks):
    from cardrules.interpreter.families.trick_taking.encoding import TrickCodec
    codec = TrickCodec(no_tricks, 4)
    ids = [codec.encode(a) for a in (Call(0, SPADES), Call(0, None), DECLINE)]
    assert len(set(ids)) == 3 and codec.decode(ids[0]) == Call(0, SPADES) and codec.decode(ids[2]) == DECLINE


def test_a_call_of_no_tricks_in_no_trump_is_told_from_a_pass(no_tricks):
    state = stacked(no_tricks)
    state.apply(call(state, "0NT"))
    state.apply(DECLINE)
    obs = state.observation(0)
    assert obs.auction[0][1:] != obs.auction[1][1:]  # no trump's suit is -1: a pass must not read as one
    with pytest.raises(IllegalActionError, match="not higher than bid 0NT"):
        state.apply(call(state, "0H"))


@pytest.mark.parametrize("seats", [["bot"] * 4, ["random"] * 4, ["search:4", "bot", "random", "bot"]])
def test_a_won_call_of_no_tricks_plays_to_the_end_and_replays_with_every_seat_kind(no_tricks, no_tricks_path, seats,
                                                                                   tmp_path):
    from test_legality import Checking
    import random

    state = new_game(no_tricks, 4, seed=5)
    state.apply(state.chance_action())  # (the seed's deal, as the replay checks)
    for text in ("0S", "pass", "pass", "pass"):
        state.apply(call(state, text))
    assert state.contract == 0 and state.declarer >= 0
    rng = random.Random(5)
    policies = [Checking(p, state, 1, rng) for p in make_policies(no_tricks, seats, 5)]
    searching = seats[0].startswith("search")

    def hook(seat, action):
        if searching and state.round_index >= 1:  # (a search seat is slow: the hand of the 0 call is enough)
            raise Stop

    play_out(state, policies, on_action=hook)
    assert state.turn == OVER or searching
    assert sum(p.checked for p in policies) > 20  # every listed move verified, every other candidate refused
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    replayed = replay(path, str(no_tricks_path))
    assert replayed.complete or searching
    assert [e for e in replayed.state.events if e["event"] == "contract"][0]["tricks"] == 0


def test_explain_works_the_call_of_no_tricks_as_the_lowest_call(run_cli, no_tricks_path):
    result = run_cli("explain", str(no_tricks_path))
    assert result.exit_code == 0, result.output
    assert "A call of 0 tricks is a call as the others are, not a pass" in result.output
    assert "| 0 spades | 0 | 250 |" in result.output and "| 0 spades | 1 | -250 |" in result.output, result.output


ESTIMATES_BELOW = """\
extends: estimation-whist
name: estimates-below
auction:
  tricks: "0..13"
bidding:
  first: declarer
  restrictions:
    - rule: "not is_declarer or bid == contract"
      message: "your estimate is your winning bid, {contract}"
    - rule: "is_declarer or bid < contract"
      message: "an estimate is below the declarer's bid of {contract}"
"""


def test_validate_warns_that_a_won_call_of_no_tricks_leaves_the_estimates_no_bid(run_cli, tmp_path):
    # the others must estimate below the contract: after a call of 0 there is no such bid
    # (a warning: the file validated when a call of 0 was taken for a pass)
    path = tmp_path / "below.yaml"
    path.write_text(ESTIMATES_BELOW)
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output
    assert f"{path}:8:5: warning:" in result.output and "no legal bid, when a call of 0 tricks wins" in result.output


def test_the_bot_calls_no_tricks_only_with_a_hand_worth_none_and_then_plays_to_take_none(no_tricks):
    from cardrules.interpreter.families.trick_taking.bot import TrickBot
    bot = TrickBot(no_tricks, 1)
    strong = stacked(no_tricks, dealer=0)  # seat 1 first: the joker, both red bowers, five hearts
    assert bot.act(strong.observation(1), strong.legal_actions()).tricks > 0
    state = stacked(no_tricks, dealer=3)  # seat 0 first: nothing above a nine
    chosen = bot.act(state.observation(0), state.legal_actions())
    assert chosen == Call(0, CLUBS)
    state.apply(chosen)
    for _ in range(3):
        state.apply(DECLINE)
    while state.phase == "kitty":  # the kitty (4D JS TS): the strongest go, the left bower (a trump) first
        state.apply(bot.act(state.observation(0), state.legal_actions()))
    pack = state.setup.pack
    assert [pack.codes[c] for c in state.kitty_discards] == ["JS", "TS", "9H"]
    assert pack.codes[bot.act(state.observation(0), state.legal_actions()).card] == "4H"  # the lowest lead
