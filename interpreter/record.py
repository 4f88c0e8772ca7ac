"""Game records (JSON Lines, ../shared/spec/game-record.md): write, read, replay.

Replay re-executes a record line by line: lines that are actions (the deal, bids,
plays, rummy moves) drive a fresh game; every line is then compared with the event
the interpreter itself produced at the same place.  The first line that is illegal
or differs is reported with its number and the reason.  Fields and event kinds the
interpreter does not know are ignored, as the format promises.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from .errors import CardrulesError, IllegalActionError, RecordError, RulesetError
from .ruleset import Ruleset, load_ruleset
from .state import RECORD_FORMAT, GameState, new_game

MAX_LINE = 1 << 20
MAX_LINES = 200_000


def dump_event(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(", ", ": "), ensure_ascii=False)


def write_record(events: Iterable[dict[str, Any]], out: IO[str]) -> None:
    for event in events:
        out.write(dump_event(event) + "\n")


def save_record(state: GameState, path: Path) -> None:
    """Write ``state``'s events to ``path`` atomically (a reader never sees half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        write_record(state.events, out)
    tmp.replace(path)


def read_record(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, event) for every non-blank line; RecordError on bad JSON."""
    try:
        if path.stat().st_size > MAX_LINE * 64:
            raise RecordError(f"{path} is too large to be a game record")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    events: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(events) >= MAX_LINES:
            raise RecordError(f"more than {MAX_LINES} events", number)
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON ({exc.msg} at column {exc.colno})", number) from None
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


# Each family registers how its action lines become actions.
ACTION_PARSERS: dict[str, Callable[[GameState, dict[str, Any]], Any]] = {}


def _ruleset_for(header: dict[str, Any], record_path: Path, override: str | None) -> tuple[Ruleset, str]:
    ref = override or header.get("ruleset_path") or header.get("ruleset")
    if not isinstance(ref, str) or not ref:
        raise RecordError("the game line names no ruleset", 1)
    candidates = [ref]
    if header.get("ruleset_path") and not override:
        relative = record_path.parent / header["ruleset_path"]
        candidates = [str(relative), header["ruleset_path"], str(header.get("ruleset"))]
    last: RulesetError | None = None
    for candidate in candidates:
        try:
            path = Path(candidate)
            return load_ruleset(path if path.is_file() else candidate), candidate
        except RulesetError as exc:
            last = exc
    assert last is not None
    problems = "; ".join(p.format(caret=False) for p in last.problems[:3])
    raise RecordError(f"cannot load ruleset '{ref}': {problems}", 1)


def replay(path: Path, ruleset: str | None = None, *, check_hash: bool = True) -> ReplayResult:
    """Re-execute the record at ``path``; raise RecordError at the first bad line."""
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
    mode = header.get("mode")
    if mode is not None and (not isinstance(mode, str) or mode not in rules.modes):
        raise RecordError(f"the ruleset has no mode '{mode}'", number)
    try:
        state = new_game(rules, len(players), seed if isinstance(seed, int) else 0, players, mode,
                         header.get("ruleset_path"))
    except (CardrulesError, ValueError) as exc:
        raise RecordError(str(exc), number) from None
    state.events[0] = dict(state.events[0], ruleset_sha256=header.get("ruleset_sha256"))
    parse = ACTION_PARSERS[rules.family.value]
    at = 1
    for number, event in events[1:]:
        # Drive the game until it has produced an event for this line.  One line may
        # stand for several actions: a rummy "draw" after a buying window is the
        # player declining the discard, every seat passing, and the card drawn.
        steps = 0
        while at >= len(state.events):
            if state.is_over:
                raise RecordError(f"the game is already over; unexpected \"{event['event']}\" event", number)
            steps += 1
            if steps > 4 * state.players + 8:
                raise RecordError(f"\"{event['event']}\" does not follow from the game so far", number)
            try:
                action = parse(state, event)
            except IllegalActionError as exc:
                raise RecordError(str(exc), number) from None
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise RecordError(f"malformed \"{event.get('event')}\" event ({type(exc).__name__}: {exc})",
                                  number) from None
            if action is None:  # not an action: an event kind this interpreter does not know
                break
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"illegal {event['event']}: {exc}", number) from None
            except CardrulesError as exc:
                raise RecordError(str(exc), number) from None
            except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a field of the wrong type
                raise RecordError(f"malformed \"{event.get('event')}\" event ({type(exc).__name__}: {exc})",
                                  number) from None
        else:
            _compare(state.events[at], event, number)
            at += 1
            continue
        if event["event"] in KNOWN_DERIVED:
            raise RecordError(f"\"{event['event']}\" does not follow from the game so far", number)
    return ReplayResult(state, len(events), state.is_over and at == len(state.events))


def _compare(expected: dict[str, Any], got: dict[str, Any], number: int) -> None:
    if expected["event"] != got["event"]:
        raise RecordError(f"expected a \"{expected['event']}\" event here, found \"{got['event']}\"", number)
    for key, value in expected.items():
        if key in got and got[key] != value:
            raise RecordError(f"\"{key}\" is {json.dumps(got[key])} but the rules give {json.dumps(value)}",
                              number)
        if key not in got and key not in OPTIONAL_FIELDS:
            raise RecordError(f"the \"{got['event']}\" event lacks \"{key}\"", number)


# Events the interpreter produces itself; a record line of one of these kinds that
# the game did not produce at that point is an error, not an unknown kind.
KNOWN_DERIVED = frozenset({"trump", "trick", "score", "end", "out", "reshuffle", "exhausted", "bonus"})

# Fields a writer may leave out (the interpreter adds them for convenience).
OPTIONAL_FIELDS = frozenset({"rules_round", "mode", "ruleset_path", "cards_after", "teams"})
