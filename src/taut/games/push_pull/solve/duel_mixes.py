"""Optimal mixes of the duel at solved values: symmetric, certified, spread over positions.

Once the values are known, each class's one-turn matrix game at those values gives both
players' optimal mixes. They are averaged over the position's symmetries, copied to mirror
images, and replaced where possible by the *product form* that plays every piece on its own
with the optimal mix of the one-piece race from its square (certified optimal by its duality
gap; it holds in every duel position).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from taut.games.push_pull.solve.duel_model import NUM_CHOICES, DuelModel, IntArray
from taut.games.push_pull.solve.duel_positions import (
    action_key,
    all_positions,
    classify,
    position_key,
)
from taut.games.push_pull.solve.duel_solution import Mixes
from taut.solve.matrix import MatrixSolver

FloatArray = npt.NDArray[np.float64]
"""A mix or a vector of values."""

Pair = tuple[FloatArray, FloatArray]
"""West's and East's mixes over class-order actions."""


def _digits(a: int, k: int) -> list[int]:
    """The base-3 digits of a class-order action over ``k`` pieces, first piece first."""
    return [a // NUM_CHOICES ** (k - 1 - i) % NUM_CHOICES for i in range(k)]


def _permute_digits(k: int, order: Sequence[int]) -> IntArray:
    """For each action over k pieces, the action whose digit i is the old digit order[i]."""
    out = np.empty(NUM_CHOICES**k, dtype=np.int64)
    for a in range(NUM_CHOICES**k):
        digits = _digits(a, k)
        out[a] = sum(digits[order[i]] * NUM_CHOICES ** (k - 1 - i) for i in range(k))
    return out


def reverse_digits(k: int) -> IntArray:
    """For each action over k pieces, the action with the pieces in reverse order."""
    out = np.empty(NUM_CHOICES**k, dtype=np.int64)
    for a in range(NUM_CHOICES**k):
        out[a] = sum(d * NUM_CHOICES**i for i, d in enumerate(_digits(a, k)))
    return out


def _symmetries(squares: tuple[int, ...]) -> list[IntArray]:
    """Action maps for the permutations of pieces that share a square."""
    k = len(squares)
    maps = []
    for order in itertools.permutations(range(k)):
        if all(squares[order[i]] == squares[i] for i in range(k)):
            maps.append(_permute_digits(k, order))
    return maps


def symmetrise(model: DuelModel, i: int, x: FloatArray, y: FloatArray) -> Pair:
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
        rev = reverse_digits(len(squares))
        x, y = (x + y[rev]) / 2, (y + x[rev]) / 2
    return x, y


def optimal_mixes(
    model: DuelModel, v: FloatArray, games: MatrixSolver
) -> tuple[dict[int, Pair], float]:
    """Every class's symmetrised optimal mixes at the values ``v``, and ``max |T v - v|``.

    Representatives are solved; a mirror image gets them with the roles swapped.
    """
    mirror = model.mirror
    n = len(model.classes)
    mixes: dict[int, Pair] = {}
    residual = 0.0
    for i in range(n):
        if i <= mirror[i]:
            val, x, y, _gap = games.solve(i, v[model.succ[i]])
            residual = max(residual, abs(val - v[i]))
            mixes[i] = symmetrise(model, i, x, y)
    for i in range(n):
        if i > mirror[i]:
            # West at a mirror image plays as East does at the original, pieces reversed.
            x, y = mixes[int(mirror[i])]
            rev = reverse_digits(len(model.classes[i][0]))
            mixes[i] = (y[rev], x[rev])
    return mixes, residual


def _product(mixes: Sequence[FloatArray]) -> FloatArray:
    """The joint mix of independent per-piece mixes over class-order actions (first piece
    the most significant digit)."""
    out: FloatArray = np.ones(1)
    for mix in mixes:
        out = np.asarray(np.kron(out, mix), dtype=np.float64)
    return out


def product_form(
    model: DuelModel, v: FloatArray, mixes: dict[int, Pair]
) -> tuple[dict[int, Pair], int, float]:
    """Prefer, where it is certified optimal, the mix that plays each piece on its own with
    the optimal mix of the one-piece race from its square.

    Returns the mixes (product form where certified, ``mixes`` elsewhere), how many classes
    have the product form, and the largest duality gap of the returned mixes.
    """
    race = {squares[0]: mixes[i] for i, (squares, w, e) in enumerate(model.classes) if w == e == 1}
    out: dict[int, Pair] = {}
    count = 0
    max_gap = 0.0
    for i, (squares, _, _) in enumerate(model.classes):
        x = _product([race[square][0] for square in squares])
        y = _product([race[square][1] for square in squares])
        a = v[model.succ[i]]
        low, high = float((x @ a).min()), float((a @ y).max())
        if high - low <= MatrixSolver.GAP and abs(low - v[i]) <= MatrixSolver.GAP:
            out[i] = (x, y)
            count += 1
        else:
            out[i] = mixes[i]
        x, y = out[i]
        max_gap = max(max_gap, float((a @ y).max() - (x @ a).min()))
    return out, count, max_gap


def labelled(
    model: DuelModel, v: FloatArray, mixes: dict[int, Pair]
) -> tuple[dict[str, float], Mixes]:
    """Spread class values and mixes over the labelled positions."""
    values: dict[str, float] = {}
    strategies: Mixes = {}
    for pos in all_positions():
        canon, pieces = classify(pos)
        i = model.index[canon]
        key = position_key(pos)
        value = float(v[i])
        values[key] = 0.0 if abs(value) < 1e-15 else value  # no "-0.0" or 1e-17 noise
        x, y = mixes[i]
        strategies[key] = {"W": _mix_dict(pieces, x), "E": _mix_dict(pieces, y)}
    return values, strategies


def _mix_dict(pieces: Sequence[int], p: FloatArray) -> dict[str, float]:
    """A mix over class-order actions as ``{notation: probability}`` (its support only)."""
    keep = np.flatnonzero(p > 1e-12)
    total = float(p[keep].sum())
    order = tuple(pieces)
    return {action_key(order, int(a)): float(p[a]) / total for a in keep}
