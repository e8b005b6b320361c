"""The hot loops of full-width SM-MCTS, on the flat arrays of :mod:`taut.agents.smmcts.flat`.

Two implementations keep one contract: the plain Python/NumPy functions of this module,
and the same functions compiled with Numba (:mod:`taut.agents.smmcts.compiled`), used
when ``numba`` can be imported and the environment variable ``TAUT_NO_NUMBA`` is not
``1``. :func:`load_kernels` chooses; Numba is imported then, at the first search that
needs it, never by ``import taut``. Both draw from the same generator
(:func:`next_double`) and compute the same update; they may differ in the last bits of a
sum (NumPy sums pairwise), which is why regrets below :data:`NOISE` count as 0: a regret
that is 0 in exact arithmetic stays 0 in both, and the two take the same choices.

The functions:

* ``update`` - one regret matching+ update of an expanded node against its children's
  values (:mod:`taut.agents.smmcts.matrix` explains the rule); writes the node's value.
* ``choose`` - both seats' selections at an expanded node.
* ``descend`` - select from an expanded node down through expanded nodes, writing their
  numbers into ``path``, until a cycle, a finished game, a node the kernels cannot handle
  or the depth limit; returns where and why it stopped (``STOP_*``).
* ``backup`` - ``update`` the nodes of ``path[lo:hi]``, the last first.
* ``descents`` - whole descents from an expanded root with their backups, until a number
  is done or one stops at a node the kernels cannot handle (left in ``path`` for the
  search to finish).
"""

from __future__ import annotations

import os

import numpy as np

# The contract both implementations keep, re-exported: callers may import it from here.
from taut.agents.smmcts.contract import NOISE as NOISE
from taut.agents.smmcts.contract import STOP_CYCLE as STOP_CYCLE
from taut.agents.smmcts.contract import STOP_DEPTH as STOP_DEPTH
from taut.agents.smmcts.contract import STOP_END as STOP_END
from taut.agents.smmcts.contract import STOP_OPEN as STOP_OPEN
from taut.agents.smmcts.contract import Kernels as Kernels
from taut.agents.smmcts.flat import (
    CDF,
    CUM,
    EXPANDED,
    GOFF,
    K0,
    K1,
    MIX,
    REGRET,
    TERMINAL,
    UPDATES,
    VOFF,
    FloatArray,
    IntArray,
    UIntArray,
)

# SplitMix64 (Steele, Lea and Flood 2014): one 64-bit state, a fixed odd increment and a
# mixing function; small enough to run identically in Python and in compiled code.
GOLDEN = 0x9E3779B97F4A7C15
MIX_A = 0xBF58476D1CE4E5B9
MIX_B = 0x94D049BB133111EB
MASK64 = (1 << 64) - 1
UNIT = 1.0 / (1 << 53)


def next_double(rng: UIntArray) -> float:
    """The next number in [0, 1) of the generator whose state is ``rng[0]`` (advanced)."""
    s = (int(rng[0]) + GOLDEN) & MASK64
    rng[0] = s
    z = ((s ^ (s >> 30)) * MIX_A) & MASK64
    z = ((z ^ (z >> 27)) * MIX_B) & MASK64
    z ^= z >> 31
    return (z >> 11) * UNIT


def update(
    node: int, meta: IntArray, vec: FloatArray, grid: IntArray, values: FloatArray, gamma: float
) -> None:
    """One regret matching+ update of expanded node ``node``; writes its value."""
    _, k0, k1, s0, s1, voff, goff, updates = meta[node].tolist()
    updates += 1
    meta[node, UPDATES] = updates
    run = vec[:, voff : voff + k0 + k1]  # views of the node's run, both seats
    regret, cum, mix, cdf = run[REGRET], run[CUM], run[MIX], run[CDF]
    cells = grid[goff : goff + k0 * k1].reshape(k0, k1)
    x0, x1 = values[s0].take(cells), values[s1].take(cells)
    p0, p1 = mix[:k0], mix[k0:]
    u0 = x0.dot(p1)  # seat 0's value of each of its actions against seat 1's mix
    u1 = p0.dot(x1)
    u0 -= p0.dot(u0)  # minus the value of the mix: the regret of each action
    u1 -= u1.dot(p1)
    regret[:k0] += u0
    regret[k0:] += u1
    regret *= regret >= NOISE  # the floor of regret matching+, and rounding noise
    cum += updates * mix  # linear averaging: later, better mixes weigh more
    for lo, hi in ((0, k0), (k0, k0 + k1)):
        part = regret[lo:hi]
        total = part.sum()
        if total > 0:
            np.divide(part, total, out=mix[lo:hi])
        else:
            mix[lo:hi] = 1.0 / (hi - lo)
        np.cumsum((1 - gamma) * mix[lo:hi] + gamma / (hi - lo), out=cdf[lo:hi])
    a0 = cum[:k0] / cum[:k0].sum()
    a1 = cum[k0:] / cum[k0:].sum()
    values[s0, node] = a0.dot(x0).dot(a1)
    values[s1, node] = a0.dot(x1).dot(a1)


def _pick(cdf: FloatArray, u: float) -> int:
    """The index whose interval of ``cdf`` holds ``u`` (the last if rounding leaves
    ``cdf`` short of it)."""
    return min(int(cdf.searchsorted(u, side="right")), len(cdf) - 1)


def choose(node: int, meta: IntArray, vec: FloatArray, rng: UIntArray) -> tuple[int, int]:
    """Both seats' selections at expanded node ``node``: each samples its current mix
    with exploration, seat 0 first."""
    k0, k1, voff = meta[node, K0], meta[node, K1], meta[node, VOFF]
    i = _pick(vec[CDF, voff : voff + k0], next_double(rng))
    j = _pick(vec[CDF, voff + k0 : voff + k0 + k1], next_double(rng))
    return i, j


def descend(
    node: int,
    depth: int,
    stamp: int,
    max_depth: int,
    meta: IntArray,
    vec: FloatArray,
    grid: IntArray,
    mark: IntArray,
    path: IntArray,
    pos: int,
    rng: UIntArray,
) -> tuple[int, int, int]:
    """Select from expanded node ``node`` (``depth`` nodes already passed) down through
    expanded nodes, writing them into ``path`` from ``pos`` and marking the children
    reached with ``stamp``: the end of the path, the node where it stopped and why."""
    while True:
        path[pos] = node
        pos += 1
        if depth >= max_depth:
            return pos, node, STOP_DEPTH
        depth += 1
        i, j = choose(node, meta, vec, rng)
        child = int(grid[meta[node, GOFF] + i * meta[node, K1] + j])
        if mark[child] == stamp:
            return pos, child, STOP_CYCLE
        mark[child] = stamp
        kind = meta[child, 0]
        if kind != EXPANDED:
            return pos, child, STOP_END if kind == TERMINAL else STOP_OPEN
        node = child


def backup(
    path: IntArray,
    lo: int,
    hi: int,
    meta: IntArray,
    vec: FloatArray,
    grid: IntArray,
    values: FloatArray,
    gamma: float,
) -> None:
    """Update the expanded nodes ``path[lo:hi]``, the deepest first."""
    for q in range(hi - 1, lo - 1, -1):
        update(int(path[q]), meta, vec, grid, values, gamma)


def descents(
    root: int,
    count: int,
    stamp: int,
    max_depth: int,
    meta: IntArray,
    vec: FloatArray,
    grid: IntArray,
    values: FloatArray,
    mark: IntArray,
    path: IntArray,
    rng: UIntArray,
    gamma: float,
) -> tuple[int, int, int, int]:
    """Up to ``count`` descents from expanded node ``root``, numbered from ``stamp``, each
    backed up. Returns the descents done and, for the one after them if it stopped at a
    node the kernels cannot handle (``STOP_OPEN``), the end of its path in ``path`` and
    that node; otherwise ``(count, 0, -1, -1)``."""
    for done in range(count):
        mark[root] = stamp + done
        end, stop, why = descend(
            root, 0, stamp + done, max_depth, meta, vec, grid, mark, path, 0, rng
        )
        if why == STOP_OPEN:
            return done, end, stop, why
        backup(path, 0, end, meta, vec, grid, values, gamma)
    return count, 0, -1, -1


#: The plain Python/NumPy kernels.
PYTHON = Kernels("python", update, choose, descend, backup, descents, next_double)

_compiled: list[Kernels | None] = []  # filled on the first load: the compiled kernels or None


def compiled_kernels() -> Kernels | None:
    """The Numba kernels, compiled (or read from Numba's cache) on the first call; None if
    ``numba`` cannot be imported."""
    if not _compiled:
        try:
            from taut.agents.smmcts.compiled import load
        except ImportError:
            _compiled.append(None)
        else:
            _compiled.append(load())
    return _compiled[0]


def load_kernels() -> Kernels:
    """The kernels a search uses: compiled when possible, unless ``TAUT_NO_NUMBA=1``."""
    if os.environ.get("TAUT_NO_NUMBA") == "1":
        return PYTHON
    return compiled_kernels() or PYTHON
