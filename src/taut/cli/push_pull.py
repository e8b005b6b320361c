"""``taut play push-pull`` and ``taut solve push-pull``."""

from __future__ import annotations

import json
from pathlib import Path

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
    solve_app,
)
from taut.cli.table import HumanAgent, TerminalTable, play_in_terminal
from taut.core.errors import TautError
from taut.core.game import State
from taut.games.push_pull import PushPull, PushPullState, render
from taut.games.push_pull.narrate import describe_turn
from taut.solve.push_pull import solve_duel, summary_lines

#: Agents a seat can be given on the command line.
SEAT_AGENTS = ("human", "random", "greedy", "perfect")


def _legend(game: PushPull) -> str:
    lay = game.layout
    goal = (
        "The player who scores the last piece wins."
        if lay.win == "last"
        else "First to score two pieces wins."
    )
    if lay.variant == "four-teams":
        goal = f"Teams {' against '.join(lay.units)}. " + goal.replace("player", "team")
    if lay.variant == "two-teams":
        goal = (
            f"{' against '.join(lay.seats)}: each player chooses for both of their sides. " + goal
        )
    choices = "pull, push, pass" + (", left, right" if lay.shifts else "")
    example = "L=pull,M=push,S=pass" if len(lay.seat_sides[0]) == 1 else "L=pull/pass,M=push/push"
    return (
        f"Push-Pull ({lay.variant}{', shifts on' if lay.shifts else ''}). {goal} "
        f"Each turn every seat secretly chooses for each piece on the board: {choices} "
        f"(e.g. {example}, or +-0). Type help for the legal moves, quit to stop."
    )


def move_help(state: PushPullState, seat: int) -> str:
    """A short help for a move: the pieces on the board, the choices and an example.

    (Listing every legal move would print up to 15,625 of them for a two-teams player.)
    """
    lay = state.game.layout
    live = [p for p, on in zip("LMS", state.on_board(), strict=True) if on]
    sides = lay.seat_sides[seat]
    choices = "pull, push, pass" + (", left, right" if lay.shifts else "")
    symbols = "+ - 0" + (" < >" if lay.shifts else "")
    if len(sides) == 1:
        example = ",".join(f"{p}={c}" for p, c in zip(live, ("pull", "push", "pass"), strict=False))
        per = "one choice per piece"
    else:
        names = "/".join("NESW"[s] for s in sides)
        example = ",".join(
            f"{p}={c}" for p, c in zip(live, ("pull/pass", "push/pull", "pass/pass"), strict=False)
        )
        per = f"one choice per side ({names}) for each piece"
    return (
        f"Pieces on the board: {', '.join(live)}. Give {per}: {choices} "
        f"(or {symbols}); pieces left out pass. Example: {example}. Commands: help, quit."
    )


def assign_seats(game: PushPull, seats: list[str]) -> list[str]:
    """The agent name for every seat from ``SEAT=AGENT`` strings.

    Seats not named play ``greedy``, except that when no seat is given to a human the first
    seat not named is human (so a bare ``taut play push-pull`` puts you at the first seat).
    Raises :class:`typer.Exit` through :func:`fail` on a bad spec.
    """
    names = game.info.seats
    chosen: dict[int, str] = {}
    for spec in seats:
        seat_name, sep, agent = spec.partition("=")
        if not sep or not seat_name.strip() or not agent.strip():
            fail(f"--seat {spec!r}: write SEAT=AGENT, e.g. {names[0]}=human")
        try:
            seat = game.seat_index(seat_name.strip())
        except TautError:
            fail(f"--seat {spec!r}: no seat {seat_name.strip()!r}; seats are {', '.join(names)}")
        agent = agent.strip().lower()
        if agent.split(":")[0] not in SEAT_AGENTS:
            fail(f"--seat {spec!r}: unknown agent {agent!r}; agents: {', '.join(SEAT_AGENTS)}")
        if agent == "perfect" and game.variant != "duel":
            fail("--seat: the perfect agent plays only the duel (--variant duel)")
        if seat in chosen:
            fail(f"--seat: seat {names[seat]} is given twice")
        chosen[seat] = agent
    out = []
    need_human = "human" not in chosen.values()
    for seat in range(len(names)):
        if seat in chosen:
            out.append(chosen[seat])
        elif need_human:
            out.append("human")
            need_human = False
        else:
            out.append("greedy")
    return out


def _pp(state: State) -> PushPullState:
    assert isinstance(state, PushPullState)
    return state


@play_app.command("push-pull")
def play(
    variant: str = typer.Option("duel", "--variant", help="duel, four, four-teams or two-teams."),
    seat: list[str] = typer.Option(
        [],
        "--seat",
        help=f"SEAT=WHO (repeatable), WHO: {WHO}; perfect plays the duel exactly. "
        "Seats not given play greedy; if no seat is human, the first seat not given is.",
    ),
    shifts: str = typer.Option(
        "off", "--shifts", help="on: free-for-all left/right shifts (four-sided variants)."
    ),
    teams: str | None = typer.Option(
        None, "--teams", help="NE-SW (default) or NW-SE: the teams of the team variants."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the agents' choices."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=1, help="Turns before a draw (default: no limit)."
    ),
    record: Path | None = typer.Option(
        None, "--record", help="Write the game record (JSON) here; updated after every turn."
    ),
    think: float | None = THINK,
) -> None:
    """Play Push-Pull in the terminal.

    Every seat chooses at once; several humans at one keyboard type without echo and the
    screen is cleared between them. After each reveal the picture and a turn report show
    what moved where and why.
    """
    options = {"variant": variant, "shifts": shifts, "teams": teams, "max_turns": max_turns}
    game = make_game("push-pull", options)
    assert isinstance(game, PushPull)
    specs = assign_seats(game, seat)
    humans = sum(1 for s in specs if s == "human")
    table = TerminalTable(
        console,
        lambda s: render(_pp(s)),
        humans,
        verb="plays",
        help_text=lambda s, seat: move_help(_pp(s), seat),
        draw_offers=False,  # the game has no draw by agreement
    )
    agents: list[Agent] = []
    for spec in specs:
        if spec == "human":
            agents.append(HumanAgent(table))
        else:
            try:
                agents.append(make_agent(spec, think=think))
            except TautError as exc:
                fail(str(exc))
    lay = game.layout
    console.print(escape(_legend(game)))
    console.print(
        escape(
            "Seats: "
            + ", ".join(
                f"{lay.seats[i]} ({lay.seat_titles[i]}) {spec}" for i, spec in enumerate(specs)
            )
        )
    )
    console.print(escape(render(game.new_initial_state())))

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        console.rule(f"Turn {_pp(after).turn}")
        for line in describe_turn(_pp(before), joint, _pp(after)):
            console.print(escape(line))
        console.print(escape(render(_pp(after))))

    try:
        play_in_terminal(console, game, agents, seed, observe, record)
    except TautError as exc:
        fail(str(exc))


@solve_app.command("push-pull")
def solve(
    as_json: bool = typer.Option(
        False, "--json", help="Print every value and optimal mix as one JSON object."
    ),
) -> None:
    """Solve the Push-Pull duel exactly: every position's value and optimal mixed strategies.

    Positions are "L,M,S": each piece's square 0..4 from West, or W / E once scored by that
    side. Values are from West's point of view (+1 a sure West win, -1 a sure East win).
    """
    solution = solve_duel()
    if as_json:
        print(json.dumps(solution.to_json()))
        return
    for line in summary_lines(solution):
        console.print(escape(line))
