"""The ``taut`` command: the root group, the generated per-game groups and ``main``."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import NoReturn

import click

from taut import __version__
from taut.cli.common import EXIT_NOT_SAVED, console, err_console
from taut.cli.db import db
from taut.cli.flashcards import flashcards
from taut.cli.games import list_games
from taut.cli.groups import CONTEXT, ContributedGroup, GameGroup, contributed
from taut.cli.serve import serve, verify
from taut.cli.tiles import tiles


class TautGroup(click.Group):
    """The root group: its own commands, then the top-level commands of the plugins."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Built-in commands and plugin commands, sorted."""
        return sorted(set(super().list_commands(ctx)) | set(contributed("")))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A built-in command, else a plugin's top-level one."""
        return super().get_command(ctx, cmd_name) or contributed("").get(cmd_name)


@click.group(cls=TautGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="taut")
@click.option(
    "--no-color",
    is_flag=True,
    default=False,
    help="Plain text without colours (so does the NO_COLOR environment variable).",
)
def cli(no_color: bool) -> None:
    """taut: play, analyse and solve small games about pulling and pushing.

    `taut games` lists the games and their options. Every command has --help.
    """
    if no_color:
        console.no_color = err_console.no_color = True


cli.add_command(list_games)
cli.add_command(flashcards)
cli.add_command(tiles)
cli.add_command(serve)
cli.add_command(verify)
cli.add_command(db)
# The builders are named, not imported: a verb's module (agents, the arena, NumPy) is
# imported only when one of its games' commands runs or shows its help.
cli.add_command(
    GameGroup(
        "play", "taut.cli.play:build_play", "Play a game in the terminal (humans and agents)."
    )
)
cli.add_command(
    GameGroup(
        "replay", "taut.cli.replay:build_replay", "Replay records or turns, checking every step."
    )
)
cli.add_command(
    GameGroup(
        "selfplay",
        "taut.cli.selfplay:build_selfplay",
        "Play many games between agents and write records.",
    )
)
cli.add_command(
    GameGroup("bench", "taut.cli.bench:build_bench", "Measure uniform-random self-play speed.")
)
cli.add_command(
    GameGroup("arena", "taut.cli.arena:build_arena", "Round-robin tournaments between agents.")
)
cli.add_command(ContributedGroup("solve", "Solve games exactly."))
cli.add_command(
    ContributedGroup(
        "analyse",
        "Analyse games and agents exactly.",
        shared={
            "balance": "taut.cli.analyse_balance:balance",
            "game": "taut.cli.analyse_game:game",
        },
    )
)


#: Errors of a write that the disk refused: full, over a file-size limit, read-only, quota.
_WRITE_REFUSED = {errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EDQUOT, errno.EIO}


def _output_lost(exc: OSError) -> NoReturn:
    """Say that standard output could not be written, and exit non-zero."""
    # Nothing more is flushed to the refusing file at exit (Python would complain again).
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    err_console.print(
        f"[bold red]error:[/bold red] the output could not be written whole "
        f"({exc.strerror or exc}); what was written is incomplete"
    )
    sys.exit(EXIT_NOT_SAVED)


def main() -> None:
    """Entry point of the ``taut`` console script.

    Standard output redirected to a file that the disk refuses (``taut tracks puzzle --json
    > puzzle.json`` on a full disk or under ``ulimit -f``) ends with a clear message and
    exit status 1, never a traceback or a success.
    """
    code: int | str | None = 0
    try:
        cli()
    except SystemExit as exc:
        code = exc.code
    except OSError as exc:
        if exc.errno not in _WRITE_REFUSED:
            raise
        _output_lost(exc)
    try:
        sys.stdout.flush()
    except OSError as exc:
        _output_lost(exc)
    sys.exit(code)
