"""Game records (JSON Lines, ../shared/spec/game-record.md): write, read, replay.

Replay re-executes a record line by line: lines that are actions (the deal, bids,
plays, rummy moves) drive a fresh game; every line is then compared with the event
the interpreter itself produced at the same place (a derived event the family writes
before the line of the move that caused it, ``family.leading_events``, takes its move
from that line).  The first line that is illegal or differs is reported with its
number and the reason.  Fields and event kinds the interpreter does not know are
ignored, as the format promises.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .cards import NAMES
from .deal import Deal
from .driver import Stop, play_out
from .errors import CardrulesError, IllegalActionError, RecordError, RulesetError
from .files import FileRefused, is_file, load_json, read_bounded, write_atomic
from .game import RECORD_FORMAT, GameState, new_game, seed_problem
from .rules import Ruleset
from .ruleset import load_ruleset

MAX_LINE = 1 << 20
MAX_LINES = 200_000
MAX_RECORD_BYTES = 64 << 20


def dump_event(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(", ", ": "), ensure_ascii=False)


def save_record(state: GameState, path: Path) -> None:
    """Write ``state``'s events to ``path``, a new file, atomically (a reader never sees
    half a file; an existing file is never overwritten: FileExistsError).  A ruleset
    file the game line names is written relative to the record's folder, so the record
    replays from any folder (and beside its ruleset wherever the two are moved)."""
    events = state.events
    header = events[0]
    ref = header.get("ruleset_path")
    if isinstance(ref, str) and is_file(Path(ref)):
        try:
            header = dict(header, ruleset_path=Path(os.path.relpath(Path(ref).resolve(),
                                                                    path.resolve().parent)).as_posix())
        except ValueError:  # another drive (Windows): the absolute path
            header = dict(header, ruleset_path=str(Path(ref).resolve()))
    write_atomic(path, "".join(dump_event(event) + "\n" for event in [header, *events[1:]]))


def read_record(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, event) for every non-blank line; RecordError on bad JSON."""
    try:
        text = read_bounded(path, MAX_RECORD_BYTES, "a game record").decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
    except FileRefused as exc:
        raise RecordError(str(exc)) from None
    events: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(events) >= MAX_LINES:
            raise RecordError(f"more than {MAX_LINES} events", number)
        try:
            event = load_json(line)
        except ValueError as exc:
            raise RecordError(f"not JSON ({exc})", number) from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise RecordError("each line must be a JSON object with an \"event\" field", number)
        events.append((number, event))
    if not events:
        raise RecordError("the record is empty")
    return events


@dataclass
class ReplayResult:
    state: GameState
    lines: int
    complete: bool  # the record reaches the end of the game


def _ruleset_for(header: dict[str, Any], record_path: Path, override: str | None) -> tuple[Ruleset, str]:
    ref = override or header.get("ruleset_path") or header.get("ruleset")
    if not isinstance(ref, str) or not ref:
        raise RecordError("the game line names no ruleset", 1)
    candidates = [ref]
    if header.get("ruleset_path") and not override:
        named = header["ruleset_path"]
        relative = record_path.parent / named
        beside = record_path.parent / Path(named).name
        files = [str(p) for p in (relative, Path(named), beside) if is_file(p)]
        if not files:
            raise RecordError(f"the record's ruleset file '{named}' is not next to the record or in the current "
                              "folder; give it with --ruleset FILE", 1)
        candidates = list(dict.fromkeys(files))
    last: RulesetError | None = None
    for candidate in candidates:
        try:
            path = Path(candidate)
            return load_ruleset(path if is_file(path) else candidate), candidate
        except RulesetError as exc:
            last = exc
    assert last is not None
    problems = "; ".join(p.format(caret=False) for p in last.problems[:3])
    raise RecordError(f"cannot load ruleset '{ref}': {problems}", 1)


def replay(path: Path, ruleset: str | None = None, *, check_hash: bool = True,
           check_deals: bool = True) -> ReplayResult:
    """Re-execute the record at ``path``; raise RecordError at the first bad line.
    With ``check_deals`` every chance outcome (each deal, each card drawn from the
    stock, each chance event) must be the one the record's seed gives, so a changed
    card or seed is found; without, the record's own outcomes are taken as they are (a
    record written by another program, whose deals come from elsewhere)."""
    events = read_record(path)
    number, header = events[0]
    if header.get("event") != "game":
        raise RecordError("the first line must be the \"game\" event", number)
    if header.get("format") != RECORD_FORMAT:
        raise RecordError(f"record format {header.get('format')!r} is not {RECORD_FORMAT}", number)
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("\"players\" must be a list of names", number)
    rules, ref = _ruleset_for(header, path, ruleset)
    if check_hash and header.get("ruleset_sha256") != rules.sha256:
        raise RecordError(f"the ruleset '{ref}' has changed since this game was played (its sha256 is "
                          f"{rules.sha256[:12]}..., the record's {str(header.get('ruleset_sha256'))[:12]}...); "
                          "replay with --ignore-hash to check it under the current rules", number)
    seed = header.get("seed", 0)
    if isinstance(seed, int) and not isinstance(seed, bool) and seed_problem(seed):
        raise RecordError(str(seed_problem(seed)), number)  # (a negative seed would deal as its positive)
    if check_deals and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"the seed {seed!r} is not a whole number, so the deals cannot be checked "
                          "(replay --any-deal takes them as recorded)", number)
    mode = header.get("mode")
    if mode is not None and (not isinstance(mode, str) or mode not in rules.modes):
        raise RecordError(f"the ruleset has no mode '{mode}'", number)
    try:
        state = new_game(rules, len(players), seed if isinstance(seed, int) else 0, players, mode,
                         header.get("ruleset_path"), replaying=True)
    except (CardrulesError, ValueError) as exc:
        raise RecordError(str(exc), number) from None
    state.events[0] = dict(state.events[0], ruleset_sha256=header.get("ruleset_sha256"))
    state.outcomes_from_record = not check_deals
    source = _RecordSource(state, events[1:], seed if check_deals else None)
    try:
        play_out(state, [source] * state.players, chance=source.chance, on_event=source.on_event)
    except RecordError:
        raise
    except IllegalActionError as exc:
        raise RecordError(f"illegal {source.kind}: {exc}", source.number) from None
    except CardrulesError as exc:
        raise RecordError(str(exc), source.number) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a field of the wrong type
        raise RecordError(f"malformed \"{source.kind}\" event ({type(exc).__name__}: {exc})", source.number) from None
    if source.pos < len(source.lines):  # the game ended before the record did
        number, event = source.lines[source.pos]
        raise RecordError(f"the game is already over; unexpected \"{event['event']}\" event", number)
    return ReplayResult(state, len(events), state.is_over and source.matched_all)


class _RecordSource:
    """The record as the player of every seat and as chance: each action is the one the
    current line calls for (a line may stand for several actions: a contract-rummy
    "draw" after a buying window is the player declining the discard, every seat
    passing, and the card drawn), and each event the game produces is checked against
    the next line."""

    kind = "record"
    needs_observation = False

    def __init__(self, state: GameState, lines: list[tuple[int, dict[str, Any]]], seed: int | None):
        self.state = state
        self.seed = seed  # the seed whose chance outcomes every outcome must be; None: any
        self.lines = lines
        self.decode = state.rules.family.action_from_event
        self.derived = KNOWN_DERIVED | state.rules.family.derived_events
        self.optional = OPTIONAL_FIELDS | state.rules.family.optional_fields
        # derived events written before the line of the move that caused them: kind -> that line's kind
        self.leading: Mapping[str, str] = state.rules.family.leading_events
        self.pos = 0  # the line the game is at
        self.steps = 0  # actions applied since the last line was matched
        # how many actions one line may stand for (the family says; one by default): a line
        # that calls for more does not follow from the game
        self.most_steps = state.rules.family.steps_per_line(state.players)
        self.number = lines[0][0] if lines else 1
        self.kind = lines[0][1]["event"] if lines else "game"
        self.matched_all = True

    def _next_action(self) -> Any:
        while True:
            if self.pos >= len(self.lines):
                raise Stop
            number, event = self.lines[self.pos]
            led = self.leading.get(event["event"])
            ahead = led is not None and self.pos + 1 < len(self.lines) \
                and self.lines[self.pos + 1][1]["event"] == led
            if ahead:  # a derived line the move on the next line causes first: that line says the move
                number, event = self.lines[self.pos + 1]
            self.number, self.kind = number, event["event"]
            self.steps += 1
            if self.steps > self.most_steps:
                raise RecordError(f"\"{event['event']}\" does not follow from the game so far", number)
            try:
                action = self.decode(self.state, event)
            except IllegalActionError as exc:
                raise RecordError(str(exc), number) from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise RecordError(f"malformed \"{event.get('event')}\" event ({type(exc).__name__}: {exc})",
                                  number) from None
            if action is not None:
                return action
            # not an action: an event kind this interpreter does not know
            if ahead or event["event"] in self.derived:
                raise RecordError(f"\"{event['event']}\" does not follow from the game so far", number)
            self.pos += 1
            self.steps = 0

    def act(self, observation: Any, legal: Any) -> Any:
        return self._next_action()

    def chance(self, state: GameState) -> Any:
        action = self._next_action()
        if self.seed is not None:
            dealt = state.chance_action()
            if not _same_outcome(action, dealt):
                shown = _shown(dealt, state.setup.pack.codes)
                raise RecordError(f"this is not the {self.kind} seed {self.seed} gives ({dealt} {shown}): the "
                                  "record was changed, or written by another program (replay --any-deal takes "
                                  "its outcomes as they are)", self.number)
            return dealt  # the seed's own outcome: a deal with its stock in the order the draws will check
        return action

    def on_event(self, produced: dict[str, Any]) -> None:
        if self.pos >= len(self.lines):  # the record stops before the game does
            self.matched_all = False
            raise Stop
        number, event = self.lines[self.pos]
        led = self.leading.get(produced["event"])
        if led is not None and event["event"] == led and self.pos + 1 < len(self.lines) \
                and self.lines[self.pos + 1][1]["event"] == produced["event"]:
            # a record of an earlier release, which wrote the move's line before this event
            self.lines[self.pos], self.lines[self.pos + 1] = self.lines[self.pos + 1], self.lines[self.pos]
            number, event = self.lines[self.pos]
        _compare(produced, event, number, self.optional)
        self.pos += 1
        self.steps = 0


def _same_outcome(recorded: Any, dealt: Any) -> bool:
    """Whether a recorded chance outcome is the one the game's RNG gives (a deal: the
    same hands and upcard; the record holds no stock order)."""
    if isinstance(recorded, Deal) and isinstance(dealt, Deal):
        return recorded.hands == dealt.hands and recorded.upcard == dealt.upcard
    return bool(recorded == dealt)


def _shown(outcome: Any, codes: Any = NAMES) -> str:
    if isinstance(outcome, Deal):
        return "with " + "; ".join(" ".join(codes[c] for c in hand) for hand in outcome.hands)
    return ""


def _same(a: Any, b: Any) -> bool:
    """JSON equality, where true is not 1 and false is not 0 (as they are in Python)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _same_hands(a: Any, b: Any) -> bool:
    """Lists by seat of cards, each seat's in any order."""
    return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
        isinstance(x, list) and isinstance(y, list) and all(isinstance(c, str) for c in x + y)
        and sorted(x) == sorted(y) for x, y in zip(a, b))


def _hands_differ(key: str, got: Any, value: list[list[str]]) -> str:
    """Where the hands a line shows differ from the game's: the first seat that does."""
    if isinstance(got, list) and len(got) == len(value):
        for seat, (shown, held) in enumerate(zip(got, value)):
            if not _same_hands([shown], [held]):
                return (f"\"{key}\" shows seat {seat} holding {json.dumps(shown)} but the rules leave "
                        f"it {json.dumps(held)}: a line before it is missing or changed")
    return f"\"{key}\" is {json.dumps(got)} but the rules give {json.dumps(value)}"


def _compare(expected: dict[str, Any], got: dict[str, Any], number: int, optional: frozenset[str]) -> None:
    kind = expected["event"]
    if kind != got["event"]:
        raise RecordError(f"expected a \"{kind}\" event here, found \"{got['event']}\"", number)
    for key, value in expected.items():
        if key in got and f"{kind}.{key}" in UNORDERED:
            if not _same_hands(got[key], value):
                raise RecordError(_hands_differ(key, got[key], value), number)
        elif key in got and not _same(got[key], value):
            raise RecordError(f"\"{key}\" is {json.dumps(got[key])} but the rules give {json.dumps(value)}",
                              number)
        if key not in got and key not in optional and f"{kind}.{key}" not in optional:
            raise RecordError(f"the \"{got['event']}\" event lacks \"{key}\"", number)


# Events the interpreter produces itself (each family adds its own); a record line of
# one of these kinds that the game did not produce at that point is an error, not an
# unknown kind.
KNOWN_DERIVED = frozenset({"score", "end"})

# Fields a writer may leave out (the interpreter adds them for convenience; each family
# adds its own); "kind.field" names the field of one event kind only. A score line's
# hands (each seat's cards left) are missing from records of earlier releases.
OPTIONAL_FIELDS = frozenset({"rules_round", "mode", "ruleset_path", "teams", "score.hands"})

# "kind.field": lists by seat of cards, each seat's cards compared in any order.
UNORDERED = frozenset({"score.hands"})
