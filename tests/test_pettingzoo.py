"""cardrules.pettingzoo: PettingZoo's own ``api_test`` passes on a trick-taking and a
contract-rummy ruleset (in a small size: the first round, a horizon for rummy's long
rounds; benchmarks/openspiel_checks.py --pettingzoo runs every ruleset); the action
mask is exactly the legal ids; a seeded reset plays the same game; the rewards at the
end are the winners' share."""

from __future__ import annotations

import random

import pytest

# (cardrules.pettingzoo, not pettingzoo: run from the repository root, the root's own
# pettingzoo.py would be found first under the toolkit's name)
pytest.importorskip("cardrules.pettingzoo", reason="PettingZoo is in the test extras: pip install -e '.[test]'")
np = pytest.importorskip("numpy")

from cardrules.interpreter.scoring import winners  # noqa: E402
from cardrules.pettingzoo import env  # noqa: E402

from helpers import DATA  # noqa: E402


def _api_test():
    from pettingzoo.test import api_test

    return api_test


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", [
    {"ruleset": "oh-hell", "players": 4, "rounds": 1},
    {"ruleset": "wizard", "players": 3, "rounds": 2},
    {"ruleset": "spades", "players": 4, "rounds": 1},
    {"ruleset": "shanghai-isra", "players": 4, "rounds": 1, "horizon": 120},
    {"ruleset": str(DATA / "good" / "oh-hell-five.yaml"), "players": 3},
], ids=["oh-hell", "wizard", "spades", "shanghai-isra", "oh-hell-five"])
def test_pettingzoos_api_test_passes(kwargs):
    _api_test()(env(**kwargs), num_cycles=300)


def _play(game, seed, choose):
    game.reset(seed=seed)
    seen = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        mask = observation["action_mask"]
        seen.append((agent, observation["observation"].tobytes(), mask.tobytes()))
        game.step(choose(np.flatnonzero(mask)))
    return seen


def test_the_mask_is_exactly_the_legal_ids():
    game = env(ruleset="shanghai", players=3, rounds=1, horizon=200)
    game.reset(seed=4)
    rng = random.Random(4)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        state = game.state_now
        assert agent == f"player_{state.current_player()}"
        assert list(np.flatnonzero(observation["action_mask"])) == state.legal_actions()
        for other in game.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(rng.choice(state.legal_actions()))


def test_a_seeded_reset_plays_the_same_game():
    game = env(ruleset="oh-hell", players=4, rounds=2)
    first = _play(game, 7, lambda legal: legal[0])
    again = _play(game, 7, lambda legal: legal[0])
    other = _play(game, 8, lambda legal: legal[0])
    assert first == again and first != other


def test_the_rewards_at_the_end_are_the_winners_share():
    game = env(ruleset="oh-hell", players=4, rounds=1)
    game.reset(seed=2)
    total = {a: 0.0 for a in game.possible_agents}
    rng = random.Random(2)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        total[agent] += reward
        if termination or truncation:
            game.step(None)
        else:
            game.step(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
    engine = game.state_now.engine
    best = winners(engine.totals, "highest")
    assert total == pytest.approx({f"player_{s}": (1 / len(best) if s in best else 0) - 1 / 4 for s in range(4)})


def test_a_horizon_truncates_and_an_illegal_action_is_refused():
    game = env(ruleset="shanghai", players=3, horizon=5)
    game.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        game.step(game.game.num_actions - 1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            assert truncation and not termination
            game.step(None)
        else:
            game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert game.state_now.decisions == 5
