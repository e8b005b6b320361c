"""Matches and tournaments between agents: results, confidence intervals, ratings, plots.

The names below are imported from their modules on first use: playing one match
(:mod:`taut.arena.match`, what ``taut play`` needs) never loads the tournament machinery,
its process pools and ratings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taut.core.lazy import lazy_exports

if TYPE_CHECKING:
    from taut.arena.match import DrawOffer, MatchResult, QuitGame, play_match
    from taut.arena.tournament import TournamentResult, run_tournament

#: Each re-exported name and the module it lives in.
_LAZY: dict[str, str] = {
    "DrawOffer": "taut.arena.match",
    "MatchResult": "taut.arena.match",
    "QuitGame": "taut.arena.match",
    "play_match": "taut.arena.match",
    "TournamentResult": "taut.arena.tournament",
    "run_tournament": "taut.arena.tournament",
}


#: The re-exported names of :data:`_LAZY`, imported when first asked for.
__getattr__ = lazy_exports(__name__, globals(), _LAZY)


__all__ = [
    "DrawOffer",
    "MatchResult",
    "QuitGame",
    "TournamentResult",
    "play_match",
    "run_tournament",
]
