"""Path tracing: follow the joins of the tiles from a cell side until the path ends.

A path leaves the board through an edge unit, stops at an empty cell, or (when it starts
inside the board) closes into a loop. These functions are the reference for every rule
about tracks; the solver's answers are re-checked with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taut.games.tracks.tiles import (
    EMPTY,
    JOIN,
    STRANDS,
    E,
    N,
    S,
    W,
    step_table,
    unit_cell,
    unit_side,
)

Board = Sequence[int]
"""A flat row-major board of kinds (0 = empty)."""

#: What :func:`follow` returns for a path that closed into a loop.
LOOP = -(1 << 30)


@dataclass(frozen=True)
class Trace:
    """A path traced from an edge unit.

    ``segments`` lists ``(cell, side_in, side_out)`` in order. ``end_unit`` is the unit the
    path leaves the board by, or None when it stops at the empty cell ``stop_cell``.
    """

    start_unit: int
    segments: tuple[tuple[int, int, int], ...]
    end_unit: int | None
    stop_cell: int | None


def follow(board: Board, size: int, cell: int, side_out: int) -> int:
    """Follow the path that leaves ``cell`` through ``side_out``.

    Returns the unit id (``>= 0``) where the path leaves the board; ``-1 - code`` with
    ``code = empty_cell * 4 + entry_side`` when it reaches an empty cell; or :data:`LOOP`
    when it comes back round to ``cell`` and ``side_out`` (only possible from inside).
    """
    step = step_table(size)
    code = step[cell * 4 + side_out]
    while code >= 0:
        nxt = code >> 2
        kind = board[nxt]
        if kind == EMPTY:
            return -1 - code
        out = JOIN[kind][code & 3]
        if nxt == cell and out == side_out:
            return LOOP
        code = step[nxt * 4 + out]
    return ~code


def exit_unit(board: Board, size: int, unit: int) -> int | None:
    """The unit where the path starting at ``unit`` leaves the board (None: it stops).

    A path that starts at the border can never loop: the joins pair every cell side with
    exactly one other, so the path is a chain that either ends or leaves.
    """
    cell, side = unit_cell(size, unit)
    kind = board[cell]
    if kind == EMPTY:
        return None
    end = follow(board, size, cell, JOIN[kind][side])
    return end if end >= 0 else None


def trace(board: Board, size: int, unit: int) -> Trace:
    """The full path from edge unit ``unit``, cell by cell."""
    step = step_table(size)
    cell, side_in = unit_cell(size, unit)
    segments: list[tuple[int, int, int]] = []
    while True:
        kind = board[cell]
        if kind == EMPTY:
            return Trace(unit, tuple(segments), None, cell)
        side_out = JOIN[kind][side_in]
        segments.append((cell, side_in, side_out))
        code = step[cell * 4 + side_out]
        if code < 0:
            return Trace(unit, tuple(segments), ~code, None)
        cell, side_in = code >> 2, code & 3


def matching(board: Board, size: int) -> list[int | None]:
    """For every unit, the unit its path leaves by (None where the path stops early).

    On a full board every unit is paired with exactly one other.
    """
    out: list[int | None] = [None] * (4 * size)
    for unit in range(4 * size):
        if out[unit] is None:
            end = exit_unit(board, size, unit)
            if end is not None:
                out[unit] = end
                out[end] = unit
    return out


def tracks(board: Board, size: int) -> tuple[bool, bool]:
    """Whether some path joins N to S, and whether some path joins W to E."""
    ns = we = False
    for i in range(size):
        end = exit_unit(board, size, N * size + i)
        if end is not None and unit_side(size, end) == S:
            ns = True
        end = exit_unit(board, size, W * size + i)
        if end is not None and unit_side(size, end) == E:
            we = True
    return ns, we


def track_traces(board: Board, size: int, axis: int) -> list[Trace]:
    """Every path joining the two sides of ``axis`` (0: N to S, 1: W to E)."""
    start, goal = (N, S) if axis == 0 else (W, E)
    out = []
    for i in range(size):
        t = trace(board, size, start * size + i)
        if t.end_unit is not None and unit_side(size, t.end_unit) == goal:
            out.append(t)
    return out


def tracks_through(board: Board, size: int, cell: int) -> tuple[bool, bool]:
    """Whether a path through ``cell`` joins N to S, and whether one joins W to E.

    After a placement only paths through the new tile can have become tracks, so this is
    all the win check needs: two traces per strand of the tile.
    """
    ns = we = False
    for side_a, side_b in STRANDS[board[cell]]:
        ea = follow(board, size, cell, side_a)
        if ea < 0:
            continue
        eb = follow(board, size, cell, side_b)
        if eb < 0:
            continue
        pair = {unit_side(size, ea), unit_side(size, eb)}
        if pair == {N, S}:
            ns = True
        elif pair == {W, E}:
            we = True
    return ns, we
