"""Every real number a person types is read by one reader that refuses nan and infinities.

* :func:`taut.core.numbers.real` and the Click type :class:`taut.core.number_param.Real`
  refuse ``nan``, ``inf``, ``-inf``, ``1e999`` (overflow), booleans, words and values out of
  range, naming what is allowed;
* every command of ``taut`` (shared ones, one per game, and those the games contribute) is
  walked: no option may use Click's ``float``/``FloatRange`` (they accept ``nan``), and every
  real-valued option, given each non-finite value, exits 2 with the allowed range before
  anything runs;
* agent parameters (``hard:think=nan``) and game options (``-O mistakes=nan``) go through
  the same reader.
"""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from taut.cli import cli
from taut.core.errors import InvalidOptionError
from taut.core.number_param import Real
from taut.core.numbers import Bounds, read_real, real

NOT_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999"]


@pytest.mark.parametrize("text", [*NOT_FINITE, "", "x", "1,5", "0x10", "1_000", "2" * 60])
def test_the_reader_refuses_what_is_no_finite_number(text: str) -> None:
    assert read_real(text) is None
    with pytest.raises(InvalidOptionError, match="must be a finite number"):
        real("--think", text, Bounds(0.01, 10.0))


@pytest.mark.parametrize("value", [True, False, float("nan"), float("inf"), 10**400, None, [1]])
def test_the_reader_refuses_values_that_are_no_finite_number(value: object) -> None:
    assert read_real(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [("0.5", 0.5), (" 2 ", 2.0), ("1e-3", 0.001), ("+3.", 3.0), (".25", 0.25), (7, 7.0)],
)
def test_the_reader_reads_numbers(value: object, expected: float) -> None:
    assert read_real(value) == expected


def test_bounds_open_and_closed() -> None:
    closed, half_open = Bounds(0.0, 1.0), Bounds(0.0, 1.0, open_below=True)
    assert read_real("0", closed) == 0.0 and read_real("0", half_open) is None
    assert read_real("1", half_open) == 1.0 and read_real("1.0001", half_open) is None
    assert half_open.allowed() == "a finite number in (0, 1]"
    assert Bounds(2.0).allowed() == "a finite number at least 2"


def _commands(
    command: click.Command, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=path[-1] if path else "taut")
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from _commands(sub, (*path, name))


def _all_commands() -> list[tuple[tuple[str, ...], click.Command]]:
    return list(_commands(cli, ()))


def _real_options() -> list[tuple[tuple[str, ...], str]]:
    found = []
    for path, command in _all_commands():
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, Real):
                found.append((path, param.opts[0]))
    return found


def test_the_walk_reaches_every_kind_of_command() -> None:
    paths = {" ".join(path) for path, _ in _all_commands()}
    # shared verbs for each game, contributed groups and plugin top-level groups
    assert {"play tracks", "bench pulling-strings", "arena push-pull"} <= paths
    assert any(p.startswith("solve ") for p in paths) and any(
        p.startswith("analyse ") for p in paths
    )
    assert any(p.startswith("tracks ") for p in paths)


def test_no_option_uses_a_float_type_that_admits_nan() -> None:
    offenders = [
        f"taut {' '.join(path)} {param.opts[0] if param.opts else param.name}"
        for path, command in _all_commands()
        for param in command.params
        if isinstance(param.type, click.types.FloatParamType)
    ]
    assert not offenders, f"use taut.core.number_param.Real instead of float: {offenders}"


def test_the_float_check_can_fail() -> None:
    bad = click.Command("bad", params=[click.Option(["--x"], type=click.FloatRange(0, 1))])
    assert isinstance(bad.params[0].type, click.types.FloatParamType)
    good = click.Command("good", params=[click.Option(["--x"], type=Real(0, 1))])
    assert not isinstance(good.params[0].type, click.types.FloatParamType)


REAL_OPTIONS = _real_options()


def test_every_verb_with_think_is_covered() -> None:
    covered = {path[0] for path, opt in REAL_OPTIONS if opt == "--think"}
    assert {"play", "selfplay"} <= covered  # arena takes think=S in its agent specs
    assert any(opt == "--seconds" for _, opt in REAL_OPTIONS)
    assert any(opt == "--threshold" for _, opt in REAL_OPTIONS)


@pytest.mark.parametrize(
    ("path", "option"), REAL_OPTIONS, ids=lambda v: " ".join(v) if isinstance(v, tuple) else v
)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_every_real_option_refuses_non_finite_values(
    path: tuple[str, ...], option: str, value: str
) -> None:
    result = CliRunner().invoke(cli, [*path, f"{option}={value}"])
    assert result.exit_code == 2, (path, option, result.output)
    assert "must be a finite number" in result.output, result.output
    assert option in result.output


@pytest.mark.parametrize("verb", ["play", "selfplay", "arena"])
@pytest.mark.parametrize("value", ["nan", "inf", "1e999"])
def test_agent_think_parameters_refuse_non_finite_values(verb: str, value: str) -> None:
    extra = {
        "play": ["--x", f"hard:think={value}", "--o", "random"],
        "selfplay": ["--games", "1", "--agents", f"hard:think={value},random"],
        "arena": ["--agents", f"hard:think={value},random", "--games", "1", "--workers", "1"],
    }[verb]
    result = CliRunner().invoke(cli, [verb, "pulling-strings", *extra])
    assert result.exit_code == 2, result.output
    assert "think" in result.output and "finite" in result.output, result.output


@pytest.mark.parametrize("value", ["nan", "inf", "1e999"])
def test_game_float_options_refuse_non_finite_values(value: str) -> None:
    result = CliRunner().invoke(
        cli, ["play", "pulling-strings", "--edition", "published", "-O", "learning=strict",
              "-O", f"mistakes={value}", "--x", "random", "--o", "random"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "mistakes" in result.output, result.output
