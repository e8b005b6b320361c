"""The ``taut`` command: the root group, the generated per-game groups and ``main``."""

from __future__ import annotations

import click

from taut import __version__
from taut.cli.arena import build_arena
from taut.cli.bench import build_bench
from taut.cli.common import console, err_console
from taut.cli.games import list_games
from taut.cli.groups import CONTEXT, ContributedGroup, GameGroup, contributed
from taut.cli.play import build_play
from taut.cli.replay import build_replay
from taut.cli.selfplay import build_selfplay
from taut.cli.serve import serve, verify


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
cli.add_command(serve)
cli.add_command(verify)
cli.add_command(GameGroup("play", build_play, "Play a game in the terminal (humans and agents)."))
cli.add_command(GameGroup("replay", build_replay, "Replay records or turns, checking every step."))
cli.add_command(
    GameGroup("selfplay", build_selfplay, "Play many games between agents and write records.")
)
cli.add_command(GameGroup("bench", build_bench, "Measure uniform-random self-play speed."))
cli.add_command(GameGroup("arena", build_arena, "Round-robin tournaments between agents."))
cli.add_command(ContributedGroup("solve", "Solve games exactly."))
cli.add_command(ContributedGroup("analyse", "Analyse games and agents exactly."))


def main() -> None:
    """Entry point of the ``taut`` console script."""
    cli()
