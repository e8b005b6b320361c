"""Track Tiles as numbers: the fields of a seat's observation vector.

After the common header (see :mod:`taut.core.observation`); cells are ``row * size + col``
(the action ids) on a ``size x size`` board:

* ``board`` (size*size x 4): per cell, one-hot ``empty, kind 1, kind 2, kind 3``;
* ``kinds`` (2 x 4): per seat (NS, WE), one-hot of its current tile kind: ``not rolled,
  1, 2, 3``;
* ``first`` (2): one-hot, the seat that placed first (zeros until the coin falls);
* ``last`` (size*size): one-hot, the cell of the last placement;
* ``placed`` (1): tiles on the board.

Everything is public, so every seat's vector differs only in the header.
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.game import Game, State
from taut.core.observation import FieldSpec, Layout, Observation, Observer
from taut.games.tracks.rules import Tracks, TracksState


class TracksObserver(Observer):
    """The board, the kinds in hand, who placed first, the last cell and the tile count."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """Board, kinds, first, last, placed (sizes from the board side)."""
        assert isinstance(game, Tracks)
        cells = game.size * game.size
        return [
            ("board", cells * 4, 0.0, 1.0, "per cell (row * size + col): empty, kind 1, 2, 3"),
            ("kinds", 2 * 4, 0.0, 1.0, "per seat NS, WE: one-hot not rolled, kind 1, 2, 3"),
            ("first", 2, 0.0, 1.0, "one-hot: the seat that placed first"),
            ("last", cells, 0.0, 1.0, "one-hot: the cell of the last placement"),
            ("placed", 1, 0.0, float(cells), "tiles on the board"),
        ]

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write the position (everything is public)."""
        assert isinstance(view, TracksState)
        at = layout.start("board")
        for cell, kind in enumerate(view.board):
            out[at + cell * 4 + kind] = 1.0
        at = layout.start("kinds")
        for s, kind in enumerate(view.kinds):
            out[at + s * 4 + kind] = 1.0
        if view.first is not None:
            out[layout.start("first") + view.first] = 1.0
        if view.last is not None:
            out[layout.start("last") + view.last] = 1.0
        out[layout.start("placed")] = view.placed()
