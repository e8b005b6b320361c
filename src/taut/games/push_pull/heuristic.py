"""A quick evaluation of Push-Pull positions for the look-ahead agents.

A piece's *nearness* to a side is 1 when one step takes it off that side, 3/4 when two
steps do, and so on down to 0 on the far edge; a scoring unit (player or team) is as near
to a piece as its nearest side. A unit's *lead* on a piece is its nearness minus the mean
nearness of the other units. In the games won with two pieces a unit's score is its
scored pieces plus 0.4 times its total lead; in ``four`` only the last piece counts, so
only the lead matters, and it weighs more as fewer pieces remain. Scores are squashed
into (-0.9, 0.9) so that a finished game (+1 / -1) always outranks an evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from taut.core.terms import Outcome
from taut.games.push_pull.arrows import E, N, S, W
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.variants import WIN_LAST, Layout

_TABLES: dict[tuple[str, bool, str], tuple[tuple[float, ...], ...]] = {}
#: How much a nearness lead counts in ``four``, by number of pieces left on the board.
_LAST_WEIGHT = (0.0, 1.5, 0.6, 0.3)


def _steps_out(square: int, side: int, rows: int) -> int:
    row, col = divmod(square, SIZE)
    return {N: row + 1, S: rows - row, W: col + 1, E: SIZE - col}[side]


def nearness(lay: Layout) -> tuple[tuple[float, ...], ...]:
    """``nearness(lay)[unit][square]`` in [0, 1]: 1 when one step takes it off a unit's side."""
    key = (lay.variant, lay.shifts, lay.teams)
    table = _TABLES.get(key)
    if table is None:
        table = tuple(
            tuple(
                max(
                    (SIZE - _steps_out(sq, side, lay.rows)) / (SIZE - 1)
                    for side, u in lay.side_unit.items()
                    if u == unit
                )
                for sq in range(lay.rows * SIZE)
            )
            for unit in range(len(lay.units))
        )
        _TABLES[key] = table
    return table


def evaluate(
    lay: Layout, locs: Sequence[int], outcome: Outcome | None, returns: tuple[float, ...]
) -> tuple[float, ...]:
    """The evaluation of a position for each seat, in [-1, 1]."""
    if outcome is not None:
        return returns
    near = nearness(lay)
    n_units = len(near)
    live = [loc for loc in locs if loc < OFF]
    lead = [0.0] * n_units
    for sq in live:
        values = [near[u][sq] for u in range(n_units)]
        total = sum(values)
        for u in range(n_units):
            lead[u] += values[u] - (total - values[u]) / (n_units - 1)
    if lay.win == WIN_LAST:
        w = _LAST_WEIGHT[len(live)]
        unit_value = [0.9 * math.tanh(w * x) for x in lead]
    else:
        scored = [0] * n_units
        for loc in locs:
            if loc >= OFF:
                scored[lay.exit_unit(loc - OFF)] += 1
        raw = [scored[u] + 0.4 * lead[u] for u in range(n_units)]
        total = sum(raw)
        unit_value = [
            0.9 * math.tanh(raw[u] - (total - raw[u]) / (n_units - 1)) for u in range(n_units)
        ]
    out = [0.0] * lay.num_seats
    for u, seats in enumerate(lay.unit_seats):
        for s in seats:
            out[s] = unit_value[u]
    return tuple(out)
