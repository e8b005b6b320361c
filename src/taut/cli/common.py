"""What every command shares: the consoles, clean failures, progress bars, common options.

Commands are plain Click commands. A bad input ends a command through :func:`fail`: one
line ``error: ...`` on standard error naming what was wrong and what is allowed, and the
exit status :data:`EXIT_BAD_INPUT`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from taut.core.console import (
    EXIT_BAD_INPUT,
    EXIT_NOT_SAVED,
    console,
    err_console,
    fail,
    progress_bar,
)
from taut.core.number_param import Real

# The consoles, failures and progress bars live in core (the commands that games contribute
# use them too); they are re-exported here for every command of the command line.
__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_SAVED",
    "console",
    "err_console",
    "fail",
    "progress_bar",
]

#: What may sit in a seat, for help texts.
WHO = "human, a level (easy, medium, hard) or an agent spec (random, greedy, smmcts:think=1...)"

F = TypeVar("F", bound=Callable[..., Any])


#: The range of ``--think``: seconds a move.
THINK = Real(0.01, 3600.0, unit="seconds")

THINK_HELP = (
    "Seconds per move for searching agents: hard (default 2), smmcts, mcts, ismcts, nash, reply. "
    "A spec's own think=S wins."
)


def think_param() -> click.Option:
    """``--think S``: seconds per move for the agents that search."""
    return click.Option(["--think"], type=THINK, default=None, help=THINK_HELP)


def think_option(command: F) -> F:
    """``--think S`` as a decorator."""
    return click.option("--think", type=THINK, default=None, help=THINK_HELP)(command)


def _file_name(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("the file name is empty")
    return Path(value)


def file_param(decls: list[str], help: str, argument: bool = False) -> click.Parameter:
    """A file the user names (``--record FILE``): an empty name is refused here, and the
    value is a :class:`~pathlib.Path` (whether it can be written is checked before play)."""
    if argument:
        return click.Argument(decls, required=False, metavar="FILE", callback=_file_name)
    return click.Option(decls, default=None, metavar="FILE", help=help, callback=_file_name)


def json_param() -> click.Option:
    """``--json``: machine-readable output (parameter ``as_json``)."""
    return click.Option(
        ["--json", "as_json"], is_flag=True, default=False, help="Print JSON instead of text."
    )


def json_option(command: F) -> F:
    """``--json``: machine-readable output."""
    return click.option(
        "--json", "as_json", is_flag=True, default=False, help="Print JSON instead of text."
    )(command)
