"""The search seat (`search`, `search:N`, `search:Xs`): it plans with the rules and its
observation only.  A family's `determinize` samples full states that agree with what
the seat has observed (its hand, the cards played and who played them, the suits a
seat has shown void in, the melds and the cards taken from the pile), keeps every
card of the pack, and differs from sample to sample; the search seat picks legal
moves, the same ones under the same seed, and every game with one ends."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardrules.interpreter import families, load_ruleset
from cardrules.interpreter.cards import card
from cardrules.interpreter.bots import check_seat_kind, make_policies, make_policy, seat_kinds
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.families.trick_taking.trickplay import led_suit
from cardrules.interpreter.game import CHANCE, OVER, new_game
from cardrules.interpreter.search import DEFAULT_PLAYOUTS, SearchBot, SearchUnavailable, parse_budget
from helpers import DATA

TRICKS = ["oh-hell", "spades", "named-trump-simultaneous", "indian-first-round", "jokers-top-trump",
          "wizard-jokers", "partners", "rotation-must-trump", "whist"]
RUMMY = ["shanghai-isra", "liverpool-rummy-reference", "wild-by-round", "veto-take", "deuces-wild", "deuces-natural",
         "king-rummy-capture", "push-draw", "bury-upcard", "phase-10-masters", "may-i-chain",
         "phase-10-25th-anniversary"]


def _rules(name):
    path = DATA / "good" / f"{name}.yaml"
    return load_ruleset(path if path.exists() else name)


def _positions(rules, players, seed, limit=400):
    """(state, observation, memory) at each seat decision of a game of heuristic bots."""
    family = rules.family
    state = new_game(rules, players, seed)
    bots = make_policies(rules, ["bot"] * players, seed)
    memories = [{} for _ in range(players)]
    decisions = 0
    while state.turn != OVER and decisions < limit:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
            continue
        seat = state.turn
        obs = state.observation(seat)
        remember = getattr(family, "remember", None)
        if remember is not None:
            remember(rules, obs, memories[seat])
        yield state, obs, memories[seat]
        state.apply(bots[seat].act(obs, state.legal_actions()))
        decisions += 1


def _hidden(state, seat):
    """What ``seat`` may not see: the other hands, as one multiset, with the stock and pile."""
    hidden = Counter()
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.update(hand)
    hidden.update(state.stock)
    hidden.update(state.pile[:-1])
    return hidden


@pytest.mark.parametrize("name", TRICKS + RUMMY)
def test_a_sampled_state_shows_the_seat_exactly_what_it_observed(name):
    rules = _rules(name)
    players = max(rules.min_players, min(4, rules.max_players))
    rng = random.Random(5)
    for state, obs, memory in _positions(rules, players, seed=2, limit=250):
        sample = rules.family.determinize(rules, obs, memory, rng)
        seen = sample.observation(obs.seat)
        if "table" in obs._fields:  # the table index is compared by its melds
            assert seen.table.melds == obs.table.melds
            seen, obs = seen._replace(table=None), obs._replace(table=None)
        assert seen == obs
        assert sorted(map(str, sample.legal_actions())) == sorted(map(str, state.legal_actions()))


def test_trick_taking_samples_keep_voids_and_hidden_cards_and_differ():
    rules = load_ruleset("oh-hell")
    rng = random.Random(1)
    checked = 0
    for state, obs, memory in _positions(rules, 4, seed=11):
        if obs.phase != "play" or len(obs.played) < 8:
            continue
        seat = obs.seat
        unseen = Counter(state.deck) - Counter(obs.hand) - Counter(obs.played) - Counter([obs.upcard])
        samples = [rules.family.determinize(rules, obs, memory, rng) for _ in range(6)]
        for sample in samples:
            assert sample.hands[seat] == state.hands[seat]
            assert sample.played == state.played and sample.taken == state.taken
            assert sample.upcard == state.upcard
            others = Counter(c for s, h in enumerate(sample.hands) if s != seat for c in h) + Counter(sample.stock)
            assert others == unseen  # the hidden cards are the same cards, dealt anew
            for s, hand in enumerate(sample.hands):
                assert len(hand) == len(state.hands[s])
                for suit in _voids(obs, state).get(s, ()):
                    assert not any(obs.suits[c] == suit for c in hand)
        deals = {tuple(tuple(sorted(h)) for s, h in enumerate(sample.hands) if s != seat) + (tuple(sample.stock),)
                 for sample in samples}
        assert len(deals) > 1  # the samples differ
        checked += 1
    assert checked > 20


def _voids(obs, state):
    """The suits each seat has shown it lacks, from the round's record (no rule lets
    oh-hell's players off following suit)."""
    voids = {}
    plays = [e for e in state.events if e["event"] == "play" and e["round"] == obs.round]
    tricks = {}
    for e in plays:
        tricks.setdefault(e["trick"], []).append((e["seat"], card(e["card"])))
    for trick in tricks.values():
        for k, (seat, c) in enumerate(trick[1:], 1):
            led = led_suit(trick[:k], obs.suits)
            if obs.suits[c] != led:
                voids.setdefault(seat, set()).add(led)
    return voids


def test_rummy_samples_keep_the_cards_taken_from_the_pile_and_the_buried_discards():
    rules = load_ruleset("shanghai-isra")
    rng = random.Random(3)
    checked = 0
    for state, obs, memory in _positions(rules, 4, seed=4, limit=300):
        sample = rules.family.determinize(rules, obs, memory, rng)
        seat = obs.seat
        assert sample.hands[seat] == state.hands[seat]
        for s, known in enumerate(obs.known):
            assert not Counter(known) - Counter(sample.hands[s])  # each still holds what it took
        assert sample.melds == state.melds and sample.owners == state.owners
        assert _hidden(sample, seat) == _hidden(state, seat)
        assert sample.pile[-1:] == state.pile[-1:]
        checked += 1
    assert checked > 100


def test_the_search_seat_never_reads_the_game_state(monkeypatch):
    """It is handed observations only: a policy given no state cannot read one, and its
    moves are the same whatever the hidden cards are, as long as its observation is."""
    rules = load_ruleset("oh-hell")
    state = new_game(rules, 4, 3)
    state.apply(state.chance_action())
    bot = make_policy(rules, "search:30", 3, state.turn)
    obs = state.observation(state.turn)
    twin = make_policy(rules, "search:30", 3, state.turn)
    assert bot.act(obs, state.legal_actions()) == twin.act(obs, list(state.legal_actions()))


@pytest.mark.parametrize("name", ["oh-hell-five", "shanghai-isra-junior", "named-trump-simultaneous",
                                  "indian-first-round", "partners", "deuces-wild"])
def test_a_game_with_a_search_seat_ends_with_legal_moves(name):
    rules = _rules(name)
    players = max(rules.min_players, min(4, rules.max_players))
    kinds = ["search:6"] + ["bot"] * (players - 1)
    state = new_game(rules, players, 8)
    policies = make_policies(rules, kinds, 8)
    while state.turn != OVER:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
            continue
        legal = state.legal_actions()
        action = policies[state.turn].act(state.observation(state.turn), legal)
        assert action in legal
        state.apply(action)
    assert state.is_over


def test_the_search_seat_is_deterministic_under_a_seed():
    rules = _rules("oh-hell-five")
    first = play_bots(rules, ["search:12", "bot", "bot", "bot"], seed=21)
    again = play_bots(rules, ["search:12", "bot", "bot", "bot"], seed=21)
    assert first.events == again.events


def test_the_budget_is_playouts_or_seconds():
    assert parse_budget("search") == (DEFAULT_PLAYOUTS, None)
    assert parse_budget("search:300") == (300, None)
    assert parse_budget("search:0.3s") == (None, 0.3)
    rules = load_ruleset("oh-hell")
    bot = make_policy(rules, "search:40", 1, 0)
    assert isinstance(bot, SearchBot) and bot.playouts == 40 and bot.kind == "search:40"
    timed = make_policy(rules, "search:0.05s", 1, 0)
    state = new_game(rules, 4, 1)
    state.apply(state.chance_action())
    assert timed.act(state.observation(state.turn), state.legal_actions()) in state.legal_actions()


@pytest.mark.parametrize("kind", ["search:", "search:0", "search:-3", "search:abc", "search:1.5", "search:0s",
                                  "search:xs", "search:nans", "search:3000000", "search:700s"])
def test_a_bad_budget_says_how_to_write_one(kind):
    with pytest.raises(ValueError, match="search:300.*search:0.5s"):
        parse_budget(kind)
    with pytest.raises(ValueError, match="search budget"):
        check_seat_kind(load_ruleset("oh-hell"), kind)


def test_search_is_listed_among_the_seat_kinds():
    assert "search" in seat_kinds(load_ruleset("oh-hell"))
    assert "search" in seat_kinds(load_ruleset("shanghai-isra"))


def test_a_family_without_determinize_has_no_search_bot(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(DATA / "plugin"))  # the plugin family's module, registered by hand
    import cardrules_highcard

    families.register(cardrules_highcard.FAMILY)
    try:
        path = tmp_path / "toy.yaml"
        path.write_text("family: high-card\nname: toy\nplayers: {min: 2, max: 4}\ndeal: {hand_size: 3}\n"
                        "high_card: {points: 1}\nwinner: highest\n")
        rules = load_ruleset(path)
        assert "search" not in seat_kinds(rules)
        with pytest.raises(ValueError, match="has no search bot"):
            check_seat_kind(rules, "search:5")
        with pytest.raises(SearchUnavailable, match="has no search bot"):
            SearchBot(rules, 0)
    finally:
        families.unregister("high-card")


def test_the_command_line_takes_search_seats_and_refuses_bad_budgets(run_cli):
    result = run_cli("simulate", str(DATA / "good" / "oh-hell-five.yaml"), "--games", "2",
                     "--seats", "search:5,bot,bot,bot", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    result = run_cli("simulate", "oh-hell", "--games", "2", "--seats", "search:zero,bot,bot,bot")
    assert result.exit_code == 2
    assert "search:300" in result.output


def test_the_table_says_when_a_search_seat_is_thinking(monkeypatch, capsys):
    import sys

    from cardrules.cli.table import Thinking

    rules = load_ruleset("oh-hell")
    state = new_game(rules, 4, 1)
    state.apply(state.chance_action())
    seat = Thinking(make_policy(rules, "search:4", 1, state.turn), "Cy")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert seat.act(state.observation(state.turn), state.legal_actions()) in state.legal_actions()
    out = capsys.readouterr().out
    assert out.startswith("  Cy is thinking") and out.endswith("\r\033[K")  # shown, then wiped


def _discard_only(name, seed, limit=300):
    """The decisions of a game of bots at which the seat in turn can only discard, from
    more cards than the bot shortlists."""
    from cardrules.interpreter.families.contract_rummy.actions import Discard
    from cardrules.interpreter.families.contract_rummy.bot import SHORTLIST
    for state, obs, memory in _positions(_rules(name), 4, seed=seed, limit=limit):
        legal = state.legal_actions()
        if len(legal) > SHORTLIST and all(type(a) is Discard for a in legal):
            yield state, obs, memory, legal


def test_the_rummy_bot_shortlists_its_own_best_discards_for_the_search():
    """The search spreads its playouts over the bot's few best discards (its own choice
    first), not over every card of the hand; any other decision is searched whole."""
    from cardrules.interpreter.families.contract_rummy.bot import SHORTLIST
    rules = _rules("shanghai-isra")
    checked = 0
    for state, obs, memory, legal in _discard_only("shanghai-isra", seed=6):
        bot = make_policy(rules, "bot", 1, obs.seat)
        listed = bot.shortlist(obs, legal)
        assert len(listed) == SHORTLIST == len(set(listed))
        assert legal[listed[0]] == bot.act(obs, legal)
        keys = dict(zip(legal, bot._discard_keys(obs, legal)))
        worst_listed = max(keys[legal[i]] for i in listed)
        assert all(keys[a] >= worst_listed for i, a in enumerate(legal) if i not in listed)
        checked += 1
    assert checked > 30
    called = 0  # a ruleset with a fitting-discard call: one discard a card, as the bot plays it
    for state, obs, memory, legal in _discard_only("shanghai-pagat", seed=3):
        bot = make_policy(_rules("shanghai-pagat"), "bot", 1, obs.seat)
        listed = bot.shortlist(obs, legal)
        assert len({legal[i].card for i in listed}) == len(listed) == SHORTLIST
        assert legal[listed[0]] == bot.act(obs, legal)
        called += any(legal[i].call for i in listed)
    assert called > 3
    others = 0
    for state, obs, memory in _positions(rules, 4, seed=6, limit=200):
        legal = state.legal_actions()
        if obs.phase.name in ("DRAWING", "WINDOW") and len(legal) > 1:
            assert make_policy(rules, "bot", 1, obs.seat).shortlist(obs, legal) is None
            others += 1
    assert others > 30


def test_the_search_tries_only_the_actions_its_guide_shortlists():
    rules = _rules("shanghai-isra")
    chosen = 0
    for state, obs, memory, legal in _discard_only("shanghai-isra", seed=9, limit=200):
        search = make_policy(rules, "search:24", 2, obs.seat)
        listed = [len(legal) - 1, len(legal) - 2]  # the last two listed: seldom the bot's choice
        search._shortlist = lambda o, l: listed
        search.margin = None  # no guide added back: the shortlist is all it may try
        assert legal.index(search.act(obs, legal)) in listed
        assert search.last_playouts > 0
        chosen += 1
    assert chosen > 10



def test_a_playout_is_worth_the_seats_chance_of_winning_the_game():
    """A playout that ends the game is worth the seat's share of the win; one that does
    not, its chance of ending ahead of every other side from the totals it leaves."""
    from cardrules.interpreter.search import playout_outcome, round_spread, win_chance
    rules = _rules("shanghai-isra-junior")
    bots = make_policies(rules, ["bot"] * 4, 3)
    ended = going = 0
    for state, obs, memory in _positions(rules, 4, seed=3, limit=2000):
        trial = state.clone()
        outcome = playout_outcome(trial, bots, obs.seat)
        assert outcome.totals == tuple(trial.totals) and outcome.rounds_left == state.rounds - state.round_index - 1
        if trial.is_over:
            won = trial.winners
            assert outcome.won == (1 / len(won) if obs.seat in won else 0.0)
            ended += 1
        else:
            spread = round_spread([outcome])
            chance = win_chance(outcome, spread)
            assert outcome.won is None and 0.0 < chance < 1.0
            worse = outcome._replace(totals=tuple(t + 5 if s == obs.seat else t for s, t in enumerate(outcome.totals)))
            assert win_chance(worse, spread) < chance  # 5 more penalty points: a lesser chance
            going += 1
        if ended > 5 and going > 20:
            break
    assert ended > 5 and going > 20


def test_in_partnerships_the_sides_are_the_teams():
    from cardrules.interpreter.search import playout_outcome
    rules = _rules("partners")
    bots = make_policies(rules, ["bot"] * 4, 2)
    for state, obs, memory in _positions(rules, 4, seed=2, limit=30):
        outcome = playout_outcome(state.clone(), bots, obs.seat)
        teams = state.setup.teams
        assert len(outcome.totals) == len(set(teams)) == 2
        assert outcome.side == sorted(set(teams)).index(teams[obs.seat])
