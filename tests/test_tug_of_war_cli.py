"""The `taut` command for Tug of War: selfplay -> replay round trip, play, bench, errors."""

from __future__ import annotations

import io
import json
import random
from collections import deque
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import taut
from taut.cli import app
from taut.cli.table import TerminalTable
from taut.cli.tug_of_war import TugHuman
from taut.games.tug_of_war import TugOfWar, position

runner = CliRunner()


def test_selfplay_then_replay_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = runner.invoke(
        app,
        [
            "selfplay", "tug-of-war", "--players", "3", "--games", "4", "--seed", "9",
            "--agents", "greedy,random,random", "--record", str(out), "--target", "25",
        ],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "greedy" in r.stdout and "games/s" in r.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4
    assert [rec["seed"] for rec in records] == [9, 10, 11, 12]
    assert all(rec["options"]["set"] == 6 and rec["options"]["hand"] == 7 for rec in records)
    r = runner.invoke(app, ["replay", "tug-of-war", str(out)])
    assert r.exit_code == 0, r.output
    assert "4 record(s) checked" in r.stdout
    for i, rec in enumerate(records, start=1):
        assert f"record {i}:" in r.stdout
        assert str(rec["final_scores"]) in r.stdout


def test_replay_names_the_record_round_and_event(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = runner.invoke(
        app,
        ["selfplay", "tug-of-war", "--players", "2", "--games", "3", "--record", str(out)],
    )
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    events = records[1]["rounds"][0]["events"]
    k = next(i for i, ev in enumerate(events) if ev["type"] == "play")
    events[k]["end"] = 1 - events[k]["end"]
    events[k]["train"] = 1 - events[k]["train"]
    out.write_text("".join(json.dumps(rec) + "\n" for rec in records))
    r = runner.invoke(app, ["replay", "tug-of-war", str(out)])
    assert r.exit_code == 2
    assert f"record 2, round 1, event {k + 1}:" in r.stderr
    assert "record 1:" in r.stdout  # the good record before it was reported


def test_replay_error_paths(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    r = runner.invoke(app, ["replay", "tug-of-war", str(missing)])
    assert r.exit_code == 2 and "cannot read" in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "tug-of-war"}\n{oops\n')
    r = runner.invoke(app, ["replay", "tug-of-war", str(bad)])
    assert r.exit_code == 2 and "record 2: not valid JSON" in r.stderr
    bad.write_text('{"game": "chess", "options": {}}\n')
    r = runner.invoke(app, ["replay", "tug-of-war", str(bad)])
    assert r.exit_code == 2 and "record 1:" in r.stderr and "tug-of-war" in r.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    r = runner.invoke(app, ["replay", "tug-of-war", str(empty)])
    assert r.exit_code == 2 and "no record" in r.stderr


def test_selfplay_error_paths() -> None:
    r = runner.invoke(app, ["selfplay", "tug-of-war", "--players", "3", "--agents", "a,b"])
    assert r.exit_code == 2 and "--agents" in r.stderr
    r = runner.invoke(app, ["selfplay", "tug-of-war", "--agents", "wizard"])
    assert r.exit_code == 2 and "unknown agent" in r.stderr
    r = runner.invoke(
        app, ["selfplay", "tug-of-war", "--players", "4", "--set", "6", "--hand", "7"]
    )
    assert r.exit_code == 2 and "set=9" in r.stderr


def test_play_between_agents_writes_a_record_that_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(
        app,
        [
            "play", "tug-of-war", "--players", "3", "--seat", "0=random", "--seat", "1=greedy",
            "--seat", "2=random", "--seed", "5", "--target", "20", "--record", str(rec),
        ],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Score sheet" in r.stdout and "Round 1 dealt" in r.stdout
    assert "won" in r.stdout
    r = runner.invoke(app, ["replay", "tug-of-war", str(rec)])
    assert r.exit_code == 0, r.output


def test_play_with_a_human_shows_only_that_hand_and_can_quit() -> None:
    r = runner.invoke(
        app, ["play", "tug-of-war", "--players", "3", "--seed", "2"], input="help\nquit\n"
    )
    assert r.exit_code == 0, r.output
    assert "P0=human" in r.stdout and "P1=greedy" in r.stdout
    assert "Your hand (P0)" in r.stdout
    assert "Your hand (P1)" not in r.stdout and "Your hand (P2)" not in r.stdout
    assert "Legal:" in r.stdout and "Game stopped" in r.stdout


def test_play_bad_seat_specs() -> None:
    r = runner.invoke(app, ["play", "tug-of-war", "--seat", "5=human"])
    assert r.exit_code == 2 and "SEAT=WHO" in r.stderr
    r = runner.invoke(app, ["play", "tug-of-war", "--seat", "1=wizard"])
    assert r.exit_code == 2 and "unknown agent" in r.stderr


def test_human_agent_retries_until_legal_and_makes_forced_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = taut.make("tug-of-war", players=2)
    assert isinstance(game, TugOfWar)
    state = position(
        game,
        starters=[(3, 5), (2, 6)],
        hands=[[(5, 1), (3, 3)], [(0, 0)]],
        boneyard=[(4, 4)],
        current=0,
    )
    answers = iter(["bogus", "draw", "0-0@0.0", "5-1@0.1"])
    shown = io.StringIO()
    table = TerminalTable(
        Console(file=shown),
        lambda s: "",
        1,
        read_line=lambda prompt, hidden: next(answers),
    )
    human = TugHuman(table, deque())
    view = state.view(0)
    assert view.action_to_string(0, human.act(view, 0, random.Random(0))) == "5-1@0.1"
    assert "not a Tug of War action" in shown.getvalue()
    assert "no agreed draws" in capsys.readouterr().out
    assert "does not hold 0-0" in shown.getvalue()
    # P1 cannot play and must draw: no question is asked.
    after = state.apply(state.string_to_action(0, "5-1@0.1")).view(1)
    assert after.action_to_string(1, human.act(after, 1, random.Random(0))) == "draw"


def test_bench_runs() -> None:
    r = runner.invoke(app, ["bench", "tug-of-war", "--seconds", "0.2", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games_per_s"] > 0
