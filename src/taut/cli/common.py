"""What every command shares: the consoles, clean failures, progress bars, common options.

Commands are plain Click commands. A bad input ends a command through :func:`fail`: one
line ``error: ...`` on standard error naming what was wrong and what is allowed, and the
exit status :data:`EXIT_BAD_INPUT`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from rich.progress import Progress

# Lines are not wrapped by Rich (soft wrap): the terminal wraps them, and a message, a file
# name or a move never breaks in the middle when it is copied or read by a script.
console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

#: Exit status for bad input: an illegal move, a malformed file, a wrong option.
EXIT_BAD_INPUT = 2

#: What may sit in a seat, for help texts.
WHO = "human, a level (easy, medium, hard) or an agent spec (random, greedy, smmcts:think=1...)"

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``."""
    err_console.print(f"[bold red]error:[/bold red] {escape(message)}")
    raise click.exceptions.Exit(code)


def progress_bar(quiet: bool = False, stderr: bool = False) -> Progress:
    """The progress bar of long commands (hidden with ``quiet``, e.g. for ``--json``)."""
    # Imported here: rich.progress (and the tables it draws with) is a noticeable part of
    # the command line's start, and only long commands show a bar.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console if stderr else console,
        transient=True,
        disable=quiet,
    )


THINK_HELP = (
    "Seconds per move for searching agents: hard (default 2), smmcts, mcts, ismcts, nash, reply. "
    "A spec's own think=S wins."
)


def think_param() -> click.Option:
    """``--think S``: seconds per move for the agents that search."""
    return click.Option(
        ["--think"], type=click.FloatRange(min=0.01, max=3600.0), default=None, help=THINK_HELP
    )


def think_option(command: F) -> F:
    """``--think S`` as a decorator."""
    return click.option(
        "--think", type=click.FloatRange(min=0.01, max=3600.0), default=None, help=THINK_HELP
    )(command)


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
