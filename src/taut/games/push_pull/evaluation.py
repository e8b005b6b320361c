"""The evaluation of the four-sided Push-Pull variants: the exact value against random play.

For a scoring unit (a player in ``four``, a team in ``four-teams`` and ``two-teams``) the
value of a position is its expected result, +1 for a win and -1 for a loss as in
:meth:`PushPullState.returns`, when the unit replies best to uniformly random other seats
(:mod:`~taut.games.push_pull.solve.random_reply`: pieces move independently, so value
iteration over the 27^3 combinations of piece states is exact and takes seconds). In
``four`` a win shared by the unit counts as a win, as the returns count it.

One table is computed per variant (for unit 0) and cached for the process; the other units
read it through the board's rotation (a quarter turn clockwise takes North's side to
East's), so evaluating a position is one lookup per seat. A game with the table's
opponents random is played exactly by one turn of look-ahead with this evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from taut.core.diskcache import cached_array
from taut.core.terms import Outcome
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.solve.pieces import best_step, piece_model
from taut.games.push_pull.variants import NUM_PIECES, WIN_LAST, Layout, layout

FloatArray = npt.NDArray[np.float64]
"""Values of positions."""

#: Value iteration stops when no value moves by more than this.
TOLERANCE = 1e-7


def _rotate(square: int) -> int:
    """The square a quarter turn clockwise takes ``square`` to (North's edge to East's)."""
    row, col = divmod(square, SIZE)
    return col * SIZE + (SIZE - 1 - row)


def _quarter_turns(lay: Layout, unit: int) -> int:
    """How many quarter turns clockwise take unit 0's sides to ``unit``'s."""
    sides = {s for s, u in lay.side_unit.items() if u == unit}
    base = {s for s, u in lay.side_unit.items() if u == 0}
    for k in range(4):
        if {(s + k) % 4 for s in base} == sides:
            return k
    raise ValueError(f"unit {lay.units[unit]} is no rotation of unit {lay.units[0]}")


def unit_values(
    variant: str, shifts: bool = False, teams: str = "NE-SW", shared: float = 1.0
) -> FloatArray:
    """Unit 0's value table ``(X, X, X)``, ``X = 25 + 2``: per piece a square, scored by
    unit 0 (``25``) or by another unit (``26``). A win scores 1, a loss -1 and, in ``four``,
    a last turn whose scorers include unit 0 and another unit ``shared`` (with ``shared=0``
    these are :func:`~taut.games.push_pull.solve.random_reply.reply_to_random`'s values)."""
    return _unit_values(variant, shifts, teams, float(shared))


#: The source files a value table is computed by (the disk cache's key includes them).
_HERE = Path(__file__).parent
_SOURCES = (
    _HERE / "evaluation.py",
    _HERE / "variants.py",
    _HERE / "board.py",
    _HERE / "solve" / "pieces.py",
)


@cache
def _unit_values(variant: str, shifts: bool, teams: str, shared: float) -> FloatArray:
    # Building a table takes seconds (8 for a team variant): later runs read it from disk.
    name = f"push-pull-{variant}-{'shifts' if shifts else 'plain'}-{teams}-{shared:g}"
    return cached_array(name, _SOURCES, lambda: _iterate(variant, shifts, teams, shared))


def _iterate(variant: str, shifts: bool, teams: str, shared: float) -> FloatArray:
    """Value iteration for unit 0 replying best to random play (see :func:`unit_values`)."""
    lay = layout(variant, shifts, teams)
    model = piece_model(lay, lay.unit_seats[0])
    n, x = model.squares, model.states
    final = _final_values(n, lay.win == WIN_LAST, shared)
    done = ~np.isnan(final)
    # A piece outcome continues as a piece state: a square, or scored (new or old alike).
    as_state = np.array([*range(n), x - 2, x - 1, x - 2, x - 1])
    fixed = np.nan_to_num(final)
    v = np.zeros((x,) * NUM_PIECES)
    for _ in range(10_000):
        after = np.where(done, fixed, v[np.ix_(as_state, as_state, as_state)])
        best = best_step(model.transition, after)
        change = float(np.abs(best - v).max())
        v = best
        if change < TOLERANCE:
            break
    return v


def _final_values(n: int, win_last: bool, shared: float) -> FloatArray:
    """The result of each combination of per-piece outcomes of one turn, ``(n + 4)^3``
    (square, new score ours / theirs, old score ours / theirs); NaN while the game goes on."""
    us, them, old_us, old_them = n, n + 1, n + 2, n + 3
    size = n + 4
    grid = np.indices((size,) * NUM_PIECES).reshape(NUM_PIECES, -1).T
    out = np.full(len(grid), np.nan)
    for k, outcome in enumerate(grid):
        ys = [int(y) for y in outcome]
        if win_last:
            new = {y for y in ys if y in (us, them)}
            if any(y < n for y in ys) or not new:
                continue
            out[k] = 1.0 if new == {us} else -1.0 if new == {them} else shared
        elif sum(y in (us, old_us) for y in ys) >= 2:
            out[k] = 1.0
        elif sum(y in (them, old_them) for y in ys) >= 2:
            out[k] = -1.0
    return out.reshape((size,) * NUM_PIECES)


@cache
def _state_index(lay: Layout) -> tuple[tuple[int, ...], ...]:
    """``index[unit][loc]``: the table's piece state for each location, seen by ``unit``
    (squares turned back to unit 0's view, scores as ours or theirs)."""
    squares = lay.rows * SIZE
    out = []
    for unit in range(len(lay.units)):
        turns = _quarter_turns(lay, unit)
        row = []
        for loc in range(OFF + 8):
            if loc < squares:
                sq = loc
                for _ in range((4 - turns) % 4):
                    sq = _rotate(sq)
                row.append(sq)
            elif loc < OFF:
                row.append(0)  # no such location
            else:
                code = loc - OFF
                mine = (code < 4 and lay.side_unit.get(code) == unit) or (
                    code >= 4 and lay.exit_unit(code) == unit
                )
                row.append(squares if mine else squares + 1)
        out.append(tuple(row))
    return tuple(out)


def table_for(lay: Layout) -> FloatArray:
    """Unit 0's cached value table for ``lay`` (computed on first use: seconds)."""
    return unit_values(lay.variant, lay.shifts, lay.teams)


def unit_value(lay: Layout, unit: int, locs: Sequence[int]) -> float:
    """``unit``'s value of an unfinished position (pieces at ``locs``)."""
    index = _state_index(lay)[unit]
    return float(table_for(lay)[index[locs[0]], index[locs[1]], index[locs[2]]])


def evaluate_board(
    lay: Layout, locs: Sequence[int], outcome: Outcome | None, returns: tuple[float, ...]
) -> tuple[float, ...]:
    """Per seat, its unit's value against random play, in [-1, 1]; the returns once the
    game is over."""
    if outcome is not None:
        return returns
    table = table_for(lay)
    index = _state_index(lay)
    out = [0.0] * lay.num_seats
    a, b, c = locs
    for unit, seats in enumerate(lay.unit_seats):
        i = index[unit]
        value = float(table[i[a], i[b], i[c]])
        for s in seats:
            out[s] = value
    return tuple(out)
