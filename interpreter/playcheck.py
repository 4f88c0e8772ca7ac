"""`validate` plays before it says ok: quick games of a ruleset that passed the static
checks, at every allowed player count and in every mode, to find rules that cannot be
played (no legal move, no legal bid, an expression failing at run time, a game that
never ends).

Games are deterministic (seeds 0, 1, ...), alternate heuristic bots and random seats,
and stop at a move limit; the whole check stops at a budget of moves, and the search
for bidding dead ends at a budget of positions: counts, never a clock, so that what
`validate` says of a file does not depend on the machine, its load or a profiler.
One game at every player count and mode comes first, then the others, so the budget
cuts repetitions before coverage; a player count and mode left without a finished
game is said plainly (``unplayed``), never passed over.  Each
problem is reported at the rule involved (where the engine knows it) with the player
count, the mode, the seed and the situation, once however many games show it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .bots import make_policies
from .driver import Stop, play_out
from .errors import CardrulesError, EvaluationError, Problem
from .expressions import Steps
from .game import GameState, new_game
from .loader import JsonPath
from .rules import Ruleset, SetupError, compute_setup, situations_words

MOVE_LIMIT = 200_000  # actions in one game; far beyond any real game of the bundled rulesets
MOVES = 100_000  # actions in all the games of one check; the bundled rulesets need 33,000 at most
SEARCH_STEPS = 1_000_000  # positions the dead-end search examines, over every player count and mode


@dataclass
class PlayReport:
    """What playing found: the games played (and how many were left out at the budget
    of moves), the situations (player count and mode) in which no game could be played
    to its end within the budget, and the problems, located in the ruleset."""

    games: int = 0
    skipped: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # dead ends that may not be reachable
    unplayed: list[tuple[int, str | None]] = field(default_factory=list)  # (players, mode) with no game finished

    def unplayed_words(self) -> str:
        """``unplayed`` in words: "with 3 to 5 players; with 4 players in mode 'junior'"."""
        return situations_words(self.unplayed)


class _TooLong(Exception):
    pass


def check_by_playing(rules: Ruleset, *, games: int = 2, moves: int | None = None, seed: int = 0) -> PlayReport:
    """Play ``games`` games at every player count and mode of ``rules``, within
    ``moves`` (MOVES) actions in all: first one game at each count and mode, then the
    rest.  A game still going when the budget is spent is left unfinished and counted as
    not played, not as a problem; a count and mode with no game finished is listed in
    ``unplayed``.

    (Long because the budget, the order of games and the findings are one loop's state:
    split, each part would pass all three.)"""
    moves = MOVES if moves is None else moves
    report = PlayReport()
    seen: set[tuple[JsonPath, str]] = set()
    played = 0  # the actions of every game so far
    search = Steps(SEARCH_STEPS)

    def problem(path: JsonPath | None, key: str, message: str) -> None:
        """Report once per rule involved (or, where none is known, per kind of message)."""
        key = "" if path else key
        if (path or (), key) in seen:
            return
        seen.add((path or (), key))
        report.problems.append(rules.document.problem(path or ("family",), message, kind="play"))

    modes: list[str | None] = [rules.mode] + [m for m in rules.modes if m != rules.mode]
    situations: list[tuple[str | None, int, str]] = []  # (mode, players, words): those that can be set up
    for mode in modes:
        where_mode = f", mode '{mode}'" if mode else ""
        for players in range(rules.min_players, rules.max_players + 1):
            if rules.refusal(players, mode) is not None:  # validate warns of it; no game is played there
                continue
            try:
                setup = compute_setup(rules, players, mode)
            except SetupError as exc:
                problem(exc.path, str(exc), f"with {players} players{where_mode}: {exc}")
                continue
            situations.append((mode, players, f"with {players} players{where_mode}"))
            budget = Steps(max(0, min(SEARCH_STEPS // 4, search.left)))  # a quarter at most: others come next
            try:
                for end in rules.family.dead_ends(rules, setup, budget, random.Random(seed)):
                    path, message = end[0], end[1]
                    if len(end) < 3 or end[2]:
                        problem(path, _shape(message), message + where_mode)
                    elif len(report.warnings) < 10 and (path, "possible dead end") not in seen:
                        seen.add((path, "possible dead end"))  # once per rule
                        report.warnings.append(rules.document.problem(path, message + where_mode, kind="play"))
            except EvaluationError as exc:
                problem(exc.path, _shape(str(exc)), f"with {players} players{where_mode}: {exc}")
            search.left -= budget.limit - max(budget.left, 0)
    checked: set[str] = set()  # the situations a game has checked: played to its end, or a problem found
    for game in range(games):  # one game in every situation before a second in any
        for mode, players, words in situations:
            if game > 0 and played >= moves:
                report.skipped += 1
                continue
            game_seed = seed + game
            kinds = ["bot" if (game + s) % 2 == 0 else "random" for s in range(players)]
            if game == 0:
                kinds = ["bot"] * players
            situation = f"{words}, seed {game_seed} (seats {','.join(kinds)})"
            state: GameState | None = None
            try:
                state = new_game(rules, players, game_seed, mode=mode)
                try:
                    play_out(state, make_policies(rules, kinds, game_seed), on_action=_limit(state, played, moves))
                finally:
                    played += state.moves
                if not state.is_over:
                    if played >= moves:
                        report.skipped += 1
                        continue
                    raise _TooLong
                report.games += 1
                checked.add(words)
            except _TooLong:
                checked.add(words)
                problem(None, "too long", f"{situation}: the game did not end within {MOVE_LIMIT} moves")
            except EvaluationError as exc:
                checked.add(words)
                where = f" in round {state.round}" if state is not None and not state.is_over else ""
                problem(exc.path, _shape(str(exc)), f"{situation}{where}: {exc}")
            except CardrulesError as exc:
                checked.add(words)
                problem(None, _shape(str(exc)), f"{situation}: {exc}")
            except Exception as exc:  # noqa: BLE001 - reported as what it is: a fault of cardrules
                checked.add(words)
                problem(None, type(exc).__name__, f"{situation}: internal error ({type(exc).__name__}: "
                        f"{exc}); please report it")
    report.unplayed = [(players, mode) for mode, players, words in situations if words not in checked]
    return report


def _limit(state: GameState, before: int, moves: int) -> Any:
    """Stop a game at MOVE_LIMIT actions, or where the check's ``moves`` are spent
    (``before``: the actions of the games before this one)."""
    def hook(seat: int, action: Any) -> None:
        if state.moves > MOVE_LIMIT or before + state.moves >= moves:
            raise Stop

    return hook


def _shape(message: str) -> str:
    """A message without its numbers: one problem however many seats and rounds show it."""
    return "".join("#" if ch.isdigit() else ch for ch in message)
