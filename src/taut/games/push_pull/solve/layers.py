"""What the exact solvers share: score-layer tables and one-turn successor tables.

A solver's position class is ``(sorted squares of the pieces on the board, first side's
score, second side's score)``; a piece's *code* is a square, ``squares`` (scored by the
first side) or ``squares + 1`` (by the second). Pieces move independently, so a class's
one-turn successor table is one lookup per piece broadcast over both players' choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from taut.games.push_pull.variants import NUM_PIECES

IntArray = npt.NDArray[np.int64]
"""Class indices, piece codes or action numbers."""

Canon = tuple[tuple[int, ...], int, int]
"""A position class: sorted squares on the board, the first side's and the second's score."""


class ResultClasses:
    """What a solver's model numbers after its classes: the two results, as pseudo-classes
    (a model has ``classes``; the first side's win comes first)."""

    classes: tuple[Canon, ...]

    @property
    def win(self) -> int:
        """Index of the pseudo-class "the first side has won"."""
        return len(self.classes)

    @property
    def loss(self) -> int:
        """Index of the pseudo-class "the second side has won"."""
        return len(self.classes) + 1


def score_tables(
    layers: Sequence[tuple[int, int]], squares: int, index: dict[Canon, int], win: int, loss: int
) -> dict[tuple[int, int], IntArray]:
    """For each score layer, a table from the pieces' codes (in any order) to the class,
    or ``win`` / ``loss`` once a side has two pieces."""
    first_code, second_code = squares, squares + 1
    tables: dict[tuple[int, int], IntArray] = {}
    for first, second in layers:
        k = NUM_PIECES - first - second
        table = np.empty((squares + 2,) * k, dtype=np.int64)
        for codes in itertools.product(range(squares + 2), repeat=k):
            f = first + codes.count(first_code)
            s = second + codes.count(second_code)
            if f >= 2:
                table[codes] = win
            elif s >= 2:
                table[codes] = loss
            else:
                table[codes] = index[(tuple(sorted(c for c in codes if c < squares)), f, s)]
        tables[(first, second)] = table
    return tables


def successor_table(step: IntArray, squares: Sequence[int], table: IntArray) -> IntArray:
    """``succ[a, b]`` for the pieces on ``squares``: ``step[square, a_piece, b_piece]`` is
    one piece's next code and ``table`` its layer's score table; ``a`` and ``b`` are
    class-order actions (base ``step.shape[1]``, the first piece the most significant)."""
    k, b = len(squares), int(step.shape[1])
    grids = []
    for p, s in enumerate(squares):
        # Piece p's code varies along the first player's axis p and the second's k + p.
        shape = [1] * (2 * k)
        shape[p] = shape[k + p] = b
        grids.append(step[s].reshape(shape))
    succ: IntArray = table[tuple(grids)].reshape(b**k, b**k)
    return succ
