"""Track Tiles (1993): place curve and crossing tiles to join your two sides of the board.

The two-player game (:class:`Tracks`, registered as ``tracks``) and the solitaire puzzle
(:mod:`taut.games.tracks.solitaire`, solved exactly by :mod:`taut.games.tracks.solver`).
"""

from taut.games.tracks.cells import NS, SEATS, WE, cell_name, parse_cell
from taut.games.tracks.render import render_puzzle, render_state
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.solitaire import Puzzle, PuzzleError

__all__ = [
    "NS",
    "SEATS",
    "WE",
    "Puzzle",
    "PuzzleError",
    "Tracks",
    "TracksState",
    "cell_name",
    "parse_cell",
    "render_puzzle",
    "render_state",
]
