"""The search bot: a seat kind (``search``) that plans with the ruleset itself.

At each decision it samples full game states consistent with what its seat has
observed (the family's :meth:`~cardrules.interpreter.family.GameFamily.determinize`:
the hidden hands dealt anew, respecting the suits a seat has shown void in, the
cards seen taken from the discard pile and the cards played), tries each legal
action in each sampled state, and plays the round out with the family's heuristic
bot in every seat.  An action's value is the seat's chance of winning the game
that the ruleset's own scoring leaves it at the end of the round: where the playout
ended the game, 1 if the seat (or its team) won, a share of 1 for a shared first
place, else 0; otherwise the chance that it finishes ahead of every other seat (team)
if each total moves on, over the rounds left, by as much as round scores spread in
this decision's playouts (a normal law: see :func:`win_chance`).  So a change of
scoring changes the search seat's bids and play, which a fixed heuristic cannot do,
and a point counts for more where it changes who is likely to win.

The budget is shared out by *sequential halving*: the playouts go in rounds, every
action left gets the same number of sampled states in a round (the same states for
every action: common random numbers), and after each round the worse half of the
actions is dropped.  Where the heuristic bot shortlists the actions worth trying (its
few best discards, say: see Policy), only those are tried.  The heuristic bot's own
choice is never dropped, and it stands unless the best action beats it, on the same
sampled states, by more than :data:`MARGIN` standard errors of the paired
differences: the playouts are noisy, and a move chosen for noise costs more than the
search gains.  The policy has its own RNG, seeded from the game seed and its seat;
with a budget of playouts (``search:300``) its moves depend only on that seed and
what it observes; with a budget of time (``search:0.3s``) they depend on the
machine's speed too.

The policy never sees the game state: it gets the rules, its observation and the
legal actions, and keeps a memory of its earlier observations (what the family
wants to remember, e.g. discards since buried in the pile).

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> from cardrules.interpreter.driver import play_bots
>>> rules = ruleset_from_text(EXAMPLE)
>>> parse_budget("search:40"), parse_budget("search:0.25s"), parse_budget("search")
((40, None), (None, 0.25), (200, None))
>>> state = play_bots(rules, ["search:8", "bot", "bot"], seed=3)
>>> state.is_over
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from .family import Policy, searchable
from .game import CHANCE, GameState
from .rules import Ruleset

KIND = "search"
DEFAULT_PLAYOUTS = 200  # at most 0.5 s a decision for a 10-card first bid (docs/performance.md)
MAX_PLAYOUTS = 1_000_000
MAX_SECONDS = 600.0
MARGIN = 1.0  # standard errors by which an action must beat the heuristic bot's choice
PLAYOUT_MOVES = 100_000  # a playout that has not ended its round by then is cut short (never seen)


class SearchUnavailable(ValueError):
    """The family of the ruleset cannot sample hidden information (no ``determinize``)."""


def parse_budget(kind: str) -> tuple[int | None, float | None]:
    """(playouts, seconds) of a seat kind ``search``, ``search:N`` or ``search:Xs``;
    raise ValueError saying what is wrong with any other spelling."""
    if kind == KIND:
        return DEFAULT_PLAYOUTS, None
    head, sep, budget = kind.partition(":")
    if head != KIND or not sep:
        raise ValueError(f"'{kind}' is not a search seat")
    usage = (f"seat kind '{kind}': give the search budget as playouts per decision (search:300, 1 to "
             f"{MAX_PLAYOUTS:,}) or seconds per decision (search:0.5s, above 0 and at most {MAX_SECONDS:g})")
    if budget.endswith("s"):
        try:
            seconds = float(budget[:-1])
        except ValueError:
            raise ValueError(usage) from None
        if not 0 < seconds <= MAX_SECONDS or math.isnan(seconds):
            raise ValueError(usage)
        return None, seconds
    if not budget.isdigit():
        raise ValueError(usage)
    playouts = int(budget)
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(usage)
    return playouts, None


def is_search_kind(kind: str) -> bool:
    return kind == KIND or kind.startswith(KIND + ":")


class SearchBot:
    """Chooses by playouts of sampled states, scored by the ruleset (see the module)."""

    needs_observation = True

    def __init__(self, rules: Ruleset, seed: int | str = 0, playouts: int | None = DEFAULT_PLAYOUTS,
                 seconds: float | None = None, kind: str = KIND):
        family = rules.family
        searching = searchable(family)
        if searching is None:
            raise SearchUnavailable(f"the {family.name} family has no search bot: it cannot sample the hidden "
                                    "cards (GameFamily.determinize)")
        bot = family.policies.get("bot")
        if bot is None:
            raise SearchUnavailable(f"the {family.name} family has no search bot: it has no heuristic bot "
                                    "to play the playouts")
        self.kind = kind
        self.rules = rules
        self.playouts = playouts
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.memory: dict[str, Any] = {}  # what the family remembers of this seat's earlier observations
        self._determinize: Callable[..., GameState] = searching.determinize
        self._remember: Callable[..., None] = searching.remember
        self._bot_factory = bot
        self._bots: list[Policy] = []
        self._guide: Policy = bot(rules, self.rng.getrandbits(32))
        self._shortlist: Callable[[Any, Sequence[Any]], list[int] | None] | None = \
            getattr(self._guide, "shortlist", None)
        self.margin: float | None = MARGIN
        self.last_playouts = 0  # playouts of the last decision (for measurements)

    def _playout_bots(self, players: int) -> list[Policy]:
        if len(self._bots) != players:
            self._bots = [self._bot_factory(self.rules, self.rng.getrandbits(32)) for seat in range(players)]
        return self._bots

    def act(self, obs: Any, legal: Sequence[Any]) -> Any:
        self._remember(self.rules, obs, self.memory)
        if len(legal) == 1:
            self.last_playouts = 0
            return legal[0]
        return legal[self._search(obs, legal)]

    def _search(self, obs: Any, legal: Sequence[Any]) -> int:
        seat = obs.seat
        bots = self._playout_bots(obs.players)
        rng = self.rng
        determinize, rules, memory = self._determinize, self.rules, self.memory
        # The heuristic bot's own choice is the default: another action must beat it, on
        # the same sampled states, by more than chance (the playouts are noisy, and a
        # move chosen for noise costs more than the search gains).
        guide = legal.index(self._guide.act(obs, legal)) if self.margin is not None else -1
        # A guide may name the actions worth trying (Policy.shortlist): the budget is then
        # spread over those only.
        shortlist = self._shortlist(obs, legal) if self._shortlist is not None else None
        alive = list(shortlist) if shortlist else list(range(len(legal)))
        if guide >= 0 and guide not in alive:
            alive.append(guide)
        if len(alive) == 1:
            self.last_playouts = 0
            return alive[0]
        outcomes: list[list[Outcome]] = [[] for _ in legal]  # per action, per sampled state it was tried in
        worlds_of: list[list[int]] = [[] for _ in legal]
        stages = max(1, math.ceil(math.log2(len(alive))))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = world_id = 0
        for stage in range(stages):
            if deadline is None:
                assert self.playouts is not None
                worlds = max(1, self.playouts // (stages * len(alive)))
                stage_end = None
            else:
                worlds = 1 << 30
                stage_end = time.perf_counter() + (deadline - time.perf_counter()) / (stages - stage)
            for _ in range(worlds):
                world = determinize(rules, obs, memory, rng)
                for i in alive:
                    state = world.clone()
                    state.apply(legal[i])
                    outcomes[i].append(playout_outcome(state, bots, seat))
                    worlds_of[i].append(world_id)
                    done += 1
                world_id += 1
                if stage_end is not None and time.perf_counter() >= stage_end:
                    break
            if len(alive) > 1 and stage < stages - 1:
                values = _values(outcomes, alive)
                alive.sort(key=lambda i: (-sum(values[i]) / len(values[i]), i))
                kept = alive[:(len(alive) + 1) // 2]
                if guide >= 0 and guide not in kept:
                    kept.append(guide)
                alive = kept
        self.last_playouts = done
        values = _values(outcomes, alive)
        best = max(alive, key=lambda i: (sum(values[i]) / len(values[i]), -i))
        if guide < 0 or best == guide:
            return best
        by_world = dict(zip(worlds_of[guide], values[guide]))
        diffs = [v - by_world[w] for w, v in zip(worlds_of[best], values[best])]
        return best if _lower_bound(diffs, self.margin or 0.0) > 0 else guide


class Outcome(NamedTuple):
    """Where a playout left the game: each side's total and its points in the round
    played out (a side: a seat, or a team in partnerships), the seat's side, the
    rounds left after it, whether the lowest total wins, and (where the playout ended
    the game) the seat's share of the win."""

    totals: tuple[int, ...]
    points: tuple[int, ...]
    side: int
    rounds_left: int
    lowest: bool
    won: float | None


def _values(outcomes: list[list[Outcome]], alive: Sequence[int]) -> dict[int, list[float]]:
    """Each action's values (win_chance of each of its outcomes), with the round's
    spread taken from every outcome of the decision so far."""
    spread = round_spread(o for row in outcomes for o in row)
    return {i: [win_chance(o, spread) for o in outcomes[i]] for i in alive}


def round_spread(outcomes: Iterable[Outcome]) -> float:
    """The standard deviation of a side's points in a round, pooled over every side of
    ``outcomes`` (at least 1: a round whose points never vary still lets totals move)."""
    points = [p for o in outcomes for p in o.points]
    if len(points) < 2:
        return 1.0
    mean = sum(points) / len(points)
    return max(1.0, math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1)))


def win_chance(outcome: Outcome, spread: float) -> float:
    """The seat's chance of winning the game from ``outcome``: its share of the win where
    the game is over; else, with each side's total moving on over the rounds left by a
    normal law of standard deviation ``spread`` a round, the chance of ending ahead of
    each other side, multiplied over them (a tie counts half).

    >>> o = Outcome((10, 20, 40), (0, 0, 0), 0, 0, True, None)  # lowest wins, no round left
    >>> win_chance(o, 10.0), win_chance(o._replace(totals=(20, 20, 40)), 10.0)
    (1.0, 0.5)
    >>> round(win_chance(o._replace(rounds_left=2), 10.0), 3)  # ahead by 10 and 30, two rounds left: 0.69 x 0.93
    0.645
    """
    if outcome.won is not None:
        return outcome.won
    totals, side = outcome.totals, outcome.side
    mine = totals[side]
    scale = spread * math.sqrt(2 * outcome.rounds_left)  # the difference of two sides' moves
    chance = 1.0
    for other, total in enumerate(totals):
        if other == side:
            continue
        lead = total - mine if outcome.lowest else mine - total
        if scale == 0:
            chance *= 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        else:
            chance *= 0.5 * (1.0 + math.erf(lead / (scale * math.sqrt(2.0))))
    return chance


def _lower_bound(values: Sequence[float], z: float) -> float:
    """The mean of ``values`` less ``z`` standard errors."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean if z == 0 else -math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean - z * math.sqrt(var / n)


def playout_value(state: GameState, bots: Sequence[Policy], seat: int) -> float:
    """Play the round on with ``bots`` in every seat; the round's points of ``seat``
    (or its team) less the mean of the others', as the winner rule wants them (the
    search values :func:`playout_outcome` instead)."""
    before = state.totals[:]
    play_round(state, bots)
    delta = [after - then for after, then in zip(state.totals, before)]
    teams = state.setup.teams
    if teams:
        mine = [d for s, d in enumerate(delta) if teams[s] == teams[seat]]
        theirs = [d for s, d in enumerate(delta) if teams[s] != teams[seat]]
    else:
        mine = [delta[seat]]
        theirs = delta[:seat] + delta[seat + 1:]
    value = sum(mine) / len(mine) - (sum(theirs) / len(theirs) if theirs else 0.0)
    return value if state.rules.winner == "highest" else -value


def play_round(state: GameState, bots: Sequence[Policy]) -> None:
    """Play the round on with ``bots`` in every seat (a playout), chance included, to
    the round's end (or PLAYOUT_MOVES moves)."""
    round_index = state.round_index
    apply, observation, legal_actions = state.apply, state.observation, state.legal_actions
    legal_count, apply_index = state.legal_count, state.apply_index
    acts = [bot.act for bot in bots]
    skips = [getattr(bot, "skips_forced", False) for bot in bots]  # (see Policy)
    for _ in range(PLAYOUT_MOVES):
        turn = state.turn
        if turn >= 0:
            if skips[turn] and legal_count() == 1:
                apply_index(0)
            else:
                apply(acts[turn](observation(turn), legal_actions()))
        elif turn == CHANCE and state.round_index == round_index:
            apply(state.chance_action())
        else:
            break


def playout_outcome(state: GameState, bots: Sequence[Policy], seat: int) -> Outcome:
    """Play the round on with ``bots`` in every seat (:func:`play_round`); where it left
    the game (see Outcome)."""
    before = state.totals[:]
    rounds_left = state.rounds - state.round_index - 1
    play_round(state, bots)
    totals, teams = state.totals, state.setup.teams
    lowest = state.rules.winner != "highest"
    won = None
    if state.is_over:
        winners = state.winners
        shares = len({teams[s] for s in winners}) if teams else len(winners)
        won = 1.0 / shares if seat in winners else 0.0
    if teams:
        sides = sorted(set(teams))
        total = tuple(sum(t for s, t in enumerate(totals) if teams[s] == side) for side in sides)
        points = tuple(sum(totals[s] - before[s] for s in range(len(totals)) if teams[s] == side) for side in sides)
        return Outcome(total, points, sides.index(teams[seat]), rounds_left, lowest, won)
    return Outcome(tuple(totals), tuple(a - b for a, b in zip(totals, before)), seat, rounds_left, lowest, won)


def make_search(rules: Ruleset, kind: str, seed: int | str) -> SearchBot:
    """A search seat of ``kind`` (``search``, ``search:N``, ``search:Xs``)."""
    playouts, seconds = parse_budget(kind)
    return SearchBot(rules, seed, playouts, seconds, kind)


def has_search(rules: Ruleset) -> bool:
    """Whether games of ``rules`` can seat a search bot."""
    family = rules.family
    return searchable(family) is not None and "bot" in family.policies
