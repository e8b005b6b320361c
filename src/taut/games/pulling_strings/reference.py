"""A plain, readable implementation of one Pulling Strings turn, written from the rules.

It uses dictionaries keyed by ``(row, col)`` and computes every move geometrically, with
no precomputed tables. The table-driven engine in ``rules.py`` is checked against it by
the tests, and the benchmarks use it as the baseline a compact engine must beat.
"""

from __future__ import annotations

Cell = tuple[int, int]
_DIRECTIONS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def _on_string(cell: Cell, end: str) -> bool:
    side, index = end[0], int(end[1])
    row, col = cell
    return col == index if side in "NS" else row == index


def _toward(cell: Cell, end: str) -> Cell:
    dr, dc = _DIRECTIONS[end[0]]
    row, col = cell[0] + dr, cell[1] + dc
    return (row, col) if 0 <= row < 5 and 0 <= col < 5 else cell


def reference_turn(
    stacks: dict[Cell, int], p: str, q: str, corner_keep: bool = False
) -> dict[Cell, int]:
    """Stacks after X pulls end ``p`` and O pulls end ``q`` (ends named like ``"N2"``).

    Breaking ends is left to the caller; this only moves, splits and combines.
    """
    pieces: list[tuple[Cell, int]] = []  # every split happens before any combine
    for cell, n in stacks.items():
        on_p, on_q = _on_string(cell, p), _on_string(cell, q)
        if p == q or not (on_p and on_q):
            if on_p:
                pieces.append((_toward(cell, p), n))
            elif on_q:
                pieces.append((_toward(cell, q), n))
            else:
                pieces.append((cell, n))
            continue
        a, b = _toward(cell, p), _toward(cell, q)
        if corner_keep and a == b == cell:
            pieces.append((cell, n))
            continue
        half = (n + n % 2) // 2
        pieces.append((a, half))
        pieces.append((b, half))
    out: dict[Cell, int] = {}
    for cell, n in pieces:
        out[cell] = out.get(cell, 0) + n
    return out
