"""Bad input never gives a traceback: every reader, agent spec and option, fuzzed.

For arbitrary bytes, arbitrary JSON, arbitrary text as an agent spec or an option value,
the only outcomes allowed are success or the project's own error: a ``TautError`` from the
Python API, exit status 2 with an ``error:`` line from the command line (``tracks check``
may also say 1: a wrong answer). The cases found by hand are pinned as examples.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import taut
from taut.agents import make_agent
from taut.cli import cli
from taut.core.errors import TautError
from taut.core.options import OptionText
from taut.core.record import GameRecord

GAMES = taut.games()
FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

#: Inputs found by hand: deep nesting, a 5,000-digit number, bytes that are not UTF-8,
#: Infinity, a superscript digit, an empty list of records.
NASTY: list[bytes] = [
    b"[" * 100_000,
    b'{"game": "x", "options": {"n": ' + b"7" * 5000 + b"}}",
    b"\xff\xfe\x00garbage",
    b'{"format": 1, "game": "push-pull", "options": {"max_turns": Infinity}, "moves": []}',
    '{"format": 1, "game": "tug-of-war", "options": {"players": "¹"}, "moves": []}'.encode(),
    b"[]",
    b"",
    b"null",
]


def check_cli(args: list[str], allowed: tuple[int, ...] = (0, 2)) -> None:
    result = CliRunner().invoke(cli, args, input="quit\n")
    assert result.exit_code in allowed, (args, result.output)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert "error:" in result.output or "Usage:" in result.output, result.output


def file_with(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "input.json"
    path.write_bytes(data)
    return path


def readers(game: str, path: Path) -> list[tuple[list[str], tuple[int, ...]]]:
    """Every command that reads a file the user gives, for ``game``."""
    out: list[tuple[list[str], tuple[int, ...]]] = [
        (["replay", game, str(path)], (0, 2)),
        (
            [
                "play",
                game,
                "--resume",
                str(path),
                "--seat",
                f"{taut.make(game).info.seats[0]}=random",
            ],
            (0, 2),
        ),
    ]
    if game == "tracks":
        out += [
            (["tracks", "solve", str(path)], (0, 2)),
            (["tracks", "check", str(path), str(path)], (0, 1, 2)),
            (["tracks", "solitaire", "--puzzle", str(path)], (0, 2)),
        ]
    return out


@pytest.mark.parametrize("data", NASTY, ids=range(len(NASTY)))
@pytest.mark.parametrize("game", GAMES)
def test_hand_found_inputs(game: str, data: bytes, tmp_path: Path) -> None:
    path = file_with(tmp_path, data)
    for args, allowed in readers(game, path):
        check_cli(args, allowed)


@FUZZ
@given(data=st.binary(max_size=200))
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_bytes(game: str, data: bytes, tmp_path: Path) -> None:
    path = file_with(tmp_path, data)
    for args, allowed in readers(game, path):
        check_cli(args, allowed)


@FUZZ
@given(value=json_values)
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_json(game: str, value: object, tmp_path: Path) -> None:
    path = file_with(tmp_path, json.dumps(value).encode())
    for args, allowed in readers(game, path):
        check_cli(args, allowed)


@FUZZ
@given(
    options=st.dictionaries(
        st.sampled_from(
            ["game", "options", "moves", "result", "format", "seed", "seats", "meta", "rounds"]
        ),
        json_values,
        max_size=6,
    )
)
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_record_fields(game: str, options: dict[str, object]) -> None:
    data = {"format": 1, "game": game, "options": {}, "moves": [], **options}
    with contextlib.suppress(TautError):
        GameRecord.from_json(data).replay()


@FUZZ
@given(text=st.text(max_size=60))
@example(text="{" * 10_000)
@example(text='{"stacks": [[1, 1, 99999999999999999999999]]}')
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_start_positions(game: str, text: str) -> None:
    check_cli(["replay", game, "--start", text])


@FUZZ
@given(spec=st.text(max_size=40))
@example(spec="hard:think=nan")
@example(spec="smmcts:iterations=0")
@example(spec="smmcts:c=-1")
@example(spec="ismcts:rollout=-3")
@example(spec="smmcts:prior=nan:select=uct")
@example(spec="hard:think=inf")
@example(spec="random:x=1")
@example(spec="::::")
def test_arbitrary_agent_specs(spec: str) -> None:
    for game in GAMES:
        with contextlib.suppress(TautError):
            make_agent(spec, game=taut.make(game))


@FUZZ
@given(value=st.text(max_size=30) | st.sampled_from(["nan", "inf", "-1", "2.7", "¹", "9" * 50]))
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_option_text(game: str, value: str) -> None:
    for spec in taut.plugin(game).game_class.OPTIONS:
        with contextlib.suppress(TautError):
            taut.make(game, **{spec.name: OptionText(value)})


@FUZZ
@given(value=json_values)
@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_option_values(game: str, value: object) -> None:
    for spec in taut.plugin(game).game_class.OPTIONS:
        with contextlib.suppress(TautError):
            taut.make(game, **{spec.name: value})


@FUZZ
@given(pair=st.text(max_size=30))
def test_arbitrary_command_line_options(pair: str) -> None:
    check_cli(["bench", "push-pull", "--seconds", "0.01", "-O", pair])
