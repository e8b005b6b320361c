"""``taut play GAME``: play any game in the terminal, humans and agents in any mix."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from taut.arena.match import resume_record
from taut.cli.common import (
    EXIT_NOT_SAVED,
    WHO,
    console,
    err_console,
    fail,
    file_param,
    think_param,
)
from taut.cli.options import (
    OptionFlags,
    SeatFlags,
    build_game,
    game_command,
    option_flags,
    seat_flags,
)
from taut.cli.seats import HUMAN, assign_seats, build_agents
from taut.cli.table import HumanAgent, RecordFile, TerminalTable, play_in_terminal, show
from taut.core.errors import RecordError, TautError
from taut.core.game import Game, State
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.core.record_files import check_writable


@dataclass
class Setup:
    """Everything a game needs before its first move: new, or resumed from a record."""

    game: Game
    specs: list[str]
    seed: int | None
    record_path: Path | None
    state: State | None = None
    record: GameRecord | None = None


def _resume(plugin: GamePlugin, path: Path) -> tuple[Game, State, GameRecord]:
    """The game, position and record of an unfinished record at ``path``."""
    loaded = GameRecord.load(path)
    if loaded.game != plugin.name:
        raise RecordError(f"{path} is a record of {loaded.game}, not of {plugin.name}")
    game = plugin.game_class(**loaded.options)
    state, record = resume_record(game, loaded)
    if state.is_terminal():
        raise RecordError(
            f"the game in {path} is already over ({state.describe_outcome()}); nothing to resume"
        )
    return game, state, record


def setup(
    plugin: GamePlugin, options: OptionFlags, seats: SeatFlags, values: dict[str, Any]
) -> Setup:
    """Read the command's values: the game (or the resumed one), the seats, the record file.
    Raises TautError on anything wrong, before anything is played."""
    given = options.given(values)
    pairs: tuple[str, ...] = values["option_pairs"]
    resume: Path | None = values["resume"]
    seat_specs = [*values["seat"], *seats.given(values)]
    if resume is None:
        game = build_game(plugin, given, pairs, values["seed"])
        out = Setup(game, assign_seats(game, seat_specs), values["seed"], values["record"])
    else:
        if given or pairs:
            names = ", ".join(sorted(given) + [p.partition("=")[0] for p in pairs])
            raise RecordError(
                f"--resume continues the recorded game with its own options; drop {names}"
            )
        game, state, record = _resume(plugin, resume)
        base = {game.seat_index(k): v for k, v in record.seats.items()}
        out = Setup(
            game,
            assign_seats(game, seat_specs, base),
            values["seed"] if values["seed"] is not None else record.seed,
            values["record"] if values["record"] is not None else resume,
            state,
            record,
        )
    if out.record_path is not None:
        check_writable(out.record_path)
    return out


def play(plugin: GamePlugin, ready: Setup, think: float | None) -> None:
    """Seat everyone, show the start, and play to the end (or until a human stops)."""
    game = ready.game
    presenter = plugin.presenter(game)
    humans = [i for i, spec in enumerate(ready.specs) if spec == HUMAN]
    table = TerminalTable(console, presenter, len(humans))
    try:
        agents = build_agents(game, ready.specs, think, HumanAgent(table))
    except TautError as exc:
        fail(str(exc))
    viewer = humans[0] if len(humans) == 1 else None
    if ready.state is None or ready.record is None:
        show(console, presenter.intro(ready.specs))
    else:
        moves = ready.record.moves or []
        presenter.turns = sum(1 for move in moves if "chance" not in move)
        plural = "" if len(moves) == 1 else "s"
        who = ", ".join(f"{n} {s}" for n, s in zip(game.info.seats, ready.specs, strict=True))
        console.print(f"Resuming the game after {len(moves)} move{plural}. Seats: {who}.")
        console.print(presenter.board(ready.state.view(viewer)))
    record_file = RecordFile(err_console, ready.record_path)
    play_in_terminal(
        console,
        game,
        table,
        agents,
        ready.seed,
        record_file,
        dict(zip(game.info.seats, ready.specs, strict=True)),
        viewer=viewer,
        state=ready.state,
        record=ready.record,
    )
    if record_file.error is not None:
        # The game was played, but its record is not what the file holds: not a success.
        raise click.exceptions.Exit(EXIT_NOT_SAVED)


def build_play(plugin: GamePlugin) -> click.Command:
    """The ``play`` command of one game."""
    options = option_flags(plugin)
    taken = {p.opts[0] for p in options.params()} | {"--seat", "--seed", "--think"}
    seat_options = seat_flags(plugin, taken)

    def run(**values: Any) -> None:
        try:
            ready = setup(plugin, options, seat_options, values)
        except TautError as exc:
            fail(str(exc))
        play(plugin, ready, values["think"])

    params: list[click.Parameter] = [
        click.Option(
            ["--seat"],
            multiple=True,
            metavar="SEAT=WHO",
            help=f"Who sits at a seat (repeatable); WHO: {WHO}. Seats not named play greedy; "
            "if no seat is human, the first seat not named is.",
        ),
        *seat_options.params(),
        click.Option(
            ["--seed"],
            type=int,
            default=None,
            help="Seed for chance and the agents (and the game's own seed option, if any).",
        ),
        file_param(
            ["--record"], "Write the game record (JSON) here; it is updated after every move."
        ),
        file_param(
            ["--resume"],
            "Continue the unfinished game recorded in this file (and keep recording there).",
        ),
        think_param(),
    ]
    return game_command(
        plugin.name,
        plugin,
        run,
        params,
        f"Play {plugin.title} in the terminal.\n\n"
        "Type a move in the game's notation; `help` explains the moves, `quit` stops (the "
        "record so far is kept). Several humans at one keyboard type without echo and the "
        "screen is cleared between them.",
    )
