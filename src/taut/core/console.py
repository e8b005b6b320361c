"""The terminal every command writes to: the consoles, clean failures, progress bars.

Shared by the ``taut`` command line and the commands that game plugins contribute (which
sit below the command line and so cannot import it). A bad input ends a command through
:func:`fail`: one line ``error: ...`` on standard error naming what was wrong and what is
allowed, and the exit status :data:`EXIT_BAD_INPUT`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

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

#: Exit status when a command's work was done but what it had to write (a record, a plot,
#: a progress file, its output) could not be written whole: a full disk, a file-size limit,
#: a read-only file system.
EXIT_NOT_SAVED = 1


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
