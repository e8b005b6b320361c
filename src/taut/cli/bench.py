"""``taut bench``: uniform-random self-play speed of a game on one core."""

from __future__ import annotations

import json
import random
import time

import typer

from taut.cli.app import app, console, make_game
from taut.core.registry import game_class


def bench_game(name: str, seconds: float, options: list[str], seed: int = 0) -> dict[str, object]:
    """Play random games of ``name`` for ``seconds``; return games/s and turns/s."""
    extra = list(options)
    has_max = any(spec.name == "max_turns" for spec in game_class(name).OPTIONS)
    if has_max and not any(o.split("=")[0] in ("max_turns", "max-turns") for o in extra):
        extra.append("max_turns=200")  # self-play default: a random game always ends
    game = make_game(name, {}, extra)
    rng = random.Random(seed)
    playout = game.random_playout
    games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n, _ = playout(rng)
        games += 1
        turns += n
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "game": name,
        "options": game.options,
        "seconds": round(elapsed, 3),
        "games": games,
        "turns": turns,
        "games_per_s": games / elapsed,
        "turns_per_s": turns / elapsed,
    }


@app.command()
def bench(
    game: str = typer.Argument(..., help="Game name, e.g. pulling-strings."),
    seconds: float = typer.Option(3.0, min=0.01, help="How long to play."),
    option: list[str] = typer.Option(
        [], "--option", "-O", help="Game option key=value (repeatable)."
    ),
    seed: int = typer.Option(0, help="Random seed."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Play uniform-random games on one core and report games/s and turns/s."""
    result = bench_game(game, seconds, option, seed)
    if as_json:
        keys = ("game", "games_per_s", "turns_per_s", "games", "turns", "seconds")
        print(json.dumps({k: result[k] for k in keys}))
    else:
        console.print(
            f"{game}: {result['games']} games, {result['turns']} turns in {result['seconds']} s: "
            f"[bold]{result['games_per_s']:,.0f} games/s, "
            f"{result['turns_per_s']:,.0f} turns/s[/bold]"
        )
