"""A quick evaluation of Pulling Strings positions for the look-ahead agents.

Each disk counts by how close it sits to its owner's homes: 1 on a home, 1/2 one step
away, 1/3 two steps away, and so on; X's closeness minus O's, squashed into (-1, 1) so a
finished game (+1 / -1) always outranks any evaluation.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from taut.games.pulling_strings.board import HOMES, NUM_CELLS, SIZE

if TYPE_CHECKING:
    from taut.games.pulling_strings.rules import PullingStringsState


def _closeness(homes: tuple[tuple[int, int], ...]) -> tuple[float, ...]:
    out = []
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, SIZE)
        d = min(abs(r - hr) + abs(c - hc) for hr, hc in homes)
        out.append(1.0 / (1 + d))
    return tuple(out)


#: Per cell: X's closeness minus O's closeness.
EDGE: tuple[float, ...] = tuple(
    x - o for x, o in zip(_closeness(HOMES[0]), _closeness(HOMES[1]), strict=True)
)
#: Disk-count advantage that maps to about 0.76 of the range.
SCALE = 5.0


def evaluate(state: PullingStringsState) -> float:
    """Value of ``state`` for X in ``[-1, 1]`` (O's value is its negation)."""
    if state.outcome is not None:
        return state.returns()[0]
    score = sum(n * EDGE[cell] for cell, n in state.stacks.items())
    return 0.95 * math.tanh(score / SCALE)
