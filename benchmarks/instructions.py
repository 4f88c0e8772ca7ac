"""Instructions per game under callgrind: a machine-independent measure of the engine's
cost, for A/B comparisons of a change (timings on a shared machine vary by 10-20%).

    python benchmarks/instructions.py shanghai-isra:bot 3
    python benchmarks/instructions.py oh-shit:bot 20
    python benchmarks/instructions.py hand 20          # the hand-written Oh Shit playout
    python benchmarks/instructions.py search:oh-hell 3 # a default search seat's first bid, 3 deals

Runs valgrind (apt-get install valgrind) twice, on N games and on none, and prints the
difference divided by N (and by the decisions played).  Compare two checkouts by running
it with each as the imported package (PYTHONPATH pointing at a directory holding a
`cardrules` link to the checkout)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path


def play(which: str, games: int) -> int:
    if which == "hand":
        sys.path.insert(0, str(Path(__file__).parent))
        import handwritten_oh_shit
        for seed in range(games):
            handwritten_oh_shit.play(random.Random(seed))
        return 0
    from cardrules.interpreter import load_ruleset
    from cardrules.interpreter.driver import play_bots
    name, _, kind = which.partition(":")
    if name == "search":  # "games" are first decisions of a search seat (bench.py's decision)
        from cardrules.interpreter import new_game
        from cardrules.interpreter.bots import make_policy
        rules = load_ruleset(kind)
        for seed in range(games):
            state = new_game(rules, 4, seed)
            state.apply(state.chance_action())
            make_policy(rules, "search", seed, state.turn).act(state.observation(state.turn), state.legal_actions())
        return 0
    rules = load_ruleset(name)
    decisions = 0
    for seed in range(games):
        decisions += play_bots(rules, [kind or "bot"] * 4, seed).decisions
    return decisions


def count(which: str, games: int) -> tuple[int, int]:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                           __file__, "--inner", which, str(games)], capture_output=True, text=True, check=True)
    collected = int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    decisions = re.search(r"decisions (\d+)", done.stderr)
    return collected, int(decisions.group(1)) if decisions else 0


def main() -> None:
    if sys.argv[1] == "--inner":
        print("decisions", play(sys.argv[2], int(sys.argv[3])), file=sys.stderr)
        return
    which, games = sys.argv[1], int(sys.argv[2])
    total, decisions = count(which, games)
    base, _ = count(which, 0)
    per_game = (total - base) // games
    print(f"{which}: {per_game} instructions/{'decision' if which.startswith('search:') else 'game'}" + (f", {(total - base) // decisions} per decision" if decisions else ""))


if __name__ == "__main__":
    main()
