"""The greedy agent (one-move look-ahead with the Tug of War heuristic) beats random play."""

from __future__ import annotations

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.games.tug_of_war import TugOfWar


def test_greedy_beats_random_clearly_in_three_player_games() -> None:
    game = taut.make("tug-of-war", players=3)
    assert isinstance(game, TugOfWar)
    games = 24
    wins = 0
    for seed in range(games):
        # Rotate the greedy seat so the first seat has no part in the result.
        seat = seed % 3
        agents = [GreedyAgent() if s == seat else RandomAgent() for s in range(3)]
        outcome = play_match(game, agents, seed=seed).state.outcome
        assert outcome is not None
        wins += outcome.winners == (seat,)
    # Random play would win about a third of the games.
    assert wins >= 0.7 * games, wins
