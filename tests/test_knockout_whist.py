"""Seats sitting a hand out by a rule (sits_out), and Knockout Whist: checked against its
published rules (gambiter.com's Knock-Out Whist, gamerules.com's) by a referee written
from the rules, over whole games at every player count, with bot, random and search seats."""

from __future__ import annotations

import textwrap
from collections import Counter

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import EvaluationError
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record


def referee(events, players):
    """Knockout Whist from the record, as the rules say: 'A player who takes no tricks at
    all in a hand is knocked out, is dealt no more cards, and takes no further part';
    'The winner of most tricks on a hand chooses the trump suit on the next hand' (a tie
    to the lowest seat, this file's reading); 'The player on dealer's left leads' (the
    next one still in); the game ends with one player left, who wins."""
    alive = set(range(players))
    chooser = None
    rounds = {}
    for e in events:
        rounds.setdefault(e.get("round"), []).append(e)
    played_rounds = sorted(r for r in rounds if r is not None)
    for number in played_rounds:
        lines = rounds[number]
        deal = next(e for e in lines if e["event"] == "deal")
        assert deal["hand_size"] == 8 - number, "seven hands of 7 down to 1"
        assert {e["seat"] for e in lines if e["event"] == "sit_out"} == set(range(players)) - alive
        trump = next(e for e in lines if e["event"] == "trump")
        if number == 1:
            assert "seat" not in trump, "the first trump is the turned card's"
        else:
            assert trump["seat"] == chooser and trump["suit"] in "SHDC"
        plays = [e for e in lines if e["event"] == "play"]
        leader = (deal["dealer"] + 1) % players
        while leader not in alive:
            leader = (leader + 1) % players
        assert plays[0]["seat"] == leader
        tricks = Counter(e["winner"] for e in lines if e["event"] == "trick")
        assert {e["seat"] for e in plays} == alive, "only the players still in play"
        assert sum(tricks.values()) == 8 - number
        score = next(e for e in lines if e["event"] == "score")
        assert score["points"] == [tricks[s] for s in range(players)]
        most = max(tricks.values())
        chooser = min(s for s in alive if tricks[s] == most)
        alive = {s for s in alive if tricks[s] > 0}
        if len(alive) == 1:
            assert number == played_rounds[-1], "the game ends when one player is left"
    end = events[-1]
    assert end["event"] == "end" and len(alive) == 1 and end["winners"] == sorted(alive)


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("kinds", [("bot", "random"), ("random", "search:8")])
def test_knockout_whist_follows_its_rules_at_every_player_count(tmp_path, players, kinds):
    rules = load_ruleset("knockout-whist")
    seed = players * 7 + len(kinds[1])
    state = new_game(rules, players, seed)
    seats = [kinds[s % 2] for s in range(players)]
    policies = make_policies(rules, seats, seed)
    deck = Counter(state.deck)
    while not state.is_over:  # the cards are all somewhere: hands, the trick, played, laid aside, the stock
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            legal = state.legal_actions()
            state.apply(policies[state.turn].act(state.observation(state.turn), legal))
            if state.phase == "play" and state.turn >= 0:
                assert all(not state.hands[s] for s in state.absent)
                deal = next(e for e in reversed(state.events) if e["event"] == "deal")
                held = Counter(c for hand in state.hands for c in hand) + Counter(state.played) + \
                    Counter(state.laid_aside) + Counter([state.upcard] if state.upcard is not None else [])
                assert not held - deck and sum(held.values()) + deal["stock"] == sum(deck.values())
    referee(state.events, players)
    path = tmp_path / "ko.jsonl"
    save_record(state, path)
    assert replay(path).state.totals == state.totals


def _until_someone_is_out(rules):
    """Three bots play seed 5 until a player is knocked out (or the game ends)."""
    state = new_game(rules, 3, 5)
    policies = make_policies(rules, ["bot"] * 3, 5)
    while not state.absent and not state.is_over:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    return state


def test_a_knocked_out_player_sees_it_and_the_others_do_not_see_its_cards():
    rules = load_ruleset("knockout-whist")
    state = _until_someone_is_out(rules)
    assert state.absent, "seed 5 knocks a player out before the game ends"
    out = state.absent[0]
    watcher = next(s for s in range(3) if s not in state.absent)
    obs = state.observation(watcher)
    assert obs.absent == state.absent == state.observation(out).absent
    assert not any(obs.others) and not set(state.laid_aside) & set(obs.hand)  # the laid-aside hand is nobody's
    assert state.observation(out).hand == ()
    # the explain page says what the engine does with a seat out
    from cardrules.interpreter.explain import explain
    assert "A player sits a hand out when `knocked == 1`" in explain(rules)


def _dealer_out(tmp_path, extra=""):
    path = tmp_path / "five.yaml"
    path.write_text(textwrap.dedent("""\
        extends: oh-hell
        name: oh-hell-dealer-out
        players: {min: 3, max: 6}
        sits_out: "players >= 5 and seat == dealer"
        """) + extra)
    return load_ruleset(str(path))


@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_dealer_sits_out_at_a_large_table_and_the_hook_counts_only_the_players(tmp_path, players):
    # "the dealer ... sits out" at five or more: four bid and play, the dealer bids last no more
    rules = _dealer_out(tmp_path)
    state = new_game(rules, players, 3)
    play_out(state, make_policies(rules, ["bot", "random", "search:6", "bot", "random", "bot"][:players], 3))
    by_round = {}
    for e in state.events:
        by_round.setdefault(e.get("round"), []).append(e)
    for number, lines in by_round.items():
        if number is None:
            continue
        dealer = next(e for e in lines if e["event"] == "deal")["dealer"]
        out = {e["seat"] for e in lines if e["event"] == "sit_out"}
        assert out == ({dealer} if players >= 5 else set())
        bids = [e for e in lines if e["event"] == "bid"]
        assert [b["seat"] for b in bids] == [s for s in ((dealer + k) % players for k in range(1, players + 1))
                                             if s not in out]
        plays = [e for e in lines if e["event"] == "play"]
        assert len(plays) == (players - len(out)) * next(e for e in lines if e["event"] == "deal")["hand_size"]
        score = next(e for e in lines if e["event"] == "score")
        for s in out:
            assert score["points"][s] == 0
        # the hook binds the last of the players who bid
        hand = next(e for e in lines if e["event"] == "deal")["hand_size"]
        assert sum(b["bid"] for b in bids) != hand
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    assert replay(path, str(tmp_path / "five.yaml")).state.totals == state.totals


def test_a_rule_that_leaves_fewer_than_two_players_stops_with_a_clear_error(tmp_path):
    path = tmp_path / "all.yaml"
    path.write_text("extends: oh-hell\nname: nobody\nsits_out: \"seat != dealer\"\n")
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 1)
    with pytest.raises(EvaluationError, match="sits_out 'seat != dealer' leaves 1 player in round 1: at least two"):
        state.apply(state.chance_action())


@pytest.mark.parametrize("extra, message", [
    ("phases: [deal, exchange, play, score]\nexchange: {cards: 1, direction: 1}\n", "an exchange of cards"),
    ("sits_out: \"seat == nobody\"\n", "unknown name 'nobody'"),
])
def test_validate_refuses_what_sits_out_cannot_do_where_it_is_written(tmp_path, run_cli, extra, message):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: hearts\nname: bad\nsits_out: \"seat == dealer\"\n" + extra
                    if "nobody" not in extra else "extends: oh-hell\nname: bad\n" + extra)
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:3:" in result.output and message in result.output, result.output


def test_no_one_sees_a_hand_laid_aside_not_even_its_own_seat():
    rules = load_ruleset("knockout-whist")
    state = _until_someone_is_out(rules)
    laid = set(state.laid_aside)
    for viewer in (0, 1, 2, None):
        deal = [e for e in state.event_views(viewer) if e["event"] == "deal"][-1]
        shown = {state.setup.pack.card(c) for hand in deal.get("hands") or () for c in hand or () if c}
        assert not shown & laid, viewer


def test_a_made_up_sit_out_line_does_not_replay(tmp_path):
    from cardrules.interpreter.record import RecordError
    rules = load_ruleset("knockout-whist")
    state = new_game(rules, 3, 2)
    play_out(state, make_policies(rules, ["bot"] * 3, 2))
    path = tmp_path / "ko.jsonl"
    save_record(state, path)
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"play"' in line)
    lines.insert(at + 1, '{"event": "sit_out", "round": 1, "seat": 1}')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="sit_out"):
        replay(path)


def test_sits_out_with_cards_played_in_a_role_is_refused(tmp_path, run_cli):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: skull-king\nname: bad\nsits_out: \"players >= 4 and seat == dealer\"\n")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1 and f"{path}:3:1" in result.output
    assert "cannot yet be combined with cards played in a role" in result.output


def test_a_counter_reads_each_seats_own_card_points(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text("extends: hearts\nname: hearts-counted\ncounters: {cp: {update: \"cp + card_points\"}}\n")
    rules = load_ruleset(str(path))
    state = new_game(rules, 4, 3)
    policies = make_policies(rules, ["bot"] * 4, 3)
    while state.round_index == 0:
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    assert state.counters["cp"] == state.card_points


def test_between_two_deals_the_web_table_shows_no_stale_trump():
    # at a round's end the last trump is over and the next is not made: the table's facts
    # name none (they once read "no trump" beside the last turned card), but keep the counters
    from cardrules.web.families.trick_taking import TrickWebView
    rules = load_ruleset("knockout-whist")
    state = new_game(rules, 4, 2)
    policies = make_policies(rules, ["bot"] * 4, 2)
    state.apply(state.chance_action())
    while state.turn != CHANCE:
        state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    view = TrickWebView(rules)
    labels = [f["label"] for panel in view.panels(state.observation(0), ["A", "B", "C", "D"], False)
              for f in panel.get("items", [])]
    assert "Trump" not in labels and "knocked" in labels
    state.apply(state.chance_action())
    labels = [f["label"] for panel in view.panels(state.observation(0), ["A", "B", "C", "D"], False)
              for f in panel.get("items", [])]
    assert "Trump" in labels
