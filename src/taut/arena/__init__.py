"""Matches and tournaments between agents: results, confidence intervals, ratings, plots."""

from taut.arena.match import DrawOffer, MatchResult, QuitGame, play_match
from taut.arena.tournament import TournamentResult, run_tournament

__all__ = [
    "DrawOffer",
    "MatchResult",
    "QuitGame",
    "TournamentResult",
    "play_match",
    "run_tournament",
]
