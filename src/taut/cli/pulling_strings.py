"""``taut play pulling-strings`` and ``taut replay pulling-strings``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.cli.app import (
    THINK,
    WHO,
    console,
    fail,
    make_game,
    play_app,
    replay_app,
)
from taut.cli.table import HumanAgent, TerminalTable, play_in_terminal
from taut.core.errors import ActionError, PositionError, TautError
from taut.core.game import State
from taut.games.pulling_strings import PullingStrings, PullingStringsState, render
from taut.games.pulling_strings.narrate import describe_turn

_EDITION = typer.Option(
    "classic", "--edition", help="classic (2003 letters) or published (random tiles)."
)
_BREAK = typer.Option("end", "--break", help="end: only the pulled end breaks; string: both ends.")
_CORNER = typer.Option(
    "split",
    "--corner",
    help="split: a corner stack pulled off both edges still "
    "splits (odd gains a disk); keep: it is left alone.",
)
_SEED = typer.Option(
    None, "--seed", help="Seed: places the published letters and drives the agents."
)


def _options(
    edition: str, brk: str, corner: str, max_turns: int | None, seed: int | None
) -> dict[str, Any]:
    return {
        "edition": edition,
        "break": brk,
        "corner": corner,
        "max_turns": max_turns,
        "seed": seed,
    }


def _legend(game: PullingStrings) -> str:
    x, o = game.seat_titles
    return (
        f"{x} (X) wins with 5 disks on the X homes, {o} (O) on the O homes. "
        "Each turn both secretly pick a string end letter; the same letter breaks that end."
    )


@play_app.command("pulling-strings")
def play(
    x: str = typer.Option(
        "human",
        "--x",
        help=f"Who plays X: {WHO}.",
    ),
    o: str = typer.Option(
        "greedy",
        "--o",
        help=f"Who plays O: {WHO}.",
    ),
    seed: int | None = _SEED,
    edition: str = _EDITION,
    brk: str = _BREAK,
    corner: str = _CORNER,
    max_turns: int | None = typer.Option(None, "--max-turns", min=1, help="Turns before a draw."),
    record: Path | None = typer.Option(
        None, "--record", help="Write the game record (JSON) here; it is updated after every turn."
    ),
    think: float | None = THINK,
) -> None:
    """Play Pulling Strings in the terminal.

    Type a letter to pull that string end; `help` lists the unbroken ends, `draw` offers a
    draw, `quit` stops (the record is kept). Two humans at one keyboard type without echo and
    the screen is cleared between them.
    """
    game = make_game("pulling-strings", _options(edition, brk, corner, max_turns, seed))
    assert isinstance(game, PullingStrings)
    specs = (x, o)
    humans = sum(1 for s in specs if s == "human")
    table = TerminalTable(console, lambda s: render(_ps(s)), humans, verb="pulls")
    agents: list[Agent] = []
    for spec in specs:
        try:
            agents.append(HumanAgent(table) if spec == "human" else make_agent(spec, think=think))
        except TautError as exc:
            fail(f"{exc} (or human)")
    console.print(escape(_legend(game)))
    console.print(render(game.new_initial_state()))

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        lines = describe_turn(_ps(before), joint[0], joint[1], _ps(after))
        table.report = f"Turn {_ps(after).turn}: " + "\n".join(lines)
        console.rule(f"Turn {_ps(after).turn}")
        for line in lines:
            console.print(escape(line))
        console.print(render(_ps(after)))

    play_in_terminal(console, game, agents, seed, observe, record)


def _ps(state: State) -> PullingStringsState:
    assert isinstance(state, PullingStringsState)
    return state


def _emit(state: PullingStringsState, as_json: bool, header: str) -> None:
    if as_json:
        print(json.dumps(state.to_json()), flush=True)
    else:
        print(header)
        print(render(state))
        hx, ho = state.home()
        print(
            f"home X {hx}, O {ho}" + (f"; {state.describe_outcome()}" if state.outcome else ""),
            flush=True,
        )


@replay_app.command("pulling-strings")
def replay(
    turns: str = typer.Option("", "--turns", help='Turns "X/O X/O ...", e.g. "c/h g/i".'),
    start: str | None = typer.Option(
        None,
        "--start",
        help='Start position JSON: {"stacks": [[row, col, count], ...], "broken": ["c", ...]}.',
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
    seed: int | None = _SEED,
    edition: str = _EDITION,
    brk: str = _BREAK,
    corner: str = _CORNER,
    max_turns: int | None = typer.Option(None, "--max-turns", min=1, help="Turns before a draw."),
) -> None:
    """Play a list of turns and print the position after each (diagrams, or JSON lines).

    An illegal turn (unknown letter, broken end, game already over) is reported on stderr,
    naming the turn, with exit status 2; what was printed before it stays.
    """
    game = make_game("pulling-strings", _options(edition, brk, corner, max_turns, seed))
    assert isinstance(game, PullingStrings)
    try:
        state = (
            game.state_from_json(json.loads(start))
            if start is not None
            else game.new_initial_state()
        )
    except json.JSONDecodeError as exc:
        fail(f"--start is not valid JSON: {exc}")
    except PositionError as exc:
        fail(f"--start: {exc}")
    _emit(state, as_json, "start")
    for k, token in enumerate(turns.split(), start=1):
        xs, sep, os_ = token.partition("/")
        try:
            if not sep or not xs or not os_ or "/" in os_:
                raise ActionError("a turn is written X's letter/O's letter, e.g. c/h")
            joint = {0: state.string_to_action(0, xs), 1: state.string_to_action(1, os_)}
            state = _ps(state.apply(joint))
        except ActionError as exc:
            sys.stdout.flush()
            fail(f"turn {k} {token!r}: {exc}")
        _emit(state, as_json, f"turn {k}: X {xs}, O {os_}")
