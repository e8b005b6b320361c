"""The most different tiling of a solitaire puzzle as a MaxSAT problem (python-sat's RC2).

One Boolean per cell and kind, one per cell side and label ("the path with this label
runs through this side"), the labels of the edge units fixed, and each tile passing every
label from one side to the side it joins. A path that starts at a unit runs its label to
the unit where it leaves, so a tiling satisfies the clauses exactly when every path ends
at its partner. Soft clauses ask each cell to differ from the original; the optimum is
proven by the solver's cores. python-sat is optional (the ``solve`` extra): it is imported
only when a model is solved.
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.games.tracks.tiles import JOIN, KINDS, step_table, unit_cell


def sat_available() -> bool:
    """True when python-sat can be imported (the ``solve`` extra)."""
    try:
        import pysat.examples.rc2  # noqa: F401
    except ImportError:
        return False
    return True


def _sat_clauses(size: int, partner: Sequence[int]) -> list[list[int]]:
    """The hard clauses of the SAT model; tile variable of (cell, kind) is ``3 * cell + kind``.

    Every cell side gets an edge id shared with the neighbouring cell's side; label
    variables follow the tile variables: ``(edge, label)`` is ``3 * cells + 1 +
    edge * labels + label``.
    """
    cells = size * size
    table = step_table(size)
    edge_of: dict[tuple[int, int], int] = {}
    edges = 0
    for cell in range(cells):
        for side in range(4):
            code = table[cell * 4 + side]
            if code >= 0 and (code >> 2, code & 3) in edge_of:
                edge_of[(cell, side)] = edge_of[(code >> 2, code & 3)]
            else:
                edge_of[(cell, side)] = edges
                edges += 1
    # One label per pair of units.
    label: dict[int, int] = {}
    labels = 0
    for u in range(4 * size):
        if u not in label:
            label[u] = label[partner[u]] = labels
            labels += 1
    first = 3 * cells + 1

    def lab(edge: int, lb: int) -> int:
        return first + edge * labels + lb

    clauses: list[list[int]] = []
    for cell in range(cells):
        x = (3 * cell + 1, 3 * cell + 2, 3 * cell + 3)
        clauses.append(list(x))
        clauses += [[-x[0], -x[1]], [-x[0], -x[2]], [-x[1], -x[2]]]
        for kind in KINDS:
            for side in range(4):
                a = edge_of[(cell, side)]
                b = edge_of[(cell, JOIN[kind][side])]
                for lb in range(labels):
                    clauses.append([-x[kind - 1], -lab(a, lb), lab(b, lb)])
    for u in range(4 * size):
        edge = edge_of[unit_cell(size, u)]
        for lb in range(labels):
            clauses.append([lab(edge, lb) if lb == label[u] else -lab(edge, lb)])
    return clauses


def _tiles_from_model(size: int, model: Sequence[int]) -> tuple[int, ...]:
    true = {v for v in model if v > 0}
    return tuple(next(k for k in KINDS if 3 * cell + k in true) for cell in range(size * size))


def max_difference_sat(
    size: int, partner: Sequence[int], original: Sequence[int] | None
) -> tuple[tuple[int, ...] | None, int]:
    """The most different tiling by MaxSAT: ``(tiles, differing cells)``.

    Returns ``(None, 0)`` when only the original realises the pairing and ``(None, -1)``
    when nothing does. Without an original it returns any tiling and 0.
    """
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    wcnf = WCNF()
    for clause in _sat_clauses(size, partner):
        wcnf.append(clause)
    if original is not None:
        for cell, kind in enumerate(original):
            wcnf.append([-(3 * cell + kind)], weight=1)
    with RC2(wcnf) as rc2:
        model = rc2.compute()
        if model is None:
            return None, -1
        tiles = _tiles_from_model(size, model)
    if original is None:
        return tiles, 0
    differs = sum(1 for a, b in zip(tiles, original, strict=True) if a != b)
    return (tiles, differs) if differs else (None, 0)
