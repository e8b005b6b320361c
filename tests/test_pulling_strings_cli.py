"""The `taut` command for Pulling Strings: replay format, play, bench and every error path."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from taut.cli import cli as app
from taut.core import GameRecord

runner = CliRunner()


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_replay_json_lines() -> None:
    r = runner.invoke(app, ["replay", "pulling-strings", "--turns", "c/h c/c", "--json"])
    assert r.exit_code == 0, r.output
    out = lines(r.stdout)
    assert out[0] == {
        "turn": 0,
        "stacks": [[2, 2, 5]],
        "broken": [],
        "home": {"X": 0, "O": 0},
        "result": None,
    }
    assert out[1]["stacks"] == [[1, 2, 3], [2, 3, 3]]
    assert out[2] == {
        "turn": 2,
        "stacks": [[0, 2, 3], [2, 3, 3]],
        "broken": ["c"],
        "home": {"X": 0, "O": 0},
        "result": None,
    }


def test_replay_from_start_position_to_a_win() -> None:
    start = json.dumps({"stacks": [[1, 3, 5]], "broken": ["a"]})
    r = runner.invoke(
        app, ["replay", "pulling-strings", "--start", start, "--turns", "g/h", "--json"]
    )
    assert r.exit_code == 0, r.output
    out = lines(r.stdout)
    assert out[0]["broken"] == ["a"]
    assert out[-1]["result"] == "X" and out[-1]["home"] == {"X": 5, "O": 0}


def test_replay_turn_after_the_end_is_an_error() -> None:
    start = json.dumps({"stacks": [[1, 3, 5]], "broken": []})
    r = runner.invoke(
        app, ["replay", "pulling-strings", "--start", start, "--turns", "g/h a/b", "--json"]
    )
    assert r.exit_code == 2
    assert len(lines(r.stdout)) == 2  # what was printed before the error stays
    assert "turn 2" in r.stderr and "over" in r.stderr


def test_replay_errors_name_the_turn() -> None:
    cases = [
        ("c/c c/h", "turn 2", "broken"),
        ("c/h z/h", "turn 2", "names no string end"),
        ("ch", "turn 1", "X/O: one action each"),
        ("c/h/e", "turn 1", "names no string end"),
    ]
    for turns, where, why in cases:
        r = runner.invoke(app, ["replay", "pulling-strings", "--turns", turns, "--json"])
        assert r.exit_code == 2, turns
        assert where in r.stderr and why in r.stderr, (turns, r.stderr)


def test_replay_bad_start_and_option() -> None:
    r = runner.invoke(app, ["replay", "pulling-strings", "--start", "{not json"])
    assert r.exit_code == 2 and "not valid JSON" in r.stderr
    r = runner.invoke(app, ["replay", "pulling-strings", "--start", '{"stacks": [[9, 9, 1]]}'])
    assert r.exit_code == 2 and "row and column" in r.stderr
    r = runner.invoke(app, ["replay", "pulling-strings", "--edition", "deluxe"])
    assert r.exit_code == 2 and "classic | published" in r.stderr


def test_replay_published_letters_from_seed() -> None:
    from taut.games.pulling_strings import PullingStrings

    game = PullingStrings(edition="published", seed=5)
    x, o = game.letters[2], game.letters[7]  # N2 and E2
    r = runner.invoke(
        app,
        [
            "replay",
            "pulling-strings",
            "--edition",
            "published",
            "--seed",
            "5",
            "--turns",
            f"{x}/{o}",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    assert lines(r.stdout)[1]["stacks"] == [[1, 2, 3], [2, 3, 3]]


def test_replay_diagrams() -> None:
    r = runner.invoke(app, ["replay", "pulling-strings", "--turns", "c/c"])
    assert r.exit_code == 0
    assert "  a b   d e" in r.stdout


def test_play_agents_only_writes_record(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(
        app,
        [
            "play",
            "pulling-strings",
            "--x",
            "greedy",
            "--o",
            "random",
            "--seed",
            "3",
            "--max-turns",
            "80",
            "--record",
            str(rec),
        ],
    )
    assert r.exit_code == 0, r.output
    record = GameRecord.load(rec)
    final = record.replay()
    assert final.is_terminal()
    assert record.result is not None


def test_play_human_bad_entry_then_quit_keeps_record(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(
        app,
        [
            "play",
            "pulling-strings",
            "--x",
            "human",
            "--o",
            "random",
            "--seed",
            "1",
            "--record",
            str(rec),
        ],
        input="zz\nhelp\nc\nquit\n",
    )
    assert r.exit_code == 0, r.output
    assert "names no string end" in r.stdout
    assert "Legal:" in r.stdout
    assert "Game stopped" in r.stdout
    record = GameRecord.load(rec)
    assert len(record.moves) == 1 and record.moves[0]["X"] == "c"


def test_play_draw_offer_declined_by_agent() -> None:
    r = runner.invoke(
        app,
        ["play", "pulling-strings", "--x", "human", "--o", "greedy", "--seed", "1"],
        input="draw\nquit\n",
    )
    assert r.exit_code == 0, r.output


def test_play_unknown_agent() -> None:
    r = runner.invoke(app, ["play", "pulling-strings", "--x", "wizard"])
    assert r.exit_code == 2 and "unknown agent 'wizard'" in r.stderr


def test_bench_json() -> None:
    r = runner.invoke(app, ["bench", "pulling-strings", "--seconds", "0.2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["game"] == "pulling-strings"
    assert data["games_per_s"] > 0 and data["turns_per_s"] > data["games_per_s"]


def test_games_lists_options() -> None:
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0 and "edition" in r.stdout
