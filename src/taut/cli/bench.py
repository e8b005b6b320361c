"""``taut bench GAME``: uniform-random self-play speed of a game on one core."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import click

from taut.cli.common import console, fail, json_param
from taut.cli.options import build_game, game_command, option_flags
from taut.core.errors import TautError
from taut.core.game import Game
from taut.core.number_param import Real
from taut.core.plugin import GamePlugin

#: The turn limit random play gets in games that have one and were given none.
BENCH_MAX_TURNS = 200


def bench_game(game: Game, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Play random games of ``game`` for ``seconds``; games/s and turns/s."""
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
        "game": game.name,
        "options": game.options,
        "seconds": round(elapsed, 3),
        "games": games,
        "turns": turns,
        "games_per_s": games / elapsed,
        "turns_per_s": turns / elapsed,
    }


def build_bench(plugin: GamePlugin) -> click.Command:
    """The ``bench`` command of one game."""
    options = option_flags(plugin)

    def run(**values: Any) -> None:
        try:
            game = build_game(
                plugin,
                options.given(values),
                values["option_pairs"],
                defaults={"max_turns": BENCH_MAX_TURNS},
            )
        except TautError as exc:
            fail(str(exc))
        result = bench_game(game, values["seconds"], values["seed"])
        if values["as_json"]:
            keys = ("game", "games_per_s", "turns_per_s", "games", "turns", "seconds")
            print(json.dumps({k: result[k] for k in keys}))
            return
        console.print(
            f"{plugin.name}: {result['games']} games, {result['turns']} turns in "
            f"{result['seconds']} s: [bold]{result['games_per_s']:,.0f} games/s, "
            f"{result['turns_per_s']:,.0f} turns/s[/bold]"
        )

    params: list[click.Parameter] = [
        click.Option(
            ["--seconds"],
            type=Real(0.01, 86_400.0, unit="seconds"),
            default=3.0,
            show_default=True,
            help="How long to play.",
        ),
        click.Option(["--seed"], type=int, default=0, show_default=True, help="Random seed."),
        json_param(),
    ]
    return game_command(
        plugin.name,
        plugin,
        run,
        params,
        f"Play uniform-random games of {plugin.title} on one core; report games/s and turns/s."
        f"\n\nGames with a turn limit option get max_turns={BENCH_MAX_TURNS} unless given.",
    )
