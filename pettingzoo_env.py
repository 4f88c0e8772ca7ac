"""The AEC environment behind :mod:`cardrules.pettingzoo` (see there)."""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    # (from the repository root, this finds cardrules' own pettingzoo.py first, which
    # then stands aside for the toolkit: see there)
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - the message is the point
    raise ImportError("cardrules.pettingzoo needs PettingZoo: pip install 'cardrules[pettingzoo]'") from None

from .interpreter.environment import CHANCE, StepGame, StepState  # noqa: E402
from .interpreter.ruleset import load_ruleset  # noqa: E402


class CardrulesEnv(AECEnv):  # type: ignore[misc]
    """A ruleset at a player count as an AEC environment (see the module)."""

    metadata = {"name": "cardrules_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, ruleset: str = "oh-hell", players: int = 4, mode: str | None = None, seed: int = 0,
                 rounds: int = 0, horizon: int = 0, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {', '.join(self.metadata['render_modes'])}, not {render_mode!r}")
        self.game = StepGame(load_ruleset(ruleset), players, mode or None, seed, rounds, ruleset, horizon)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        size = len(self.game.new_state().observation_tensor(0))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        self._action_space = spaces.Discrete(self.game.num_actions)
        self.state_now: StepState | None = None
        self._rng = random.Random(0)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state_now = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._play_chance()
        self._select()

    def _play_chance(self) -> None:
        state = self.state_now
        assert state is not None
        rng = self._rng
        while state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            pick = rng.random()
            for outcome, p in outcomes:
                pick -= p
                if pick < 0:
                    break
            state.apply(outcome)

    def _select(self) -> None:
        state = self.state_now
        assert state is not None
        if state.is_terminal():
            returns = state.returns()
            cut = self.game.horizon > 0 and state.decisions >= self.game.horizon and not state.engine.is_over
            for agent in self.agents:
                self.rewards[agent] = returns[self._seat[agent]]
                if cut and state.engine.round_index < self.game.rounds:
                    self.truncations[agent] = True
                else:
                    self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state_now
        assert state is not None
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if not state.is_terminal() and state.current_player() == seat:
            mask[state.legal_actions()] = 1
        return {"observation": np.asarray(state.observation_tensor(seat), np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_now
        assert state is not None
        legal = state.legal_actions()
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now (legal: {legal})")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        state.apply(int(action))
        self._play_chance()
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        state = self.state_now
        if state is None:
            return None
        player = state.current_player()
        text = state.observation_text(player if player >= 0 else None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> CardrulesEnv:
    """A :class:`CardrulesEnv` (the keyword arguments are its parameters)."""
    return CardrulesEnv(**kwargs)
