"""Random playouts over seeds, player counts, seat kinds and every bundled ruleset:
cards are conserved, every action was legal, scores follow the rules, every game
ends, and the record replays to the same totals (OpenSpiel's random_sim_test, as
properties)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.record import replay, save_record

from helpers import bundled

TRICK_RULESETS = [n for n in bundled_names() if bundled(n).family.name == "trick-taking"]

# Independent oracles for the bundled score sheets (written from the seed pages, not
# from the rulesets' expressions).
ORACLES = {
    # catsatcards.com: exactly the estimate scores its tricks, a miss loses the difference
    "estimation-whist": lambda bid, took: took if took == bid else -abs(took - bid),
    "oh-hell-traditional": lambda bid, took: took + (5 if took == bid else 0),
    "oh-shit-spades": lambda bid, took: 10 + bid if took == bid else 0,
    "oh-hell-mrpikes": lambda bid, took: 10 + bid if took == bid else -(10 + abs(bid - took)),
    "ascenseur": lambda bid, took: 2 + took if took == bid else -abs(bid - took),
    "elevator": lambda bid, took: 2 + took if took == bid else -abs(bid - took),
    "blob": lambda bid, took: 10 + bid if took == bid else 0,
    "oh-hell-jaylipp": lambda bid, took: 5 + bid if took == bid else -abs(bid - took),
    "oh-shit": lambda bid, took: took + (10 if took == bid else 0),
    "oh-heck": lambda bid, took: took + (10 if took == bid else 0),
    "oh-hell": lambda bid, took: took + (10 if took == bid else 0),
    "oh-hell-exact-only": lambda bid, took: 10 if took == bid else 0,
    "oh-hell-penalty": lambda bid, took: 10 if took == bid else -abs(bid - took),
    # the catalogue's (docs/catalogue.md has each source)
    "kachufool": lambda bid, took: 10 + bid if took == bid else 0,
    "kachufool-fingers": lambda bid, took: 10 + bid if took == bid else 0,
    "kachufool-tens": lambda bid, took: 10 * max(bid, 1) if took == bid else 0,
    "nomination-whist": lambda bid, took: took + (10 if took == bid else 0),
    "up-and-down-the-river": lambda bid, took: took + (10 if took == bid else 0),
    **{name: (lambda bid, took: 5 + took if took == bid else -abs(bid - took))
       for name in ("romanian-whist", "romanian-whist-3", "romanian-whist-5", "romanian-whist-6")},
    # Plump: "10 + bid" for a made bid, 5 for a made zero, 110 for a made ten (sv.wikibooks)
    "plump": lambda bid, took: 0 if took != bid else 5 if bid == 0 else 110 if bid == 10 else 10 + bid,
    # Boerenbridge: "5 punten. Voor iedere slag ... een extra punt"; else "een minpunt per aantal
    # dat je er naast zat" (kaartspeluitleg.nl)
    "boerenbridge": lambda bid, took: 5 + took if took == bid else -abs(bid - took),
    # The Guardian: "10 points, plus one point for each trick won ... fail ... only one point per trick"
    "oh-hell-guardian": lambda bid, took: took + 10 if took == bid else took,
    # pbmserv Blackout: "points equal to their bid plus 10 points" / "too high or too low ... 0 points"
    "blackout-pbmserv": lambda bid, took: bid + 10 if took == bid else 0,
    # playerules Blackout: "blacking out ... scores you nothing"; 10 + bid when exact (a reading)
    "blackout-zero": lambda bid, took: bid + 10 if took == bid else 0,
    # Boerenbridge (nl.wikipedia, scored as kaartspeluitleg.nl): 5 + a point a trick, else minus the miss
    "boerenbridge-forehead": lambda bid, took: 5 + took if took == bid else -abs(bid - took),
    # Wizard: "20 points plus 10 points for every trick"; "10 points for every trick ... off"
    **{name: (lambda bid, took: 20 + 10 * took if took == bid else -10 * abs(bid - took))
       for name in ("wizard", "wizard-dragon-fairy", "wizard-bids-not-total")},
    "super-screw-your-neighbour": lambda bid, took: took + (10 if took == bid else 0),
}
# When the hook holds (the bids never total the tricks), by (hand size, last deal); every
# other bundled trick-taking variant hooks the last bidder in every deal.
NEVER = lambda hand_size, last: False  # noqa: E731  (bids made at once, or no hook in the rules)
HOOKED_WHEN = {
    "kachufool-fingers": NEVER, "spades": NEVER, "spades-jjdd": NEVER, "spades-500": NEVER,
    "boerenbridge": NEVER,
    "oh-hell-mrpikes": NEVER, "wizard": NEVER, "wizard-dragon-fairy": NEVER, "skull-king": NEVER,
    "skull-king-2013": NEVER, "spades-big-little-joker": NEVER, "spades-jjdd-big-little": NEVER,
    "boerenbridge-forehead": lambda hand_size, last: hand_size > 3,  # "only above 3 cards"
    # the last deal: blackout-zero waives the hook for a dealer who must still bid zero;
    # oh-hell-traditional has none in its last deal
    "blackout-zero": lambda hand_size, last: not last,
    "oh-hell-traditional": lambda hand_size, last: not last,
    # no bidding at all
    **{name: NEVER for name in ("hearts", "hearts-3-5-players", "omnibus-hearts", "spot-hearts", "black-maria",
                                      "euchre", "knockout-whist", "hearts-kitty", "whist")},
    # bids laid aside as cards, or read from the hand (nil or the spades held): no hook
    **{name: NEVER for name in ("ninety-nine", "spades-whiz", "spades-mirror")},
    # the estimates after an auction have no hook (the sources' 'risk' rules are not played);
    # the auction's calls are no bids; blind nil's spades have none either
    "estimation-whist": NEVER, "spades-blind-nil": NEVER,
    **{name: NEVER for name in ("five-hundred", "bid-whist")},
}
# Scored by partnership, with nil bids and bags carried between rounds: no per-seat oracle
# fits; tests/test_catalogue.py checks the source's scoring examples instead.
# Skull King's bonuses turn on the cards taken: tests/test_cards_as_data.py scores its
# records with a referee of its own; so does tests/test_hearts.py for the Hearts games.
SCORED_ELSEWHERE = {"spades", "spades-jjdd", "spades-500", "skull-king", "skull-king-2013",
                    "spades-big-little-joker", "spades-jjdd-big-little",
                    # scored by the cards taken, with the moon: tests/test_hearts.py's referee
                    "hearts", "hearts-3-5-players", "omnibus-hearts", "spot-hearts", "black-maria",
                    # partnerships scored by the maker's side: tests/test_euchre.py's referee
                    "euchre",
                    # partnerships scored by the contract of an auction: tests/test_auctions.py's
                    # worked examples (the Avondale table, books over six); blind nil as spades
                    "five-hundred", "bid-whist", "spades-blind-nil",
                    # a trick a point, players knocked out: tests/test_knockout_whist.py's referee
                    "knockout-whist",
                    # bids laid aside as cards, 30/20/10 by how many made theirs: tests/test_ninety_nine.py;
                    # the kitty with the first trick: tests/test_kitty_to_trick.py; partnership Spades
                    # with bids from the hand: tests/test_hand_bids.py (scored as spades)
                    "ninety-nine", "hearts-kitty", "spades-whiz", "spades-mirror",
                    # partnerships, a point a trick over six on each side's first seat: tests/test_whist.py
                    "whist"}


def games(names):
    """(ruleset name, seat kinds, seed) over ``names``, every allowed player count."""

    @st.composite
    def draw_game(draw):
        name = draw(st.sampled_from(names))
        rules = load_ruleset(name)
        players = draw(st.integers(rules.min_players, rules.max_players))
        seats = draw(st.lists(st.sampled_from(["random", "bot"]), min_size=players, max_size=players))
        return name, seats, draw(st.integers(0, 2**31 - 1))

    return draw_game()


def playout(state, seats, seed, bound, check):
    """Play to the end: every action must be listed as legal and pass verify; ``check``
    runs after every action; the game must end within ``bound`` actions."""
    policies = make_policies(state.rules, seats, seed)
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps <= bound, "the game does not end"
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            turn = state.turn
            legal = state.legal_actions()
            action = policies[turn].act(state.observation(turn), legal)
            assert action in legal
            assert state.can_apply(action)
            state.apply(action)
        check(state)


def round_overhead(rules, players):
    """The most actions a trick-taking round takes besides its cards' plays: the chance
    steps, a bid a seat, an auction's calls (each seat once, or until passed: every call
    rises, so at most one a possible call plus a pass a seat), a kitty's discards, an
    exchange's cards passed and a choice of bidding blind."""
    section = rules.section
    extra = players + 3
    auction = section.auction
    if auction is not None:
        if auction.rounds.value == "once":
            extra += players
        else:
            extra += 16 * len(auction.suits) + players
    if section.kitty is not None:
        extra += 16
    if section.exchange is not None:
        extra += 16 * players
    if section.blind is not None:
        extra += players
    return extra


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(TRICK_RULESETS))
def test_trick_taking_playouts_keep_every_rule(tmp_path_factory, game):
    name, seats, seed = game
    rules = load_ruleset(name)
    players = len(seats)
    state = new_game(rules, players, seed)
    deck = Counter(state.deck)
    bound = sum(state.setup.hand_sizes) * players + len(state.setup.hand_sizes) * round_overhead(rules, players)

    def cards_conserved(state):
        if state.turn >= 0 and state.phase == "play":
            events = state.events
            at = max(i for i, e in enumerate(events) if e["event"] == "deal")
            deal = events[at]
            held = Counter(c for hand in state.hands for c in hand)
            played = Counter(state.played)
            # a turned card the dealer took is in a hand; the card it laid aside is out of play
            taken = any(e["event"] == "pickup" for e in events[at:])
            aside = Counter(state.setup.pack.card(e["card"]) for e in events[at:] if e["event"] == "discard")
            upcard = Counter([state.setup.pack.card(deal["upcard"])] if deal["upcard"] and not taken else [])
            # the cards of a seat sitting the hand out (a lone maker's partner) are laid aside
            in_play = held + played + upcard + aside + Counter(getattr(state, "laid_aside", []))
            if state.pass_offset == -2:  # cards laid aside face down (exchange.direction: aside)
                in_play += Counter(c for cards in state.passing for c in cards)
            # a kitty comes out of what the hands left (the deal's stock); once taken it is in a
            # hand or among the discards
            kitty = sum(len(e["cards"]) for e in events[at:] if e["event"] == "kitty")
            if state.tricks.kitty is not None and state.tricks.kitty.to_trick is not None:
                in_play += Counter(state.kitty_taken)  # taken with a trick: among the cards taken
            assert not in_play - deck, "a card appeared that is not in the deck"
            assert sum(in_play.values()) + deal["stock"] - kitty == sum(deck.values()), "cards are not conserved"

    playout(state, seats, seed, bound, cards_conserved)
    # scores follow the rules, round by round, from the record alone
    oracle = None if name in SCORED_ELSEWHERE else ORACLES[name]
    bids, taken, laid = {}, Counter(), Counter()
    totals = [0] * players
    hand_size = 0
    hooked = HOOKED_WHEN.get(name, lambda hand_size, last: True)
    scored = 0
    for event in state.events:
        kind = event["event"]
        if kind == "deal":
            bids, taken, hand_size, laid = {}, Counter(), event["hand_size"], Counter()
        elif kind == "pass" and event.get("aside"):  # a card laid aside: a trick fewer
            laid[event["seat"]] += 1
        elif kind == "bid":
            bids[event["seat"]] = event["bid"]
        elif kind == "trick":
            taken[event["winner"]] += 1
        elif kind == "score":
            # every trick played, or (trump made at the table, every seat passing twice) a hand
            # thrown in that scores nothing
            assert sum(taken.values()) == hand_size - max(laid.values(), default=0) or \
                (not taken and not any(event["points"]))
            scored += 1
            if hooked(hand_size, scored == len(state.setup.hand_sizes)):
                assert sum(bids.values()) != hand_size
            expected = event["points"] if oracle is None else [oracle(bids[s], taken[s]) for s in range(players)]
            assert event["points"] == expected
            totals = [t + p for t, p in zip(totals, expected)]
            assert event["totals"] == totals
    end = {"event": "end", "totals": totals, "winners": state.winners}
    if rules.team is not None:
        end["teams"] = list(state.setup.teams)
    assert state.events[-1] == end
    assert_ends_when_the_rules_say(rules, state)
    # the record replays to the same totals
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    save_record(state, path)
    result = replay(path)
    assert result.complete and result.state.totals == state.totals


def assert_ends_when_the_rules_say(rules, state):
    """The game lasts its whole schedule, or (with rounds.end_when) up to the first round
    after which a total meets the target.  A rule that reads the counters is checked
    after the last round only (the record gives the totals of each round, the state the
    counters at the end)."""
    totals = [e["totals"] for e in state.events if e["event"] == "score"]
    if rules.end_when is None:
        assert len(totals) == len(state.setup.hand_sizes)
        return
    teams = state.setup.teams or tuple(range(state.players))
    reads_counters = bool(rules.end_when.names & set(state.counters))
    met = []
    for index, after in enumerate(totals):
        if reads_counters and index < len(totals) - 1:
            continue
        env = state.setup.round_env(index)
        env["totals"] = after
        env["team_totals"] = [sum(t for s, t in enumerate(after) if teams[s] == teams[seat])
                              for seat in range(state.players)]
        env.update({name: list(values) for name, values in state.counters.items()})
        met.append(bool(rules.end_when(env)))
    assert not any(met[:-1])
    assert met[-1] or len(totals) == len(state.setup.hand_sizes)


def _counts(name):
    rules = bundled(name)
    return [(name, n) for n in range(rules.min_players, rules.max_players + 1)]


@pytest.mark.parametrize("name, players", [c for n in TRICK_RULESETS for c in _counts(n)])
def test_every_trick_ruleset_plays_at_every_player_count(tmp_path, name, players):
    rules = load_ruleset(name)
    state = new_game(rules, players, seed=players)
    play_out(state, make_policies(rules, ["bot" if s % 2 else "random" for s in range(players)], players))
    assert state.is_over
    deals = [e["hand_size"] for e in state.events if e["event"] == "deal"]
    assert tuple(deals) == state.setup.hand_sizes[:len(deals)]
    assert_ends_when_the_rules_say(rules, state)
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


RUMMY_RULESETS = [n for n in bundled_names() if bundled(n).family.name == "contract-rummy"]


def rummy_cards_in_play(state):
    everything = Counter()
    for hand in state.hands:
        everything.update(hand)
    everything.update(state.stock)
    everything.update(state.pile)
    for meld in state.melds.values():
        everything.update(meld.cards)
    return everything


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(RUMMY_RULESETS))
def test_rummy_playouts_keep_every_rule(tmp_path_factory, game):
    name, seats, seed = game
    rules = load_ruleset(name)
    state = new_game(rules, len(seats), seed)
    deck = Counter(state.deck)
    bound = len(state.setup.hand_sizes) * (rules.section.stock.turn_limit + 2) * (len(seats) + 6)

    def every_card_in_one_place(state):
        if state.phase != "deal":
            # every card is in exactly one place: hands, stock, discard pile, melds
            assert rummy_cards_in_play(state) == deck
            for meld in state.melds.values():  # every meld on the table is a valid meld (of its kind)
                engine = state.meld_engine
                made = engine.make_kind(meld.name, meld.cards) if meld.name else engine.make(meld.kind, meld.cards)
                assert made.cards == meld.cards

    playout(state, seats, seed, bound, every_card_in_one_place)
    scores = [e for e in state.events if e["event"] == "score"]
    # the whole schedule, or fewer rounds where rounds.end_when ended the game
    assert len(scores) == len(state.setup.hand_sizes) or (rules.end_when is not None and
                                                          len(scores) < len(state.setup.hand_sizes))
    totals = [0] * len(seats)
    for score in scores:
        totals = [t + p for t, p in zip(totals, score["points"])]
        assert score["totals"] == totals
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    save_record(state, path)
    result = replay(path)
    assert result.complete and result.state.totals == state.totals


@pytest.mark.parametrize("name, players", [c for n in RUMMY_RULESETS for c in _counts(n)])
def test_every_rummy_ruleset_plays_at_every_player_count(tmp_path, name, players):
    rules = load_ruleset(name)
    state = new_game(rules, players, seed=players)
    play_out(state, make_policies(rules, ["bot" if s % 2 == 0 else "random" for s in range(players)], players))
    assert state.is_over
    contracts = [e.get("rules_round", e["round"]) for e in state.events if e["event"] == "deal"]
    if rules.end_when is None:
        assert tuple(contracts) == state.setup.round_numbers
    else:  # the game may end before the schedule does
        assert tuple(contracts) == state.setup.round_numbers[:len(contracts)]
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals
