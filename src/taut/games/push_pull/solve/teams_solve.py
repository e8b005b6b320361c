"""Exact values of two-teams Push-Pull once a piece has been scored, and what is known before.

The game is a zero-sum recursive game like the duel (:mod:`.duel_newton` explains why the
fixed point of Shapley's operator is its value): each turn both players choose at once,
positions can repeat, a win scores +1 for team 0 and -1 for team 1, and endless play 0.

**Solved here.** The 25 classes of the 1-1 layer (one piece left, 9 x 9 one-turn games)
and the 325 of the 1-0 layer (two pieces, 81 x 81 games), each layer by Newton's method
on ``v = T v`` (solve every one-turn game, then evaluate both mixes exactly with one linear
solve), with the matrix games solved by LP. The 0-1 layer is the 1-0 layer turned half a
turn, negated. The values are shipped with the package (``two_teams_scored.json``,
written by ``python -m taut.games.push_pull.solve.teams_solve``: about a minute) and a
test re-checks the fixed point on them.

**Not solved exactly.** The 2,925 classes before the first score have one-turn games of
729 x 729 joint choices whose optimal mixes use hundreds of actions (three pieces on one
square make many actions equivalent), so one game takes seconds to minutes of LP and a
solve of the layer would need hours. What is proven there: the start is its own half-turn
image, so its value is exactly 0. :mod:`.teams_opening` solves the layer near-exactly
(regret matching instead of LP) and :mod:`.teams_bounds` proves every value there to
within 0.0025.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from taut.games.push_pull.solve.layers import Canon
from taut.games.push_pull.solve.teams_model import TeamsModel, build_model, half_turn
from taut.solve.matrix import MatrixSolver, certify, solve_matrix_game

FloatArray = npt.NDArray[np.float64]
"""Values of classes."""

#: Where the solved values are shipped.
DATA = Path(__file__).with_name("two_teams_scored.json")
#: The layers solved directly; (0, 1) is (1, 0) turned half a turn.
SOLVED_LAYERS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0))


@dataclass
class ScoredSolution:
    """Team 0's value of every class with at least one piece scored."""

    values: dict[Canon, float]
    residual: float
    """``max |T v - v|`` over the solved classes."""
    newton_steps: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        """The shipped form: every class as ``[squares, team 0 score, team 1 score, value]``."""
        return {
            "variant": "two-teams",
            "teams": "NE-SW",
            "residual": self.residual,
            "classes": [[list(sq), a, b, v] for (sq, a, b), v in sorted(self.values.items())],
        }


def game_value(
    model: TeamsModel, i: int, v: FloatArray, games: MatrixSolver
) -> tuple[float, FloatArray, FloatArray]:
    """Value and optimal mixes of class ``i``'s one-turn game at values ``v``."""
    a = v[model.successors(i)]
    try:
        value, x, y, _gap = games.solve(i, a)
        return value, x, y
    except (np.linalg.LinAlgError, ValueError):  # a degenerate basis: plain LP instead
        games.bases.pop(i, None)
        value, x, y = solve_matrix_game(a)
        return certify(a, x, y)[0], x, y


def _solve_layer(
    model: TeamsModel, ids: list[int], v: FloatArray, games: MatrixSolver, tol: float
) -> tuple[int, float]:
    """Newton's method on one layer (values in ``v`` updated in place); returns the steps
    taken and the final residual."""
    column = np.full(len(v), -1)
    column[ids] = np.arange(len(ids))
    previous = np.inf
    for steps in range(100):
        chain = np.zeros((len(ids), len(ids)))
        rest = np.zeros(len(ids))
        fresh = np.empty(len(ids))
        for j, i in enumerate(ids):
            succ = model.successors(i)
            fresh[j], x, y = game_value(model, i, v, games)
            rows, cols = np.flatnonzero(x > 0), np.flatnonzero(y > 0)
            weights = np.outer(x[rows], y[cols]).ravel()
            targets = succ[np.ix_(rows, cols)].ravel()
            inside = column[targets] >= 0
            chain[j] = np.bincount(column[targets[inside]], weights[inside], len(ids))
            rest[j] = weights[~inside] @ v[targets[~inside]]
        residual = float(np.abs(fresh - v[ids]).max())
        if residual <= tol or (residual < 1e-8 and residual > previous / 2):
            return steps, residual  # converged, or at the LP's rounding floor
        previous = residual
        if residual > 0.3:  # far off: a value-iteration sweep first
            v[ids] = fresh
            continue
        try:
            v[ids] = np.linalg.solve(np.eye(len(ids)) - chain, rest)
        except np.linalg.LinAlgError:  # pragma: no cover - mixes that never finish
            v[ids] = fresh
    raise RuntimeError("the two-teams solver did not converge")  # pragma: no cover


def solve_scored(tol: float = 1e-12) -> ScoredSolution:
    """Solve every two-teams class with a piece scored (see the module docstring)."""
    start = time.perf_counter()
    model = build_model()
    v = np.zeros(len(model.classes) + 2)
    v[model.win], v[model.loss] = 1.0, -1.0
    games = MatrixSolver()
    steps, residual = 0, 0.0
    for score in SOLVED_LAYERS:
        s, r = _solve_layer(model, model.layer(score), v, games, tol)
        steps, residual = steps + s, max(residual, r)
        images = model.image[model.layer(score)]
        v[images] = -v[model.layer(score)]
    values = {c: float(v[i]) for i, c in enumerate(model.classes) if c[1] + c[2] > 0}
    return ScoredSolution(values, residual, steps, time.perf_counter() - start)


@cache
def _shipped() -> dict[str, Any]:
    """The shipped file, read once per process."""
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


@cache
def scored_values() -> dict[Canon, float]:
    """The shipped values (team 0 = N+E) of every class with a piece scored."""
    data = _shipped()
    return {(tuple(sq), a, b): float(v) for sq, a, b, v in data["classes"]}


def scored_residual() -> float:
    """``max |T v - v|`` of the shipped values after a score."""
    return float(_shipped()["residual"])


def scored_value(squares: tuple[int, ...], first: int, second: int) -> float:
    """Team 0's exact value of a class with a piece scored (squares sorted)."""
    return scored_values()[(squares, first, second)]


def _main() -> None:
    parser = argparse.ArgumentParser(description="Solve two-teams Push-Pull after a score.")
    parser.add_argument("--write", action="store_true", help=f"Write {DATA.name}.")
    args = parser.parse_args()
    solution = solve_scored()
    print(
        f"{len(solution.values)} classes in {solution.seconds:.1f} s, "
        f"{solution.newton_steps} Newton steps, residual {solution.residual:.2e}"
    )
    centre = half_turn(12)
    print(f"1-0 with both pieces on the centre: {solution.values[((centre, centre), 1, 0)]:+.6f}")
    if args.write:
        DATA.write_text(json.dumps(solution.to_json()) + "\n")
        print(f"wrote {DATA}")


if __name__ == "__main__":
    _main()
