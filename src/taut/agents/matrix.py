"""Two-player zero-sum matrix games solved by linear programming (SciPy's HiGHS)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linprog


def solve_matrix_game(
    payoff: Sequence[Sequence[float]] | np.ndarray,
) -> tuple[float, np.ndarray, np.ndarray]:
    """Solve the zero-sum game where the row player receives ``payoff[i][j]``.

    Returns ``(value, row_strategy, column_strategy)``: the row player's maximin mix, the
    column player's minimax mix (from the LP's dual), and the game's value.
    """
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"payoff must be a non-empty 2-D matrix, got shape {a.shape}")
    m, n = a.shape
    lo, hi = float(a.min()), float(a.max())
    if hi - lo < 1e-12:  # every outcome is the same: any mix is optimal
        return lo, np.full(m, 1.0 / m), np.full(n, 1.0 / n)
    # Variables x_0..x_{m-1}, v. Maximise v subject to (A^T x)_j >= v, sum x = 1, x >= 0.
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    # HiGHS's default can stall on nearly degenerate games; its other methods then succeed.
    for method in ("highs", "highs-ipm", "highs-ds"):
        res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method=method)
        if res.status == 0:
            break
    else:  # pragma: no cover - every finite matrix game has a solution
        raise RuntimeError(f"matrix game LP failed: {res.message}")
    x = _normalise(res.x[:m])
    y = _normalise(-np.asarray(res.ineqlin.marginals))
    return float(res.x[-1]), x, y


def _normalise(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 0.0, None)
    total = p.sum()
    return p / total if total > 0 else np.full(len(p), 1.0 / len(p))
