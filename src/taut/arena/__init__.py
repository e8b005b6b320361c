"""Matches between agents (and, later, tournaments, ratings and statistics)."""

from taut.arena.match import DrawOffer, MatchResult, QuitGame, play_match

__all__ = ["DrawOffer", "MatchResult", "QuitGame", "play_match"]
