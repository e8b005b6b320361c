"""``taut analyse``: exact analyses of Push-Pull: exploitability of agents in the duel, and
what the best reply to random play wins in any variant."""

from __future__ import annotations

import contextlib
import json
import os

import typer

from taut.agents import make_agent
from taut.cli.app import analyse_app, console, fail, progress_bar
from taut.core.errors import TautError


@analyse_app.command("exploitability")
def exploitability_command(
    game: str = typer.Argument(..., help="The game: push-pull (its two-player duel)."),
    agent: str = typer.Option(..., "--agent", help="Agent spec, e.g. greedy or smmcts:think=0.1."),
    seed: int = typer.Option(0, "--seed", help="Seed for the agent's random choices."),
    workers: int = typer.Option(
        os.cpu_count() or 1, "--workers", min=1, help="Processes reading the strategy."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """How much a best response gains against an agent, computed exactly.

    The agent's mixed strategy is read in all 305 positions of the Push-Pull duel for both
    seats (a searching agent searches every position, once for both seats where it can:
    305 to 610 times its thinking time, shared among the workers); then a best reply to
    each seat is found by value iteration. 0 means unexploitable (the exact solution); 1
    means a best reply always wins. Each position has its own seed, so the result does not
    depend on --workers.
    """
    if game != "push-pull":
        fail(f"exploitability is computed for push-pull (its duel) only, not {game!r}")
    from taut.solve.exploitability import exploitability

    try:
        make_agent(agent)  # a bad spec fails here, before any worker starts
        with progress_bar(quiet=as_json) as bar:
            task = bar.add_task(f"reading {agent}'s strategy", total=610)
            result = exploitability(
                agent, agent, seed, progress=lambda n: bar.advance(task, n), workers=workers
            )
    except TautError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(result.to_json()))
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


@analyse_app.command("random-reply")
def random_reply_command(
    game: str = typer.Argument(..., help="The game: push-pull."),
    variant: str = typer.Option("duel", "--variant", help="duel, four, four-teams or two-teams."),
    seats: str = typer.Option(
        None,
        "--seats",
        help="Replying seats, comma-separated names (default: W; N,S in four; N,E in "
        "four-teams; NE in two-teams).",
    ),
    teams: str = typer.Option(
        None, "--teams", help="Teaming of the team variants: NE-SW or NW-SE."
    ),
    loss_weight: float = typer.Option(
        1.0, "--loss-weight", min=0.0, help="A loss scores minus this."
    ),
    turns: int = typer.Option(
        None, "--turns", min=1, help="Turn limit (a draw after it); default: no limit."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """What the best reply to uniformly random play wins, computed exactly.

    The replying seats are taken as perfectly coordinated and the others choose uniformly
    at random, so the value bounds every agent in those seats. A win scores 1, a loss
    minus --loss-weight, a draw or shared win 0. With --loss-weight 19 and --turns 200 (the
    arena's limit), a negative value proves that no agent wins 95% of decisive games.
    """
    if game != "push-pull":
        fail(f"the reply to random play is computed for push-pull only, not {game!r}")
    from taut.core.registry import make
    from taut.solve.push_pull_random import reply_to_random

    try:
        options: dict[str, object] = {"variant": variant}
        if teams is not None:
            options["teams"] = teams
        names = make("push-pull", **options).info.seats
        chosen: tuple[int, ...] | None = None
        if seats is not None:
            wanted = [name.strip().upper() for name in seats.split(",") if name.strip()]
            unknown = [name for name in wanted if name not in names]
            if unknown or not wanted:
                fail(f"unknown seat(s) {', '.join(unknown) or seats!r}; seats: {', '.join(names)}")
            chosen = tuple(names.index(name) for name in wanted)
        with console.status("value iteration") if not as_json else contextlib.nullcontext():
            reply = reply_to_random(variant, chosen, teams, loss_weight, turns)
    except TautError as exc:
        fail(str(exc))
    labels = [names[s] for s in reply.seats]
    if as_json:
        print(
            json.dumps(
                {
                    "game": "push-pull",
                    "variant": variant,
                    "seats": labels,
                    "loss_weight": loss_weight,
                    "turns": turns,
                    "value": reply.value,
                    "sweeps": reply.sweeps,
                }
            )
        )
        return
    console.print(
        f"Push-Pull {variant}, {'+'.join(labels)} replying to random play "
        f"(loss {-loss_weight:g}, {'no turn limit' if turns is None else f'{turns} turns'}):"
    )
    console.print(f"  [bold]value {reply.value:+.6f}[/bold] after {reply.sweeps} sweeps")
