"""Legal-move counts from fixed positions (python-chess's perft): a change in legality
shows as a changed count.

Each position in tests/data/perft.json is a ruleset, a player count, a seed (which
deals the cards) and the moves played since, as a player types them; ``counts[d-1]``
is the number of move sequences of length ``d`` from there (chance outcomes, such as a
card drawn from the stock, follow the game's own RNG and are not counted).  Every
node is a clone of its parent, so this also checks that clones are independent.

After an intended change of the rules' meaning, regenerate the counts with
``CARDRULES_REGENERATE=1 python -m pytest tests/test_perft.py`` and review the diff.
"""

from __future__ import annotations

import json
import os

import pytest

from cardrules.interpreter import CHANCE, load_ruleset, new_game
from cardrules.interpreter.textio import parse_input

from helpers import DATA, REPO

PERFT = DATA / "perft.json"
POSITIONS = json.loads(PERFT.read_text())


def ruleset(ref):
    return load_ruleset(REPO / ref if "/" in ref else ref)


def position(entry):
    rules = ruleset(entry["ruleset"])
    state = new_game(rules, entry["players"], entry["seed"])
    for move in entry["moves"]:
        while state.turn == CHANCE:
            state.apply(state.chance_action())
        state.apply(parse_input(rules, state.observation(state.turn), move))
    return state


def perft(state, depth):
    while state.turn == CHANCE:
        state.apply(state.chance_action())
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for i in range(len(state.legal_actions())):
        child = state.clone()
        child.apply(child.legal_actions()[i])
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft(entry):
    state = position(entry)
    before = list(state.events)
    counts = [perft(state.clone(), d) for d in range(1, len(entry["counts"]) + 1)]
    assert state.events == before  # the clones never touched the position
    if os.environ.get("CARDRULES_REGENERATE"):
        entry["counts"] = counts
        PERFT.write_text(json.dumps(POSITIONS, indent=1) + "\n")
    assert counts == entry["counts"]


def test_every_family_has_positions():
    families = {ruleset(p["ruleset"]).family.name for p in POSITIONS}
    assert families == {"trick-taking", "contract-rummy"}


def _make_positions() -> None:  # pragma: no cover - run by hand to choose new positions
    """Play bots to each wanted position and write its moves (the counts come from a
    run with CARDRULES_REGENERATE=1)."""
    from cardrules.interpreter.bots import make_policies

    wanted = [("oh-hell hook", "oh-hell", 4, 1, 3, 3), ("oh-shit following", "oh-shit", 4, 7, 10, 3),
              ("must trump", "tests/data/good/rotation-must-trump.yaml", 4, 2, 9, 3),
              ("top jokers", "tests/data/good/jokers-top-trump.yaml", 3, 4, 6, 3),
              ("named trump", "tests/data/good/named-trump-simultaneous.yaml", 4, 1, 4, 2),
              ("isra first draw", "shanghai-isra", 4, 3, 0, 4), ("isra down", "shanghai-isra", 4, 3, 60, 2),
              ("pagat calls", "shanghai-pagat", 3, 5, 40, 2), ("shanghai window", "shanghai", 5, 2, 31, 3),
              ("swap before down", "tests/data/good/isra-before-down.yaml", 4, 4, 45, 2)]
    out = []
    for name, ref, players, seed, moves, depth in wanted:
        rules = ruleset(ref)
        state = new_game(rules, players, seed)
        bots = make_policies(rules, ["bot"] * players, seed)
        played = []
        while len(played) < moves and not state.is_over:
            if state.turn == CHANCE:
                state.apply(state.chance_action())
                continue
            action = bots[state.turn].act(state.observation(state.turn), state.legal_actions())
            played.append(str(action))
            state.apply(action)
        out.append({"name": name, "ruleset": ref, "players": players, "seed": seed, "moves": played,
                    "counts": [0] * depth})
    PERFT.write_text(json.dumps(out, indent=1) + "\n")
