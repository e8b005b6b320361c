"""Two-player zero-sum matrix games: the one solver every agent and solver uses.

* :func:`solve_matrix_game` solves one game by linear programming (SciPy's HiGHS) and
  returns the value and both optimal mixes; :func:`solve_small_matrix_game` gives the same
  value for the many small games of a search, with an LP only where one is needed;
* :func:`simplex_matrix_game` is a small dense simplex that can start from a known basis,
  and :class:`MatrixSolver` keeps one basis per key, so a solver that meets nearly the same
  game again and again (value iteration, Newton's method) pays a linear solve instead of an
  LP; its answers are recomputed from the basis and certified by their duality gap, with
  HiGHS as the fallback;
* :func:`certify` measures how far two mixes are from an equilibrium.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


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
    from scipy.optimize import linprog  # a large import, paid only when an LP is solved

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


def solve_small_matrix_game(
    a: np.ndarray, gap: float = 1e-9
) -> tuple[float, np.ndarray, np.ndarray]:
    """:func:`solve_matrix_game` for the small games a search meets by the thousand, without
    an LP wherever one is not needed (``a`` a non-empty 2-D float array; the row player
    maximises).

    A saddle point (the best row minimum equals the best column maximum: every game with one
    row or one column, and most of a double oracle's restricted games) is a pure equilibrium;
    a 2x2 game without one has a closed form; anything else goes to the dense simplex
    (:func:`simplex_matrix_game`), whose answer is kept if its duality gap is within ``gap``
    and handed to HiGHS otherwise. The value is the game's value to rounding; where several
    equilibria exist the mixes may differ from the LP's.
    """
    m, n = a.shape
    row_low = a.min(axis=1)
    col_high = a.max(axis=0)
    i = int(np.argmax(row_low))
    j = int(np.argmin(col_high))
    if col_high[j] - row_low[i] <= 1e-12:
        x = np.zeros(m)
        y = np.zeros(n)
        x[i] = 1.0
        y[j] = 1.0
        return float(a[i, j]), x, y
    if m == 2 and n == 2:
        # No saddle point: both players mix, each making the other indifferent.
        (p, q), (r, t) = a
        d = p - q - r + t
        xr = (t - r) / d
        yc = (t - q) / d
        return (p * t - q * r) / d, np.array([xr, 1.0 - xr]), np.array([yc, 1.0 - yc])
    x, y, _, _ = simplex_matrix_game(a)
    value, found = certify(a, x, y)
    if found <= gap:
        return value, x, y
    return solve_matrix_game(a)


def _normalise(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 0.0, None)
    total = p.sum()
    return p / total if total > 0 else np.full(len(p), 1.0 / len(p))


Basis = list[int]
"""The basic columns of the matrix-game LP (see :func:`simplex_matrix_game`)."""


def simplex_matrix_game(
    a: np.ndarray, start: Basis | None = None, eps: float = 1e-11, max_pivots: int = 2000
) -> tuple[np.ndarray, np.ndarray, Basis, int]:
    """Solve the matrix game ``a`` (the row player maximises) with a small dense simplex.

    With every entry shifted to at least 1 the game is the LP ``max sum(w)`` subject to
    ``shifted @ w + s = 1``, ``w, s >= 0``: the column player's mix is ``w`` normalised and the
    row player's is the LP's dual normalised. The slack basis is always feasible, so no phase
    one is needed. ``start`` is a basis to try first (a warm start: if it is still feasible the
    simplex goes on from it, usually with no pivot at all). Pivots follow Dantzig's rule, and
    Bland's after repeated degenerate pivots (these games are very degenerate: pieces on one
    square give equal rows). At the end the answer is recomputed from the basis itself, so it is
    exact to rounding whatever drift the tableau picked up.

    Returns ``(the row player's mix, the column player's mix, basis, pivots)``.
    """
    m, n = a.shape
    shifted = a - a.min() + 1.0
    full = np.hstack([shifted, np.eye(m), np.ones((m, 1))])  # last column: right-hand side
    cost = np.concatenate([np.ones(n), np.zeros(m + 1)])

    def tableau(basis: Basis) -> np.ndarray:
        table = np.empty((m + 1, n + m + 1))
        table[:m] = np.linalg.solve(full[:, basis], full)
        table[m] = cost - cost[basis] @ table[:m]  # reduced costs; last entry -objective
        return table

    basis: Basis | None = None
    table = np.empty(0)
    if start is not None:
        try:
            table = tableau(start)
            if table[:m, -1].min() >= -1e-12:
                basis = list(start)
        except np.linalg.LinAlgError:
            basis = None
    if basis is None:
        basis = list(range(n, n + m))
        table = np.vstack([full, cost])
    pivots = 0
    bland = False
    degenerate = 0
    for _refresh in range(4):
        while pivots < max_pivots:
            reduced = table[m, :-1]
            if bland:
                improving = np.flatnonzero(reduced > eps)
                if not len(improving):
                    break
                q = int(improving[0])
            else:
                q = int(np.argmax(reduced))
                if reduced[q] <= eps:
                    break
            column = table[:m, q]
            rows = np.flatnonzero(column > eps)
            ratios = table[rows, -1] / column[rows]
            best = float(ratios.min())
            ties = rows[ratios <= best + 1e-13]
            r = int(ties[np.argmin(np.asarray(basis)[ties])])
            if best <= 1e-13:
                degenerate += 1
                bland = bland or degenerate > 10
            table[r] /= table[r, q]
            factors = table[:, q].copy()
            factors[r] = 0.0
            table -= np.outer(factors, table[r])
            basis[r] = q
            pivots += 1
        table = tableau(basis)  # fresh from the basis: no accumulated drift
        if table[:m, -1].min() >= -1e-13 and table[m, :-1].max() <= eps:
            break
    duals = np.linalg.solve(full[:, basis].T, cost[basis])
    primal = np.zeros(n + m + 1)
    primal[basis] = np.clip(table[:m, -1], 0.0, None)
    y = primal[:n] / primal[:n].sum()
    x = np.clip(duals, 0.0, None)
    return x / x.sum(), y, basis, pivots


def certify(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """``(value, duality gap)`` of the mixes ``x``, ``y`` in the game ``a``."""
    low = float((x @ a).min())
    high = float((a @ y).max())
    return (low + high) / 2, high - low


class MatrixSolver:
    """Exact matrix-game solutions with a remembered basis per key (a warm start).

    Solving many games that change a little between calls (the same position in successive
    iterations of a solver) costs a linear solve and no pivot once the basis settles.
    ``pivots`` and ``lp_calls`` count the work done.
    """

    #: Largest duality gap accepted from the simplex before falling back to HiGHS.
    GAP = 1e-11

    def __init__(self) -> None:
        self.bases: dict[Hashable, Basis] = {}
        self.pivots = 0
        """Simplex pivots over all games."""
        self.lp_calls = 0
        """Games handed to HiGHS (a rare fallback)."""

    def solve(self, key: Hashable, a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, float]:
        """``(value, row mix, column mix, gap)`` of the game ``a`` (the row player maximises)."""
        x, y, basis, pivots = simplex_matrix_game(a, self.bases.get(key))
        self.pivots += pivots
        self.bases[key] = basis
        value, gap = certify(a, x, y)
        if gap > self.GAP:  # nearly tied entries can leave the basis ill-conditioned
            self.lp_calls += 1
            try:
                _, x2, y2 = solve_matrix_game(a)
            except RuntimeError:  # HiGHS can stall on the same nearly tied games
                return value, x, y, gap
            value2, gap2 = certify(a, x2, y2)
            if gap2 < gap:
                return value2, x2, y2, gap2
        return value, x, y, gap


def highs_value(a: np.ndarray) -> float:
    """The value of the matrix game ``a`` by one HiGHS LP (:func:`solve_matrix_game`),
    or by the simplex above on the rare nearly tied game where HiGHS reports no status."""
    try:
        return solve_matrix_game(a)[0]
    except RuntimeError:
        x, y, _, _ = simplex_matrix_game(a)
        return certify(a, x, y)[0]


def regret_matching(
    a: np.ndarray,
    iterations: int,
    regrets: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Approximate equilibrium mixes of the game ``a`` (the row player maximises) by
    ``iterations`` rounds of alternating regret matching+ with linearly weighted averages.

    For games too large for an LP to be quick (hundreds of moves a side, supports of
    hundreds): each round is two matrix-vector products, and the duality gap
    (:func:`certify`) of the averages falls roughly as ``1 / iterations``. ``regrets``, the
    players' cumulative regrets, are updated in place when given, so a solver that meets
    nearly the same game again continues where it stopped.
    """
    m, n = a.shape
    rx, ry = regrets if regrets is not None else (np.zeros(m, a.dtype), np.zeros(n, a.dtype))
    sum_x, sum_y = np.zeros(m), np.zeros(n)

    def mix(r: np.ndarray) -> np.ndarray:
        total = r.sum()
        return r / total if total > 0 else np.full(len(r), 1.0 / len(r), r.dtype)

    y = mix(ry)
    for t in range(1, iterations + 1):
        x = mix(rx)
        u = a @ y
        rx += u - x @ u
        np.maximum(rx, 0.0, out=rx)
        x = mix(rx)
        sum_x += t * x
        w = x @ a
        ry += y @ w - w
        np.maximum(ry, 0.0, out=ry)
        y = mix(ry)
        sum_y += t * y
    return sum_x / sum_x.sum(), sum_y / sum_y.sum()
