"""Plain value iteration on the duel: checks of the solver and the benchmark's baselines.

:func:`iterate_values` runs Gauss-Seidel sweeps over the 37 classes (from any start, so that
the tests can check the fixed point is unique); :func:`solve_duel_naive` runs Jacobi sweeps
over all 305 labelled positions with one HiGHS LP per position per sweep.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from taut.games.push_pull.solve.duel_model import (
    NUM_CHOICES,
    W_SCORED,
    Canon,
    IntArray,
    build_model,
    piece_step,
)
from taut.games.push_pull.solve.duel_positions import Position, all_positions, position_key
from taut.games.push_pull.solve.duel_solution import DuelSolution, SolveStats
from taut.solve.matrix import MatrixSolver, highs_value


def iterate_values(
    start: float = 0.0,
    tol: float = 1e-12,
    max_sweeps: int = 10_000,
    highs: bool = False,
    stats: SolveStats | None = None,
) -> dict[Canon, float]:
    """Gauss-Seidel value iteration on the 37 classes from ``v = start`` everywhere.

    Stops when no value changes by more than ``tol``. ``highs`` solves every matrix game
    with a fresh HiGHS LP (:func:`taut.solve.matrix.highs_value`) instead of the
    warm-started simplex. Also used to check that the fixed point is unique: from ``+1``
    and from ``-1`` (the largest and smallest candidates) it must reach the solver's values.
    """
    stats = stats if stats is not None else SolveStats("value-iteration")
    model = build_model()
    n = len(model.classes)
    mirror = model.mirror
    v = np.full(n + 2, float(start))
    v[model.win], v[model.loss] = 1.0, -1.0
    for i in range(n):
        if mirror[i] < i:
            v[i] = -v[mirror[i]]
    games = MatrixSolver()
    reps = [i for i in range(n) if i <= mirror[i]]
    for _ in range(max_sweeps):
        stats.sweeps += 1
        change = 0.0
        for i in reps:
            if highs:
                stats.lp_calls += 1
                value = highs_value(v[model.succ[i]])
            else:
                value = games.solve(i, v[model.succ[i]])[0]
            change = max(change, abs(value - v[i]))
            v[i] = value
            v[mirror[i]] = -value
        if change <= tol:
            break
    stats.pivots += games.pivots
    stats.lp_calls += games.lp_calls
    return {c: float(v[i]) for i, c in enumerate(model.classes)}


def _successor_tables(positions: list[Position]) -> list[IntArray]:
    """Each labelled position's one-turn successors over the actions for its pieces on the
    board (the last two indices: West has won, East has won)."""
    index = {pos: k for k, pos in enumerate(positions)}
    win, loss = len(positions), len(positions) + 1
    succ = []
    for pos in positions:
        pieces = [p for p, sq in enumerate(pos) if isinstance(sq, int)]
        k = len(pieces)
        size = NUM_CHOICES**k
        table = np.empty((size, size), dtype=np.int64)
        for a, b in itertools.product(range(size), repeat=2):
            new: list[int | str] = list(pos)
            for i, p in enumerate(pieces):
                square = pos[p]
                assert isinstance(square, int)  # narrowing: ``pieces`` are on the board
                digit = NUM_CHOICES ** (k - 1 - i)
                code = piece_step(square, a // digit % NUM_CHOICES, b // digit % NUM_CHOICES)
                new[p] = code if code < W_SCORED else ("W" if code == W_SCORED else "E")
            if new.count("W") >= 2:
                table[a, b] = win
            elif new.count("E") >= 2:
                table[a, b] = loss
            else:
                table[a, b] = index[tuple(new)]
        succ.append(table)
    return succ


def solve_duel_naive(tol: float = 1e-10, max_seconds: float | None = None) -> DuelSolution:
    """Plain value iteration: every one of the 305 labelled positions on its own, Jacobi
    sweeps, one HiGHS LP per position per sweep (:func:`taut.solve.matrix.highs_value`).

    Stops when no value changes by more than ``tol``, or after ``max_seconds``. The
    benchmark's baseline; it returns values only.
    """
    start = time.perf_counter()
    stats = SolveStats("naive")
    positions = all_positions()
    succ = _successor_tables(positions)
    m = len(positions)
    v = np.zeros(m + 2)
    v[m], v[m + 1] = 1.0, -1.0  # West has won, East has won
    while True:
        stats.sweeps += 1
        new_v = v.copy()
        for k in range(m):
            new_v[k] = highs_value(v[succ[k]])
            stats.lp_calls += 1
        change = float(np.abs(new_v - v).max())
        v = new_v
        if change <= tol or (max_seconds is not None and time.perf_counter() - start > max_seconds):
            break
    stats.seconds = time.perf_counter() - start
    values = {position_key(p): float(v[k]) for k, p in enumerate(positions)}
    return DuelSolution(values, {}, stats)
