"""The flat arrays of one SM-MCTS search, the form its kernels read and write.

Nodes are numbered in the order they are made; a node's number is its row in every
per-node array. A full-width node (see :mod:`taut.agents.smmcts.matrix`), once expanded,
also owns a run of ``k0 + k1`` columns of the per-action arrays (seat 0's actions, then
seat 1's) and a run of ``k0 * k1`` entries of the joint-action grid (row-major: the child
reached when seat 0 picks ``i`` and seat 1 picks ``j`` is entry ``i * k1 + j``).

Per node (``meta``, int64, one row of :data:`META_COLUMNS`): its kind, ``k0``, ``k1``, the
two acting seats, the offsets of its action and grid runs, and how many updates it had.
Per node and seat (``values``): the node's current value scaled to [0, 1]. Per node
(``mark``): the number of the last descent that passed it, for cycle checks. Per action
(``vec``, four rows): cumulative regret, the weighted sum of past mixes, the current mix
and the cumulative sum of the mix with exploration that selection samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
UIntArray = npt.NDArray[np.uint64]
A = TypeVar("A", bound=np.ndarray[Any, Any])

# Columns of ``meta``.
KIND, K0, K1, SEAT0, SEAT1, VOFF, GOFF, UPDATES = range(8)
#: Columns of ``meta``.
META_COLUMNS = 8

# Kinds of node. A descent inside the kernels stops at any node that is not EXPANDED.
#: Not (yet) a full-width node with statistics: the search handles it in Python.
OTHER = 0
#: A full-width node with its arrays: the kernels select and update there.
EXPANDED = 1
#: A finished game: its value never changes.
TERMINAL = 2

# Rows of ``vec``.
REGRET, CUM, MIX, CDF = range(4)


def _grown(array: A, axis: int, need: int) -> A:
    """``array`` with room for at least ``need`` entries along ``axis`` (doubling)."""
    size = array.shape[axis]
    if need <= size:
        return array
    while size < need:
        size *= 2
    shape = list(array.shape)
    shape[axis] = size
    out = np.zeros(shape, dtype=array.dtype)
    out[tuple(slice(0, n) for n in array.shape)] = array
    return out  # type: ignore[return-value]


class FlatTree:
    """Every array of one search (see the module docstring); grown as nodes are added.

    The arrays are replaced when they grow, so read them from the object at each use.
    ``path`` is scratch room for the nodes of one descent; ``rng`` is the state of the
    kernels' random generator (:func:`taut.agents.smmcts.kernels.next_double`).
    """

    __slots__ = (
        "grid",
        "grid_used",
        "mark",
        "meta",
        "nodes",
        "path",
        "rng",
        "values",
        "vec",
        "vec_used",
    )

    def __init__(self, seats: int, path_length: int, seed: int, capacity: int = 64) -> None:
        self.meta: IntArray = np.zeros((capacity, META_COLUMNS), dtype=np.int64)
        self.values: FloatArray = np.zeros((seats, capacity))
        self.mark: IntArray = np.zeros(capacity, dtype=np.int64)  # descents are numbered from 1
        self.vec: FloatArray = np.zeros((4, 4 * capacity))
        self.grid: IntArray = np.zeros(16 * capacity, dtype=np.int64)
        self.path: IntArray = np.zeros(path_length, dtype=np.int64)
        self.rng: UIntArray = np.array([seed], dtype=np.uint64)
        self.nodes = 0
        self.vec_used = 0
        self.grid_used = 0

    def add_node(self, terminal: bool, value: Sequence[float] | None) -> int:
        """A new node's number; ``value`` (per seat, scaled) fills its row if given."""
        ident = self.nodes
        self.nodes += 1
        if ident == self.meta.shape[0]:
            self.meta = _grown(self.meta, 0, ident + 1)
            self.values = _grown(self.values, 1, ident + 1)
            self.mark = _grown(self.mark, 0, ident + 1)
        self.meta[ident, KIND] = TERMINAL if terminal else OTHER
        if value is not None:
            self.values[:, ident] = value
        return ident

    def expand(self, ident: int, seats: tuple[int, int], children: IntArray) -> None:
        """Give node ``ident``, where ``seats`` act, its full-width arrays: ``children`` is
        the (k0, k1) grid of the node numbers its joint actions lead to. Regrets and sums
        start at 0, the mixes uniform."""
        k0, k1 = children.shape
        voff, goff = self.vec_used, self.grid_used
        self.vec_used += k0 + k1
        self.grid_used += k0 * k1
        self.vec = _grown(self.vec, 1, self.vec_used)
        self.grid = _grown(self.grid, 0, self.grid_used)
        self.grid[goff : goff + k0 * k1] = children.ravel()
        for lo, k in ((voff, k0), (voff + k0, k1)):
            self.vec[MIX, lo : lo + k] = 1.0 / k
            self.vec[CDF, lo : lo + k] = np.cumsum(self.vec[MIX, lo : lo + k])
        self.meta[ident] = (EXPANDED, k0, k1, seats[0], seats[1], voff, goff, 0)

    def run(self, ident: int, j: int, row: int) -> FloatArray:
        """Row ``row`` of ``vec`` (:data:`REGRET`, :data:`CUM`, :data:`MIX` or :data:`CDF`)
        for the ``j``-th acting seat of expanded node ``ident`` (a view)."""
        k0, k1, voff = (int(x) for x in self.meta[ident, [K0, K1, VOFF]])
        lo, k = (voff, k0) if j == 0 else (voff + k0, k1)
        return self.vec[row, lo : lo + k]

    def average(self, ident: int, j: int) -> FloatArray:
        """The ``j``-th acting seat's average mix at expanded node ``ident`` (uniform before
        any update)."""
        cum = self.run(ident, j, CUM)
        total = float(cum.sum())
        return cum / total if total > 0 else np.full(len(cum), 1.0 / len(cum))

    def value(self, ident: int) -> list[float]:
        """Node ``ident``'s current value per seat, scaled to [0, 1]."""
        return [float(v) for v in self.values[:, ident]]
