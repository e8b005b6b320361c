"""Board geometry of every Push-Pull variant, and where a move takes a piece.

Squares are numbered ``row * 5 + col``. The duel is a one-row strip, so its squares are just
the positions 0..4 from west to east; the four-sided games use the 5x5 board, rows 0..4
from north to south.

A piece's *location* is a small int: a square (0..24), or ``OFF + exit`` once it has left
the board, where ``exit`` is a side (0..3, ``N E S W``) or, for a piece scored by a team off
a corner, a corner (4..7, ``NE SE SW NW``). Keeping locations as ints lets a whole turn be
a few table lookups (see :func:`destination_table`).
"""

from __future__ import annotations

from taut.games.push_pull.arrows import E, N, S, Vector, W

SIZE = 5
#: Locations at or above OFF are pieces that left the board (``OFF + exit``).
OFF = 32
#: Corner exits, numbered after the four sides.
NE, SE, SW, NW = 4, 5, 6, 7
EXIT_NAMES: tuple[str, ...] = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
#: The pair of sides of each corner.
CORNER_SIDES: dict[int, tuple[int, int]] = {NE: (N, E), SE: (S, E), SW: (S, W), NW: (N, W)}
_CORNER_OF = {frozenset(sides): corner for corner, sides in CORNER_SIDES.items()}


def corner_of(side_a: int, side_b: int) -> int:
    """The corner between two adjacent sides."""
    return _CORNER_OF[frozenset((side_a, side_b))]


def square_name(square: int, rows: int) -> str:
    """``"2"`` for a strip position, ``"(row,col)"`` for a board square."""
    if rows == 1:
        return str(square)
    return f"({square // SIZE},{square % SIZE})"


def centre(rows: int) -> int:
    """The starting square: position 2 of the strip, or the centre of the board."""
    return (rows // 2) * SIZE + SIZE // 2


def crossed_sides(row: int, col: int, rows: int) -> tuple[int, ...]:
    """The sides a piece moved to ``(row, col)`` has crossed (empty while on the board)."""
    sides: list[int] = []
    if row < 0:
        sides.append(N)
    elif row >= rows:
        sides.append(S)
    if col < 0:
        sides.append(W)
    elif col >= SIZE:
        sides.append(E)
    return tuple(sides)


def landing(square: int, step: Vector, rows: int) -> tuple[int, int, tuple[int, ...]]:
    """Where ``step`` takes a piece from ``square``: ``(row, col, crossed sides)``."""
    row, col = divmod(square, SIZE)
    row, col = row + step[0], col + step[1]
    return row, col, crossed_sides(row, col, rows)
