"""Golden records of every bundled ruleset and every example house rule: one whole game
each, bots and random seats mixed, kept compressed in tests/golden/all/.

Two promises are checked for each: the stored record still replays ("every existing
record reads as before"), and the same seed and seats still play exactly the same game,
event for event ("plays as before"). Refactors of the engine and new language features
must leave both alone; a change of behaviour that is meant regenerates them with
``CARDRULES_REGENERATE=1 python -m pytest tests/test_golden_all.py`` and says why in its
commit.
"""

from __future__ import annotations

import gzip
import os

import pytest

from cardrules.interpreter.driver import play_out
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.game import new_game
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.record import dump_event, replay
from cardrules.interpreter.ruleset import load_ruleset

from helpers import DATA, REPO

GOLDEN = REPO / "tests" / "golden" / "all"
SEED = 11
CASES = [(name, name) for name in bundled_names()] + \
        [(f"good-{p.stem}", str(p)) for p in sorted((DATA / "good").glob("*.yaml"))]


def _play(ref: str) -> str:
    rules = load_ruleset(ref)
    players = max(rules.min_players, min(4, rules.max_players))
    kinds = ["bot" if seat % 2 == 0 else "random" for seat in range(players)]
    names = [f"{kind}-{seat}" for seat, kind in enumerate(kinds)]
    state = new_game(rules, players, SEED, names)
    play_out(state, make_policies(rules, kinds, SEED))
    assert state.is_over
    return "".join(dump_event(event) + "\n" for event in state.events)


@pytest.mark.parametrize("label,ref", CASES, ids=[label for label, _ in CASES])
def test_plays_and_replays_as_before(label, ref, tmp_path):
    stored = GOLDEN / f"{label}.jsonl.gz"
    played = _play(ref)
    if os.environ.get("CARDRULES_REGENERATE") or not stored.exists():
        if not os.environ.get("CARDRULES_REGENERATE"):
            pytest.fail(f"no golden record for {label}: run with CARDRULES_REGENERATE=1")
        GOLDEN.mkdir(parents=True, exist_ok=True)
        stored.write_bytes(gzip.compress(played.encode(), mtime=0))
    text = gzip.decompress(stored.read_bytes()).decode()
    record = tmp_path / f"{label}.jsonl"
    record.write_text(text)
    # a record of a file names it relative to itself; the copy in tmp_path would not find it
    result = replay(record, None if ref == label else ref)
    assert result.complete, f"{label}: the stored record does not replay to its end"
    if played != text:
        for number, (want, got) in enumerate(zip(text.splitlines(), played.splitlines()), 1):
            assert want == got, f"{label}: line {number} differs from the golden record"
        assert len(played) == len(text), f"{label}: the game is {'longer' if len(played) > len(text) else 'shorter'}"
