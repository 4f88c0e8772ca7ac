"""`validate` plays before it says ok: quick games of a ruleset that passed the static
checks, at every allowed player count and in every mode, to find rules that cannot be
played (no legal move, no legal bid, an expression failing at run time, a game that
never ends).

Games are deterministic (seeds 0, 1, ...), alternate heuristic bots and random seats,
and stop at a move limit; the whole check stops at a time budget.  Each problem is
reported at the rule involved (where the engine knows it) with the player count, the
mode, the seed and the situation, once however many games show it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .bots import make_policies
from .driver import Stop, play_out
from .errors import CardrulesError, EvaluationError, Problem
from .game import GameState, new_game
from .loader import JsonPath
from .rules import Ruleset, SetupError, compute_setup

MOVE_LIMIT = 200_000  # actions in one game; far beyond any real game of the bundled rulesets


@dataclass
class PlayReport:
    """What playing found: the games played (and how many were cut short by the time
    budget), and the problems, located in the ruleset."""

    games: int = 0
    skipped: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # dead ends that may not be reachable


class _TooLong(Exception):
    pass


def check_by_playing(rules: Ruleset, *, games: int = 2, seconds: float = 6.0, seed: int = 0) -> PlayReport:
    """Play ``games`` games at every player count and mode of ``rules``, within about
    ``seconds`` (a game still going at the end of the budget is left unfinished and
    counted as not played, not as a problem)."""
    report = PlayReport()
    seen: set[tuple[JsonPath, str]] = set()
    start = time.monotonic()

    def problem(path: JsonPath | None, key: str, message: str) -> None:
        """Report once per rule involved (or, where none is known, per kind of message)."""
        key = "" if path else key
        if (path or (), key) in seen:
            return
        seen.add((path or (), key))
        report.problems.append(rules.document.problem(path or ("family",), message, kind="play"))

    modes: list[str | None] = [rules.mode] + [m for m in rules.modes if m != rules.mode]
    for mode in modes:
        where_mode = f", mode '{mode}'" if mode else ""
        for players in range(rules.min_players, rules.max_players + 1):
            try:
                setup = compute_setup(rules, players, mode)
            except SetupError as exc:
                problem(exc.path, str(exc), f"with {players} players{where_mode}: {exc}")
                continue
            budget = max(0.0, min(seconds / 4, seconds - (time.monotonic() - start)))
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
            for game in range(games):
                if time.monotonic() - start > seconds:
                    report.skipped += 1
                    continue
                game_seed = seed + game
                kinds = ["bot" if (game + s) % 2 == 0 else "random" for s in range(players)]
                if game == 0:
                    kinds = ["bot"] * players
                situation = f"with {players} players{where_mode}, seed {game_seed} (seats {','.join(kinds)})"
                state: GameState | None = None
                try:
                    state = new_game(rules, players, game_seed, mode=mode)
                    play_out(state, make_policies(rules, kinds, game_seed), on_action=_limit(state, start + seconds))
                    if not state.is_over:
                        if time.monotonic() > start + seconds:
                            report.skipped += 1
                            continue
                        raise _TooLong
                    report.games += 1
                except _TooLong:
                    problem(None, "too long", f"{situation}: the game did not end within {MOVE_LIMIT} moves")
                except EvaluationError as exc:
                    where = f" in round {state.round}" if state is not None and not state.is_over else ""
                    problem(exc.path, _shape(str(exc)), f"{situation}{where}: {exc}")
                except CardrulesError as exc:
                    problem(None, _shape(str(exc)), f"{situation}: {exc}")
                except Exception as exc:  # noqa: BLE001 - reported as what it is: a fault of cardrules
                    problem(None, type(exc).__name__, f"{situation}: internal error ({type(exc).__name__}: "
                            f"{exc}); please report it")
    return report


def _limit(state: GameState, deadline: float) -> Any:
    def hook(seat: int, action: Any) -> None:
        if state.moves > MOVE_LIMIT or (state.moves % 256 == 0 and time.monotonic() > deadline):
            raise Stop

    return hook


def _shape(message: str) -> str:
    """A message without its numbers: one problem however many seats and rounds show it."""
    return "".join("#" if ch.isdigit() else ch for ch in message)
