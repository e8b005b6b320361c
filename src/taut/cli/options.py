"""Command-line flags generated from a game's plugin: one flag per option, one per seat.

Every option a game declares (:class:`~taut.core.options.OptionSpec`) becomes a flag of the
same name on ``play``, ``replay``, ``selfplay``, ``bench`` and ``arena`` (``max_turns`` is
``--max-turns``); ``-O key=value`` sets any option too. ``play`` also gets one flag per seat
of the game's default options (``--x``/``--o``, ``--ns``/``--we``...) beside the general
``--seat SEAT=WHO``. A flag's value is checked by the option itself, so the messages and the
allowed values are the game's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import click

from taut.core.errors import TautError
from taut.core.game import Game
from taut.core.options import OptionSpec, OptionText, parse_option_pairs
from taut.core.plugin import GamePlugin

#: Flags every command defines itself: an option of the same name is reached through them.
RESERVED = frozenset({"seed", "seat", "option", "help", "json", "record", "think"})


def flag_name(name: str) -> str:
    """``--max-turns`` for ``max_turns``."""
    return "--" + name.replace("_", "-")


def _help(spec: OptionSpec) -> str:
    default = "none" if spec.default is None else str(spec.default).lower()
    return f"{spec.doc} [{spec.allowed()}; default {default}]"


@dataclass(frozen=True)
class OptionFlags:
    """The generated option flags of one game: click parameter name -> option."""

    plugin: GamePlugin
    flags: tuple[tuple[str, OptionSpec], ...]

    def params(self) -> list[click.Option]:
        """The click options to add to a command."""
        return [
            click.Option(
                [flag_name(spec.name), param],
                default=None,
                metavar="VALUE",
                help=_help(spec),
            )
            for param, spec in self.flags
        ]

    def given(self, values: Mapping[str, Any]) -> dict[str, str]:
        """The options set by flags (by option name) among a command's ``values``."""
        return {
            spec.name: values[param] for param, spec in self.flags if values.get(param) is not None
        }


def option_flags(plugin: GamePlugin) -> OptionFlags:
    """One flag per option of the game (options named like a shared flag keep ``-O``)."""
    flags = tuple(
        (f"game_option_{i}", spec)
        for i, spec in enumerate(plugin.game_class.OPTIONS)
        if spec.name not in RESERVED
    )
    return OptionFlags(plugin, flags)


def option_pairs_param() -> click.Option:
    """``-O/--option key=value`` (repeatable)."""
    return click.Option(
        ["-O", "--option", "option_pairs"],
        multiple=True,
        metavar="KEY=VALUE",
        help="Set any game option (repeatable); `taut games` lists them.",
    )


def build_game(
    plugin: GamePlugin,
    flags: Mapping[str, str],
    pairs: Sequence[str],
    seed: int | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Game:
    """The game from option flags and ``-O`` pairs (a pair wins over a flag); ``seed`` fills
    an option called ``seed`` that was not given; ``defaults`` apply to options left unset
    (such as a turn limit for self-play). Raises TautError on a bad option."""
    options: dict[str, Any] = {k: OptionText(v) for k, v in flags.items()}
    options.update(parse_option_pairs(pairs))
    names = {spec.name for spec in plugin.game_class.OPTIONS}
    given = {_canonical(plugin, key) for key in options}
    if seed is not None and "seed" in names and "seed" not in given:
        options["seed"] = seed
    for key, value in (defaults or {}).items():
        if key in names and key not in given:
            options[key] = value
    return plugin.game_class(**options)


def _canonical(plugin: GamePlugin, key: str) -> str:
    """The option name a key stands for (``max-turns`` is ``max_turns``)."""
    for spec in plugin.game_class.OPTIONS:
        if key in (spec.name, spec.name.replace("-", "_"), spec.name + "_", *spec.aliases):
            return spec.name
    return key


@dataclass(frozen=True)
class SeatFlags:
    """One flag per seat of the default game (``--x human``): click parameter -> seat name."""

    flags: tuple[tuple[str, str], ...]

    def params(self) -> list[click.Option]:
        """The click options to add to ``play``."""
        return [
            click.Option(
                [flag_name(seat.lower()), param],
                default=None,
                metavar="WHO",
                help=f"Who plays {seat} (as --seat {seat}=WHO).",
            )
            for param, seat in self.flags
        ]

    def given(self, values: Mapping[str, Any]) -> list[str]:
        """``SEAT=WHO`` strings for the seat flags used."""
        return [f"{seat}={values[param]}" for param, seat in self.flags if values.get(param)]


def seat_flags(plugin: GamePlugin, taken: set[str]) -> SeatFlags:
    """Flags for the default game's seats, except names already used by other flags."""
    try:
        seats = plugin.game_class().info.seats
    except TautError:
        seats = ()
    flags = []
    for i, seat in enumerate(seats):
        flag = flag_name(seat.lower())
        if flag not in taken and seat.lower() not in RESERVED:
            flags.append((f"seat_flag_{i}", seat))
    return SeatFlags(tuple(flags))


def game_command(
    name: str,
    plugin: GamePlugin,
    callback: Callable[..., Any],
    params: list[click.Parameter],
    help_text: str,
    with_options: bool = True,
) -> click.Command:
    """A command for one game: ``params`` plus the game's option flags and ``-O``."""
    extra: list[click.Parameter] = []
    if with_options:
        extra = [*option_flags(plugin).params(), option_pairs_param()]
    return click.Command(
        name,
        callback=callback,
        params=[*params, *extra],
        help=help_text,
        short_help=plugin.summary or plugin.title,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
