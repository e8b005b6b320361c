"""``taut selfplay GAME``: many games between agents, a table of results, records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from taut.arena.selfplay import SelfPlayResult, run_selfplay
from taut.cli.common import (
    EXIT_NOT_SAVED,
    console,
    fail,
    file_param,
    progress_bar,
    think_param,
)
from taut.cli.options import OptionFlags, build_game, game_command, option_flags
from taut.core.errors import TautError
from taut.core.files import WholeFile, WriteError
from taut.core.game import Game
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.core.record_files import check_writable

#: The turn limit self-play puts on games that have one and were given none.
SELFPLAY_MAX_TURNS = 200


def agent_list(text: str, seats: int) -> list[str]:
    """One spec per seat from ``A,B,...`` (one spec alone: every seat)."""
    names = [a.strip() for a in text.split(",") if a.strip()]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        fail(f"--agents lists {len(names)} agents for {seats} seats; give 1 or {seats}")
    return names


def print_result(game: Game, names: list[str], result: SelfPlayResult, path: Path | None) -> None:
    """The table of seats and the line of totals."""
    games = result.games
    table = Table(title=f"{games} games of {game.title}", title_justify="left")
    for col in ("seat", "agent", "wins", "win rate"):
        table.add_column(col, justify="left" if col in ("seat", "agent") else "right")
    means = result.seat_means()
    for key in means:
        table.add_column(f"mean {key}", justify="right")
    for s, seat in enumerate(game.info.seats):
        cells = [f"{means[key][s]:.1f}" for key in means]
        rate = f"{result.wins[s] / games:.1%}"
        table.add_row(seat, names[s], str(result.wins[s]), rate, *cells)
    console.print(table)
    facts = [f"{value:.1f} {key} per game" for key, value in result.game_means().items()]
    facts.append(f"{result.draws} without a winner")
    facts.append(f"{games / max(result.seconds, 1e-9):.1f} games/s")
    tail = f" Records written to {path}." if path is not None else ""
    console.print(", ".join(facts) + "." + tail, markup=False, highlight=False)


def run_selfplay_command(plugin: GamePlugin, options: OptionFlags, values: dict[str, Any]) -> None:
    """Check everything, play the games (writing records as they end), report."""
    path: Path | None = values["record"]
    try:
        game = build_game(
            plugin,
            options.given(values),
            values["option_pairs"],
            values["seed"],
            defaults={"max_turns": SELFPLAY_MAX_TURNS},
        )
        if path is not None:
            check_writable(path)
    except TautError as exc:
        fail(str(exc))
    names = agent_list(values["agents"], game.info.num_seats)
    handle: WholeFile | None = None
    bar = progress_bar(stderr=True)
    task = bar.add_task(plugin.name, total=values["games"])

    def done(k: int, record: GameRecord) -> None:
        if handle is not None:
            handle.write(json.dumps(record.to_json()) + "\n")
        bar.advance(task)

    try:
        # Records appear under their name only when every game is written: a full disk
        # or a file-size limit part way leaves the previous file as it was.
        handle = WholeFile(path) if path is not None else None
        with bar:
            result = run_selfplay(
                game, names, values["games"], values["seed"], values["think"], on_game=done
            )
        if handle is not None:
            handle.commit()
    except WriteError as exc:
        fail(f"{exc}; the games were not saved and {path} is unchanged", EXIT_NOT_SAVED)
    except (TautError, OSError) as exc:
        fail(str(exc))
    finally:
        if handle is not None:
            handle.discard()
    print_result(game, names, result, path)


def build_selfplay(plugin: GamePlugin) -> click.Command:
    """The ``selfplay`` command of one game."""
    options = option_flags(plugin)
    params: list[click.Parameter] = [
        click.Option(
            ["--agents"],
            default="random",
            show_default=True,
            help="Agent per seat, comma separated (one spec: every seat).",
        ),
        click.Option(
            ["--games", "-g"],
            type=click.IntRange(min=1),
            default=10,
            show_default=True,
            help="Number of games.",
        ),
        click.Option(
            ["--seed"],
            type=int,
            default=0,
            show_default=True,
            help="Game k (from 0) uses seed SEED + k.",
        ),
        file_param(["--record"], "Write one complete record per line (JSON lines) here."),
        think_param(),
    ]
    return game_command(
        plugin.name,
        plugin,
        lambda **values: run_selfplay_command(plugin, options, values),
        params,
        f"Play many games of {plugin.title} between agents, print who won, write records.\n\n"
        f"Games with a turn limit option get max_turns={SELFPLAY_MAX_TURNS} unless given.",
    )
