"""skip.seat: chosen: a skip card names the seat that loses its next turn.  Phase 10's
25th Anniversary booklet (Fundex, 2005): "To use, simply discard the Skip card on your
turn, then choose the player who will lose a turn"; "Only one Skip card against each
player per round may be used"; "When someone is skipped, a round is once around the
table".  Bundled as phase-10-25th-anniversary: `skip.may: named == 0 or since >= players`."""

from __future__ import annotations

import json

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.bots import make_policy
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.errors import IllegalActionError, RecordError
from cardrules.interpreter.families.contract_rummy.actions import DRAW, Discard
from cardrules.interpreter.families.contract_rummy.textio import parse_input
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

RULES = "phase-10-25th-anniversary"
# four hands of ten; seat 1 (first to play, dealer 0) holds two Skips
HANDS = ["1R 1B 1G 5R 5B 5Y 9G 11Y 12R 3B", "SKIP SKIP 7G 8G 9Y 10R 12B 12G 4Y 6R",
         "3R 3G 4B 6B 6G 7R 7Y 8R 10B 11G", "2R 2B 2G 2Y 4R 4G 9R 9B 10G 11R"]


def stacked(rules=None, hands=HANDS, upcard="6Y", stock=()):
    rules = rules or load_ruleset(RULES)
    pack = rules.deck.pack
    state = new_game(rules, len(hands), seed=0)
    state.stack_deal(tuple(tuple(pack.card(c) for c in h.split()) for h in hands), pack.card(upcard),
                     tuple(pack.card(c) for c in stock), dealer=0)
    return state


def skip_of(state):
    return state.setup.pack.card("SKIP")


def draw(state):
    """The player in turn draws from the stock (declining the discard)."""
    state.apply(DRAW)
    while state.turn == CHANCE:
        state.apply(state.chance_action())
    return state


def test_a_skip_is_discarded_naming_any_other_player_who_then_loses_their_turn():
    state = stacked(stock=["1Y", "2Y"])
    draw(state)
    skip = skip_of(state)
    aimed = [a for a in state.legal_actions() if a.card == skip]
    assert [a.target for a in aimed] == [2, 3, 0]  # every other seat, in turn order from the next
    assert Discard(skip, False, state.setup.pack) not in state.legal_actions()  # it must name someone
    state.apply(Discard(skip, False, state.setup.pack, 3))
    assert state.events[-1] == {"event": "discard", "round": 1, "seat": 1, "card": "SKIP", "skips": 3}
    assert state.turn == 2  # seat 2 plays as usual
    draw(state)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    assert state.events[-1] == {"event": "skip", "round": 1, "seat": 3}  # seat 3 loses its turn
    assert state.turn == 0


def test_a_player_is_skipped_once_a_circuit():
    """Seat 1 names seat 3; until every seat has begun a turn since (seat 3's lost one
    counting), nobody may name seat 3 again: at seat 1's next turn they may."""
    hands = [HANDS[0], HANDS[1], "SKIP 3G 4B 6B 6G 7R 7Y 8R 10B 11G", HANDS[3]]
    state = stacked(hands=hands)
    pack = state.setup.pack
    skip = skip_of(state)
    draw(state)
    state.apply(Discard(skip, False, pack, 3))
    draw(state)  # seat 2: seat 3 was named one turn ago
    assert [a.target for a in state.legal_actions() if a.card == skip] == [0, 1]
    with pytest.raises(IllegalActionError, match="seat 3 was skipped less than a circuit ago"):
        state.verify(Discard(skip, False, pack, 3))
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard) and a.card != skip))
    assert state.events[-1]["event"] == "skip" and state.events[-1]["seat"] == 3
    draw(state)  # seat 0
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    draw(state)  # seat 1 again: four turns begun since it named seat 3 (3's lost one, 2, 0, 1)
    assert state.turn == 1
    assert [a.target for a in state.legal_actions() if a.card == skip] == [2, 3, 0]
    assert state.observation(0).seats.named == (0, 0, 0, 1)
    assert state.observation(0).seats.since == (0, 0, 0, 4)


def test_what_a_player_types_and_the_refusals():
    state = stacked()
    pack = state.setup.pack
    skip = skip_of(state)
    draw(state)
    assert parse_input("call", "discard skip to 2", pack=pack) == Discard(skip, False, pack, 2)
    with pytest.raises(IllegalActionError, match=r"name the player SKIP skips, e.g. 'discard SKIP to 2' "
                                                 r"\(seats you may name: 2, 3, 0\)"):
        state.verify(Discard(skip, False, pack))
    with pytest.raises(IllegalActionError, match="seat 1 cannot be skipped now"):
        state.verify(Discard(skip, False, pack, 1))  # not oneself
    with pytest.raises(IllegalActionError, match="seat 7 cannot be skipped now"):
        state.verify(Discard(skip, False, pack, 7))
    with pytest.raises(IllegalActionError, match="only a card that skips names a player, and 7G does not"):
        state.verify(Discard(pack.card("7G"), False, pack, 2))
    with pytest.raises(IllegalActionError, match="'bob' is not a seat number"):
        parse_input("call", "discard skip to bob", pack=pack)
    with pytest.raises(IllegalActionError, match="choose which contract"):
        parse_input("call", "choose \u00b2", pack=pack)  # a digit int() refuses, not a traceback


def test_a_skip_that_goes_out_names_no_one():
    state = stacked()
    pack = state.setup.pack
    skip = skip_of(state)
    draw(state)
    state.hands[1] = [skip]  # (a position: the Skip is the last card)
    state._legal_at = -1
    assert state.legal_actions() == [Discard(skip, False, pack)]
    with pytest.raises(IllegalActionError, match="a card that goes out names no one to skip"):
        state.verify(Discard(skip, False, pack, 2))
    state.apply(Discard(skip, False, pack))
    assert [e["event"] for e in state.events[-3:]][:2] == ["discard", "out"]
    assert "skips" not in state.events[-3]


def test_where_no_one_may_be_named_the_skip_names_no_one(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {RULES}\nname: r\nskip:\n  may: {{rule: 'target == 9', message: 'never'}}\n")
    state = stacked(load_ruleset(path))
    pack = state.setup.pack
    draw(state)
    assert Discard(skip_of(state), False, pack) in state.legal_actions()
    assert not [a for a in state.legal_actions() if isinstance(a, Discard) and a.target is not None]
    with pytest.raises(IllegalActionError, match="never"):
        state.verify(Discard(skip_of(state), False, pack, 2))


def test_the_bot_skips_the_player_nearest_to_going_out():
    rules = load_ruleset(RULES)
    state = stacked(rules)
    draw(state)
    state.hands[0] = state.hands[0][:3]  # seat 0 holds 3 cards, the others 10
    state._legal_at = -1
    bot = make_policy(rules, "bot", 4, 1)
    obs = state.observation(1)
    aimed = [a for a in state.legal_actions() if a.target is not None]
    assert bot._aim(obs, aimed[0], state.legal_actions()).target == 0


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_record_who_was_skipped_and_replay(seed, tmp_path):
    rules = load_ruleset(RULES)
    state = play_bots(rules, ["bot"] * 4, seed=seed)
    assert state.is_over
    events = state.events
    aimed = [i for i, e in enumerate(events) if e["event"] == "discard" and "skips" in e]
    assert aimed
    for i in aimed:  # the named seat's next turn is lost, before it plays again
        target, rnd = events[i]["skips"], events[i]["round"]
        after = [e for e in events[i + 1:] if e.get("round") == rnd and e.get("seat") == target]
        if after:
            assert after[0]["event"] == "skip"
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path).complete
    assert replay(path, check_deals=False).complete


def test_a_record_naming_a_seat_that_may_not_be_named_does_not_replay(tmp_path):
    state = play_bots(load_ruleset(RULES), ["bot"] * 4, seed=1)
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"skips"' in line)
    event = json.loads(lines[at])
    for bad, message in ((event["seat"], "cannot be skipped now"), ("x", "names a seat by its number"),
                         (None, "name the player SKIP skips")):
        changed = dict(event, skips=bad) if bad is not None else {k: v for k, v in event.items() if k != "skips"}
        path.write_text("\n".join(lines[:at] + [json.dumps(changed)] + lines[at + 1:]) + "\n")
        with pytest.raises(RecordError, match=message):
            replay(path)


def test_skip_may_needs_a_chosen_seat_and_its_names_are_taken(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("extends: phase-10\nname: r\nskip:\n  may: {rule: 'named == 0', message: 'no'}\n")
    with pytest.raises(RulesetError, match="skip.may says whom a discarder may name, so it needs skip.seat: chosen"):
        load_ruleset(path)
    path.write_text(f"extends: {RULES}\nname: r\ncounters:\n  since: {{initial: 0, update: '0'}}\n")
    with pytest.raises(RulesetError, match="'since' is a name the language"):
        load_ruleset(path)


def test_a_search_seat_names_a_seat_too():
    rules = load_ruleset(RULES)
    state = stacked(rules)
    draw(state)
    search = make_policy(rules, "search:8", 5, 1)
    assert search.act(state.observation(1), state.legal_actions()) in state.legal_actions()


def test_the_web_table_and_the_terminal_name_the_seats():
    from cardrules.web.families.contract_rummy import RummyWebView
    rules = load_ruleset(RULES)
    state = stacked(rules)
    draw(state)
    names = ["ann", "bob", "cy", "di"]
    controls = RummyWebView(rules).controls(state.observation(1), state.legal_actions(), names)
    buttons = [b for b in controls["buttons"] if b["group"] == "Skip a player"]
    assert [(b["label"], b["move"]) for b in buttons] == [
        ("Discard Skip: cy loses a turn", "discard SKIP to 2"), ("Discard Skip: di loses a turn", "discard SKIP to 3"),
        ("Discard Skip: ann loses a turn", "discard SKIP to 0")]


def test_openspiel_ids_of_a_named_skip_round_trip_and_a_game_plays():
    from cardrules.interpreter.families.contract_rummy.encoding import RummyCodec
    rules = load_ruleset(RULES)
    codec = RummyCodec(rules, 4)
    state = stacked(rules)
    draw(state)
    for action in state.legal_actions():
        assert codec.decode(codec.encode(action)) == action
    plain = RummyCodec(load_ruleset("phase-10"), 4)
    assert plain.size == codec.size - 4  # the seats' ids come after every other
    pyspiel = pytest.importorskip("pyspiel")
    from cardrules import openspiel as cos
    game = cos.load(RULES, 3, rounds=2, horizon=200)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_tensor_shows_whom_a_skip_may_name():
    from cardrules.interpreter.families.contract_rummy.encoding import RummyEncoder
    rules = load_ruleset(RULES)
    state = stacked(rules)
    pack = state.setup.pack
    draw(state)
    state.apply(Discard(skip_of(state), False, pack, 3))
    codec = RummyEncoder(rules, 4)
    tensor = codec.tensor(state.observation(0))
    at = codec.layout.offsets
    assert tensor[at["skipped"]:at["skipped"] + 4] == [0, 0, 0, 1]
    assert tensor[at["named"]:at["named"] + 4] == [0, 0, 0, 1]
    plain = RummyEncoder(load_ruleset("phase-10"), 4)
    assert plain.size == codec.size - 12 and "named" not in plain.layout.offsets  # other rulesets keep theirs


def test_no_one_skips_themselves_in_the_last_turns(tmp_path):
    """Review finding: with two last turns each, the discarder's own next last turn was in
    the queue, so it could name itself."""
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {RULES}\nname: r\ngoing_out: {{last_turns: 2}}\n")
    rules = load_ruleset(path)
    for seed in range(3):
        state = play_bots(rules, ["random"] * 4, seed=seed)
        for e in state.events:
            if e["event"] == "discard" and "skips" in e:
                assert e["skips"] != e["seat"]


def test_a_skip_rule_may_read_the_top_card(tmp_path):
    """Review finding: skip.may reading top_card, where no other seat rule did, was an
    internal error."""
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {RULES}\nname: r\ntake_discard: null\n"
                    "skip:\n  may: {rule: 'top_card >= 0 and target_cards > 0', message: 'no'}\n")
    state = play_bots(load_ruleset(path), ["bot"] * 3, seed=1)
    assert state.is_over


def test_under_skip_next_a_discard_names_no_one():
    rules = load_ruleset("phase-10")
    state = stacked(rules)
    draw(state)
    with pytest.raises(IllegalActionError, match="SKIP skips the next player here: it names no one"):
        state.verify(Discard(skip_of(state), False, state.setup.pack, 2))
