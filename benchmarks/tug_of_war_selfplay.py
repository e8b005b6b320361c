"""Tug of War self-play speed: uniform-random games per second with 2, 3 and 4 players.

Runs the compact playout (``game.random_playout``, what ``taut bench tug-of-war`` uses)
and the protocol path (one immutable state per node) on the same seeds, and prints both
with their ratio, since absolute numbers on a shared machine are noisy. Optionally it
also measures the greedy agent against random ones (``--greedy N`` games per count).

    .venv/bin/python benchmarks/tug_of_war_selfplay.py [--seconds 3] [--greedy 300] \
        [--players 2,3,4,8]

Each player count plays with its default set (double-twelve for seven and eight).
"""

from __future__ import annotations

import argparse
import random
import time

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.core.game import Game
from taut.games.tug_of_war import TugOfWar


def games_per_second(game: Game, seconds: float, fast: bool) -> tuple[float, float]:
    """Random games per second and nodes per second for ``seconds`` of play."""
    play = game.random_playout if fast else (lambda rng: Game.random_playout(game, rng))
    games = nodes = 0
    start = time.perf_counter()
    while True:
        n, _ = play(random.Random(games))
        games += 1
        nodes += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, nodes / elapsed


def greedy_win_rate(players: int, games: int) -> float:
    """Share of games won by one greedy agent against random ones (its seat rotates)."""
    game = taut.make("tug-of-war", players=players)
    assert isinstance(game, TugOfWar)
    wins = 0
    for seed in range(games):
        seat = seed % players
        agents = [GreedyAgent() if s == seat else RandomAgent() for s in range(players)]
        outcome = play_match(game, agents, seed=seed).state.outcome
        wins += outcome is not None and outcome.winners == (seat,)
    return wins / games


def main() -> None:
    """Print the table of speeds (and greedy win rates when asked)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--greedy", type=int, default=0, help="greedy-vs-random games")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    print("players  fast games/s  fast nodes/s  protocol games/s  ratio")
    for players in counts:
        game = taut.make("tug-of-war", players=players)
        fast, fast_nodes = games_per_second(game, args.seconds, True)
        slow, _ = games_per_second(game, args.seconds, False)
        print(f"{players:7d}  {fast:12.0f}  {fast_nodes:12.0f}  {slow:16.0f}  {fast / slow:5.1f}x")
    if args.greedy:
        print(f"\ngreedy vs random, {args.greedy} games each (chance of a random seat: 1/n)")
        for players in counts:
            rate = greedy_win_rate(players, args.greedy)
            print(f"{players} players: greedy wins {rate:.1%} (random baseline {1 / players:.1%})")


if __name__ == "__main__":
    main()
