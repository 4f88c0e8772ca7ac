"""How strong is a seat kind?  Paired against the heuristic bot in the same seat, on the
same deals.

    python benchmarks/strength.py RULESET [--kind search:200] [--games 200] [--seed 1]
                                  [--seat 0] [--jobs 2] [--cluster local]
    python benchmarks/strength.py --bids RULESET_A RULESET_B [--kind search:200] [--games 100] ...

The first form plays ``--games`` games with ``--kind`` in ``--seat`` and heuristic bots
(``bot``) elsewhere, and the same games (seeds ``S .. S+N-1``, so the same deals) with
``bot`` in every seat, exactly as ``cardrules simulate RULESET --seats ... --seed S``
does.  Seats are not equal, so each figure is compared game by game with the bot in
the same seat: the difference of the win rate (a shared first place counts as a win,
as in ``simulate``), of the total, and of each per-seat figure the family records
(exact bids, penalty points, rounds gone out, ...) per round, each with the 95%
interval of the paired differences (Student's t); the two rates themselves with
Wilson intervals.

The second form asks whether the kind bids differently under two scorings: it plays
the same deals under both rulesets, for ``--kind`` and for ``bot`` in the seat, and
reports the distribution of the seat's bids relative to the hand size (the bid over
the hand size; the share of bids of 0, of at most a quarter of the tricks, and of more),
and the paired difference between the rulesets game by game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any, Sequence


from cardrules.interpreter import load_ruleset  # noqa: E402
from cardrules.interpreter.files import is_file  # noqa: E402
from cardrules.interpreter.intervals import mean_interval, wilson  # noqa: E402
from cardrules.interpreter.simulate import GameSummary, open_cluster, run_games  # noqa: E402


def _ref(text: str) -> str:
    return text if is_file(Path(text)) else load_ruleset(text).name


def _paired(a: Sequence[float], b: Sequence[float], names: tuple[str, str] = ("kind", "bot")) -> dict[str, Any]:
    """Means of ``a`` and ``b`` and of the differences a - b, with the t interval of those."""
    diffs = [x - y for x, y in zip(a, b)]
    low, high = mean_interval(diffs)
    return {names[0]: statistics.fmean(a), names[1]: statistics.fmean(b), "difference": statistics.fmean(diffs),
            "ci95": [low, high], "excludes_zero": low > 0 or high < 0}


def _won(summary: GameSummary, seat: int) -> float:
    return 1.0 if seat in summary.winners else 0.0


def strength(ruleset: str, kind: str, games: int, seed: int, seat: int, jobs: int, client: Any,
             players: int | None) -> dict[str, Any]:
    rules = load_ruleset(Path(ruleset) if is_file(Path(ruleset)) else ruleset)
    count = players or max(rules.min_players, min(4, rules.max_players))
    seats = ["bot"] * count
    seats[seat] = kind
    start = time.perf_counter()
    ours = run_games(_ref(ruleset), seats, games, seed, jobs, cluster=client)
    middle = time.perf_counter()
    base = run_games(_ref(ruleset), ["bot"] * count, games, seed, jobs, cluster=client)
    end = time.perf_counter()
    wins = [sum(_won(r, seat) for r in results) for results in (ours, base)]
    out: dict[str, Any] = {
        "ruleset": rules.name, "games": games, "seed": seed, "seat": seat,
        "seats": seats, "baseline": ["bot"] * count,
        "seconds": {"kind": round(middle - start, 1), "baseline": round(end - middle, 1)},
        "win_rate": _paired([_won(r, seat) for r in ours], [_won(r, seat) for r in base]),
        "win_rate_ci95": {"kind": list(wilson(int(wins[0]), games)), "bot": list(wilson(int(wins[1]), games))},
        "total": _paired([r.totals[seat] for r in ours], [r.totals[seat] for r in base]),
        "rounds": sum(r.rounds for r in ours),
    }
    # every per-seat count the family records, per round played (exact bids, penalty points,
    # rounds gone out, ...)
    for key, value in ours[0].extra.items():
        if isinstance(value, list) and len(value) == count and all(isinstance(v, (int, float)) for v in value):
            a = [r.extra[key][seat] / r.rounds for r in ours]
            b = [r.extra[key][seat] / r.rounds for r in base]
            if len(set(a + b)) > 1:
                out[f"{key}_per_round"] = _paired(a, b)
    return out


def _bids(ruleset: str, kind: str, games: int, seed: int, seat: int, jobs: int, client: Any,
          players: int, folder: Path, reuse: bool) -> list[list[tuple[int, int]]]:
    """Each game's (bid, hand size) of ``seat``, round by round, from the games' records
    (``reuse``: read the records a run with the same arguments left, if all are there)."""
    seats = ["bot"] * players
    seats[seat] = kind
    where = folder / f"{Path(ruleset).stem}-{kind.replace(':', '_')}"
    where.mkdir(parents=True, exist_ok=True)
    if not (reuse and all((where / f"game-{seed + i}.jsonl").exists() for i in range(games))):
        for old in where.glob("game-*.jsonl"):
            old.unlink()
        run_games(_ref(ruleset), seats, games, seed, jobs, record_dir=where, cluster=client)
    out = []
    for i in range(games):
        lines = [json.loads(line) for line in (where / f"game-{seed + i}.jsonl").read_text().splitlines()]
        sizes = {e["round"]: e["hand_size"] for e in lines if e["event"] == "deal"}
        out.append([(e["bid"], sizes[e["round"]]) for e in lines if e["event"] == "bid" and e["seat"] == seat])
    return out


def _distribution(games: Sequence[Sequence[tuple[int, int]]]) -> dict[str, Any]:
    bids = [pair for game in games for pair in game]
    ratios = [bid / size for bid, size in bids]
    zero = sum(1 for bid, _ in bids if bid == 0)
    low = sum(1 for bid, size in bids if 0 < bid <= size / 4)
    return {"bids": len(bids), "mean_bid_over_hand_size": statistics.fmean(ratios),
            "ci95": list(mean_interval(ratios)),
            "share_zero": zero / len(bids), "share_zero_ci95": list(wilson(zero, len(bids))),
            "share_up_to_a_quarter": low / len(bids),
            "share_above_a_quarter": (len(bids) - zero - low) / len(bids),
            "by_bid_over_hand_size": {f"{k:.2f}": v for k, v in sorted(Counter(round(r, 2) for r in ratios).items())}}


def _differing(under_a: Sequence[Sequence[tuple[int, int]]], under_b: Sequence[Sequence[tuple[int, int]]],
               first_only: bool) -> dict[str, Any]:
    """How many of the seat's bids differ between the rulesets, round by round of the same
    deals.  In the first round the seat's situation is the same under both (the same
    cards, the same seed): only the scoring differs, so a different bid there is the
    scoring's doing alone."""
    pairs = [(x, y) for ga, gb in zip(under_a, under_b) for x, y in (list(zip(ga, gb))[:1] if first_only
                                                                      else zip(ga, gb))]
    differ = sum(1 for (x, _), (y, _) in pairs if x != y)
    return {"bids": len(pairs), "differ": differ, "share": differ / len(pairs),
            "share_ci95": list(wilson(differ, len(pairs))),
            "a_minus_b_mean_bid": _paired([x for (x, _), _ in pairs], [y for _, (y, _) in pairs], ("a", "b"))}


def sensitivity(a: str, b: str, kind: str, games: int, seed: int, seat: int, jobs: int, client: Any,
                players: int, folder: Path, reuse: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"a": a, "b": b, "games": games, "seed": seed, "seat": seat}
    for who in (kind, "bot"):
        under_a = _bids(a, who, games, seed, seat, jobs, client, players, folder, reuse)
        under_b = _bids(b, who, games, seed, seat, jobs, client, players, folder, reuse)
        per_game = ([statistics.fmean(x / s for x, s in g) for g in under_a],
                    [statistics.fmean(x / s for x, s in g) for g in under_b])
        out[who] = {"a": _distribution(under_a), "b": _distribution(under_b),
                    "a_minus_b_mean_bid_over_hand_size": _paired(*per_game, names=("a", "b")),
                    "same_bids": under_a == under_b,
                    "differing_bids_first_round": _differing(under_a, under_b, True),
                    "differing_bids_every_round": _differing(under_a, under_b, False)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--kind", default="search:200")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cluster", help="a Dask scheduler's address, or 'local'")
    parser.add_argument("--bids", action="store_true", help="compare the seat's bids under two rulesets")
    parser.add_argument("--records", type=Path, default=Path("strength-records"),
                        help="where --bids keeps the games' records (read back for the bids)")
    parser.add_argument("--reuse", action="store_true",
                        help="--bids: read the records an earlier run with the same arguments left")
    args = parser.parse_args()
    client_context = open_cluster(args.cluster, args.jobs if args.jobs > 1 else 0) if args.cluster else None
    client = client_context.__enter__() if client_context is not None else None
    try:
        if args.bids:
            if len(args.rulesets) != 2:
                parser.error("--bids compares two rulesets")
            result = sensitivity(args.rulesets[0], args.rulesets[1], args.kind, args.games, args.seed, args.seat,
                                 args.jobs, client, args.players, args.records, args.reuse)
        else:
            result = strength(args.rulesets[0], args.kind, args.games, args.seed, args.seat, args.jobs, client,
                              args.players)
    finally:
        if client_context is not None:
            client_context.__exit__(None, None, None)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
