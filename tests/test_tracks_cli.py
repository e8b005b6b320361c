"""The `taut` command for Track Tiles: play, puzzle -> solve -> check, solitaire, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from taut.cli import app
from taut.core import GameRecord
from taut.games.tracks.paths import matching
from taut.games.tracks.solitaire import puzzle_from_json

runner = CliRunner()


def make_puzzle(tmp_path: Path, size: int = 4, seed: int = 1) -> Path:
    r = runner.invoke(app, ["tracks", "puzzle", "--size", str(size), "--seed", str(seed), "--json"])
    assert r.exit_code == 0, r.output
    path = tmp_path / "puzzle.json"
    path.write_text(r.stdout)
    return path


def test_puzzle_solve_check_round_trip(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    data = json.loads(puzzle_path.read_text())
    assert data["size"] == 4 and len(data["pairs"]) == 8 and len(data["original"]) == 4
    r = runner.invoke(app, ["tracks", "solve", str(puzzle_path), "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert set(answer) == {"tiles", "differs", "solutions", "solutions_capped"}
    assert answer["differs"] > 0 and answer["solutions"] >= 2
    puzzle = puzzle_from_json(data)
    flat = [k for row in answer["tiles"] for k in row]
    assert matching(flat, 4) == puzzle.partner()
    solution = tmp_path / "answer.json"
    solution.write_text(r.stdout)
    r = runner.invoke(app, ["tracks", "check", str(puzzle_path), str(solution), "--json"])
    verdict = json.loads(r.stdout)
    assert verdict["problems"] == [] and verdict["differs"] == answer["differs"]
    assert r.exit_code == (0 if verdict["solved"] else 1)
    r = runner.invoke(app, ["tracks", "check", str(puzzle_path), str(solution)])
    assert "Every labelled pair is joined." in r.stdout


def test_solve_reads_stdin_and_prints_a_board(tmp_path: Path) -> None:
    text = make_puzzle(tmp_path, size=3, seed=4).read_text()
    r = runner.invoke(app, ["tracks", "solve", "-"], input=text)
    assert r.exit_code == 0, r.output
    assert "Tilings joining exactly these pairs" in r.stdout
    r = runner.invoke(app, ["tracks", "solve", "-", "--cap", "1", "--json"], input=text)
    out = json.loads(r.stdout)
    assert out["solutions"] == 1 and out["solutions_capped"] is True


def test_solve_when_only_the_original_works() -> None:
    # All crossings on 2x2: every other tiling pairs the units differently.
    text = json.dumps(
        {
            "size": 2,
            "pairs": [["N0", "S0"], ["N1", "S1"], ["W0", "E0"], ["W1", "E1"]],
            "original": [[3, 3], [3, 3]],
        }
    )
    r = runner.invoke(app, ["tracks", "solve", "-", "--json"], input=text)
    assert json.loads(r.stdout) == {
        "tiles": None,
        "differs": 0,
        "solutions": 1,
        "solutions_capped": False,
    }
    r = runner.invoke(app, ["tracks", "solve", "-"], input=text)
    assert "no other solution" in r.stdout


def test_check_reports_wrong_paths_with_exit_1(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("1111\n1111\n1111\n1111\n")
    r = runner.invoke(app, ["tracks", "check", str(puzzle_path), str(wrong)])
    assert r.exit_code == 1
    assert "wrong: pair" in r.stdout and "Not solved." in r.stdout


def test_check_says_when_the_answer_is_the_original(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    original = json.loads(puzzle_path.read_text())["original"]
    answer = tmp_path / "same.json"
    answer.write_text(json.dumps(original))
    r = runner.invoke(app, ["tracks", "check", str(puzzle_path), str(answer)])
    assert r.exit_code == 1
    assert "Differs from the original in 0 of 16 cells (8 needed)" in r.stdout


def test_error_paths_exit_2_with_clear_messages(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    cases = [
        (["tracks", "solve", str(tmp_path / "missing.json")], None, "cannot read puzzle"),
        (["tracks", "solve", "-"], "{oops", "not valid JSON"),
        (
            ["tracks", "solve", "-"],
            '{"size": 2, "pairs": [[["N", 0], ["W", 5]]]}',
            "W5 is off the 2x2 board",
        ),
        (
            ["tracks", "solve", "-"],
            '{"size": 2, "pairs": [["N0", "S0"], ["N0", "S1"]]}',
            "N0 is in two pairs",
        ),
        (["tracks", "solve", "-"], '{"size": 2, "pairs": [["N0", "S0"]]}', "in no pair"),
        (["tracks", "solve", "-", "--method", "magic"], "{}", "--method"),
        (["tracks", "check", str(puzzle_path), "-"], "12\n", "4 rows"),
        (["tracks", "puzzle", "--size", "13"], None, "--size must be 2..12"),
        (["play", "tracks", "--ns", "wizard"], None, "unknown agent"),
        (["play", "tracks", "--size", "20"], None, "size"),
    ]
    for args, stdin, why in cases:
        r = runner.invoke(app, args, input=stdin)
        assert r.exit_code == 2, (args, r.output)
        assert why in r.stderr, (args, r.stderr)


def test_play_between_agents_writes_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    r = runner.invoke(
        app,
        [
            "play",
            "tracks",
            "--ns",
            "greedy",
            "--we",
            "random",
            "--size",
            "4",
            "--seed",
            "3",
            "--record",
            str(record),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "rolls" in r.stdout and "places kind" in r.stdout
    final = GameRecord.load(record).replay()
    assert final.is_terminal()


def test_play_as_a_human_survives_bad_input() -> None:
    cells = [f"{c}{r}" for r in range(1, 4) for c in "abc"]
    lines = ["nonsense", "z9", "help", *cells]
    r = runner.invoke(
        app,
        ["play", "tracks", "--ns", "human", "--we", "random", "--size", "3", "--seed", "1"],
        input="\n".join(lines) + "\n",
    )
    assert r.exit_code == 0, r.output
    assert "is not a cell" in r.stdout and "is off the 3x3 board" in r.stdout
    assert "Legal:" in r.stdout
    assert "won" in r.stdout or "draw" in r.stdout


def test_solitaire_session(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path, size=3, seed=2)
    r = runner.invoke(app, ["tracks", "solve", str(puzzle_path), "--json"])
    tiles = json.loads(r.stdout)["tiles"]
    assert tiles is not None
    script = [
        "what",
        "a1 7",
        "z9 1",
        "check",
        "trace Q",
        "a1 2",
        "a1 .",
        *[f"row {i + 1} {''.join(map(str, row))}" for i, row in enumerate(tiles)],
        "trace A",
        "best",
        "check",
    ]
    r = runner.invoke(
        app,
        ["tracks", "solitaire", "--puzzle", str(puzzle_path), "--threshold", "0"],
        input="\n".join(script) + "\n",
    )
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "is not a command" in out and "is off the 3x3 board" in out
    assert "not full yet" in out and "no label 'Q'" in out
    assert "3 pairs joined" in out or "pairs joined" in out
    assert "Solved!" in out


def test_solitaire_quits_on_end_of_input() -> None:
    r = runner.invoke(app, ["tracks", "solitaire", "--size", "2", "--seed", "5"], input="help\n")
    assert r.exit_code == 0, r.output
    assert "place kind 2 on cell c3" in r.stdout
