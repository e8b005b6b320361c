"""The ``taut`` command: the Typer application and the helpers every command shares."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from taut.core.errors import TautError
from taut.core.game import Game
from taut.core.options import parse_option_pairs
from taut.core.registry import make

app = typer.Typer(
    help="taut: play, analyse and solve Pulling Strings, Push-Pull, Tug of War and Track Tiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(
    help="Play a game in the terminal (humans and agents).", no_args_is_help=True
)
replay_app = typer.Typer(
    help="Replay games from move lists or records, checking every move.", no_args_is_help=True
)
solve_app = typer.Typer(help="Solve games exactly.", no_args_is_help=True)
selfplay_app = typer.Typer(
    help="Play many games between agents and write their records.", no_args_is_help=True
)
analyse_app = typer.Typer(help="Analyse games and agents.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(selfplay_app, name="selfplay")
app.add_typer(analyse_app, name="analyse")
app.add_typer(replay_app, name="replay")
app.add_typer(solve_app, name="solve")

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

#: Exit status for bad input: an illegal move, a malformed file, a wrong option.
EXIT_BAD_INPUT = 2

#: What may sit in a seat, for the help of the play commands.
WHO = "human, a level (easy, medium, hard) or an agent spec (random, greedy, smmcts:think=1...)"

#: ``--think``: seconds per move for the agents that search.
THINK = typer.Option(
    None,
    "--think",
    min=0.01,
    help="Seconds per move for searching agents: hard (default 2), smmcts, mcts, ismcts, nash. "
    "A spec's own think=S wins.",
)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``."""
    err_console.print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code)


def make_game(name: str, options: dict[str, Any], extra: list[str] | None = None) -> Game:
    """Create a game from command-line options, failing cleanly on a bad option.

    ``extra`` holds ``key=value`` strings from a repeatable ``--option`` flag.
    """
    try:
        merged = dict(options)
        merged.update(parse_option_pairs(extra or []))
        return make(name, **{k: v for k, v in merged.items() if v is not None})
    except TautError as exc:
        fail(str(exc))


def progress_bar(quiet: bool = False) -> Progress:
    """The progress bar of long commands (hidden with ``quiet``, e.g. for ``--json``)."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet,
    )
