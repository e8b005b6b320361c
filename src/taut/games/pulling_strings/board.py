"""Geometry of the Pulling Strings board and the precomputed move plans.

Cells are numbered ``row * 5 + col`` (rows 0..4 top to bottom, columns 0..4 left to
right). The 20 string ends are numbered by side, then index: ``N0..N4`` are 0..4 (top of
columns 0..4), ``E0..E4`` 5..9 (right end of rows 0..4), ``S0..S4`` 10..14, ``W0..W4``
15..19. Pulling an end moves stacks one step toward that side.

The rules of one turn depend only on the pair of pulled ends, so each pair gets a *plan*:
for every cell, where a stack there goes. A plan entry is an ``int`` (the destination,
possibly the cell itself) or a pair ``(a, b)`` (the stack splits, one half to each). The
hot path then needs one table lookup per stack.
"""

from __future__ import annotations

SIZE = 5
NUM_CELLS = SIZE * SIZE
NUM_ENDS = 4 * SIZE
SIDES = "NESW"
CENTER = 2 * SIZE + 2

#: Letters of the 2003 edition, in end order N0..N4, E0..E4, S0..S4, W0..W4.
CLASSIC_LETTERS = "abcde" + "fghil" + "sronm" + "yxwvt"

#: Home cells of seat 0 (X, squares) and seat 1 (O, circles), as (row, col).
HOMES: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
    ((0, 1), (1, 4), (3, 0), (4, 3)),
    ((0, 3), (1, 0), (3, 4), (4, 1)),
)
HOME_CELLS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(r * SIZE + c for r, c in HOMES[0]),
    tuple(r * SIZE + c for r, c in HOMES[1]),
)

_STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}

Plan = tuple[int | tuple[int, int], ...]


def end_name(end: int) -> str:
    """Geometric name of an end, e.g. ``"N2"``."""
    return f"{SIDES[end // SIZE]}{end % SIZE}"


def end_from_name(name: str) -> int | None:
    """Parse a geometric end name such as ``"N2"``; None if it is not one."""
    if len(name) == 2 and name[0].upper() in SIDES and name[1] in "01234":
        return SIDES.index(name[0].upper()) * SIZE + int(name[1])
    return None


def opposite(end: int) -> int:
    """The other end of the same string (N i <-> S i, E i <-> W i)."""
    return (end + 2 * SIZE) % NUM_ENDS


def on_string(cell: int, end: int) -> bool:
    """True when ``cell`` lies on the string of ``end``."""
    row, col = divmod(cell, SIZE)
    side, index = divmod(end, SIZE)
    return (col if side in (0, 2) else row) == index


def step(cell: int, end: int) -> int:
    """The cell one step from ``cell`` toward the side of ``end`` (itself at the edge)."""
    row, col = divmod(cell, SIZE)
    dr, dc = _STEP[SIDES[end // SIZE]]
    r, c = row + dr, col + dc
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return r * SIZE + c
    return cell


def cell_ends(cell: int) -> tuple[int, ...]:
    """The four ends whose strings pass through ``cell``."""
    return tuple(e for e in range(NUM_ENDS) if on_string(cell, e))


#: Bit mask of the four ends through each cell.
CELL_END_MASK: tuple[int, ...] = tuple(sum(1 << e for e in cell_ends(c)) for c in range(NUM_CELLS))


def make_plan(p: int, q: int, corner_keep: bool) -> Plan:
    """Where a stack on each cell goes when the ends ``p`` and ``q`` are pulled."""
    plan: list[int | tuple[int, int]] = []
    for cell in range(NUM_CELLS):
        on_p, on_q = on_string(cell, p), on_string(cell, q)
        if p == q or not (on_p and on_q):
            if on_p:
                plan.append(step(cell, p))
            elif on_q:
                plan.append(step(cell, q))
            else:
                plan.append(cell)
        else:
            a, b = step(cell, p), step(cell, q)
            # A corner stack pulled off both edges: under corner=keep it is left alone
            # (no split, no extra disk); under corner=split it still splits in place.
            plan.append(cell if (corner_keep and a == b == cell) else (a, b))
    return tuple(plan)


_PLANS: dict[bool, tuple[Plan, ...]] = {}


def plans(corner_keep: bool) -> tuple[Plan, ...]:
    """All 400 plans, indexed ``p * 20 + q`` (built once per corner rule)."""
    if corner_keep not in _PLANS:
        _PLANS[corner_keep] = tuple(
            make_plan(p, q, corner_keep) for p in range(NUM_ENDS) for q in range(NUM_ENDS)
        )
    return _PLANS[corner_keep]
