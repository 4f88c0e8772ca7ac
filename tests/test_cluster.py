"""`--cluster`: games played on a Dask cluster give the same figures as `--jobs 1`
(game i has seed S + i wherever it runs, and the results are put back in game order),
and without Dask the option says how to get it, in one line, exit 1."""

from __future__ import annotations

import builtins
import json

import pytest

from cardrules.interpreter.simulate import ClusterUnavailable, open_cluster, run_games

distributed = pytest.importorskip("distributed")


def _without_seconds(text):
    stats = json.loads(text)
    stats.pop("seconds", None)
    return stats


def test_a_local_cluster_gives_the_json_of_one_process(run_cli):
    args = ["simulate", "oh-hell", "--games", "12", "--seed", "40", "--json", "--quiet"]
    alone = run_cli(*args, "--jobs", "1")
    spread = run_cli(*args, "--cluster", "local", "--jobs", "2")
    assert alone.exit_code == 0 and spread.exit_code == 0, spread.output
    assert _without_seconds(spread.output) == _without_seconds(alone.output)


def test_compare_on_a_local_cluster_gives_the_json_of_one_process(run_cli):
    args = ["compare", "oh-hell", "oh-hell-penalty", "--games", "6", "--seed", "3", "--json", "--quiet"]
    alone = run_cli(*args)
    spread = run_cli(*args, "--cluster", "local", "--jobs", "2")
    assert spread.exit_code == 0, spread.output
    assert json.loads(spread.output) == json.loads(alone.output)


def test_the_progress_counts_every_game_from_every_worker():
    counted = []
    with open_cluster("local", 2) as client:
        results = run_games("oh-hell", ["bot"] * 4, 30, seed=5, cluster=client, progress=counted.append)
    assert sum(counted) == 30
    assert [r.seed for r in results] == list(range(5, 35))
    assert [r.totals for r in results] == [r.totals for r in run_games("oh-hell", ["bot"] * 4, 30, seed=5)]


def test_without_dask_the_option_says_how_to_install_it(run_cli, monkeypatch):
    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(ClusterUnavailable, match=r"pip install 'cardrules\[cluster\]'"):
        with open_cluster("local"):
            pass
    result = run_cli("simulate", "oh-hell", "--games", "2", "--cluster", "local")
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].endswith("pip install 'cardrules[cluster]'")


def test_an_unreachable_scheduler_is_one_line_and_exit_1(run_cli, monkeypatch):
    monkeypatch.setattr("cardrules.interpreter.simulate.CONNECT_TIMEOUT", "1s")
    result = run_cli("simulate", "oh-hell", "--games", "2", "--cluster", "tcp://127.0.0.1:9")
    assert result.exit_code == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
