"""Every bad input found by hand gets a clear message and exit 2, before anything is played."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from taut import __version__
from taut.cli import cli


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def unwritable(tmp_path: Path) -> list[tuple[str, str]]:
    """Record paths that must be refused, with a word of the message."""
    directory = tmp_path / "a-directory"
    directory.mkdir()
    target = tmp_path / "elsewhere.json"
    target.write_text("keep me\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    return [
        (str(tmp_path / "missing" / "game.json"), "does not exist"),
        (str(directory), "directory"),
        ("", "empty"),
        (os.devnull, "not a regular file"),
        (str(link), "not a regular file"),
    ]


@pytest.mark.parametrize("command", ["play", "selfplay", "arena"])
def test_unwritable_record_paths_are_refused_before_play(command: str, tmp_path: Path) -> None:
    extra = {
        "play": ["--x", "random", "--o", "random"],
        "selfplay": ["--games", "1"],
        "arena": ["--agents", "random,greedy", "--games", "1", "--workers", "1"],
    }[command]
    for path, why in unwritable(tmp_path):
        code, out = run(command, "pulling-strings", *extra, "--record", path)
        assert code == 2, (path, out)
        assert "Turn 1" not in out and "games of" not in out, out  # nothing was played
        assert why in out or "Invalid value" in out, (path, out)
    assert (tmp_path / "elsewhere.json").read_text() == "keep me\n"  # the link's target
    assert not list(tmp_path.glob("*.tmp"))


def test_unwritable_plot_is_refused(tmp_path: Path) -> None:
    code, out = run("arena", "pulling-strings", "--agents", "random,greedy", "--games", "1",
                    "--plot", str(tmp_path / "nowhere" / "x.png"))  # fmt: skip
    assert code == 2 and "does not exist" in out


def test_a_plot_is_written_exactly_where_asked(tmp_path: Path) -> None:
    path = tmp_path / "results"  # no suffix: still written here, not at results.png
    code, out = run("arena", "pulling-strings", "--agents", "random,greedy", "--games", "2",
                    "--workers", "1", "--plot", str(path), "--max-turns", "20")  # fmt: skip
    assert code == 0, out
    assert path.is_file() and path.read_bytes()[:4] == b"\x89PNG"
    assert f"Plot written to {path}." in out


@pytest.mark.parametrize(
    "args, why",
    [
        (["play", "pulling-strings", "--o", "perfect"], "cannot play Pulling Strings"),
        (["play", "tug-of-war", "--seat", "0=nash"], "cannot play Tug of War"),
        (["play", "push-pull", "--seat", "W=ismcts"], "cannot play Push-Pull"),
        (["selfplay", "tug-of-war", "--agents", "smmcts"], "cannot play Tug of War"),
        (["arena", "push-pull", "--agents", "random,ismcts"], "cannot play Push-Pull"),
        (["play", "pulling-strings", "--o", "hard:think=nan"], "think"),
        (["play", "pulling-strings", "--o", "smmcts:iterations=0"], "iterations"),
        (["play", "pulling-strings", "--o", "smmcts:c=-1"], "c"),
        (["bench", "push-pull", "--seconds", "inf"], "seconds"),
        (["play", "tug-of-war", "--players", "2.7"], "whole number"),
        (["play", "tug-of-war", "--players", "¹"], "whole number"),
        (["play", "push-pull", "--variant", "five"], "duel"),
        (
            ["play", "tracks", "--ns", "perfect", "-O", "size=5"],
            "solved on boards of 2x2 to 4x4 with roll=once, not 5x5, roll=once",
        ),
        (
            ["play", "tracks", "--we", "perfect", "-O", "size=3", "-O", "roll=each"],
            "not 3x3, roll=each",
        ),
        (["play", "tug-of-war", "--seat", "0=perfect"], "no exact solution of Tug of War"),
    ],
)
def test_refused_up_front(args: list[str], why: str) -> None:
    code, out = run(*args)
    assert code == 2, (args, out)
    assert why in out, (args, out)


def test_agents_that_fit_are_listed() -> None:
    code, out = run("play", "tug-of-war", "--seat", "0=smmcts")
    assert code == 2 and "agents that can: easy, greedy, hard, ismcts, medium, random" in out


def test_a_file_with_an_empty_list_holds_no_record(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("[]\n")
    code, out = run("replay", "tug-of-war", str(path))
    assert code == 2 and "holds no record" in out


def test_quitting_before_any_move_names_no_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run("play", "pulling-strings", "--record", str(path), input="quit\n")
    assert code == 0 and "Game stopped." in out and "record" not in out.split("Game stopped.")[1]
    assert not path.exists()


def test_version_and_no_color() -> None:
    code, out = run("--version")
    assert code == 0 and __version__ in out
    code, out = run(
        "--no-color", "play", "tracks", "--ns", "random", "--we", "random", "--size", "3"
    )
    assert code == 0 and "\x1b[" not in out
