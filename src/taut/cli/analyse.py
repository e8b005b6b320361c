"""``taut analyse``: exploitability of agents in the solved Push-Pull duel."""

from __future__ import annotations

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
