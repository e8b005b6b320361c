"""Every refusal and failure of every command goes to standard error with a non-zero exit
status; standard output keeps only results, so that ``--json`` stays parseable and
``taut ... > out`` never hides an error.

Every command of ``taut`` is walked (shared ones, one per game, and those the games
contribute, as the real-number test walks them) and given: an option it does not have; each
of its file arguments naming a file that does not exist, or a file that is no JSON; each of
its choice options a value not among its choices. Each must exit non-zero with the
explanation on standard error and nothing that reads as an error on standard output.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from taut.cli import cli
from tests.test_finite_numbers import _commands

#: Words that mark an error on standard output.
ERROR_TEXT = re.compile(r"error|cannot|could not|not found|no such|invalid|refused", re.I)


COMMANDS = [(p, c) for p, c in _commands(cli, ()) if p and not isinstance(c, click.Group)]


def _file_arguments(command: click.Command) -> list[int]:
    """Positions of the command's arguments that name files (the first argument taking a
    path or a file, or named like one)."""
    found = []
    position = 0
    for param in command.params:
        if not isinstance(param, click.Argument):
            continue
        named = (param.name or "").lower()
        if isinstance(param.type, click.Path | click.File) or any(
            word in named for word in ("file", "record", "source", "path", "puzzle", "answer")
        ):
            found.append(position)
        position += 1
    return found


def _choice_options(command: click.Command) -> list[click.Option]:
    """The command's options whose values are one of a list."""
    return [
        p
        for p in command.params
        if isinstance(p, click.Option) and isinstance(p.type, click.Choice) and p.opts
    ]


WITH_FILES = [(p, c) for p, c in COMMANDS if _file_arguments(c)]
WITH_CHOICES = [(p, c) for p, c in COMMANDS if _choice_options(c)]


def _run(args: list[str]) -> click.testing.Result:
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def _assert_refused(args: list[str], result: click.testing.Result) -> None:
    label = "taut " + " ".join(args)
    assert result.exit_code != 0, f"{label}: exit 0\n{result.stdout[-400:]}"
    assert result.stderr.strip(), f"{label}: nothing on standard error"
    assert not ERROR_TEXT.search(result.stdout), (
        f"{label}: error text on standard output:\n{result.stdout[-600:]}"
    )


def test_the_walk_finds_every_kind_of_command() -> None:
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"play tracks", "replay tracks", "verify", "signs recognize", "flashcards"} <= names
    assert len(COMMANDS) > 20
    assert len(WITH_FILES) >= 8 and len(WITH_CHOICES) >= 3


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else ""
)
def test_an_unknown_option_is_refused_on_standard_error(
    path: tuple[str, ...], command: click.Command
) -> None:
    args = [*path, "--no-such-option-anywhere"]
    _assert_refused(args, _run(args))


@pytest.mark.parametrize(
    ("path", "command"), WITH_FILES, ids=lambda x: " ".join(x) if isinstance(x, tuple) else ""
)
def test_a_missing_or_broken_file_is_refused_on_standard_error(
    path: tuple[str, ...], command: click.Command, tmp_path: Path
) -> None:
    positions = _file_arguments(command)
    broken = tmp_path / "broken.json"
    broken.write_text("{ this is not JSON")
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    for bad in (str(tmp_path / "missing.json"), str(broken)):
        for position in positions:
            # Other arguments get a plausible value: the first game's name, or the same file.
            values = []
            for i, param in enumerate(arguments):
                if i == position:
                    values.append(bad)
                elif (param.name or "") in ("game", "name"):
                    values.append("pulling-strings")
                else:
                    values.append(bad)
            args = [*path, *values]
            _assert_refused(args, _run(args))


@pytest.mark.parametrize(
    ("path", "command"), WITH_CHOICES, ids=lambda x: " ".join(x) if isinstance(x, tuple) else ""
)
def test_a_value_outside_a_choice_is_refused_on_standard_error(
    path: tuple[str, ...], command: click.Command
) -> None:
    for option in _choice_options(command):
        args = [*path, option.opts[0], "no-such-choice"]
        _assert_refused(args, _run(args))


@pytest.mark.parametrize(
    "args",
    [
        ["play", "tracks", "--ns", "random", "--we", "random", "--record", "{tmp}/no/dir/g.json"],
        ["play", "tracks", "--resume", "{tmp}/missing.json"],
        ["play", "pulling-strings", "--x", "random", "--o", "random", "--seed", "x"],
        ["selfplay", "tug-of-war", "--games", "0"],
        ["signs", "recognize", "{tmp}/broken.json", "--calibration", "{tmp}/missing.json"],
        ["signs", "train", "--data", "{tmp}"],
        ["signs", "train", "--data", "{tmp}/nothing"],
    ],
    ids=lambda a: " ".join(a[:3]),
)
def test_refusals_of_input_files_and_values_go_to_standard_error(
    args: list[str], tmp_path: Path
) -> None:
    (tmp_path / "broken.json").write_text('{"hands": []}')
    (tmp_path / "nothing").mkdir()
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    _assert_refused(filled, _run(filled))
