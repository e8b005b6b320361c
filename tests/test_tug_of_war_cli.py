"""The `taut` command for Tug of War: selfplay -> replay round trip, play, bench, errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from taut.cli import cli as app

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
        scores = ", ".join(f"P{s} {v}" for s, v in enumerate(rec["final_scores"]))
        assert f"final score: {scores}" in r.stdout


def test_replay_names_the_record_round_and_event(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = runner.invoke(
        app,
        ["selfplay", "tug-of-war", "--players", "2", "--games", "3", "--record", str(out)],
    )
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    rnd = records[1]["rounds"][0]
    events = rnd["events"]
    k = next(i for i, ev in enumerate(events) if ev["type"] == "play")
    # The first play made with a tile lying on the table (a starter): nobody holds it.
    events[k]["tile"] = rnd["starters"][events[k]["seat"]]
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
    assert r.exit_code == 2 and "line 2 is not valid JSON" in r.stderr
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
    assert "Seats: P0 human, P1 greedy, P2 greedy." in r.stdout
    assert "Your hand (P0)" in r.stdout
    assert "Your hand (P1)" not in r.stdout and "Your hand (P2)" not in r.stdout
    assert "Legal:" in r.stdout and "Game stopped" in r.stdout


def test_play_bad_seat_specs() -> None:
    r = runner.invoke(app, ["play", "tug-of-war", "--seat", "5=human"])
    assert r.exit_code == 2 and "seats are P0, P1, P2" in r.stderr
    r = runner.invoke(app, ["play", "tug-of-war", "--seat", "1"])
    assert r.exit_code == 2 and "SEAT=WHO" in r.stderr
    r = runner.invoke(app, ["play", "tug-of-war", "--seat", "1=wizard"])
    assert r.exit_code == 2 and "unknown agent" in r.stderr


def test_bench_runs() -> None:
    r = runner.invoke(app, ["bench", "tug-of-war", "--seconds", "0.2", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games_per_s"] > 0


def test_a_tile_is_narrated_as_the_human_typed_it() -> None:
    first = runner.invoke(app, ["play", "tug-of-war", "--seed", "4"], input="quit\n")
    moves = first.stdout.split("You can play: ", 1)[1].split()
    tile, where = moves[0].split("@")
    a, b = tile.split("-")
    typed = f"{b}-{a}@{where}" if a != b else moves[0]
    r = runner.invoke(app, ["play", "tug-of-war", "--seed", "4"], input=f"{typed}\nquit\n")
    assert r.exit_code == 0, r.output
    assert f"P0 plays {typed.split('@')[0]} on" in r.stdout
