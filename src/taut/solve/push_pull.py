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

* Pieces are interchangeable and do not interact, so a position is the sorted tuple of the
  squares of the pieces on the board plus how many each side has scored: 70 classes
  instead of 305 labelled positions. Mirroring the strip swaps the players and negates the
  value, which halves that again (37 classes are solved).
* Scoring is irreversible, so the classes form layers by the score (1-1, then 1-0, then
  0-0); each layer is solved once the layers it can reach are known.
* Within a layer, Newton's method on ``v = T v`` (the Pollatschek-Avi-Itzhak iteration):
  solve every matrix game, then evaluate the two mixes exactly with one linear solve,
  ``v = (I - P) ^ -1 r``. It converges quadratically once the supports of the mixes settle;
  a few Gauss-Seidel value-iteration sweeps come first while values are far off.
* Matrix games (at most 27 x 27) are solved by a small dense simplex that remembers each
  position's optimal basis. When the values move a little the old basis is usually still
  optimal, so later iterations cost a linear solve and no pivot; and since the answer is
  recomputed from the basis, it is exact to rounding rather than to an LP tolerance. A
  duality-gap check guards every answer (HiGHS is the fallback).

Positions are written ``"L,M,S"``: each piece's square 0..4 counted from West, or ``W`` /
``E`` when that side has scored it. Actions are written in the game's notation for the
pieces on the board, in the order L, M, S (``"L=pull,M=push,S=pass"``).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from taut.agents.matrix import solve_matrix_game
from taut.games.push_pull.arrows import CHOICE_NAMES, E, W
from taut.games.push_pull.board import EXIT_NAMES, OFF
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import PIECES, layout

Canon = tuple[tuple[int, ...], int, int]
"""A position class: sorted squares of the pieces on the board, West's and East's scores."""

#: Score pairs of the non-terminal layers, solved in this order.
LAYERS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0), (0, 1), (0, 0))
#: Piece codes in the successor tables: squares 0..4, then scored by West, by East.
_W_SCORED, _E_SCORED = 5, 6
_NUM_CHOICES = 3
#: Position classes of the duel (sorted squares on the board, scores).
_NUM_CLASSES = 70


# -- the model: classes, mirror images and successor tables ----------------------------


@dataclass(frozen=True)
class DuelModel:
    """Position classes of the duel and their one-turn successor tables."""

    classes: tuple[Canon, ...]
    index: dict[Canon, int]
    mirror: np.ndarray
    """Class index of each class's mirror image (and WIN <-> LOSS)."""
    succ: tuple[np.ndarray, ...]
    """``succ[i][a, b]``: the class (or WIN / LOSS) after West's ``a`` and East's ``b``.
    Actions are base-3 numbers over the class's pieces in sorted order, first piece the
    most significant digit, with digits 0 pass, 1 pull, 2 push."""

    @property
    def win(self) -> int:
        """Index of the pseudo-class "West has won"."""
        return len(self.classes)

    @property
    def loss(self) -> int:
        """Index of the pseudo-class "East has won"."""
        return len(self.classes) + 1


def _mirror(c: Canon) -> Canon:
    squares, w, e = c
    return (tuple(sorted(4 - s for s in squares)), e, w)


@functools.cache
def piece_step(square: int, west: int, east: int) -> int:
    """Where one piece on ``square`` goes under West's and East's choice codes.

    Returns the new square, or ``5`` / ``6`` when West / East scores it. It reads the
    engine's own move table, so the solver and the game share the one arrow rule.
    """
    lay = layout("duel")
    weight = {side: _NUM_CHOICES**k for k, side in enumerate(lay.sides)}
    loc: int = lay.dest[square * lay.joint_size + west * weight[W] + east * weight[E]]
    if loc < OFF:
        return loc
    return _W_SCORED if loc - OFF == W else _E_SCORED


def build_model() -> DuelModel:
    """Enumerate the classes and build their successor tables from the game's move tables."""
    classes: list[Canon] = []
    for w, e in LAYERS:
        for squares in itertools.combinations_with_replacement(range(5), 3 - w - e):
            classes.append((squares, w, e))
    index = {c: i for i, c in enumerate(classes)}
    win, loss = len(classes), len(classes) + 1
    mirror = np.array([index[_mirror(c)] for c in classes] + [loss, win])

    step = np.array(
        [
            [[piece_step(sq, a, b) for b in range(_NUM_CHOICES)] for a in range(3)]
            for sq in range(5)
        ],
        dtype=np.int64,
    )

    # For each score pair, a table from the pieces' codes (in any order) to the class.
    tables: dict[tuple[int, int], np.ndarray] = {}
    for w, e in LAYERS:
        k = 3 - w - e
        table = np.empty((7,) * k, dtype=np.int64)
        for codes in itertools.product(range(7), repeat=k):
            w2 = w + codes.count(_W_SCORED)
            e2 = e + codes.count(_E_SCORED)
            if w2 >= 2:
                table[codes] = win
            elif e2 >= 2:
                table[codes] = loss
            else:
                table[codes] = index[(tuple(sorted(c for c in codes if c < 5)), w2, e2)]
        tables[(w, e)] = table

    succ = []
    for squares, w, e in classes:
        k = len(squares)
        grids = []
        for i, s in enumerate(squares):
            shape = [1] * (2 * k)
            shape[i] = shape[k + i] = _NUM_CHOICES
            grids.append(step[s].reshape(shape))
        succ.append(tables[(w, e)][tuple(grids)].reshape(3**k, 3**k))
    return DuelModel(tuple(classes), index, mirror, tuple(succ))


# -- matrix games --------------------------------------------------------------------------


@dataclass
class SolveStats:
    """What the solver did and how sure it is."""

    method: str
    seconds: float = 0.0
    pivots: int = 0
    """Simplex pivots over all matrix games."""
    lp_calls: int = 0
    """Matrix games handed to HiGHS (the plain methods, or a rare fallback)."""
    newton_steps: int = 0
    sweeps: int = 0
    product_form: int = 0
    """Position classes whose reported mixes play each piece independently."""
    max_gap: float = 0.0
    """Largest duality gap of the final matrix games: an exact-arithmetic bound on how far
    each mix is from optimal in its position's one-turn game at the returned values."""
    residual: float = 0.0
    """``max |T v - v|`` at the returned values."""


Basis = list[int]
"""The basic columns of the matrix-game LP (see :func:`simplex_matrix_game`)."""


def simplex_matrix_game(
    a: np.ndarray, start: Basis | None = None, eps: float = 1e-11, max_pivots: int = 2000
) -> tuple[np.ndarray, np.ndarray, Basis, int]:
    """Solve the matrix game ``a`` (West maximises) with a small dense simplex.

    With every entry shifted to at least 1 the game is the LP ``max sum(w)`` subject to
    ``shifted @ w + s = 1``, ``w, s >= 0``: East's mix is ``w`` normalised and West's is the
    LP's dual normalised. The slack basis is always feasible, so no phase one is needed.
    ``start`` is a basis to try first (a warm start: if it is still feasible the simplex
    goes on from it, usually with no pivot at all). Pivots follow Dantzig's rule, and
    Bland's after repeated degenerate pivots (these games are very degenerate: pieces on
    one square give equal rows). At the end the answer is recomputed from the basis itself,
    so it is exact to rounding whatever drift the tableau picked up.

    Returns ``(West's mix, East's mix, basis, pivots)``.
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


def _certify(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """``(value, duality gap)`` of the mixes ``x``, ``y`` in the game ``a``."""
    low = float((x @ a).min())
    high = float((a @ y).max())
    return (low + high) / 2, high - low


class MatrixSolver:
    """Exact matrix-game solutions with a remembered basis per position (a warm start)."""

    #: Largest duality gap accepted from the simplex before falling back to HiGHS.
    GAP = 1e-11

    def __init__(self, stats: SolveStats) -> None:
        self.stats = stats
        self.bases: dict[int, Basis] = {}

    def solve(self, key: int, a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, float]:
        """``(value, West's mix, East's mix, gap)`` of the game ``a`` (West maximises)."""
        x, y, basis, pivots = simplex_matrix_game(a, self.bases.get(key))
        self.stats.pivots += pivots
        self.bases[key] = basis
        value, gap = _certify(a, x, y)
        if gap > self.GAP:  # nearly tied entries can leave the basis ill-conditioned
            self.stats.lp_calls += 1
            try:
                _, x2, y2 = solve_matrix_game(a)
            except RuntimeError:  # HiGHS can stall on the same nearly tied games
                return value, x, y, gap
            value2, gap2 = _certify(a, x2, y2)
            if gap2 < gap:
                return value2, x2, y2, gap2
        return value, x, y, gap


def highs_value(a: np.ndarray) -> float:
    """The value of the matrix game ``a`` by one HiGHS LP (``taut.agents.solve_matrix_game``),
    or by the simplex above on the rare nearly tied game where HiGHS reports no status."""
    try:
        return solve_matrix_game(a)[0]
    except RuntimeError:
        x, y, _, _ = simplex_matrix_game(a)
        return _certify(a, x, y)[0]


# -- the solution --------------------------------------------------------------------------


@dataclass
class DuelSolution:
    """Values (West's view) and optimal mixes of every non-terminal duel position."""

    values: dict[str, float]
    strategies: dict[str, dict[str, dict[str, float]]]
    stats: SolveStats
    class_values: dict[Canon, float] = field(repr=False, default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"values": {...}, "strategies": {...}}`` as printed by ``taut solve --json``."""
        return {"values": self.values, "strategies": self.strategies}

    def value(self, position: str) -> float:
        """The value of a position key such as ``"2,2,2"`` for West."""
        return self.values[position]

    def strategy(self, position: str, seat: str) -> dict[str, float]:
        """The optimal mix of ``seat`` (``"W"`` or ``"E"``) at a position key."""
        return self.strategies[position][seat]


def position_key(squares: Sequence[int | str]) -> str:
    """``"2,W,3"`` from the three pieces' squares or scorers, in the order L, M, S."""
    return ",".join(str(s) for s in squares)


def duel_position_key(state: PushPullState) -> str:
    """The position key (``"2,W,3"``) of a duel state."""
    parts = []
    for loc in state.locs:
        parts.append(str(loc) if loc < OFF else EXIT_NAMES[loc - OFF])
    return ",".join(parts)


def all_positions() -> list[tuple[int | str, ...]]:
    """Every non-terminal labelled position, as (L, M, S) squares or ``"W"`` / ``"E"``."""
    squares: list[int | str] = [0, 1, 2, 3, 4, "W", "E"]
    out: list[tuple[int | str, ...]] = []
    for pos in itertools.product(squares, repeat=3):
        if pos.count("W") < 2 and pos.count("E") < 2:
            out.append(pos)
    return out


def classify(pos: Sequence[int | str]) -> tuple[Canon, list[int]]:
    """The class of a labelled position and the pieces on the board in class order."""
    live = sorted((s, p) for p, s in enumerate(pos) if isinstance(s, int))
    squares = tuple(s for s, _ in live)
    return (squares, list(pos).count("W"), list(pos).count("E")), [p for _, p in live]


@functools.cache
def action_key(pieces: tuple[int, ...], action: int) -> str:
    """The notation of a class-order action for the given pieces, listed in order L, M, S."""
    k = len(pieces)
    digits = [action // _NUM_CHOICES ** (k - 1 - i) % _NUM_CHOICES for i in range(k)]
    named = sorted(zip(pieces, digits, strict=True))
    return ",".join(f"{PIECES[p]}={CHOICE_NAMES[d]}" for p, d in named)


def _permute_digits(k: int, order: Sequence[int]) -> np.ndarray:
    """For each action over k pieces, the action whose digit i is the old digit order[i]."""
    out = np.empty(3**k, dtype=np.int64)
    for a in range(3**k):
        digits = [a // 3 ** (k - 1 - i) % 3 for i in range(k)]
        out[a] = sum(digits[order[i]] * 3 ** (k - 1 - i) for i in range(k))
    return out


def _symmetries(squares: tuple[int, ...]) -> list[np.ndarray]:
    """Action maps for the permutations of pieces that share a square."""
    k = len(squares)
    maps = []
    for order in itertools.permutations(range(k)):
        if all(squares[order[i]] == squares[i] for i in range(k)):
            maps.append(_permute_digits(k, order))
    return maps


def _symmetrise(
    model: DuelModel, i: int, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Average a pair of optimal mixes over the symmetries of position class ``i``.

    Swapping pieces that share a square (for both players at once) maps the one-turn game
    to itself, and so does the mirror image of a position that is its own mirror image
    (swapping the players' roles); optimal mixes form a convex set, so the average is
    optimal too, and it treats equal pieces, and the two players, alike.
    """
    squares = model.classes[i][0]
    maps = _symmetries(squares)
    x = sum((x[g] for g in maps), np.zeros_like(x)) / len(maps)
    y = sum((y[g] for g in maps), np.zeros_like(y)) / len(maps)
    if model.mirror[i] == i:
        rev = _reverse_digits(len(squares))
        x, y = (x + y[rev]) / 2, (y + x[rev]) / 2
    return x, y


def _reverse_digits(k: int) -> np.ndarray:
    """For each action over k pieces, the action with the pieces in reverse order."""
    out = np.empty(3**k, dtype=np.int64)
    for a in range(3**k):
        digits = [a // 3 ** (k - 1 - i) % 3 for i in range(k)]
        out[a] = sum(d * 3**i for i, d in enumerate(digits))
    return out


def _labelled(
    model: DuelModel, v: np.ndarray, mixes: dict[int, tuple[np.ndarray, np.ndarray]]
) -> tuple[dict[str, float], dict[str, dict[str, dict[str, float]]]]:
    """Spread class values and mixes over the labelled positions."""
    values: dict[str, float] = {}
    strategies: dict[str, dict[str, dict[str, float]]] = {}
    for pos in all_positions():
        canon, pieces = classify(pos)
        i = model.index[canon]
        key = position_key(pos)
        value = float(v[i])
        values[key] = 0.0 if abs(value) < 1e-15 else value  # no "-0.0" or 1e-17 noise
        x, y = mixes[i]
        strategies[key] = {"W": _mix_dict(pieces, x), "E": _mix_dict(pieces, y)}
    return values, strategies


def _mix_dict(pieces: Sequence[int], p: np.ndarray) -> dict[str, float]:
    keep = np.flatnonzero(p > 1e-12)
    total = float(p[keep].sum())
    order = tuple(pieces)
    return {action_key(order, int(a)): float(p[a]) / total for a in keep}


# -- the fast solver -----------------------------------------------------------------------


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
    n = len(model.classes)
    v = np.zeros(n + 2)
    v[model.win], v[model.loss] = 1.0, -1.0
    mirror = model.mirror
    games = MatrixSolver(stats)
    mixes: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    for layer in ((1, 1), (1, 0), (0, 0)):  # (0, 1) is the mirror image of (1, 0)
        reps = [
            i for i, (_, w, e) in enumerate(model.classes) if (w, e) == layer and i <= mirror[i]
        ]
        # Column of each class in this layer's linear system, with the sign its value has
        # relative to its representative (a mirror image has the opposite value).
        column = np.full(n + 2, -1)
        sign = np.ones(n + 2)
        for j, i in enumerate(reps):
            column[i] = column[mirror[i]] = j
            if mirror[i] != i:
                sign[mirror[i]] = -1.0
        previous = np.inf
        for _ in range(max_iterations):
            size = len(reps)
            p_matrix = np.zeros((size, size))
            r = np.zeros(size)
            residual = 0.0
            for j, i in enumerate(reps):
                succ = model.succ[i]
                val, x, y, _gap = games.solve(i, v[succ])
                residual = max(residual, abs(val - v[i]))
                weights = np.outer(x, y).ravel()
                targets = succ.ravel()
                inside = column[targets] >= 0
                p_matrix[j] = np.bincount(
                    column[targets[inside]],
                    weights=weights[inside] * sign[targets[inside]],
                    minlength=size,
                )
                r[j] = weights[~inside] @ v[targets[~inside]]
            if residual <= tol or (residual < 1e-10 and residual > previous / 2):
                break  # converged, or at the rounding floor where Newton stops gaining
            previous = residual
            if residual > newton_from:
                # Far from the answer: one Gauss-Seidel sweep of value iteration.
                stats.sweeps += 1
                for i in reps:
                    v[i] = games.solve(i, v[model.succ[i]])[0]
                    v[mirror[i]] = -v[i]
                continue
            stats.newton_steps += 1
            try:
                new = np.linalg.solve(np.eye(size) - p_matrix, r)
            except np.linalg.LinAlgError:  # pragma: no cover - mixes that never finish
                stats.sweeps += 1
                for i in reps:
                    v[i] = games.solve(i, v[model.succ[i]])[0]
                    v[mirror[i]] = -v[i]
                continue
            v[reps] = new
            v[mirror[reps]] = -new
        else:  # pragma: no cover - the iteration converges in a handful of steps
            raise RuntimeError(f"the duel solver did not converge in layer {layer}")

    # Final mixes at the converged values, with their certificates.
    for i in range(n):
        if i <= mirror[i]:
            a = v[model.succ[i]]
            val, x, y, _gap = games.solve(i, a)
            stats.residual = max(stats.residual, abs(val - v[i]))
            mixes[i] = _symmetrise(model, i, x, y)
    for i in range(n):
        if i > mirror[i]:
            # West at a mirror image plays as East does at the original, pieces reversed.
            x, y = mixes[int(mirror[i])]
            rev = _reverse_digits(len(model.classes[i][0]))
            mixes[i] = (y[rev], x[rev])
    # Prefer, where it is certified optimal, the mix that plays each piece on its own with
    # the optimal mix of the one-piece race from its square (true in every duel position).
    race = {squares[0]: mixes[i] for i, (squares, w, e) in enumerate(model.classes) if w == e == 1}
    for i, (squares, _, _) in enumerate(model.classes):
        x = y = np.ones(1)
        for square in squares:
            x = np.kron(x, race[square][0])
            y = np.kron(y, race[square][1])
        a = v[model.succ[i]]
        low, high = float((x @ a).min()), float((a @ y).max())
        if high - low <= MatrixSolver.GAP and abs(low - v[i]) <= MatrixSolver.GAP:
            mixes[i] = (x, y)
            stats.product_form += 1
        x, y = mixes[i]
        stats.max_gap = max(stats.max_gap, float((a @ y).max() - (x @ a).min()))
    values, strategies = _labelled(model, v, mixes)
    stats.seconds = time.perf_counter() - start
    class_values = {c: float(v[i]) for i, c in enumerate(model.classes)}
    return DuelSolution(values, strategies, stats, class_values)


# -- the plain methods the benchmark compares against ---------------------------------------


def iterate_values(
    start: float = 0.0,
    tol: float = 1e-12,
    max_sweeps: int = 10_000,
    highs: bool = False,
    stats: SolveStats | None = None,
) -> dict[Canon, float]:
    """Gauss-Seidel value iteration on the 37 classes from ``v = start`` everywhere.

    Stops when no value changes by more than ``tol``. ``highs`` solves every matrix game
    with a fresh HiGHS LP (``taut.agents.solve_matrix_game``) instead of the warm-started
    simplex. Also used to check that the fixed point is unique: from ``+1`` and from
    ``-1`` (the largest and smallest candidates) it must reach :func:`solve_duel`'s values.
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
    games = MatrixSolver(stats)
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
    return {c: float(v[i]) for i, c in enumerate(model.classes)}


def solve_duel_naive(tol: float = 1e-10, max_seconds: float | None = None) -> DuelSolution:
    """Plain value iteration: every one of the 305 labelled positions on its own, Jacobi
    sweeps, one HiGHS LP per position per sweep (``taut.agents.solve_matrix_game``).

    Stops when no value changes by more than ``tol``, or after ``max_seconds``. The
    benchmark's baseline; it returns values only.
    """
    start = time.perf_counter()
    stats = SolveStats("naive")
    positions = all_positions()
    index = {pos: k for k, pos in enumerate(positions)}
    m = len(positions)
    win, loss = m, m + 1
    succ = []
    for pos in positions:
        pieces = [p for p, sq in enumerate(pos) if isinstance(sq, int)]
        k = len(pieces)
        table = np.empty((3**k, 3**k), dtype=np.int64)
        for a, b in itertools.product(range(3**k), repeat=2):
            new: list[int | str] = list(pos)
            for i, p in enumerate(pieces):
                square = pos[p]
                assert isinstance(square, int)  # narrowing: ``pieces`` are on the board
                code = piece_step(square, a // 3 ** (k - 1 - i) % 3, b // 3 ** (k - 1 - i) % 3)
                new[p] = code if code < 5 else ("W" if code == _W_SCORED else "E")
            if new.count("W") >= 2:
                table[a, b] = win
            elif new.count("E") >= 2:
                table[a, b] = loss
            else:
                table[a, b] = index[tuple(new)]
        succ.append(table)
    v = np.zeros(m + 2)
    v[win], v[loss] = 1.0, -1.0
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
    return DuelSolution({position_key(p): float(v[k]) for p, k in index.items()}, {}, stats)


def piece_mix(solution: DuelSolution, position: str, seat: str, piece: str) -> dict[str, float]:
    """The probability of each choice for one piece in a seat's optimal mix (a marginal)."""
    out = {"pull": 0.0, "push": 0.0, "pass": 0.0}
    for action, p in solution.strategy(position, seat).items():
        for part in action.split(","):
            name, _, choice = part.partition("=")
            if name == piece:
                out[choice] += p
    return out


def race_odds(solution: DuelSolution) -> dict[str, float]:
    """West's chance of winning a one-piece race from each square (``"W"``: 1, ``"E"``: 0)."""
    odds = {str(sq): (1 + solution.values[position_key(["W", "E", sq])]) / 2 for sq in range(5)}
    odds.update({"W": 1.0, "E": 0.0})
    return odds


def majority_value(odds: dict[str, float], position: str) -> float:
    """West's value if the game were "win two of three independent one-piece races"."""
    a, b, c = (odds[part] for part in position.split(","))
    win = a * b + a * c + b * c - 2 * a * b * c  # at least two of three
    return 2 * win - 1


def summary_lines(solution: DuelSolution) -> list[str]:
    """A readable report: the start, the per-piece mixes, and where optimal play surprises."""
    values = solution.values
    stats = solution.stats
    odds = race_odds(solution)
    start = piece_mix(solution, "2,2,2", "W", "L")
    lines = [
        f"Push-Pull duel: {len(values)} positions solved in {stats.seconds:.2f} s",
        f"  ({stats.pivots} simplex pivots, {stats.newton_steps} Newton steps, "
        f"largest duality gap {stats.max_gap:.1e}).",
        "",
        f"Value of the start 2,2,2 for West: {values['2,2,2']:+.6f} (fair, by symmetry).",
        "Optimal first turn, for each piece independently (both players alike):",
        f"  pull {start['pull']:.4f}   push {start['push']:.4f}   pass {start['pass']:.4f}",
        "",
        (
            "In every position each piece's optimal mix depends only on its square,"
            if stats.product_form == _NUM_CLASSES
            else f"In {stats.product_form} of {_NUM_CLASSES} position classes each piece's mix"
            " depends only on its square,"
        ),
        "played independently of the other pieces (West's view; East's is the mirror):",
        "  square   pull    push    pass   West wins the piece",
    ]
    table = {}
    for square in range(5):
        mix = piece_mix(solution, position_key(["W", "E", square]), "W", "S")
        table[square] = mix
        lines.append(
            f"  {square:>6}  {mix['pull']:.4f}  {mix['push']:.4f}  {mix['pass']:.4f}"
            f"   {odds[str(square)]:.6f}"
        )
    gap = max(abs(v - majority_value(odds, key)) for key, v in values.items())
    lines += [
        "Every value equals that of winning two of three independent one-piece races",
        f"(largest difference {gap:.0e}).",
        "",
        "Least intuitive:",
    ]
    for square, where in ((0, "On the square next to your own edge"), (1, "One square further in")):
        mix = table[square]
        if mix["push"] > mix["pull"]:
            lines.append(f"  * {where}, push the piece away more often")
            lines.append(f"    than you pull it in ({mix['push']:.4f} against {mix['pull']:.4f}).")
        else:
            lines.append(f"  * {where}, pull only just beats push")
            lines.append(f"    ({mix['pull']:.4f} against {mix['push']:.4f}).")
    behind: dict[float, str] = {}
    for key, v in sorted(values.items()):
        if key.count("W") > key.count("E") and v < 0:
            behind.setdefault(round(v, 12), key)  # one example per class
    if behind:
        examples = ", ".join(f"{key} ({v:+.4f})" for v, key in sorted(behind.items())[:3])
        lines.append("  * Scoring first is no guarantee: West has scored more yet East is")
        lines.append(f"    favoured at {examples}.")
    return lines


_CACHED: DuelSolution | None = None


def cached_solution() -> DuelSolution:
    """The duel's solution, computed on first use and kept for the process."""
    global _CACHED
    if _CACHED is None:
        _CACHED = solve_duel()
    return _CACHED
