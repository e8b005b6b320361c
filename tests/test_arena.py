"""Tournaments: fair seating, reproducible results, JSON report, statistics, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import taut
from taut.arena.stats import score, wilson_interval
from taut.arena.tournament import run_tournament, schedule
from taut.cli import cli as app

runner = CliRunner()
OPTIONS = {"max_turns": 60}


def test_schedule_swaps_seats_fairly() -> None:
    tasks = schedule("pulling-strings", OPTIONS, ["a", "b", "c"], 4, 0, 2)
    assert len(tasks) == 3 * 4
    for pair in [(0, 1), (0, 2), (1, 2)]:
        firsts = [t.seats[0] for t in tasks if t.pair == pair]
        assert firsts.count(pair[0]) == firsts.count(pair[1]) == 2
    three = schedule("pulling-strings", OPTIONS, ["a", "b"], 2, 0, 3)
    assert three[0].seats == (0, 1, 0) and three[1].seats == (1, 0, 1)
    assert len({t.seed for t in tasks}) == len(tasks)


def test_reproducible_and_independent_of_workers() -> None:
    one = run_tournament("pulling-strings", OPTIONS, ["random", "greedy"], 6, 3, workers=1)
    two = run_tournament("pulling-strings", OPTIONS, ["random", "greedy"], 6, 3, workers=2)
    assert one.to_json() == two.to_json()
    assert [r.winners for r in one.results] == [r.winners for r in two.results]


def test_totals_add_up() -> None:
    res = run_tournament("pulling-strings", OPTIONS, ["random", "greedy"], 8, 1, workers=1)
    data = res.to_json()
    r, g = data["results"]["random"], data["results"]["greedy"]
    assert r["wins"] + r["draws"] + r["losses"] == 8
    assert r["wins"] == g["losses"] and r["draws"] == g["draws"]
    pair = data["pairs"][0]
    assert (pair["a"], pair["b"]) == ("random", "greedy")
    assert pair["b_wins"] == g["wins"]
    assert g["rating"] > r["rating"]


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert score(1, 2, 1) == 0.5


def test_cli_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "arena.png"
    r = runner.invoke(
        app,
        [
            "arena",
            "pulling-strings",
            "--agents",
            "random,greedy",
            "--games",
            "4",
            "--seed",
            "2",
            "--workers",
            "1",
            "--json",
            "--plot",
            str(png),
        ],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert set(data) >= {"game", "options", "games", "agents", "results", "pairs"}
    assert data["games"] == 4 and data["agents"] == ["random", "greedy"]
    assert set(data["results"]["greedy"]) >= {"wins", "draws", "losses", "rating"}
    assert png.stat().st_size > 1000 and png.read_bytes()[:4] == b"\x89PNG"


def test_cli_errors() -> None:
    r = runner.invoke(app, ["arena", "pulling-strings", "--agents", "random"])
    assert r.exit_code == 2 and "at least two" in r.stderr
    r = runner.invoke(app, ["arena", "pulling-strings", "--agents", "random,wizard"])
    assert r.exit_code == 2 and "unknown agent 'wizard'" in r.stderr
    r = runner.invoke(app, ["arena", "pulling-strings", "--agents", "random,random"])
    assert r.exit_code == 2 and "distinct" in r.stderr
    r = runner.invoke(app, ["arena", "no-such-game", "--agents", "random,greedy"])
    assert r.exit_code == 2 and "unknown game" in r.stderr


def test_team_games_seat_one_agent_per_team() -> None:
    game = taut.make("push-pull", variant="four-teams")
    teams = game.teams()
    assert sorted(s for t in teams for s in t) == [0, 1, 2, 3] and len(teams) == 2
    tasks = schedule("push-pull", {"variant": "four-teams"}, ["a", "b"], 4, 0, teams)
    for g, task in enumerate(tasks):
        for t, members in enumerate(teams):
            assert {task.seats[s] for s in members} == {(t + g) % 2}, (task.seats, teams)
    # Each agent plays each team twice.
    assert sorted(task.seats[teams[0][0]] for task in tasks) == [0, 0, 1, 1]
    assert taut.make("push-pull", variant="four").teams() == ((0,), (1,), (2,), (3,))
    assert taut.make("tug-of-war", players=3).teams() == ((0,), (1,), (2,))


def test_a_team_game_tournament_has_decisive_results() -> None:
    result = run_tournament(
        "push-pull", {"variant": "four-teams", "max_turns": 60}, ["random", "greedy"], 4, 3, 1
    )
    pair = result.pairs[0]
    assert pair.a_wins + pair.b_wins + pair.draws == 4
    assert pair.a_wins + pair.b_wins > 0  # a team win is one agent's win, not a shared draw
