"""``taut arena GAME``: round-robin tournaments between agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taut.cli.common import console, fail, file_param, json_param, progress_bar
from taut.cli.options import OptionFlags, build_game, game_command, option_flags
from taut.core.errors import TautError
from taut.core.plugin import GamePlugin
from taut.core.record_files import check_writable, write_text

if TYPE_CHECKING:
    from taut.arena.tournament import TournamentResult

#: The turn limit tournament games get in games that have one and were given none.
ARENA_MAX_TURNS = 200

_AGENTS_HELP = (
    "Comma-separated agent specs: NAME or NAME:key=value[:key=value...], e.g. "
    "greedy,smmcts:think=0.1. Agents: easy, medium, hard (levels), random, greedy, smmcts, "
    "mcts, ismcts, nash, perfect, reply."
)


def print_tables(game: str, result: TournamentResult, seed: int) -> None:
    """The totals and pairwise tables."""
    from rich.table import Table

    from taut.arena.stats import score, wilson_interval

    table = Table(
        title=f"{game}: {result.games_per_pair} games per pair, seed {seed}", title_justify="left"
    )
    for col in ("agent", "wins", "draws", "losses", "score", "95% interval", "rating"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name in sorted(result.agents, key=lambda n: -result.ratings.get(n)[0]):
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


def run_arena(plugin: GamePlugin, options: OptionFlags, values: dict[str, Any]) -> None:
    """Check everything, play the tournament, write what was asked for, report."""
    # The tournament machinery (process pools, agents, ratings) is imported here, so that
    # `taut arena GAME --help` and the other commands do not load it.
    from taut.arena.backends import make_backend
    from taut.arena.tournament import run_tournament

    if values["address"] is not None and values["backend"] != "ray":
        fail("--address names a Ray cluster: it needs --backend ray")
    specs = [s.strip() for s in values["agents"].split(",") if s.strip()]
    if len(specs) < 2:
        fail("--agents needs at least two agent specs, separated by commas")
    plot: Path | None = values["plot"]
    record: Path | None = values["record"]
    as_json: bool = values["as_json"]
    try:
        runner = make_backend(
            values["backend"], workers=values["workers"], address=values["address"]
        )
        game = build_game(
            plugin,
            options.given(values),
            values["option_pairs"],
            defaults={"max_turns": ARENA_MAX_TURNS},
        )
        for path in (plot, record):
            if path is not None:
                check_writable(path)
        with progress_bar(quiet=as_json) as bar:
            task = bar.add_task(plugin.name, total=None)
            result = run_tournament(
                plugin.name,
                dict(game.options),
                specs,
                values["games"],
                values["seed"],
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                backend=runner,
                records=record is not None,
            )
        if record is not None:
            lines = [json.dumps(r.record) for r in result.results if r.record is not None]
            write_text(record, "\n".join(lines) + "\n")
        if plot is not None:
            from taut.arena.plot import plot_tournament

            plot_tournament(result, plot)
    except (TautError, ValueError) as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(result.to_json()))
        return
    print_tables(plugin.name, result, values["seed"])
    for path, what in ((plot, "Plot"), (record, "Records")):
        if path is not None:
            console.print(f"{what} written to {path}.")


def arena_params() -> list[click.Parameter]:
    """The options of ``arena`` besides the game's own."""
    return [
        click.Option(["--agents"], required=True, help=_AGENTS_HELP),
        click.Option(
            ["--games"],
            type=click.IntRange(min=1),
            default=20,
            show_default=True,
            help="Games per pair of agents.",
        ),
        click.Option(
            ["--seed"],
            type=int,
            default=0,
            show_default=True,
            help="Seed: the same seed gives the same results.",
        ),
        click.Option(
            ["--workers"],
            type=click.IntRange(min=1),
            default=None,
            help="Games played at once: processes with --backend local (default: one per core); "
            "with --backend ray, tasks in flight (default: all the cluster's CPUs) and the CPUs "
            "of a Ray instance started for the run.",
        ),
        click.Option(
            ["--backend"],
            default="local",
            show_default=True,
            help="Where games run: local (a process pool on this machine) or ray (Ray tasks, on "
            "a Ray instance started for the run or on the cluster at --address; needs the "
            "distributed extra). Results are the same either way.",
        ),
        click.Option(
            ["--address"],
            default=None,
            help="With --backend ray, the running Ray cluster to use: auto (the one started on "
            "this machine by `ray start --head`), HOST:PORT, or ray://HOST:10001 (Ray Client). "
            "Default: RAY_ADDRESS if set, else a local Ray instance started for the run.",
        ),
        json_param(),
        file_param(["--plot"], "Write a PNG of the results to this file."),
        file_param(["--record"], "Write every game's record here (JSON lines, in schedule order)."),
    ]


def build_arena(plugin: GamePlugin) -> click.Command:
    """The ``arena`` command of one game."""
    options = option_flags(plugin)
    return game_command(
        plugin.name,
        plugin,
        lambda **values: run_arena(plugin, options, values),
        arena_params(),
        f"Play a round robin of {plugin.title} between agents; report wins, draws, losses "
        "and ratings.\n\n"
        "Each pair of agents plays --games games with seats alternating fairly. Scores (a win "
        "1, a draw 1/2) come with 95% Wilson intervals; ratings are openskill (Plackett-Luce). "
        f"Games with a turn limit option get max_turns={ARENA_MAX_TURNS} unless given. Every "
        "game's seed comes from --seed: results depend neither on --backend nor on --workers.",
    )
