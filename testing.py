"""The conformance checks every game family is held to, shipped for a plug-in's own
test suite (docs/architecture.md, "Adding a family"): cardrules runs the same checks
against its bundled families (tests/test_family_protocol.py).

    from cardrules.testing import check_family

    def test_my_family_conforms(tmp_path):
        check_family("rulesets/my-game.yaml", tmp_dir=tmp_path)

:func:`check_family` plays whole games of a ruleset, bots and random seats, at every
player count (or those given) and over a few seeds, and checks at each:

- the game ends, and whose turn it is is always a seat, chance or the end;
- legality has one source: every listed move verifies, ``legal_count`` counts them, at
  one decision in ``every`` the family's ``candidate_actions`` that ``verify`` accepts
  are exactly the listed ones, and what the table shows for a move (``str``) is read
  back by ``parse_input`` as a move that verifies;
- the seed decides the game; the record replays from the seed and with its chance
  outcomes taken as written (``replay --any-deal``); the save of its moves resumes to
  the same game; a clone played on leaves its original as it was;
- privacy: every event kind written has a declared audience for each of its fields,
  no seat's view of the deal holds another seat's card, and a spectator's views of the
  deal and its observation at every decision hold no hand.

A failure raises :class:`FamilyCheckFailed` (an AssertionError, so pytest reports it
as a failed test) naming the ruleset, the player count, the seed and, where there is
one, the move.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any, Sequence

from .interpreter.bots import make_policies
from .interpreter.driver import play_out
from .interpreter.errors import CardrulesError
from .interpreter.game import CHANCE, OVER, GameState, new_game
from .interpreter.privacy import CORE_EVENTS, visibility_of
from .interpreter.record import replay, save_record
from .interpreter.rules import Ruleset
from .interpreter.ruleset import load_ruleset
from .interpreter.saves import SaveWriter, new_header, read_save, restore

__all__ = ["FamilyCheckFailed", "check_family"]

MAX_MOVES = 200_000  # a game that has not ended after this many moves never will


class FamilyCheckFailed(AssertionError):
    """A conformance check failed; the message says where (ruleset, players, seed, move)."""


class _Where:
    def __init__(self, rules: Ruleset) -> None:
        self.rules, self.players, self.seed, self.move = rules, 0, 0, ""

    def fail(self, what: str) -> FamilyCheckFailed:
        at = f" at move {self.move}" if self.move else ""
        return FamilyCheckFailed(f"{self.rules.name} ({self.rules.family.name} family), {self.players} players, "
                                 f"seed {self.seed}{at}: {what}")

    def check(self, ok: object, what: str) -> None:
        if not ok:
            raise self.fail(what)


class _Watch:
    """A seat's policy that checks each decision's listing before its own policy acts."""

    def __init__(self, policy: Any, state: GameState, where: _Where, every: int, rng: random.Random) -> None:
        self.policy, self.state, self.where, self.every, self.rng = policy, state, where, every, rng
        self.kind, self.needs_observation = policy.kind, True
        self.checked = 0

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        state, where = self.state, self.where
        family = state.rules.family
        where.move = f"{state.moves + 1} (round {state.round}, seat {state.turn}, phase {observation.phase})"
        listed = list(legal)
        where.check(state.observation(None).hand == (), "a spectator's observation holds a hand")
        where.check(state.legal_count() == len(listed),
                    f"legal_count() is {state.legal_count()} but {len(listed)} moves are listed")
        for action in listed:
            try:
                state.verify(action)
            except CardrulesError as exc:
                raise where.fail(f"the listed move {action!r} is refused by verify ({exc})") from None
        if self.rng.randrange(self.every) == 0:
            for action in family.candidate_actions(state):
                accepted = state.can_apply(action)
                where.check(accepted == (action in listed),
                            f"{action!r} is {'accepted' if accepted else 'refused'} by verify but "
                            f"{'' if action in listed else 'not '}listed")
            for action in listed[:20]:
                shown = str(action)
                try:
                    state.verify(family.parse_input(state.rules, observation, shown))
                except CardrulesError as exc:
                    raise where.fail(f"the move shown as {shown!r} is not read back by parse_input ({exc})") from None
        self.checked += 1
        return self.policy.act(observation, legal)


def _counts(rules: Ruleset, players: Sequence[int] | None) -> list[int]:
    if players is not None:
        return list(players)
    return list(range(rules.min_players, rules.max_players + 1))


def check_family(ruleset: str | Path, *, seeds: Sequence[int] = (1, 2), players: Sequence[int] | None = None,
                 every: int = 4, tmp_dir: Path | None = None) -> None:
    """Run the conformance checks (see the module) on the ruleset ``ruleset`` (a bundled
    name or a file's path): ``seeds`` games at each of ``players`` (every count the
    ruleset allows by default), the candidates checked at one decision in ``every``;
    records and saves are written under ``tmp_dir`` (a temporary folder by default).
    Raises :class:`FamilyCheckFailed` at the first failure."""
    rules = load_ruleset(ruleset)
    ref = str(ruleset)
    if tmp_dir is None:
        with tempfile.TemporaryDirectory(prefix="cardrules-check-") as folder:
            _check_all(rules, ref, seeds, _counts(rules, players), every, Path(folder))
    else:
        _check_all(rules, ref, seeds, _counts(rules, players), every, tmp_dir)


def _check_all(rules: Ruleset, ref: str, seeds: Sequence[int], counts: Sequence[int], every: int,
               folder: Path) -> None:
    where = _Where(rules)
    for count in counts:
        for seed in seeds:
            where.players, where.seed, where.move = count, seed, ""
            _check_game(rules, ref, count, seed, every, folder, where)


def _kinds(rules: Ruleset, players: int, seed: int) -> list[str]:
    bot = "bot" if "bot" in rules.family.policies else "random"
    return [bot if (seat + seed) % 2 == 0 else "random" for seat in range(players)]


def _check_game(rules: Ruleset, ref: str, players: int, seed: int, every: int, folder: Path, where: _Where) -> None:
    kinds = _kinds(rules, players, seed)
    state = new_game(rules, players, seed, None, None, ref)
    seats = [_Watch(p, state, where, every, random.Random(seed)) for p in make_policies(rules, kinds, seed)]
    moves: list[str] = []
    turns: list[int] = []
    play_out(state, seats, on_action=lambda seat, action: moves.append(str(action)),
             on_event=lambda event: turns.append(state.turn))
    where.move = ""
    where.check(state.turn == OVER and state.moves < MAX_MOVES, "the game does not end")
    where.check(all(t >= 0 or t in (CHANCE, OVER) for t in turns), "a turn is neither a seat, chance nor the end")
    # the seed decides the game
    again = new_game(rules, players, seed, None, None, ref)
    play_out(again, make_policies(rules, kinds, seed))
    where.check(again.events == state.events, "the same seed and seats play another game")
    _check_privacy(state, where)
    # the record replays, from the seed and with its outcomes as written
    record = folder / f"{rules.name}-{players}-{seed}.jsonl"
    save_record(state, record)
    for check_deals in (True, False):
        try:
            result = replay(record, ref, check_deals=check_deals)
        except CardrulesError as exc:
            raise where.fail(f"the record does not replay{'' if check_deals else ' with --any-deal'}: {exc}") from None
        where.check(result.complete and result.state.totals == state.totals,
                    f"the record replays{'' if check_deals else ' with --any-deal'} to other totals")
    # the save of its moves resumes to the same game
    path = folder / f"{rules.name}-{players}-{seed}.save"
    writer = SaveWriter(path, new_header(rules, ref if Path(ref).is_file() else None, seed, None, kinds,
                                         list(state.names)), durable=False)
    for move in moves:
        writer.action(move)
    writer.close()
    try:
        resumed, _, _ = restore(read_save(path))
    except CardrulesError as exc:
        raise where.fail(f"the save does not resume: {exc}") from None
    where.check(resumed.events == state.events, "the save resumes to another game")
    _check_clone(rules, players, seed, where)


def _check_privacy(state: GameState, where: _Where) -> None:
    rules = state.rules
    declared = {**CORE_EVENTS, **rules.family.event_visibility(rules)}
    for event in state.events:
        kind = event["event"]
        where.check(kind in CORE_EVENTS or kind in rules.family.record_events,
                    f"the event kind '{kind}' is not in record_events")
        where.check(kind in declared, f"the event kind '{kind}' has no declared audience (event_visibility)")
        missing = set(event) - {"event", "round"} - set(visibility_of(event, declared))
        where.check(not missing, f"the fields {sorted(missing)} of '{kind}' have no declared audience")
    for index, event in enumerate(state.events):
        if event["event"] != "deal":
            continue
        for viewer in [*range(state.players), None]:
            hands = state.event_views(viewer, index)[0].get("hands")
            if hands is None:
                continue
            for seat, hand in enumerate(hands):
                if seat == viewer:
                    where.check(hand == event["hands"][seat], f"seat {seat}'s view of the deal is not its hand")
                else:
                    who = "a spectator" if viewer is None else f"seat {viewer}"
                    where.check(all(c is None for c in hand), f"{who}'s view of the deal shows seat {seat}'s cards")
    where.check(state.observation(None).hand == (), "a spectator's observation holds a hand")


def _check_clone(rules: Ruleset, players: int, seed: int, where: _Where) -> None:
    state = new_game(rules, players, seed)
    policies = make_policies(rules, ["random"] * players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randint(5, 40)):
        if state.turn == OVER:
            break
        state.apply(state.chance_action() if state.turn == CHANCE
                    else policies[state.turn].act(None, state.legal_actions()))
    before = _position(state)
    copy = state.clone()
    play_out(copy, make_policies(rules, ["random"] * players, seed + 1))
    where.check(copy.turn == OVER and _position(state) == before, "playing a clone on changed its original")


def _position(state: GameState) -> tuple[Any, ...]:
    return (list(state.events), [state.observation(s) for s in range(state.players)], state.turn)
