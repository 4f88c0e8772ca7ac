"""Every cardrules ruleset as an OpenSpiel game (``pip install 'cardrules[openspiel]'``).

Importing this module registers the game ``cardrules`` with OpenSpiel::

    import pyspiel
    import cardrules.openspiel  # registers "cardrules"
    game = pyspiel.load_game("cardrules", {"ruleset": "oh-hell", "players": 4})
    state = game.new_initial_state()

Parameters: ``ruleset`` (a bundled name or a path to a YAML file), ``players``,
``mode`` (one of the ruleset's modes; "" for its own), ``seed`` (the game's own
randomness: a first dealer drawn by the ruleset, and what the engine draws inside a
move), ``rounds`` (stop after the first that many rounds, scored as the totals then
stand; 0: the whole game).  The game is :class:`cardrules.interpreter.environment.StepGame`
seen through OpenSpiel's API: the deal is dealt card by card as chance nodes with
explicit probabilities, a move of several parts (a go-down) is chosen one id at a
time, the views come from each seat's observation only, and the returns are the
winners' share less the mean (docs/research.md).

The module also gives the seat kind ``ismcts:N`` / ``ismcts:Xs`` (:func:`make_ismcts`):
OpenSpiel's IS-MCTS with random rollouts at a cardrules table.
"""

from __future__ import annotations

import random
import time
from typing import Any, Sequence

try:
    import numpy as np
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    raise ImportError("cardrules.openspiel needs OpenSpiel: pip install 'cardrules[openspiel]'") from None

from .interpreter.environment import CHANCE, TERMINAL, StepGame, StepState, copy_memory
from .interpreter.errors import IllegalActionError
from .interpreter.game import observed_mode
from .interpreter.rules import Ruleset
from .interpreter.ruleset import load_ruleset

GAME_NAME = "cardrules"
DEFAULTS: dict[str, Any] = {"ruleset": "oh-hell", "players": 4, "mode": "", "seed": 0, "rounds": 0, "horizon": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="cardrules: any ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)

_RULESETS: dict[str, Ruleset] = {}
_STEP_GAMES: dict[tuple[Any, ...], StepGame] = {}


def _ruleset(ref: str) -> Ruleset:
    rules = _RULESETS.get(ref)
    if rules is None:
        rules = _RULESETS[ref] = load_ruleset(ref)
    return rules


def _params(params: dict[str, Any] | None) -> dict[str, Any]:
    merged = dict(DEFAULTS)
    merged.update(params or {})
    unknown = set(merged) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))} (parameters: {', '.join(DEFAULTS)})")
    return merged


def step_game(params: dict[str, Any] | None = None) -> StepGame:
    """The :class:`StepGame` of these parameters (made once per process)."""
    p = _params(params)
    key = (str(p["ruleset"]), int(p["players"]), str(p["mode"]), int(p["seed"]), int(p["rounds"]), int(p["horizon"]))
    found = _STEP_GAMES.get(key)
    if found is None:
        ref, players, mode, seed, rounds, horizon = key
        found = _STEP_GAMES[key] = StepGame(_ruleset(ref), players, mode or None, seed, rounds, ref, horizon)
    return found


class CardrulesGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset as an OpenSpiel game (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None):
        self.params = _params(params)
        self.steps = step_game(self.params)
        steps = self.steps
        info = pyspiel.GameInfo(
            num_distinct_actions=steps.num_actions,
            max_chance_outcomes=steps.max_chance_outcomes,
            num_players=steps.players,
            min_utility=steps.min_return,
            max_utility=steps.max_return,
            utility_sum=0.0,
            max_game_length=steps.max_decisions,
        )
        super().__init__(_GAME_TYPE, info, self.params)

    def new_initial_state(self) -> CardrulesState:
        return CardrulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if isinstance(iig_obs_type, dict):  # OpenSpiel's default observer passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        return Observer(self, iig_obs_type, params)


class _Core:
    """The step state behind an OpenSpiel state: OpenSpiel clones a Python state by
    making a new one and deep-copying its attributes, and serializes it by pickling
    them; so this object makes its state only when first asked (a clone's is replaced
    at once), clones with the engine's own clone, and pickles as its parameters and
    ids (replayed when read back)."""

    __slots__ = ("game", "params", "_state")

    def __init__(self, game: StepGame, params: dict[str, Any], state: StepState | None = None):
        self.game = game
        self.params = params
        self._state = state

    @property
    def state(self) -> StepState:
        state = self._state
        if state is None:
            state = self._state = self.game.new_state()
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.game, self.params, None if self._state is None else self._state.clone())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        ids = [] if self._state is None else [token for _, token in self._state.history]
        return (_rebuild, (self.params, ids))


def _rebuild(params: dict[str, Any], ids: Sequence[int]) -> _Core:
    game = step_game(params)
    state = game.new_state()
    for token in ids:
        state.apply(token)
    return _Core(game, params, state)


class CardrulesState(pyspiel.State):  # type: ignore[misc]
    """One position of a :class:`CardrulesGame`."""

    def __init__(self, game: CardrulesGame):
        super().__init__(game)
        self._core = _Core(game.steps, game.params)

    @property
    def steps(self) -> StepState:
        """The step state (the engine's game state is ``steps.engine``)."""
        return self._core.state

    def current_player(self) -> int:
        player = self._core.state.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        try:
            self._core.state.apply(int(action))
        except IllegalActionError as exc:
            raise ValueError(str(exc)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.state.action_name(CHANCE if player == pyspiel.PlayerId.CHANCE else player, int(action))

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

    def returns(self) -> list[float]:
        return self._core.state.returns()

    def rewards(self) -> list[float]:
        return self._core.state.returns()  # every return comes at the end: a step's reward is all of it then

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardrulesState:
        """A state consistent with what ``player_id`` has observed (the family's
        determinization); ``probability_sampler()`` gives the randomness."""
        rng = random.Random(int(probability_sampler() * (1 << 52)))
        sampled = self._core.state.resample(player_id, rng)
        new: CardrulesState = self.clone()
        new._core = _Core(sampled.game, self._core.params, sampled)
        return new

    def __str__(self) -> str:
        return str(self._core.state)


class Observer:
    """OpenSpiel's observer of a cardrules game: the observation (or, with
    ``perfect_recall``, the information state) of a seat, or with no private
    information a spectator's.  The vector is the family's encoding of the observation
    (the information-state vector is the same: the observation already holds what the
    seat knows of the round, and earlier rounds only through the totals); the
    information-state string holds every event of the round as the seat was shown it."""

    def __init__(self, game: CardrulesGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"the cardrules observer takes no parameters, not {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("a cardrules observer shows one seat's view or a spectator's, never every hand")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        steps = game.steps
        pieces = list(steps.encoder.pieces) + [("dealt", 1), ("chosen", 2 * steps.num_actions)]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: CardrulesState, player: int) -> None:
        self.tensor[:] = state.steps.observation_tensor(None if self.spectator else player)

    def string_from(self, state: CardrulesState, player: int) -> str:
        steps = state.steps
        if self.spectator:
            return steps.observation_text(None)
        return steps.information_text(player) if self.perfect_recall else steps.observation_text(player)


pyspiel.register_game(_GAME_TYPE, CardrulesGame)


def load(ruleset: str, players: int, mode: str = "", seed: int = 0, rounds: int = 0,
         horizon: int = 0) -> CardrulesGame:
    """``pyspiel.load_game("cardrules", {...})`` with these parameters."""
    game = pyspiel.load_game(GAME_NAME, {"ruleset": ruleset, "players": players, "mode": mode, "seed": seed,
                                         "rounds": rounds, "horizon": horizon})
    return game  # type: ignore[no-any-return]


# --- the seat kind ismcts ---------------------------------------------------------------------
KIND = "ismcts"
DEFAULT_SIMULATIONS = 100
UCT_C = 0.7  # OpenSpiel's IS-MCTS examples take 0.7 times the range of the returns (here 1)


def parse_budget(kind: str) -> tuple[int | None, float | None]:
    """(simulations, seconds) of ``ismcts``, ``ismcts:N`` or ``ismcts:Xs`` (ValueError otherwise)."""
    if kind == KIND:
        return DEFAULT_SIMULATIONS, None
    head, sep, budget = kind.partition(":")
    usage = (f"seat kind '{kind}': give IS-MCTS simulations per decision (ismcts:100, 1 to 1,000,000) "
             "or seconds of processor time per decision (ismcts:0.5s, above 0 and at most 600)")
    if head != KIND or not sep:
        raise ValueError(usage)
    if budget.endswith("s"):
        try:
            seconds = float(budget[:-1])
        except ValueError:
            raise ValueError(usage) from None
        if not 0 < seconds <= 600:
            raise ValueError(usage)
        return None, seconds
    if not budget.isdigit() or not 1 <= int(budget) <= 1_000_000:
        raise ValueError(usage)
    return int(budget), None


class ISMCTSSeat:
    """A cardrules seat played by OpenSpiel's IS-MCTS with random rollouts.

    It sees what a seat sees: at each decision it makes one world consistent with its
    observation (the family's determinization, as the search seat does) and hands
    OpenSpiel's bot that world as an OpenSpiel state; the bot samples its own worlds
    from there (``resample_from_infostate``) and keys its tree by the seats'
    observation strings.  A move of several ids is chosen one id at a time, each with
    the full budget.  The bot is OpenSpiel's Python IS-MCTS
    (``open_spiel.python.algorithms.ismcts``, OpenSpiel's port of its C++ bot), with
    OpenSpiel's random-rollout evaluator: ``pyspiel.ISMCTSBot`` (C++) cannot search a
    game written in Python in open_spiel 2.0.2 (docs/research.md says why)."""

    needs_observation = True

    def __init__(self, rules: Ruleset, seed: int | str, kind: str = KIND, ruleset_ref: str | None = None):
        self.kind = kind
        self.simulations, self.seconds = parse_budget(kind)
        self.rules = rules
        self.rng = random.Random(seed)
        self.ref = ruleset_ref or rules.name
        _RULESETS.setdefault(self.ref, rules)
        self.memory: dict[str, Any] = {}
        self.game: CardrulesGame | None = None
        self.bot: Any = None
        self.last_simulations = 0

    def _start(self, observation: Any) -> CardrulesGame:
        """The OpenSpiel game of the observed player count and mode, and the bot."""
        from open_spiel.python.algorithms import ismcts, mcts

        mode = observed_mode(self.rules, observation)
        game = CardrulesGame({"ruleset": self.ref, "players": observation.players,
                              "mode": "" if mode == self.rules.mode else mode or ""})
        if game.steps._determinize is None:
            raise ValueError(f"the {self.rules.family.name} family cannot sample hidden cards: no ismcts seat")
        random_state = np.random.RandomState(self.rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        self.bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, max(2, self.simulations or 2), random_state=random_state,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                    use_observation_string=True)
        # the worlds sampled from the seat's RNG (OpenSpiel's default sampler is seeded
        # by the clock), so that a budget of simulations makes the moves the seed's alone
        sampler = self.rng.random
        self.bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        self.game = game
        return game

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        game = self.game if self.game is not None else self._start(observation)
        steps = game.steps
        if steps._remember is not None:
            steps._remember(self.rules, observation, self.memory)
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        world = StepState(steps, steps._determinize(self.rules, observation, copy_memory(self.memory),  # type: ignore[misc]
                                                    self.rng))
        world.in_round = True
        world.memory[observation.seat] = copy_memory(self.memory)
        root = game.new_initial_state()
        root._core = _Core(steps, game.params, world)
        codec = steps.codec
        chosen: list[int] = []
        self.last_simulations = 0
        while True:
            token = self._choose(root)
            chosen.append(token)
            root.apply_action(token)
            if not root.steps.prefix:
                break
        ids = tuple(chosen)
        for action in legal:
            if codec.encode(action) == ids:
                return action
        raise AssertionError(f"IS-MCTS chose ids {ids}, no move listed")  # the world lists the seat's moves

    def _choose(self, state: CardrulesState) -> int:
        bot = self.bot
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if self.seconds is None:
            self.last_simulations += max(2, self.simulations or 2)
            return int(bot.step(state))
        # a budget of processor time: OpenSpiel's search loop, run until the time is spent
        deadline = time.process_time() + self.seconds
        bot.reset()
        root = bot.create_new_node(state)
        done = 0
        while done < 2 or time.process_time() < deadline:  # (the first only expands the root)
            bot.run_simulation(bot.sample_root_state(state))
            done += 1
        self.last_simulations += done
        policy = bot.get_final_policy(state, root)
        actions, probabilities = zip(*policy)
        return int(bot._random_state.choice(actions, p=probabilities))


def make_ismcts(rules: Ruleset, kind: str, seed: int | str, ruleset_ref: str | None = None) -> ISMCTSSeat:
    """A seat of ``kind`` (``ismcts``, ``ismcts:N`` simulations, ``ismcts:Xs`` seconds)."""
    return ISMCTSSeat(rules, seed, kind, ruleset_ref)
