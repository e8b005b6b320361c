"""Self-play: many games between fixed agents in fixed seats, with their records.

Game *k* (from 0) is played with seed ``seed + k``, so any one game can be played again
alone. The agents are built once and keep their seats; the result counts wins per seat and
averages the numbers the game's plugin reports about finished games (its ``seat_stats`` and
``game_stats``, such as final scores or rounds played).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from taut.agents import make_agent
from taut.arena.match import play_match
from taut.core.game import Game
from taut.core.record import GameRecord
from taut.core.registry import plugin_of


@dataclass
class SelfPlayResult:
    """Totals of a self-play run."""

    agents: list[str]
    """The spec of the agent in each seat."""
    games: int = 0
    wins: list[int] = field(default_factory=list)
    """Games won by each seat (a shared win counts for every winner)."""
    draws: int = 0
    seat_totals: dict[str, list[float]] = field(default_factory=dict)
    game_totals: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def seat_means(self) -> dict[str, list[float]]:
        """The per-seat numbers averaged over the games."""
        n = max(self.games, 1)
        return {k: [v / n for v in values] for k, values in self.seat_totals.items()}

    def game_means(self) -> dict[str, float]:
        """The per-game numbers averaged over the games."""
        n = max(self.games, 1)
        return {k: v / n for k, v in self.game_totals.items()}


def run_selfplay(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int,
    think: float | None = None,
    on_game: Callable[[int, GameRecord], None] | None = None,
) -> SelfPlayResult:
    """Play ``games`` games of ``game`` with ``agents[seat]`` in each seat.

    ``on_game(k, record)`` is called after game ``k``. An agent that cannot play the game
    is refused before anything is played (InvalidOptionError).
    """
    built = [make_agent(spec, think=think, game=game) for spec in agents]
    plugin = plugin_of(game)
    names = game.info.seats
    seats = dict(zip(names, agents, strict=True))
    result = SelfPlayResult(list(agents), wins=[0] * len(names))
    start = time.perf_counter()
    for k in range(games):
        match = play_match(game, built, seed=seed + k, seats=seats)
        final = match.state
        outcome = final.outcome
        assert outcome is not None
        result.games += 1
        if outcome.is_draw:
            result.draws += 1
        for s in outcome.winners:
            result.wins[s] += 1
        for key, values in plugin.seat_stats(final).items():
            totals = result.seat_totals.setdefault(key, [0.0] * len(names))
            for s, v in enumerate(values):
                totals[s] += v
        for key, value in plugin.game_stats(final).items():
            result.game_totals[key] = result.game_totals.get(key, 0.0) + value
        if on_game is not None:
            on_game(k, match.record)
    result.seconds = time.perf_counter() - start
    return result
