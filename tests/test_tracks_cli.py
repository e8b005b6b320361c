"""The `taut` command for Track Tiles: play, puzzle -> solve -> check, solitaire, errors.

The solitaire commands are the plugin's click group, invoked directly; ``taut play tracks``
goes through the whole command line.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from taut.cli import cli
from taut.core import GameRecord
from taut.games.tracks.commands import tracks_group
from taut.games.tracks.paths import matching
from taut.games.tracks.solitaire import puzzle_from_json

runner = CliRunner()


def make_puzzle(tmp_path: Path, size: int = 4, seed: int = 1) -> Path:
    r = runner.invoke(tracks_group, ["puzzle", "--size", str(size), "--seed", str(seed), "--json"])
    assert r.exit_code == 0, r.output
    path = tmp_path / "puzzle.json"
    path.write_text(r.stdout)
    return path


def test_puzzle_solve_check_round_trip(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    data = json.loads(puzzle_path.read_text())
    assert data["size"] == 4 and len(data["pairs"]) == 8 and len(data["original"]) == 4
    r = runner.invoke(tracks_group, ["solve", str(puzzle_path), "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert set(answer) == {"tiles", "differs", "solutions", "solutions_capped"}
    assert answer["differs"] > 0 and answer["solutions"] >= 2
    puzzle = puzzle_from_json(data)
    flat = [k for row in answer["tiles"] for k in row]
    assert matching(flat, 4) == puzzle.partner()
    solution = tmp_path / "answer.json"
    solution.write_text(r.stdout)
    r = runner.invoke(tracks_group, ["check", str(puzzle_path), str(solution), "--json"])
    verdict = json.loads(r.stdout)
    assert verdict["problems"] == [] and verdict["differs"] == answer["differs"]
    assert r.exit_code == (0 if verdict["solved"] else 1)
    r = runner.invoke(tracks_group, ["check", str(puzzle_path), str(solution)])
    assert "Every labelled pair is joined." in r.stdout


def test_solve_reads_stdin_and_prints_a_board(tmp_path: Path) -> None:
    text = make_puzzle(tmp_path, size=3, seed=4).read_text()
    r = runner.invoke(tracks_group, ["solve", "-"], input=text)
    assert r.exit_code == 0, r.output
    assert "Tilings joining exactly these pairs" in r.stdout
    r = runner.invoke(tracks_group, ["solve", "-", "--cap", "1", "--json"], input=text)
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
    r = runner.invoke(tracks_group, ["solve", "-", "--json"], input=text)
    assert json.loads(r.stdout) == {
        "tiles": None,
        "differs": 0,
        "solutions": 1,
        "solutions_capped": False,
    }
    r = runner.invoke(tracks_group, ["solve", "-"], input=text)
    assert "no other solution" in r.stdout


def test_check_reports_wrong_paths_with_exit_1(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("1111\n1111\n1111\n1111\n")
    r = runner.invoke(tracks_group, ["check", str(puzzle_path), str(wrong)])
    assert r.exit_code == 1
    assert "wrong: pair" in r.stdout and "Not solved." in r.stdout


def test_check_says_when_the_answer_is_the_original(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    original = json.loads(puzzle_path.read_text())["original"]
    answer = tmp_path / "same.json"
    answer.write_text(json.dumps(original))
    r = runner.invoke(tracks_group, ["check", str(puzzle_path), str(answer)])
    assert r.exit_code == 1
    assert "Differs from the original in 0 of 16 cells (8 needed)" in r.stdout


def test_error_paths_exit_2_with_clear_messages(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    cases = [
        (["solve", str(tmp_path / "missing.json")], None, "cannot read puzzle"),
        (["solve", "-"], "{oops", "not valid JSON"),
        (
            ["solve", "-"],
            '{"size": 2, "pairs": [[["N", 0], ["W", 5]]]}',
            "W5 is off the 2x2 board",
        ),
        (
            ["solve", "-"],
            '{"size": 2, "pairs": [["N0", "S0"], ["N0", "S1"]]}',
            "N0 is in two pairs",
        ),
        (["solve", "-"], '{"size": 2, "pairs": [["N0", "S0"]]}', "in no pair"),
        (["solve", "-", "--method", "magic"], "{}", "--method"),
        (["check", str(puzzle_path), "-"], "12\n", "4 rows"),
        (["puzzle", "--size", "13"], None, "--size must be 2..12"),
        (["solve", "-"], "[" * 100_000, "nested too deeply"),
        (["solve", "-"], '{"size": ' + "7" * 5000 + "}", "the puzzle:"),
        (["solve", str(binary)], None, "is not UTF-8 text"),
        (["check", str(puzzle_path), "-"], "[[1, NaN]]", "NaN is not a JSON number"),
    ]
    for args, stdin, why in cases:
        r = runner.invoke(tracks_group, args, input=stdin)
        assert r.exit_code == 2, (args, r.output)
        assert why in r.stderr, (args, r.stderr)


def test_play_errors_exit_2_with_clear_messages() -> None:
    cases = [
        (["play", "tracks", "--ns", "wizard"], None, "unknown agent"),
        (["play", "tracks", "--size", "20"], None, "size"),
    ]
    for args, stdin, why in cases:
        r = runner.invoke(cli, args, input=stdin)
        assert r.exit_code == 2, (args, r.output)
        assert why in r.stderr, (args, r.stderr)


def test_play_between_agents_writes_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    r = runner.invoke(
        cli,
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
        cli,
        ["play", "tracks", "--ns", "human", "--we", "random", "--size", "3", "--seed", "1"],
        input="\n".join(lines) + "\n",
    )
    assert r.exit_code == 0, r.output
    assert "is not a cell" in r.stdout and "is off the 3x3 board" in r.stdout
    assert "Legal:" in r.stdout
    assert "won" in r.stdout or "draw" in r.stdout


def test_solitaire_session(tmp_path: Path) -> None:
    puzzle_path = make_puzzle(tmp_path, size=3, seed=2)
    r = runner.invoke(tracks_group, ["solve", str(puzzle_path), "--json"])
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
        tracks_group,
        ["solitaire", "--puzzle", str(puzzle_path), "--threshold", "0"],
        input="\n".join(script) + "\n",
    )
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "is not a command" in out and "is off the 3x3 board" in out
    assert "not full yet" in out and "no label 'Q'" in out
    assert "3 pairs joined" in out or "pairs joined" in out
    assert "Solved!" in out


def test_solitaire_quits_on_end_of_input() -> None:
    r = runner.invoke(tracks_group, ["solitaire", "--size", "2", "--seed", "5"], input="help\n")
    assert r.exit_code == 0, r.output
    assert "place kind 2 on cell c3" in r.stdout


def test_seed_14_now_deals_a_puzzle_that_can_be_won(tmp_path: Path) -> None:
    r = runner.invoke(tracks_group, ["solitaire", "--seed", "14"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "cannot be won" not in r.stdout
    assert "tilings join exactly these pairs." in r.stdout
    r = runner.invoke(tracks_group, ["puzzle", "--seed", "14", "--json"])
    puzzle = tmp_path / "p.json"
    puzzle.write_text(r.stdout)
    r = runner.invoke(tracks_group, ["solve", str(puzzle), "--json"])
    answer = json.loads(r.stdout)
    data = json.loads(puzzle.read_text())
    assert answer["differs"] >= (data["size"] ** 2 + 1) // 2


def test_raw_keeps_the_deal_and_says_it_cannot_be_won(tmp_path: Path) -> None:
    r = runner.invoke(tracks_group, ["solitaire", "--raw", "--seed", "14"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "1 tiling joins exactly these pairs." in r.stdout
    assert "No tiling differs from the original in 2 cells (the most is 0)" in r.stdout
    assert "cannot be won" in r.stdout
    r = runner.invoke(tracks_group, ["puzzle", "--raw", "--seed", "14"])
    assert "cannot be won" in r.stdout and "1 tiling joins" in r.stdout
    # As JSON the puzzle stays readable by solve and check; the note goes to stderr.
    r = runner.invoke(tracks_group, ["puzzle", "--raw", "--seed", "14", "--json"])
    assert "cannot be won" in r.stderr
    puzzle = tmp_path / "raw.json"
    puzzle.write_text(r.stdout)
    assert json.loads(r.stdout)["original"] == [[3, 3], [3, 3]]
    r = runner.invoke(tracks_group, ["solve", str(puzzle), "--json"])
    assert json.loads(r.stdout)["tiles"] is None
    answer = tmp_path / "answer.txt"
    answer.write_text("33\n33\n")
    r = runner.invoke(tracks_group, ["check", str(puzzle), str(answer)])
    assert r.exit_code == 1 and "no substantially different solution exists" in r.stdout


def test_deals_are_reproducible_and_counted() -> None:
    first = runner.invoke(tracks_group, ["puzzle", "--seed", "14"])
    again = runner.invoke(tracks_group, ["puzzle", "--seed", "14"])
    assert first.stdout == again.stdout
    assert "Dealt 2 boards to find one that can be won." in first.stdout
    r = runner.invoke(tracks_group, ["puzzle", "--size", "5", "--seed", "1"])
    assert "tilings join exactly these pairs" in r.stdout and "Dealt" not in r.stdout


def test_a_threshold_no_board_reaches_is_refused() -> None:
    r = runner.invoke(tracks_group, ["puzzle", "--size", "2", "--threshold", "1", "--seed", "1"])
    assert r.exit_code == 2
    assert "no 2x2 board in 200 deals" in r.stderr and "--raw" in r.stderr
    r = runner.invoke(tracks_group, ["solitaire", "--raw", "--puzzle", "x.json"])
    assert r.exit_code == 2 and "--raw" in r.stderr


def test_one_cell_is_singular() -> None:
    # A quarter of a 2x2 board is one cell.
    script = ["a1 3", "b1 3", "a2 3", "check", "best", "quit"]
    r = runner.invoke(
        tracks_group,
        ["solitaire", "--size", "2", "--seed", "3", "--threshold", "0.25"],
        input="\n".join(script) + "\n",
    )
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "at least 1 cell." in out and "1 empty cell (b2)" in out
    assert "1 cells" not in out
