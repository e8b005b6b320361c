"""Track Tiles positions as plain data, for the page to draw the board itself.

:func:`table_data` says everything :func:`taut.games.tracks.svg.board_svg` draws from, in a
few small numbers and one sentence, and the page's module
``table.js`` (beside this module) (``drawTable``) draws from it exactly the picture
``board_svg`` draws: the server then sends the data and draws nothing. What takes the
rules to work out (the sides each piece of track reaches, the winner's track, what the
status says, which placements are legal) is worked out here; what is only drawing (the
geometry, the colours, the words round the board) is the module's.

The data, key by key:

* ``size``: the side of the board;
* ``cells``: one number a cell, row by row from the top: 0 for an empty cell, else
  ``kind | look0 << 2 | look1 << 5``, where ``look`` says how the kind's strand 0 or 1
  (:data:`~taut.games.tracks.tiles.STRANDS`) is coloured: 0 grey (reaches no side),
  1 blue (top or bottom), 2 vermillion (left or right), 3 both, 4 + seat the winner's
  track (:data:`LOOK_WON`; 4 for NS, 5 for WE);
* ``last``: the cell of the last placement, or None;
* ``hands``: each seat's kind in hand (0: not rolled);
* ``turn``: the seat whose turn it is while the game goes on (None before the coin and
  at the end);
* ``place``: the kind to place at a placement (0 at the coin, a roll or the end);
* ``moves``: the cells the seat drawn for may click (its legal placements), in order;
* ``status``: the sentence under the board (what happens next, or the result).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from taut.core.terms import NodeKind
from taut.games.tracks.render import winning_strands
from taut.games.tracks.svg import movable_cells, reached_codes, status
from taut.games.tracks.tiles import E, N, S, W

if TYPE_CHECKING:
    from taut.games.tracks.rules import TracksState

#: A strand's look on the winner's track: this plus the winning seat.
LOOK_WON = 4

#: The look of a piece of track by the board sides its path reaches (bits ``1 << side``):
#: 1 for top or bottom, 2 for left or right, both added.
_LOOK_OF_SIDES = tuple(
    (1 if sides & (1 << N | 1 << S) else 0) | (2 if sides & (1 << E | 1 << W) else 0)
    for sides in range(16)
)


def table_data(view: TracksState, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
    """The position ``view`` as ``board_svg(view, seat, legal)`` draws it, in plain data
    (see the module): ``seat``'s ``legal`` placements are the cells it may click."""
    size = view.game.size
    board = view.board
    deciding = view.kind is NodeKind.DECISION
    mover = view.to_move()
    movable = movable_cells(view, seat, legal)
    reached = reached_codes(board, size)
    look = _LOOK_OF_SIDES
    cells = [
        kind | look[reached[2 * cell]] << 2 | look[reached[2 * cell + 1]] << 5
        for cell, kind in enumerate(board)
    ]
    out = view.outcome
    if out is not None and out.winners:
        won = LOOK_WON + out.winners[0]
        for cell, strand in winning_strands(view):
            shift = 2 + 3 * strand
            cells[cell] = cells[cell] & ~(7 << shift) | won << shift
    return {
        "size": size,
        "cells": cells,
        "last": view.last,
        "hands": list(view.kinds),
        "turn": mover if out is None else None,
        "place": view.kinds[mover] if deciding and mover is not None else 0,
        "moves": sorted(movable),
        "status": status(view),
    }
