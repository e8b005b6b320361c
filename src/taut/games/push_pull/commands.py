"""Push-Pull's commands: ``taut solve push-pull``, ``taut analyse exploitability`` and
``taut analyse random-reply``."""

from __future__ import annotations

import contextlib
import json
import os

import click
from rich.markup import escape

from taut.core.console import console, fail, progress_bar
from taut.core.errors import TautError
from taut.core.number_param import Real
from taut.games.push_pull.rules import PushPull

#: Reads of the agent's strategy: 305 positions, two seats.
_READS = 610


@click.command("push-pull")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    default=False,
    help="Print every value and optimal mix as one JSON object.",
)
@click.option(
    "--variant",
    type=click.Choice(["duel", "two-teams"]),
    default="duel",
    show_default=True,
    help="duel: solved here and now; two-teams: its known values (exact after a score, "
    "near-exact before).",
)
def solve_command(as_json: bool, variant: str) -> None:
    """Solve the Push-Pull duel exactly: every position's value and optimal mixed strategies.

    Positions are "L,M,S": each piece's square 0..4 from West, or W / E once scored by that
    side. Values are from West's point of view (+1 a sure West win, -1 a sure East win).

    With --variant two-teams it prints what is known of the two-teams game: the start's
    value (0), the exact values of every position with a piece scored, and the near-exact
    values and proven bounds of those before (--json: all of them; "classes" as [squares,
    N+E's score, S+W's score, value], "opening" as [squares, value, lower, upper bound of
    each one-turn game at those values], "bounds" as [squares, proven lower bound, proven
    upper bound]).
    """
    # The solver (and NumPy) is imported here: listing the commands must not load it.
    if variant == "two-teams":
        from taut.games.push_pull.solve import teams_bounds, teams_opening
        from taut.games.push_pull.solve.teams_solve import DATA
        from taut.games.push_pull.solve.teams_summary import teams_summary

        if as_json:
            data = json.loads(DATA.read_text())
            data["opening"] = json.loads(teams_opening.DATA.read_text())
            data["bounds"] = json.loads(teams_bounds.DATA.read_text())
            click.echo(json.dumps(data))
            return
        for line in teams_summary():
            console.print(escape(line))
        return
    from taut.games.push_pull.solve.duel_newton import solve_duel
    from taut.games.push_pull.solve.duel_summary import summary_lines

    solution = solve_duel()
    if as_json:
        click.echo(json.dumps(solution.to_json()))
        return
    for line in summary_lines(solution):
        console.print(escape(line))


@click.command("exploitability")
@click.argument("game")
@click.option("--agent", required=True, help="Agent spec, e.g. greedy or smmcts:think=0.1.")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed for the agent's random choices."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=os.cpu_count() or 1,
    show_default=True,
    help="Processes reading the strategy.",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print one JSON object.")
def exploitability_command(game: str, agent: str, seed: int, workers: int, as_json: bool) -> None:
    """How much a best response gains against an agent, computed exactly.

    GAME is push-pull (its two-player duel). The agent's mixed strategy is read in all 305
    positions of the duel for both seats (a searching agent searches every position, once
    for both seats where it can: 305 to 610 times its thinking time, shared among the
    workers); then a best reply to each seat is found by value iteration. 0 means
    unexploitable (the exact solution); 1 means a best reply always wins. Each position has
    its own seed, so the result does not depend on --workers.
    """
    if game != PushPull.name:
        fail(f"exploitability is computed for push-pull (its duel) only, not {game!r}")
    from taut.agents import make_agent
    from taut.games.push_pull.solve.exploitability import exploitability

    try:
        make_agent(agent)  # a bad spec fails here, before any worker starts
        with progress_bar(quiet=as_json) as bar:
            task = bar.add_task(f"reading {agent}'s strategy", total=_READS)
            result = exploitability(
                agent, agent, seed, progress=lambda n: bar.advance(task, n), workers=workers
            )
    except TautError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    console.print(f"Push-Pull duel, agent {agent}, from the start (value {result.value:+.6f}):")
    console.print(
        f"  as West, a best reply holds it to {result.west_guarantee:+.6f} "
        f"(gives away {result.west_loss:.6f})"
    )
    console.print(
        f"  as East, a best reply reaches {result.east_guarantee:+.6f} "
        f"(gives away {result.east_loss:.6f})"
    )
    console.print(f"  [bold]exploitability {result.exploitability:.6f}[/bold]")


def _replying(names: tuple[str, ...], seats: str | None) -> tuple[int, ...] | None:
    """The seat ids named by ``--seats`` (None: the defaults); fails on an unknown name."""
    if seats is None:
        return None
    wanted = [name.strip().upper() for name in seats.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in names]
    if unknown or not wanted:
        fail(f"unknown seat(s) {', '.join(unknown) or seats!r}; seats: {', '.join(names)}")
    return tuple(names.index(name) for name in wanted)


@click.command("random-reply")
@click.argument("game")
@click.option(
    "--variant", default="duel", show_default=True, help="duel, four, four-teams or two-teams."
)
@click.option(
    "--seats",
    default=None,
    help="Replying seats, comma-separated names (default: W; N,S in four; N,E in four-teams; "
    "NE in two-teams).",
)
@click.option("--teams", default=None, help="Teaming of the team variants: NE-SW or NW-SE.")
@click.option(
    "--loss-weight",
    type=Real(0.0, 1e6),
    default=1.0,
    show_default=True,
    help="A loss scores minus this.",
)
@click.option(
    "--turns",
    type=click.IntRange(min=1, max=100_000),
    default=None,
    help="Turn limit (a draw after it); default: no limit.",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print one JSON object.")
def random_reply_command(
    game: str,
    variant: str,
    seats: str | None,
    teams: str | None,
    loss_weight: float,
    turns: int | None,
    as_json: bool,
) -> None:
    """What the best reply to uniformly random play wins, computed exactly.

    GAME is push-pull. The replying seats are taken as perfectly coordinated and the others
    choose uniformly at random, so the value bounds every agent in those seats. A win scores
    1, a loss minus --loss-weight, a draw or shared win 0. With --loss-weight 19 and --turns
    200 (the arena's limit), a negative value proves that no agent wins 95% of decisive
    games.
    """
    if game != PushPull.name:
        fail(f"the reply to random play is computed for push-pull only, not {game!r}")
    from taut.games.push_pull.solve.random_reply import reply_to_random

    try:
        options: dict[str, object] = {"variant": variant}
        if teams is not None:
            options["teams"] = teams
        names = PushPull(**options).info.seats
        chosen = _replying(names, seats)
        with console.status("value iteration") if not as_json else contextlib.nullcontext():
            reply = reply_to_random(variant, chosen, teams, loss_weight, turns)
    except TautError as exc:
        fail(str(exc))
    labels = [names[s] for s in reply.seats]
    if as_json:
        data = {
            "game": PushPull.name,
            "variant": variant,
            "seats": labels,
            "loss_weight": loss_weight,
            "turns": turns,
            "value": reply.value,
            "sweeps": reply.sweeps,
        }
        click.echo(json.dumps(data))
        return
    console.print(
        f"Push-Pull {variant}, {'+'.join(labels)} replying to random play "
        f"(loss {-loss_weight:g}, {'no turn limit' if turns is None else f'{turns} turns'}):"
    )
    console.print(f"  [bold]value {reply.value:+.6f}[/bold] after {reply.sweeps} sweeps")
