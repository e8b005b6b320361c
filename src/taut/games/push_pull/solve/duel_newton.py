"""Exact solution of the Push-Pull duel: the value and optimal mixed strategies everywhere.

The duel is a zero-sum *recursive* game: each turn both players choose at once, positions
can repeat, the only payoffs are the wins (+1 for West, -1 for East), and a game that goes
on for ever counts 0. Its value ``v`` is a fixed point of Shapley's operator
``(T v)(p) = val(A_p(v))`` where ``A_p(v)[a, b]`` is the value of the position reached from
``p`` when West plays ``a`` and East plays ``b``, and ``val`` is the value of that matrix game.

**Why this fixed point is the answer.** ``T`` is monotone and maps ``[-1, 1]^n`` into itself.
``T^k(0)`` is the value of the game cut off after ``k`` turns; for finite stochastic games it
converges to the value (Mertens and Neyman), and a game that never ends scores 0 in both.
Numerically, iterating ``T`` from ``+1`` and from ``-1`` everywhere reaches the same point
(a check in the tests), and by monotonicity every fixed point in ``[-1, 1]^n`` lies between
those two sequences, so the fixed point is unique. The solver also returns its strategies
with a certificate: at every position West's mix guarantees at least, and East's at most,
the value against every reply, to within ``max_gap``. The tests confirm independently that
neither mix can be exploited by a best response.

**How it is computed fast** (a fraction of a second instead of a minute or more for plain
value iteration with one LP per position per sweep):

* Positions are grouped into classes, halved again by the mirror image
  (:mod:`.duel_model`): 37 classes are solved instead of 305 positions.
* Scoring is irreversible, so the classes form layers by the score (1-1, then 1-0, then
  0-0); each layer is solved once the layers it can reach are known.
* Within a layer, Newton's method on ``v = T v`` (the Pollatschek-Avi-Itzhak iteration):
  solve every matrix game, then evaluate the two mixes exactly with one linear solve,
  ``v = (I - P) ^ -1 r``. It converges quadratically once the supports of the mixes settle;
  a few Gauss-Seidel value-iteration sweeps come first while values are far off.
* Matrix games (at most 27 x 27) are solved by :class:`taut.solve.matrix.MatrixSolver`, a
  small dense simplex that remembers each position's optimal basis. When the values move a
  little the old basis is usually still optimal, so later iterations cost a linear solve and
  no pivot; and since the answer is recomputed from the basis, it is exact to rounding
  rather than to an LP tolerance. A duality-gap check guards every answer (HiGHS is the
  fallback).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from taut.games.push_pull.solve.duel_mixes import (
    FloatArray,
    labelled,
    optimal_mixes,
    product_form,
)
from taut.games.push_pull.solve.duel_model import DuelModel, IntArray, build_model
from taut.games.push_pull.solve.duel_solution import DuelSolution, SolveStats
from taut.solve.matrix import MatrixSolver

#: The layers solved, in order; (0, 1) is the mirror image of (1, 0).
SOLVED_LAYERS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0), (0, 0))


@dataclass(frozen=True)
class _Layer:
    """The classes of one score layer and the linear system over their representatives."""

    score: tuple[int, int]
    reps: list[int]
    """Classes solved here: each class of the layer that is not a mirror image's copy."""
    column: IntArray
    """Column of each class (representative or mirror image) in the system; -1 outside."""
    sign: FloatArray
    """The sign of a class's value relative to its representative's (-1 for an image)."""


def _layer(model: DuelModel, score: tuple[int, int]) -> _Layer:
    """The representatives of layer ``score`` and where their values sit in its system."""
    mirror = model.mirror
    n = len(model.classes)
    reps = [i for i, (_, w, e) in enumerate(model.classes) if (w, e) == score and i <= mirror[i]]
    column = np.full(n + 2, -1)
    sign = np.ones(n + 2)
    for j, i in enumerate(reps):
        column[i] = column[mirror[i]] = j
        if mirror[i] != i:
            sign[mirror[i]] = -1.0
    return _Layer(score, reps, column, sign)


def _chain(
    model: DuelModel, layer: _Layer, v: FloatArray, games: MatrixSolver
) -> tuple[FloatArray, FloatArray, float]:
    """Solve the layer's one-turn games at ``v``; return the Markov chain both mixes make,
    ``(P, r)`` with ``P`` the moves within the layer and ``r`` the expected value of the
    moves out of it, and ``max |T v - v|`` over the layer."""
    size = len(layer.reps)
    p_matrix = np.zeros((size, size))
    r = np.zeros(size)
    residual = 0.0
    for j, i in enumerate(layer.reps):
        succ = model.succ[i]
        val, x, y, _gap = games.solve(i, v[succ])
        residual = max(residual, abs(val - v[i]))
        weights = np.outer(x, y).ravel()
        targets = succ.ravel()
        inside = layer.column[targets] >= 0
        p_matrix[j] = np.bincount(
            layer.column[targets[inside]],
            weights=weights[inside] * layer.sign[targets[inside]],
            minlength=size,
        )
        r[j] = weights[~inside] @ v[targets[~inside]]
    return p_matrix, r, residual


def _sweep(model: DuelModel, reps: list[int], v: FloatArray, games: MatrixSolver) -> None:
    """One Gauss-Seidel sweep of value iteration over ``reps`` (``v`` updated in place)."""
    for i in reps:
        v[i] = games.solve(i, v[model.succ[i]])[0]
        v[model.mirror[i]] = -v[i]


def _solve_layer(
    model: DuelModel,
    layer: _Layer,
    v: FloatArray,
    games: MatrixSolver,
    stats: SolveStats,
    tol: float,
    newton_from: float,
    max_iterations: int,
) -> None:
    """Bring the layer's values in ``v`` to the fixed point: sweeps while far off, then
    Newton steps."""
    reps = layer.reps
    previous = np.inf
    for _ in range(max_iterations):
        p_matrix, r, residual = _chain(model, layer, v, games)
        if residual <= tol or (residual < 1e-10 and residual > previous / 2):
            return  # converged, or at the rounding floor where Newton stops gaining
        previous = residual
        if residual > newton_from:
            stats.sweeps += 1  # far from the answer: value iteration first
            _sweep(model, reps, v, games)
            continue
        stats.newton_steps += 1
        try:
            new = np.linalg.solve(np.eye(len(reps)) - p_matrix, r)
        except np.linalg.LinAlgError:  # pragma: no cover - mixes that never finish
            stats.sweeps += 1
            _sweep(model, reps, v, games)
            continue
        v[reps] = new
        v[model.mirror[reps]] = -new
    raise RuntimeError(  # pragma: no cover - the iteration converges in a handful of steps
        f"the duel solver did not converge in layer {layer.score}"
    )


def solve_duel(
    tol: float = 1e-13, newton_from: float = 0.3, max_iterations: int = 200
) -> DuelSolution:
    """Solve the duel exactly (see the module docstring for the method).

    Within each layer, value-iteration sweeps run until ``max |T v - v|`` is below
    ``newton_from``, then Newton steps until it is below ``tol`` (or stops shrinking at the
    rounding level).
    """
    start = time.perf_counter()
    stats = SolveStats("newton")
    model = build_model()
    v = np.zeros(len(model.classes) + 2)
    v[model.win], v[model.loss] = 1.0, -1.0
    games = MatrixSolver()
    for score in SOLVED_LAYERS:
        layer = _layer(model, score)
        _solve_layer(model, layer, v, games, stats, tol, newton_from, max_iterations)
    mixes, stats.residual = optimal_mixes(model, v, games)
    mixes, stats.product_form, stats.max_gap = product_form(model, v, mixes)
    values, strategies = labelled(model, v, mixes)
    stats.pivots += games.pivots
    stats.lp_calls += games.lp_calls
    stats.seconds = time.perf_counter() - start
    class_values = {c: float(v[i]) for i, c in enumerate(model.classes)}
    return DuelSolution(values, strategies, stats, class_values)


_CACHED: DuelSolution | None = None


def cached_solution() -> DuelSolution:
    """The duel's solution, computed on first use and kept for the process."""
    global _CACHED
    if _CACHED is None:
        _CACHED = solve_duel()
    return _CACHED
