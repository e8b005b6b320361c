"""Command groups whose commands come from the game plugins, built when they are asked for.

* :class:`GameGroup`: one command per game (``taut play GAME``), made by a builder from the
  game's plugin, so a game registered at run time has its commands at once;
* :class:`ContributedGroup`: the commands plugins contribute to a named group
  (``taut solve ...``, ``taut analyse ...``) or to the top level.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import click

from taut.cli.common import fail
from taut.core.errors import TautError, UnknownGameError
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin, plugins

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


Builder = Callable[[GamePlugin], click.Command]
"""Makes the command of one game from its plugin."""


class GameGroup(click.Group):
    """``taut VERB GAME ...``: a command per registered game.

    ``build`` is the builder, or ``"module:function"`` naming it: then its module (and what
    it imports: agents, the arena...) is imported only when a game's command is asked for,
    so ``taut --help`` and the other verbs do not pay for it.
    """

    #: How the group is typed, for messages, where it is not ``taut NAME``.
    command_path: str | None = None

    def __init__(self, name: str, build: Builder | str, help: str) -> None:
        super().__init__(name, help=help, context_settings=CONTEXT, no_args_is_help=True)
        self._builder = build

    def build(self, plugin: GamePlugin) -> click.Command:
        """The command of ``plugin``'s game (the builder is imported on first use)."""
        if isinstance(self._builder, str):
            module, _, attr = self._builder.partition(":")
            loaded: Builder = getattr(importlib.import_module(module), attr)
            self._builder = loaded
            return loaded(plugin)
        return self._builder(plugin)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every game's name."""
        return games()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command for game ``cmd_name`` (None when there is no such game)."""
        try:
            found = plugin(cmd_name)
        except UnknownGameError:
            return None
        except TautError as exc:
            fail(str(exc))
        return self.build(found)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown game is refused with the list of games (exit 2)."""
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None:
            if name.startswith("-"):
                path = self.command_path or f"taut {self.name}"
                fail(f"{self.name}: give a game first, e.g. {path} {games()[0]} {name}")
            fail(f"unknown game {name!r}; known games: {', '.join(games())}")
        return name, command, args[1:]


def contributed(group: str) -> dict[str, click.Command]:
    """The commands the plugins contribute to ``group`` (``""``: the top level), by name."""
    out: dict[str, click.Command] = {}
    for found in plugins():
        for command in found.commands().get(group, ()):
            if command.name is None:
                continue
            if command.name in out:
                raise TautError(f"two games contribute a {group} command {command.name!r}")
            out[command.name] = command
    return out


class ContributedGroup(click.Group):
    """A group whose commands are contributed by the plugins (``taut solve GAME``), beside
    shared commands of its own.

    ``shared`` maps a shared command's name to ``"module:attribute"`` naming the command:
    its module is imported only when the command runs or shows its help, so listing the
    group stays instant.
    """

    def __init__(self, name: str, help: str, shared: dict[str, str] | None = None) -> None:
        super().__init__(name, help=help, context_settings=CONTEXT, no_args_is_help=True)
        self._shared = dict(shared or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The shared and the contributed commands' names."""
        return sorted(set(self._shared) | set(contributed(self.name or "")))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A shared command, else a contributed one, else None."""
        target = self._shared.get(cmd_name)
        if target is not None:
            module, _, attr = target.partition(":")
            command: click.Command = getattr(importlib.import_module(module), attr)
            return command
        return contributed(self.name or "").get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown name is refused with the list of what is there (exit 2)."""
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None:
            known = ", ".join(self.list_commands(ctx)) or "none"
            fail(f"taut {self.name} has no {name!r}; it has: {known}")
        return name, command, args[1:]
