"""``taut replay GAME``: replay records, or a list of turns, checking every step.

Two forms:

* ``taut replay GAME FILE``: every record in FILE (one record, a JSON list, or JSON lines
  as ``selfplay`` and ``arena --record`` write them) is replayed from its moves; each step
  must be legal and the result must be the recorded one. A file with one record prints its
  positions (``--json``: one JSON object per line; ``--at N``: only the position after N
  moves); a file of several prints one line per record. ``--quiet`` prints only the count.
* ``taut replay GAME --turns "..." [--start JSON]``: play the turns given in notation from
  the start (or from a position in JSON) and print the position after each.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from taut.cli.common import console, fail, file_param, json_param
from taut.cli.options import build_game, game_command, option_flags
from taut.core.errors import ActionError, PositionError, RecordError, TautError
from taut.core.forfeit import drawable
from taut.core.game import Game, State
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.core.record_files import parse_json, read_records


def describe_joint(state: State, joint: Mapping[int, int]) -> str:
    """``X c, O h`` (``agreed draw`` for the end of a game by agreement)."""
    if not joint:
        return "agreed draw"
    return ", ".join(
        f"{state.seat_name(s)} {state.action_to_string(s, a)}" for s, a in sorted(joint.items())
    )


def emit(plugin: GamePlugin, state: State, as_json: bool, header: str) -> None:
    """Print one position: its JSON line, or a header, the board and a status line."""
    if as_json:
        print(json.dumps(state.to_json()), flush=True)
        return
    print(header)
    print(plugin.render(drawable(state)))
    status = plugin.status(drawable(state))
    over = state.describe_outcome() if state.outcome is not None else None
    line = "; ".join(part for part in (status, over) if part)
    if line:
        print(line, flush=True)


def split_turn(state: State, token: str) -> dict[int, int]:
    """The joint action a ``--turns`` token names: the acting seats' actions in seat order,
    separated by ``/`` (one action alone at a one-seat or chance node). A notation that
    itself holds ``/`` is split where every part reads as an action."""
    seats = state.acting_seats()
    if not seats:
        raise ActionError(f"the game is over ({state.describe_outcome()})")
    parts = token.split("/")
    direct: ActionError | None = None
    if len(parts) == len(seats):
        try:  # the usual case: one part per seat; a bad part is named by its own error
            return {s: state.string_to_action(s, p) for s, p in zip(seats, parts, strict=True)}
        except ActionError as exc:
            direct = exc  # unless some notation holds a "/" itself (tried below)
    found = _split(state, seats, parts)
    if found is None and direct is not None:
        raise direct
    if found is None:
        names = "/".join(state.seat_name(s) for s in seats)
        raise ActionError(f"a turn here is {names}: one action each, separated by /")
    return found


def _split(state: State, seats: Sequence[int], parts: list[str]) -> dict[int, int] | None:
    if not seats:
        return {} if not parts else None
    first, rest = seats[0], seats[1:]
    error: ActionError | None = None
    for cut in range(1, len(parts) - len(rest) + 1):
        text = "/".join(parts[:cut])
        try:
            action = state.string_to_action(first, text)
        except ActionError as exc:
            error = exc
            continue
        tail = _split(state, rest, parts[cut:])
        if tail is not None:
            return {first: action, **tail}
    if error is not None and not rest:
        raise error
    return None


def replay_turns(
    plugin: GamePlugin, game: Game, turns: str, start: str | None, as_json: bool
) -> None:
    """The ``--turns`` form."""
    try:
        state = (
            game.state_from_json(parse_json(start, "--start"))
            if start is not None
            else game.new_initial_state()
        )
    except (PositionError, RecordError) as exc:
        fail(f"--start: {exc}")
    emit(plugin, state, as_json, "start")
    for k, token in enumerate(turns.split(), start=1):
        try:
            joint = split_turn(state, token)
            after = state.apply(joint)
        except ActionError as exc:
            fail(f"turn {k} {token!r}: {exc}")
        emit(plugin, after, as_json, f"turn {k}: {describe_joint(state, joint)}")
        state = after


def summary(plugin: GamePlugin, index: int, record: GameRecord, final: State, path: Path) -> str:
    """One line about a replayed record."""
    moves = len(record.moves) if record.moves is not None else None
    count = f"{moves} moves" if moves is not None else "its game's own fields"
    if final.outcome is None:
        how = f"unfinished (taut play {plugin.name} --resume {path} continues it)"
    else:
        how = final.describe_outcome()
    parts = [f"record {index}: {count}, {how}"]
    if final.outcome is not None:
        for name, value in plugin.game_stats(final).items():
            parts.append(f"{name} {value:g}")
        for name, values in plugin.seat_stats(final).items():
            cells = ", ".join(f"{final.seat_name(s)} {v:g}" for s, v in enumerate(values))
            parts.append(f"{name}: {cells}")
    return "; ".join(parts)


def replay_file(plugin: GamePlugin, path: Path, as_json: bool, at: int | None, quiet: bool) -> None:
    """The ``FILE`` form."""
    try:
        records = read_records(path)
    except RecordError as exc:
        fail(str(exc))
    positions = not quiet and (len(records) == 1 or at is not None or as_json)
    for i, data in enumerate(records, start=1):
        try:
            if data.get("game") != plugin.name:
                raise RecordError(f"a record of {data.get('game')!r}, not of {plugin.name}")
            record = GameRecord.from_json(data)
            final = _replay_one(plugin, record, as_json, at, positions)
        except TautError as exc:
            text = str(exc)
            # "record 2, round 1, event 3: ..." reads as one place; other messages follow a colon.
            fail(
                f"record {i}, {text}"
                if text.startswith(("round ", "move "))
                else f"record {i}: {text}"
            )
        if not quiet and not as_json:
            console.print(summary(plugin, i, record, final, path), markup=False, highlight=False)
    if not as_json:
        console.print(f"{len(records)} record(s) checked: all replay exactly.")


def _replay_one(
    plugin: GamePlugin, record: GameRecord, as_json: bool, at: int | None, positions: bool
) -> State:
    steps: list[tuple[dict[int, int] | None, State]] = []
    previous: State | None = None
    for k, (joint, state) in enumerate(record.positions()):
        steps.append((joint, state))
        if positions and (at is None or at == k):
            header = (
                "start"
                if joint is None or previous is None
                else (f"turn {k}: {describe_joint(previous, joint)}")
            )
            emit(plugin, state, as_json, header)
        previous = state
    if at is not None and not 0 <= at < len(steps):
        raise RecordError(f"--at {at}: the record has positions 0..{len(steps) - 1}")
    return steps[-1][1]


def build_replay(plugin: GamePlugin) -> click.Command:
    """The ``replay`` command of one game."""
    options = option_flags(plugin)

    def run(**values: Any) -> None:
        path: Path | None = values["path"]
        turns: str | None = values["turns"]
        given = options.given(values)
        pairs = values["option_pairs"]
        if path is not None:
            if turns is not None or values["start"] is not None:
                fail("give a record FILE or --turns/--start, not both")
            if given or pairs or values["seed"] is not None:
                fail("a record carries its game's options: drop the option flags")
            replay_file(plugin, path, values["as_json"], values["at"], values["quiet"])
            return
        if values["at"] is not None:
            fail("--at reads a record FILE")
        try:
            game = build_game(plugin, given, pairs, values["seed"])
        except TautError as exc:
            fail(str(exc))
        replay_turns(plugin, game, turns or "", values["start"], values["as_json"])

    params: list[click.Parameter] = [
        file_param(["path"], "", argument=True),
        click.Option(
            ["--turns"],
            default=None,
            help="Turns in notation, separated by spaces; the seats of one turn separated by / "
            '(e.g. "c/h g/i").',
        ),
        click.Option(
            ["--start"],
            default=None,
            metavar="JSON",
            help=f"Start from this position: {plugin.position_help}.",
        ),
        click.Option(
            ["--at"],
            type=click.IntRange(min=0),
            default=None,
            help="Print only the position after this many moves (0: the start).",
        ),
        click.Option(
            ["--quiet", "-q"], is_flag=True, default=False, help="Print only the count of records."
        ),
        click.Option(["--seed"], type=int, default=None, help="The game's seed option, if any."),
        json_param(),
    ]
    command = game_command(
        plugin.name,
        plugin,
        run,
        params,
        f"Replay {plugin.title} records (FILE) or turns (--turns), checking every step.\n\n"
        "An impossible step stops the replay with a message naming it and exit status 2; "
        "what was printed before it stays.",
    )
    return command
