"""``taut arena``: round-robin tournaments between agents."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from taut.arena.backends import make_backend
from taut.arena.plot import plot_tournament
from taut.arena.stats import score, wilson_interval
from taut.arena.tournament import run_tournament
from taut.cli.app import app, console, fail, make_game, progress_bar
from taut.core.errors import TautError


@app.command()
def arena(
    game: str = typer.Argument(..., help="Game name, e.g. pulling-strings."),
    agents: str = typer.Option(
        ...,
        "--agents",
        help="Comma-separated agent specs: NAME or "
        "NAME:key=value[:key=value...], e.g. greedy,smmcts:think=0.1.",
    ),
    games: int = typer.Option(20, "--games", min=1, help="Games per pair of agents."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed gives the same results."),
    variant: str | None = typer.Option(None, "--variant", help="Shortcut for --option variant=V."),
    option: list[str] = typer.Option([], "--option", "-O", help="Game option key=value."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Games played at once: processes with --backend local (default: one per "
        "core); with --backend ray, tasks in flight (default: all the cluster's CPUs) and "
        "the CPUs of a Ray instance started for the run.",
    ),
    backend: str = typer.Option(
        "local",
        "--backend",
        help="Where games run: local (a process pool on this machine) or ray (Ray tasks, "
        "on a Ray instance started for the run or on the cluster at --address; needs the "
        "distributed extra). Results are the same either way.",
    ),
    address: str | None = typer.Option(
        None,
        "--address",
        help="With --backend ray, the running Ray cluster to use: auto (the one started on "
        "this machine by `ray start --head`), HOST:PORT, or ray://HOST:10001 (Ray Client). "
        "Default: RAY_ADDRESS if set, else a local Ray instance started for the run.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON object."),
    plot: str | None = typer.Option(None, "--plot", help="Write a PNG of the results here."),
) -> None:
    """Play a round robin between agents and report wins, draws, losses and ratings.

    Each pair of agents plays --games games with seats alternating fairly.
    Scores (a win 1, a draw 1/2) come with 95% Wilson intervals.
    Ratings are openskill (Plackett-Luce).
    Self-play uses max_turns=200 unless the game's options say otherwise.
    Agents: easy, medium, hard (levels), random, greedy, smmcts, mcts, ismcts, nash, perfect.

    Games run in a process pool on this machine, or with --backend ray as Ray tasks.
    Every game's seed comes from --seed: results depend on neither --backend nor --workers.
    """
    if address is not None and backend != "ray":
        fail("--address names a Ray cluster: it needs --backend ray")
    try:
        runner = make_backend(backend, workers=workers, address=address)
    except TautError as exc:
        fail(str(exc))
    specs = [s.strip() for s in agents.split(",") if s.strip()]
    if len(specs) < 2:
        fail("--agents needs at least two agent specs, separated by commas")
    extra = list(option) + ([f"variant={variant}"] if variant else [])
    g = make_game(game, {}, extra)
    options = dict(g.options)
    if "max_turns" in options and options["max_turns"] is None:
        options["max_turns"] = 200
    try:
        with progress_bar(quiet=as_json) as bar:
            task = bar.add_task(f"{game}", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = run_tournament(
                game, options, specs, games, seed, progress=progress, backend=runner
            )
    except (TautError, ValueError) as exc:
        fail(str(exc))
    if plot:
        plot_tournament(result, plot)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    table = Table(title=f"{game}: {games} games per pair, seed {seed}", title_justify="left")
    for col in ("agent", "wins", "draws", "losses", "score", "95% interval", "rating"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name in sorted(specs, key=lambda n: -result.ratings.get(n)[0]):
        rec = result.totals[name]
        n = rec.wins + rec.draws + rec.losses
        lo, hi = wilson_interval(rec.wins + 0.5 * rec.draws, n)
        mu, sigma = result.ratings.get(name)
        table.add_row(
            name,
            str(rec.wins),
            str(rec.draws),
            str(rec.losses),
            f"{score(rec.wins, rec.draws, rec.losses):.3f}",
            f"{lo:.3f}-{hi:.3f}",
            f"{mu:.1f} ± {sigma:.1f}",
        )
    console.print(table)
    pairs = Table(title="pairs", title_justify="left")
    for col in ("a", "b", "a wins", "b wins", "draws"):
        pairs.add_column(col)
    for p in result.pairs:
        pairs.add_row(p.a, p.b, str(p.a_wins), str(p.b_wins), str(p.draws))
    console.print(pairs)
    if plot:
        console.print(f"Plot written to {plot}.")
