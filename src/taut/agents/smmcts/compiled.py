"""The kernels of :mod:`taut.agents.smmcts.kernels`, compiled with Numba.

Imported only by :func:`taut.agents.smmcts.kernels.compiled_kernels` (it imports
``numba``, which takes a moment). The functions keep the contract, and the arithmetic, of
the Python/NumPy ones; they loop where those call NumPy, which on nodes of a few dozen
actions is what costs. Numba caches the machine code next to this file (``cache=True``),
so only the first process compiles; :func:`load` runs every kernel once on a small tree,
so that cost is paid before a search starts its clock.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from taut.agents.smmcts.contract import (
    NOISE,
    STOP_CYCLE,
    STOP_DEPTH,
    STOP_END,
    STOP_OPEN,
    Kernels,
)
from taut.agents.smmcts.flat import (
    CDF,
    CUM,
    EXPANDED,
    GOFF,
    K0,
    K1,
    KIND,
    MIX,
    REGRET,
    SEAT0,
    SEAT1,
    TERMINAL,
    UPDATES,
    VOFF,
    FlatTree,
    FloatArray,
    IntArray,
    UIntArray,
)

_numba = importlib.import_module("numba")  # no type information: kept out of mypy's sight

F = TypeVar("F", bound=Callable[..., Any])


def _jit(function: F) -> F:
    """``function`` compiled in nopython mode, its machine code cached on disk."""
    compiled: F = _numba.njit(cache=True)(function)
    return compiled


# The generator's constants as unsigned 64-bit numbers: Numba then wraps around on
# overflow exactly as the masked Python integers do.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_A = np.uint64(0xBF58476D1CE4E5B9)
_MIX_B = np.uint64(0x94D049BB133111EB)
_S11, _S27, _S30, _S31 = np.uint64(11), np.uint64(27), np.uint64(30), np.uint64(31)
_UNIT = 1.0 / (1 << 53)


@_jit
def next_double(rng: UIntArray) -> float:
    """See :func:`taut.agents.smmcts.kernels.next_double`."""
    s = rng[0] + _GOLDEN
    rng[0] = s
    z = (s ^ (s >> _S30)) * _MIX_A
    z = (z ^ (z >> _S27)) * _MIX_B
    z = z ^ (z >> _S31)
    return float(z >> _S11) * _UNIT


@_jit
def _mix(vec: FloatArray, lo: int, k: int, gamma: float) -> None:
    """The current mix and its cumulative sum with exploration, from the regrets of the
    ``k`` actions at ``lo``."""
    total = 0.0
    for a in range(lo, lo + k):
        total += vec[REGRET, a]
    acc = 0.0
    for a in range(lo, lo + k):
        p = vec[REGRET, a] / total if total > 0 else 1.0 / k
        vec[MIX, a] = p
        acc += (1 - gamma) * p + gamma / k
        vec[CDF, a] = acc


@_jit
def update(
    node: int, meta: IntArray, vec: FloatArray, grid: IntArray, values: FloatArray, gamma: float
) -> None:
    """See :func:`taut.agents.smmcts.kernels.update`."""
    k0, k1 = meta[node, K0], meta[node, K1]
    s0, s1 = meta[node, SEAT0], meta[node, SEAT1]
    v0, goff = meta[node, VOFF], meta[node, GOFF]
    v1 = v0 + k0
    updates = meta[node, UPDATES] + 1
    meta[node, UPDATES] = updates
    # The average mixes, this update's mix included.
    t0 = 0.0
    for i in range(k0):
        vec[CUM, v0 + i] += updates * vec[MIX, v0 + i]
        t0 += vec[CUM, v0 + i]
    t1 = 0.0
    for j in range(k1):
        vec[CUM, v1 + j] += updates * vec[MIX, v1 + j]
        t1 += vec[CUM, v1 + j]
    a1 = np.empty(k1)
    for j in range(k1):
        a1[j] = vec[CUM, v1 + j] / t1
    # One pass over the children: each seat's action values against the other's current
    # mix, and the node's values under the average mixes.
    u0 = np.empty(k0)
    u1 = np.zeros(k1)
    w0 = 0.0
    w1 = 0.0
    for i in range(k0):
        p0 = vec[MIX, v0 + i]
        row = 0.0
        r0 = 0.0
        r1 = 0.0
        base = goff + i * k1
        for j in range(k1):
            child = grid[base + j]
            y0 = values[s0, child]
            y1 = values[s1, child]
            row += y0 * vec[MIX, v1 + j]
            u1[j] += p0 * y1
            r0 += y0 * a1[j]
            r1 += y1 * a1[j]
        u0[i] = row
        a0 = vec[CUM, v0 + i] / t0
        w0 += a0 * r0
        w1 += a0 * r1
    e0 = 0.0
    for i in range(k0):
        e0 += vec[MIX, v0 + i] * u0[i]
    e1 = 0.0
    for j in range(k1):
        e1 += u1[j] * vec[MIX, v1 + j]
    for i in range(k0):
        r = vec[REGRET, v0 + i] + (u0[i] - e0)
        vec[REGRET, v0 + i] = r if r >= NOISE else 0.0
    for j in range(k1):
        r = vec[REGRET, v1 + j] + (u1[j] - e1)
        vec[REGRET, v1 + j] = r if r >= NOISE else 0.0
    _mix(vec, v0, k0, gamma)
    _mix(vec, v1, k1, gamma)
    values[s0, node] = w0
    values[s1, node] = w1


@_jit
def _pick(vec: FloatArray, lo: int, k: int, u: float) -> int:
    """See :func:`taut.agents.smmcts.kernels._pick`."""
    i = 0
    while i < k - 1 and vec[CDF, lo + i] <= u:
        i += 1
    return i


@_jit
def choose(node: int, meta: IntArray, vec: FloatArray, rng: UIntArray) -> tuple[int, int]:
    """See :func:`taut.agents.smmcts.kernels.choose`."""
    k0, k1, voff = meta[node, K0], meta[node, K1], meta[node, VOFF]
    i = _pick(vec, voff, k0, next_double(rng))
    j = _pick(vec, voff + k0, k1, next_double(rng))
    return i, j


@_jit
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
    """See :func:`taut.agents.smmcts.kernels.descend`."""
    while True:
        path[pos] = node
        pos += 1
        if depth >= max_depth:
            return pos, node, STOP_DEPTH
        depth += 1
        i, j = choose(node, meta, vec, rng)
        child = grid[meta[node, GOFF] + i * meta[node, K1] + j]
        if mark[child] == stamp:
            return pos, child, STOP_CYCLE
        mark[child] = stamp
        kind = meta[child, KIND]
        if kind != EXPANDED:
            return pos, child, STOP_END if kind == TERMINAL else STOP_OPEN
        node = child


@_jit
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
    """See :func:`taut.agents.smmcts.kernels.backup`."""
    for q in range(hi - 1, lo - 1, -1):
        update(path[q], meta, vec, grid, values, gamma)


@_jit
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
    """See :func:`taut.agents.smmcts.kernels.descents`."""
    for done in range(count):
        mark[root] = stamp + done
        end, stop, why = descend(
            root, 0, stamp + done, max_depth, meta, vec, grid, mark, path, 0, rng
        )
        if why == STOP_OPEN:
            return done, end, stop, why
        backup(path, 0, end, meta, vec, grid, values, gamma)
    return count, 0, -1, -1


def _warm(kernels: Kernels) -> None:
    """Run every kernel once on a two-node tree (compiling it, or loading it from the
    cache), with the argument types a search passes."""
    flat = FlatTree(2, 4, 1, capacity=2)
    root = flat.add_node(False, [0.5, 0.5])
    leaf = flat.add_node(True, [1.0, 0.0])
    flat.expand(root, (0, 1), np.full((1, 2), leaf, dtype=np.int64))
    kernels.next_double(flat.rng)
    kernels.choose(root, flat.meta, flat.vec, flat.rng)
    kernels.update(root, flat.meta, flat.vec, flat.grid, flat.values, 0.1)
    kernels.descend(
        root, 0, 1, 8, flat.meta, flat.vec, flat.grid, flat.mark, flat.path, 0, flat.rng
    )
    kernels.backup(flat.path, 0, 1, flat.meta, flat.vec, flat.grid, flat.values, 0.1)
    kernels.descents(
        root,
        1,
        2,
        8,
        flat.meta,
        flat.vec,
        flat.grid,
        flat.values,
        flat.mark,
        flat.path,
        flat.rng,
        0.1,
    )


def load() -> Kernels:
    """The compiled kernels, ready to run."""
    kernels = Kernels("numba", update, choose, descend, backup, descents, next_double)
    _warm(kernels)
    return kernels
