"""A quick evaluation of Pulling Strings positions for the look-ahead agents.

Two terms, X's minus O's, squashed into (-1, 1) so a finished game (+1 / -1) always
outranks any evaluation:

* closeness: each disk counts by how close it sits to its owner's homes: 1 on a home, 1/2
  one step away, 1/3 two steps away, and so on;
* threat: the most home disks a side could gain with one pull of an unbroken end if the
  other side's pull did not interfere. A side that can bring a stack home next turn forces
  the other to spend its pull on defence, which closeness alone does not see; a search a
  turn or two deep then steers toward positions with threats the opponent cannot all meet.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from taut.games.pulling_strings.board import (
    HOME_CELLS,
    HOMES,
    NUM_CELLS,
    SIZE,
    cell_ends,
    step,
)

if TYPE_CHECKING:
    from taut.games.pulling_strings.state import PullingStringsState


def _closeness(homes: tuple[tuple[int, int], ...]) -> tuple[float, ...]:
    out = []
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, SIZE)
        d = min(abs(r - hr) + abs(c - hc) for hr, hc in homes)
        out.append(1.0 / (1 + d))
    return tuple(out)


def _gains() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell: ``(end, X's home gain, O's home gain)`` per disk for each end that moves a
    stack there on or off a home (ends that change neither are left out)."""
    homes = (frozenset(HOME_CELLS[0]), frozenset(HOME_CELLS[1]))
    table = []
    for cell in range(NUM_CELLS):
        entries = []
        for end in cell_ends(cell):
            dest = step(cell, end)
            gx = (dest in homes[0]) - (cell in homes[0])
            go = (dest in homes[1]) - (cell in homes[1])
            if gx or go:
                entries.append((end, gx, go))
        table.append(tuple(entries))
    return tuple(table)


#: Per cell: X's closeness minus O's closeness.
EDGE: tuple[float, ...] = tuple(
    x - o for x, o in zip(_closeness(HOMES[0]), _closeness(HOMES[1]), strict=True)
)
#: Per cell: the ends that move a stack there onto or off a home, and by how much per disk.
GAINS = _gains()
#: Weight of a home disk that one pull could gain (a threat) against one already home.
THREAT = 0.5
#: Disk-count advantage that maps to about 0.76 of the range.
SCALE = 5.0


def _split(seat: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell: ``(end, gain)`` of one seat's entries in :data:`GAINS` that are not 0."""
    return tuple(
        tuple((end, gains[seat]) for end, *gains in entries if gains[seat]) for entries in GAINS
    )


#: :data:`GAINS` split by seat, without the zero entries (what :func:`evaluate` reads).
GAINS_X = _split(0)
GAINS_O = _split(1)


def evaluate(state: PullingStringsState) -> float:
    """Value of ``state`` for X in ``[-1, 1]`` (O's value is its negation)."""
    if state._outcome is not None:
        return state.returns()[0]
    broken = state.broken
    score = 0.0
    # Home gains per end, only for the ends some stack gains or loses by: an end missing
    # here gains 0, which the floor at 0 below already counts for.
    gain_x: dict[int, int] = {}
    gain_o: dict[int, int] = {}
    get_x = gain_x.get
    get_o = gain_o.get
    for cell, n in state._stacks.items():
        # Summed in the stacks' order: floats added in another order may differ in the last bit.
        score += n * EDGE[cell]
        for end, g in GAINS_X[cell]:
            gain_x[end] = get_x(end, 0) + n * g
        for end, g in GAINS_O[cell]:
            gain_o[end] = get_o(end, 0) + n * g
    # A broken end cannot be pulled; an unhelpful pull gains nothing (hence the floor 0).
    best_x = best_o = 0
    for end, g in gain_x.items():
        if g > best_x and not broken >> end & 1:
            best_x = g
    for end, g in gain_o.items():
        if g > best_o and not broken >> end & 1:
            best_o = g
    score += THREAT * (best_x - best_o)
    return 0.95 * math.tanh(score / SCALE)
