"""Statistics people can trust and look at: the 95% intervals of `simulate`, the rows
`compare` leaves out, `--csv` and `--plot`, run as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from cardrules.interpreter.compare import compare
from cardrules.interpreter.intervals import mean_interval, t_quantile, wilson
from cardrules.interpreter.ruleset import load_ruleset
from cardrules.interpreter.simulate import GameSummary

SIMULATE = ["simulate", "oh-hell", "--games", "6", "--seats", "bot,random,random", "--seed", "3", "--quiet"]
COMPARE = ["compare", "oh-hell", "oh-hell-penalty", "--games", "5", "--seats", "bot,random,random", "--seed", "2",
           "--quiet"]


# --- the intervals, against values worked by hand -------------------------------------

def test_wilson_for_7_wins_of_20():
    # p = 0.35, z = 1.96: centre (p + z²/2n) / (1 + z²/n) = 0.37417,
    # half-width z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²) = 0.19298
    low, high = wilson(7, 20)
    assert low == pytest.approx(0.18119, abs=1e-4) and high == pytest.approx(0.56716, abs=1e-4)
    assert low < 7 / 20 < high


def test_wilson_stays_inside_0_and_1_and_holds_the_estimate():
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(0.27753, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] == pytest.approx(0.72247, abs=1e-4)
    for wins in range(0, 31):
        low, high = wilson(wins, 30)
        assert 0 <= low <= wins / 30 <= high <= 1


def test_student_t_critical_values_match_the_tables():
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 9: 2.262, 19: 2.093, 29: 2.045, 60: 2.000, 120: 1.980,
             1000: 1.962}
    for df, value in table.items():
        assert t_quantile(df) == pytest.approx(value, abs=1e-3), df
    assert t_quantile(10 ** 6) == pytest.approx(1.95996, abs=1e-4)


def test_mean_interval_of_a_known_list():
    # 1..5: mean 3, sample sd sqrt(2.5), se sqrt(2.5 / 5) = 0.70711, t(4) = 2.77645
    low, high = mean_interval([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(0.5)
    assert low == pytest.approx(3 - half, abs=1e-5) and high == pytest.approx(3 + half, abs=1e-5)
    assert mean_interval([7]) == (7, 7) and mean_interval([4, 4, 4]) == (4, 4)


# --- simulate shows them --------------------------------------------------------------

def test_simulate_prints_the_intervals_and_names_the_methods(run_cli):
    result = run_cli(*SIMULATE)
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.output and "Wilson score" in result.output and "Student's t" in result.output
    stats = json.loads(run_cli(*SIMULATE, "--json").output)
    for entry in stats["seats"]:
        cells = f"[{100 * entry['win_rate_ci95'][0]:.1f}%, {100 * entry['win_rate_ci95'][1]:.1f}%]"
        assert cells in result.output
        assert f"[{entry['mean_total_ci95'][0]:.1f}, {entry['mean_total_ci95'][1]:.1f}]" in result.output


def test_simulate_json_has_intervals_that_hold_the_estimates(run_cli):
    stats = json.loads(run_cli(*SIMULATE, "--json").output)
    for entry in stats["seats"]:
        low, high = entry["win_rate_ci95"]
        assert 0 <= low <= entry["win_rate"] <= high <= 1
        assert [low, high] == pytest.approx(list(wilson(entry["wins"], 6)))
        low, high = entry["mean_total_ci95"]
        assert low <= entry["mean_total"] <= high
        half = t_quantile(5) * entry["sd_total"] / math.sqrt(6)
        assert [low, high] == pytest.approx([entry["mean_total"] - half, entry["mean_total"] + half])
        assert {"wins", "win_rate", "mean_total", "sd_total"} <= set(entry)  # the fields before stay


# --- compare leaves out what cannot differ --------------------------------------------

def test_compare_leaves_out_rows_fixed_by_the_rules(run_cli):
    result = run_cli(*COMPARE)
    assert result.exit_code == 0, result.output
    shown = result.output.splitlines()
    assert not any(line.lstrip().startswith(("player decisions", "rounds ")) for line in shown)
    assert "(left out: player decisions, rounds: the same in every game under both rulesets" in result.output
    # the exact-bid rate is the same under both only because the bots ignore the score
    # sheet, which is a finding, not a construction: it stays
    assert any(line.lstrip().startswith("exact-bid rate") for line in shown)
    report = json.loads(run_cli(*COMPARE, "--json").output)
    rows = {row["metric"]: row for row in report["rows"]}
    assert report["hidden"] == ["player decisions", "rounds"]
    assert rows["player decisions"]["constant"] and rows["rounds"]["constant"]
    assert not rows["exact-bid rate"]["constant"] and not rows["mean total"]["constant"]
    assert [row["metric"] for row in report["seat_totals"]] == ["seat 0 total", "seat 1 total", "seat 2 total"]


def _summary(seed, totals, rounds, decisions):
    return GameSummary(seed, totals, [totals.index(max(totals))], decisions, rounds,
                       {"exact_bids": [0] * len(totals), "bids": [rounds] * len(totals), "constrained_bids": 0,
                        "by_hand_size": {}})


def test_a_length_that_varies_from_game_to_game_is_kept():
    rules = load_ruleset("oh-hell")
    a = [_summary(1, [10, 20, 30], 5, 40), _summary(2, [15, 5, 30], 6, 48)]
    b = [_summary(1, [12, 20, 31], 5, 40), _summary(2, [15, 9, 30], 6, 48)]
    rows = {row.metric: row for row in compare(a, b, rules, rules)}
    assert not rows["rounds"].constant and not rows["player decisions"].constant  # equal pairs, but not fixed
    same = [_summary(1, [10, 20, 30], 7, 40), _summary(2, [15, 5, 30], 7, 40)]
    rows = {row.metric: row for row in compare(same, same, rules, rules)}
    assert rows["rounds"].constant and rows["player decisions"].constant
    assert not rows["score spread (best - worst total)"].constant  # only figures of length are left out


def test_compare_intervals_are_students_t_over_the_paired_differences():
    """Seat 0's totals differ by 1, 2, 3, 4, 5 over five paired games: the mean
    difference is 3 and its 95% interval is 3 ± t(4) · sd/√5 = 3 ± 2.776 · 1.581/2.236
    (1.0368 to 4.9632), wider than the normal approximation's 3 ± 1.386."""
    rules = load_ruleset("oh-hell")
    a = [_summary(i, [0, 0, 0], 5, 40) for i in range(5)]
    b = [_summary(i, [d, 0, 0], 5, 40) for i, d in enumerate([1, 2, 3, 4, 5])]
    row = {row.metric: row for row in compare(a, b, rules, rules)}["seat 0 total"]
    assert (row.difference, round(row.low, 4), round(row.high, 4), row.pairs) == (3, 1.0368, 4.9632, 5)
    assert row.significant


# --- --csv ------------------------------------------------------------------------------

def _read_csv(path):
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def test_simulate_csv_has_a_row_per_game_and_seat_with_the_totals_of_the_json(run_cli, tmp_path):
    out = tmp_path / "games.csv"
    result = run_cli(*SIMULATE, "--json", "--csv", str(out))
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)  # stdout is still only the JSON
    rows = _read_csv(out)
    assert len(rows) == 6 * 3
    assert list(rows[0])[:9] == ["ruleset", "game", "seed", "seat", "kind", "total", "won", "rounds", "decisions"]
    assert {row["seed"] for row in rows} == {str(3 + i) for i in range(6)}
    for entry in stats["seats"]:
        mine = [row for row in rows if row["seat"] == str(entry["seat"])]
        totals = [int(row["total"]) for row in mine]
        assert sum(totals) / len(totals) == pytest.approx(entry["mean_total"])
        assert min(totals) == entry["min_total"] and max(totals) == entry["max_total"]
        assert sum(int(row["won"]) for row in mine) == entry["wins"]
        assert {row["kind"] for row in mine} == {entry["kind"]}
    assert sum(int(row["decisions"]) for row in rows if row["seat"] == "0") == stats["decisions"]
    assert "exact_bids" in rows[0]  # the family's per-seat figures


def test_compare_csv_has_both_rulesets(run_cli, tmp_path):
    out = tmp_path / "both.csv"
    assert run_cli(*COMPARE, "--csv", str(out)).exit_code == 0
    rows = _read_csv(out)
    assert len(rows) == 2 * 5 * 3
    report = json.loads(run_cli(*COMPARE, "--json").output)
    seat0 = next(row for row in report["rows"] if row["metric"] == "seat 0 total")
    for name, mean in (("oh-hell", seat0["a"]), ("oh-hell-penalty", seat0["b"])):
        totals = [int(row["total"]) for row in rows if row["ruleset"] == name and row["seat"] == "0"]
        assert len(totals) == 5 and sum(totals) / 5 == pytest.approx(mean)


def test_an_existing_file_is_not_overwritten_without_force(run_cli, tmp_path):
    out = tmp_path / "mine.csv"
    out.write_text("my own notes\n")
    result = run_cli(*SIMULATE, "--csv", str(out))
    assert result.exit_code == 1
    assert "mine.csv already exists; choose another --csv file or add --force to replace it" in result.output
    assert "wins" not in result.output  # refused before any game was played
    assert out.read_text() == "my own notes\n"
    result = run_cli(*SIMULATE, "--csv", str(out), "--force")
    assert result.exit_code == 0 and out.read_text().startswith("ruleset,game,seed,")


def test_an_unwritable_path_is_one_clear_line(run_cli, tmp_path):
    result = run_cli(*SIMULATE, "--csv", str(tmp_path / "no-such-folder" / "games.csv"))
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "does not exist" in result.output
    result = run_cli(*COMPARE, "--csv", str(tmp_path))
    assert result.exit_code in (1, 2) and "Traceback" not in result.output


# --- --plot -----------------------------------------------------------------------------

def test_simulate_plots_a_png(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "totals.png"
    result = run_cli(*SIMULATE, "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_compare_plots_an_svg(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "differences.SVG"
    result = run_cli(*COMPARE, "--plot", str(out))
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(out.read_bytes())
    assert root.tag.endswith("svg") and b"<svg" in out.read_bytes()


def test_plot_refuses_an_unknown_format(run_cli, tmp_path):
    result = run_cli(*SIMULATE, "--plot", str(tmp_path / "totals.pdf"))
    assert result.exit_code == 2 and ".png or .svg" in result.output
    assert not (tmp_path / "totals.pdf").exists()


def test_plot_without_matplotlib_says_how_to_install_it(run_cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    out = tmp_path / "totals.png"
    result = run_cli(*SIMULATE, "--plot", str(out))
    assert result.exit_code == 1
    assert result.output.strip() == "cardrules: --plot needs matplotlib: pip install 'cardrules[plot]'"
    assert not out.exists()


def test_partnership_games_report_each_team(run_cli):
    """With `team`, simulate reports each partnership: its seats, its win rate (all its
    seats win together) and its summed total, with intervals."""
    import json

    result = run_cli("simulate", "spades", "--games", "30", "--seats", "bot,random,bot,random", "--json")
    stats = json.loads(result.output)
    teams = stats["teams"]
    assert [t["seats"] for t in teams] == [[0, 2], [1, 3]]
    for team in teams:
        seats = [stats["seats"][s] for s in team["seats"]]
        assert team["mean_total"] == pytest.approx(sum(s["mean_total"] for s in seats))
        assert team["win_rate"] == seats[0]["win_rate"] == seats[1]["win_rate"]
        low, high = team["win_rate_ci95"]
        assert low <= team["win_rate"] <= high
    assert teams[0]["win_rate"] > teams[1]["win_rate"]  # bots against random seats
    assert "team 0 (seats 0, 2): wins" in run_cli("simulate", "spades", "--games", "5").output
    assert "teams" not in json.loads(run_cli("simulate", "oh-hell", "--games", "3", "--json").output)


@pytest.mark.parametrize("ruleset,seats", [("oh-hell", ["bot", "random", "random"]),
                                           ("shanghai-isra-junior", ["bot", "bot", "random", "bot"])])
def test_the_tally_adds_up_to_the_figures_of_every_game_kept(ruleset, seats, monkeypatch):
    """simulate keeps a few numbers a game and the family's figures summed as they come:
    the statistics are those of the whole list of summaries, to the last digit."""
    from cardrules.interpreter import load_ruleset
    from cardrules.interpreter.simulate import Tally, run_games, statistics

    rules = load_ruleset(ruleset)
    assert rules.family.summaries_add_up
    results = run_games(ruleset, seats, 12, seed=3, rules=rules)
    tally = Tally(len(seats), rules)
    for summary in results:
        tally.add(summary)
    assert tally.summed is not None and tally.extras == []  # nothing kept a game but the arrays
    kept = Tally(len(seats), rules)
    kept.additive = False
    for summary in results:
        kept.add(summary)
    assert len(kept.extras) == 12
    assert tally.statistics(seats) == kept.statistics(seats) == statistics(results, seats, rules)
    assert tally.extras == []
