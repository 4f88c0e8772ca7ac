"""cardrules.openspiel: every bundled ruleset passes OpenSpiel's own game checks
(``pyspiel.random_sim_test``, with serialization) at two player counts, in a small
size here (the first round, at most 80 ids of the seats; benchmarks/openspiel_checks.py
runs whole games); the deal is dealt card by card with the right probabilities; a
seat's views hold what it may know and nothing else; the returns are the winners'
share; a go-down is chosen id by id; the seat kind ``ismcts`` plays at a table."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the test extras: pip install -e '.[test]'")

from cardrules import openspiel as cos  # noqa: E402
from cardrules.interpreter import load_ruleset  # noqa: E402
from cardrules.interpreter.bots import check_seat_kind, extra_seat_kinds, seat_kinds  # noqa: E402
from cardrules.interpreter.cards import card  # noqa: E402
from cardrules.interpreter.driver import play_bots  # noqa: E402
from cardrules.interpreter.families.contract_rummy.actions import GoDown  # noqa: E402
from cardrules.interpreter.loader import bundled_names  # noqa: E402
from cardrules.interpreter.scoring import winners  # noqa: E402

from helpers import bundled, DATA, REPO  # noqa: E402

FIVE = str(DATA / "good" / "oh-hell-five.yaml")


def _counts(name: str) -> list[int]:
    rules = bundled(name)
    low = rules.min_players
    return [low, low + 1] if low < rules.max_players else [low]


CASES = [(name, players) for name in bundled_names() for players in _counts(name)]
_SPENT: list[float] = []


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_every_bundled_ruleset_passes_openspiels_random_simulation_test(name, players):
    game = cos.load(name, players, rounds=1, horizon=80)
    start = time.process_time()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    _SPENT.append(time.process_time() - start)


def test_the_checks_of_every_ruleset_keep_to_their_budget():
    """The parametrized test above, every case, in under a minute of processor time."""
    if len(_SPENT) < len(CASES):
        pytest.skip("run with the checks above")
    assert sum(_SPENT) < 60, f"{sum(_SPENT):.1f} s"


def test_a_whole_game_passes_the_checks():
    game = pyspiel.load_game("cardrules", {"ruleset": FIVE, "players": 4})
    assert game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _deal_all(state):
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[0][0])


def test_the_deal_comes_card_by_card_each_as_likely_as_its_copies_left():
    game = cos.load("oh-hell", 4)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    ace = card("AS")
    state.apply_action(ace)
    assert state.is_chance_node()
    after = dict(state.chance_outcomes())
    assert ace not in after and len(after) == 51 and all(p == pytest.approx(1 / 51) for p in after.values())
    # two packs and jokers: a card with two copies is twice as likely as one
    rummy = cos.load("shanghai", 3).new_initial_state()
    deck = Counter(rummy.steps.engine.deck)
    probabilities = dict(rummy.chance_outcomes())
    for c, n in deck.items():
        assert probabilities[c] == pytest.approx(n / sum(deck.values()))


def test_after_the_last_card_the_seats_hold_what_was_dealt_them():
    game = cos.load("oh-hell", 4)
    state = game.new_initial_state()
    dealt = []
    while state.is_chance_node():
        c = random.Random(len(dealt)).choice([o for o, _ in state.chance_outcomes()])
        dealt.append(c)
        state.apply_action(c)
    assert len(dealt) == 4 * 10 + 1  # the hands, then the upcard
    engine = state.steps.engine
    for seat in range(4):
        assert sorted(engine.observation(seat).hand) == sorted(dealt[seat * 10:(seat + 1) * 10])
    assert engine.observation(0).upcard == dealt[-1]
    assert state.current_player() == 1  # left of the dealer bids first
    assert "deal" in state.action_to_string(pyspiel.PlayerId.CHANCE, dealt[0])


def _random_moves(state, n, rng):
    for _ in range(n):
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,players,moves", [("oh-hell", 4, 20), ("wizard", 3, 30), ("shanghai", 3, 60),
                                                ("boerenbridge-forehead", 3, 10)])
def test_a_resample_keeps_the_seats_view_and_deals_the_hidden_cards_anew(name, players, moves):
    game = cos.load(name, players)
    state = game.new_initial_state()
    _random_moves(state, moves, random.Random(5))
    _deal_all(state)
    assert not state.is_terminal()
    seat = state.current_player()
    others = [s for s in range(players) if s != seat]
    seen_other_hands = set()
    for k in range(12):
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
        seen_other_hands.add(tuple(tuple(sorted(sample.steps.engine.hands[s])) for s in others))
    # the others' cards are sampled: had the seat's view held them, the views would differ
    assert len(seen_other_hands) > 1


def test_a_seats_view_holds_its_own_hand_and_no_other():
    game = cos.load("oh-hell", 4)
    state = game.new_initial_state()
    _deal_all(state)
    engine = state.steps.engine
    codes = engine.setup.pack.codes
    for seat in range(4):
        text = state.observation_string(seat)
        assert all(codes[c] in text for c in engine.hands[seat])
        for other in range(4):
            if other != seat:
                mine = {codes[c] for c in engine.hands[seat]}
                hidden = {codes[c] for c in engine.hands[other]} - mine - {codes[engine.upcard]}
                words = set(text.replace(";", " ").split())
                assert not hidden & words, (seat, other)
    spectator = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                                  private_info=pyspiel.PrivateInfoType.NONE))
    assert "hand -" in spectator.string_from(state, 0)


def test_serialization_gives_back_the_same_state():
    game = cos.load("shanghai", 3, rounds=1)
    state = game.new_initial_state()
    _random_moves(state, 150, random.Random(2))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    for seat in range(3):
        assert state2.information_state_string(seat) == state.information_state_string(seat)


@pytest.mark.parametrize("name,players", [("oh-hell", 4), ("carioca-two-player", 2), ("spades", 4)])
def test_the_returns_are_the_winners_share_less_the_mean(name, players):
    game = cos.load(name, players, rounds=1)
    state = game.new_initial_state()
    _random_moves(state, 100_000, random.Random(3))
    assert state.is_terminal()
    engine = state.steps.engine
    best = winners(engine.totals, engine.rules.winner, engine.setup.teams)
    expected = [(1 / len(best) if s in best else 0) - 1 / players for s in range(players)]
    assert state.returns() == pytest.approx(expected)
    assert sum(state.returns()) == pytest.approx(0)
    if engine.rules.winner == "lowest" and len(best) == 1:
        assert engine.totals[best[0]] == min(engine.totals)


def test_a_go_down_is_chosen_one_id_at_a_time():
    game = cos.load("shanghai", 3)
    rng = random.Random(11)
    for attempt in range(400):
        state = game.new_initial_state()
        _random_moves(state, rng.randrange(50, 400), rng)
        if state.is_terminal() or state.is_chance_node():
            continue
        steps = state.steps
        downs = [a for a in steps.engine.legal_actions() if isinstance(a, GoDown)]
        if downs:
            break
    else:
        pytest.fail("no go-down came up")
    seat = state.current_player()
    ids = game.steps.codec.encode(downs[0])
    assert len(ids) > 3
    for k, token in enumerate(ids):
        assert state.current_player() == seat
        assert token in state.legal_actions(), k
        if k:
            assert "choosing" in state.observation_string(seat)
            assert "choosing" not in state.observation_string((seat + 1) % 3)
        state.apply_action(token)
    assert state.steps.engine.down[seat]
    assert game.steps.codec.decode(ids) == downs[0]


def test_the_cpp_ismcts_bot_cannot_resample_a_python_game():
    """Why the seat kind uses OpenSpiel's Python IS-MCTS (docs/research.md): the C++ bot
    asks the state for ResampleFromInfostate, which pyspiel does not pass on to a game
    written in Python."""
    game = cos.load("oh-hell", 4)
    state = game.new_initial_state()
    _deal_all(state)
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 0.7, 10)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        bot.get_policy(state)


def test_an_ismcts_seat_plays_a_game_at_a_table():
    rules = load_ruleset(FIVE)
    assert "ismcts" in extra_seat_kinds(rules) and "ismcts" not in seat_kinds(rules)  # (never in a web room)
    check_seat_kind(rules, "ismcts:8")
    first = play_bots(rules, ["ismcts:4", "bot", "search:20", "random"], seed=2)
    again = play_bots(rules, ["ismcts:4", "bot", "search:20", "random"], seed=2)
    assert first.is_over and first.totals == again.totals  # a budget of simulations: the seed decides
    timed = play_bots(rules, ["ismcts:0.02s", "bot", "bot"], seed=3)
    assert timed.is_over


def test_an_ismcts_seat_makes_a_rummy_move():
    from cardrules.interpreter.bots import make_policy
    from cardrules.interpreter.game import new_game

    rules = load_ruleset("shanghai")
    state = new_game(rules, 3, seed=4)
    seat_policy = make_policy(rules, "ismcts:2", 4, 0)
    for _ in range(40):
        if state.turn == -1:
            state.apply(state.chance_action())
        elif state.turn == 0:
            legal = state.legal_actions()
            action = seat_policy.act(state.observation(0), legal)
            assert action in legal
            state.apply(action)
        else:
            state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("kind", ["ismcts:0", "ismcts:x", "ismcts:-1s", "ismcts:700s"])
def test_a_bad_ismcts_budget_is_refused(kind):
    with pytest.raises(ValueError, match="IS-MCTS simulations"):
        check_seat_kind(load_ruleset("oh-hell"), kind)


def _without_openspiel(tmp_path):
    (tmp_path / "pyspiel.py").write_text("raise ImportError('no OpenSpiel here')\n")
    return {"PYTHONPATH": str(tmp_path)}


def test_without_openspiel_the_module_and_the_seat_say_how_to_install(tmp_path):
    import os

    env = {**os.environ, **_without_openspiel(tmp_path)}
    result = subprocess.run([sys.executable, "-c", "import cardrules.openspiel"], capture_output=True, text=True,
                            env=env, cwd=tmp_path)
    assert result.returncode != 0
    assert "pip install 'cardrules[openspiel]'" in result.stderr.strip().splitlines()[-1]
    cli = [sys.executable, "-m", "cardrules", "simulate", "oh-hell", "--games", "1", "--seats",
           "ismcts:5,bot,bot"]
    result = subprocess.run(cli, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'cardrules[openspiel]'" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_a_plain_install_imports_no_openspiel():
    code = "import sys, cardrules.interpreter.bots, cardrules.cli.main; print('pyspiel' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO.parent)
    assert result.stdout.strip() == "False", result.stderr


def test_the_examples_of_docs_research_run():
    import re

    text = (REPO / "docs" / "research.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "docs/research.md", "exec"), {})


def test_the_game_string_names_the_parameters():
    game = pyspiel.load_game("cardrules(ruleset=wizard,players=3,rounds=1)")
    assert game.num_players() == 3 and game.num_distinct_actions() == 81
    with pytest.raises(pyspiel.SpielError, match="(?i)unknown parameter .colour"):
        pyspiel.load_game("cardrules", {"ruleset": "wizard", "players": 3, "colour": 1})


@pytest.mark.parametrize("text, players", [
    ("extends: shanghai\nname: later\ngoing_down: {later_melds: true}\n", 4),
    ("extends: oh-hell\nname: five-out\nsits_out: \"players >= 5 and seat == dealer\"\n", 5),
    ("extends: shanghai-isra\nname: ccw\ndirection: counter-clockwise\n"
     "buying: {priority: {first: \"discarder - 1\", direction: counter-clockwise}}\n", 4),
], ids=["later-melds", "sits-out", "counter-clockwise"])
def test_the_newer_mechanisms_pass_openspiels_checks(tmp_path, text, players):
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    game = cos.load(str(path), players, rounds=1, horizon=120)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
