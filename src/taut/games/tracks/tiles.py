"""Tile kinds, sides and edge units: the fixed geometry every other module builds on.

Sides of a cell are numbered clockwise from the top: ``N = 0``, ``E = 1``, ``S = 2``,
``W = 3``. A tile joins its four sides in two pairs and is never rotated:

* kind 1 joins N with W and E with S (two quarter curves);
* kind 2 joins N with E and S with W (the mirror image);
* kind 3 joins N with S and W with E (a straight crossing; no turning).

``0`` marks an empty cell. A board is a flat tuple of ``size * size`` kinds in row-major
order (cell index ``row * size + col``, row 0 at the top, column 0 at the left).

An *edge unit* is a cell side on the border of the board. Unit ids are ``side * size +
index``: ``N i`` is the top of column ``i``, ``E i`` the right end of row ``i``, ``S i`` the
bottom of column ``i`` and ``W i`` the left end of row ``i`` (indices from 0 at the top or
left), so a unit id fits in ``0 .. 4 * size - 1``.
"""

from __future__ import annotations

from functools import lru_cache

N, E, S, W = 0, 1, 2, 3
#: Side letters by side number.
SIDE_NAMES = "NESW"
#: The side facing each side (a cell's N side touches the S side of the cell above).
OPPOSITE = (S, W, N, E)
#: Row and column steps when leaving a cell through each side.
DROW = (-1, 0, 1, 0)
DCOL = (0, 1, 0, -1)

EMPTY = 0
KINDS = (1, 2, 3)

#: ``JOIN[kind][side]``: the side a tile of ``kind`` joins to ``side`` (kind 0 = empty).
JOIN: tuple[tuple[int, ...], ...] = (
    (),
    (W, S, E, N),  # kind 1: N-W, E-S
    (E, N, W, S),  # kind 2: N-E, S-W
    (S, W, N, E),  # kind 3: N-S, E-W
)

#: ``STRANDS[kind]``: the two joined side pairs of a kind, each with the smaller side first.
STRANDS: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    ((N, W), (E, S)),
    ((N, E), (S, W)),
    ((N, S), (E, W)),
)


def roll_to_kind(face: int) -> int:
    """The two-player game's tile for a die face: ``face mod 3 + 1`` (so 3 and 6 give 1)."""
    return face % 3 + 1


def solitaire_kind(face: int) -> int:
    """The solitaire's tile for a die face: 1-2 give kind 1, 3-4 kind 2, 5-6 kind 3."""
    return (face - 1) // 2 + 1


def unit_id(size: int, side: int, index: int) -> int:
    """The id of edge unit ``side``/``index`` on a ``size`` board."""
    return side * size + index


def unit_side(size: int, unit: int) -> int:
    """The board side a unit lies on."""
    return unit // size


def unit_name(size: int, unit: int) -> str:
    """A unit's name such as ``N2`` (side letter, then the 0-based column or row)."""
    side, index = divmod(unit, size)
    return f"{SIDE_NAMES[side]}{index}"


def unit_cell(size: int, unit: int) -> tuple[int, int]:
    """The border cell of a unit and the side of that cell the unit is."""
    side, i = divmod(unit, size)
    last = size - 1
    if side == N:
        return i, N
    if side == E:
        return i * size + last, E
    if side == S:
        return last * size + i, S
    return i * size, W


def cell_unit(size: int, cell: int, side: int) -> int | None:
    """The edge unit at ``side`` of ``cell``, or None when that side is inside the board."""
    r, c = divmod(cell, size)
    last = size - 1
    if side == N and r == 0:
        return unit_id(size, N, c)
    if side == S and r == last:
        return unit_id(size, S, c)
    if side == W and c == 0:
        return unit_id(size, W, r)
    if side == E and c == last:
        return unit_id(size, E, r)
    return None


@lru_cache(maxsize=32)
def step_table(size: int) -> tuple[int, ...]:
    """Where a path goes when it leaves ``cell`` through ``side``, for every pair.

    ``table[cell * 4 + side]`` is ``next_cell * 4 + entry_side`` (the side of the next cell
    the path comes in through) when the neighbour is on the board, and ``~unit`` (a
    negative number) when the path leaves the board through edge unit ``unit``. One table
    per size lets tracing run on integers only.
    """
    out: list[int] = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        for side in range(4):
            rr, cc = r + DROW[side], c + DCOL[side]
            if 0 <= rr < size and 0 <= cc < size:
                out.append((rr * size + cc) * 4 + OPPOSITE[side])
            else:
                unit = cell_unit(size, cell, side)
                assert unit is not None  # a side leading off the board is a unit
                out.append(~unit)
    return tuple(out)


def clockwise_units(size: int) -> list[int]:
    """All units in clockwise order from the top-left: N0..N(n-1), E0.., S(n-1)..S0, W(n-1)..W0."""
    return (
        [unit_id(size, N, i) for i in range(size)]
        + [unit_id(size, E, i) for i in range(size)]
        + [unit_id(size, S, i) for i in reversed(range(size))]
        + [unit_id(size, W, i) for i in reversed(range(size))]
    )
