"""Near-exact values of two-teams Push-Pull before the first score (the 0-0 layer).

The 2,925 classes with three pieces on the board have one-turn games of 729 x 729 joint
choices whose optimal mixes use hundreds of moves, so an LP per game takes seconds and the
layer's fixed point ``v = T v`` would take hours of LP. Here each one-turn game is solved
approximately by regret matching+ (:func:`~taut.solve.matrix.regret_matching`), warm-started
from the regrets of the previous step, and the layer by Newton's method as the layers after
a score are (:mod:`.teams_solve`): solve every game, then evaluate both mixes exactly by one
linear solve over the layer, with the exact values after a score at its exits. Values are
kept antisymmetric under half a turn of the board, as the exact ones are.

What the result guarantees is measured on the values it ships: for every class, averages
of regret matching at those values bound the one-turn game's value from below and above,
and the shipped value lies within ``error`` of both bounds, ``max |T v - v| <= error``.
That is a statement about the fixed point, not a proof that each value is within
``error`` of the game's value (a position's error can grow by the expected number of turns
before someone scores); :mod:`.teams_bounds` proves bounds.

``python -m taut.games.push_pull.solve.teams_opening --write`` regenerates
``two_teams_opening.json`` (about 15 minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from taut.games.push_pull.solve.teams_model import TeamsModel, build_model
from taut.games.push_pull.solve.teams_solve import scored_values
from taut.solve.matrix import regret_matching

FloatArray = npt.NDArray[np.float64]
"""Values of classes."""

#: Where the values are shipped.
DATA = Path(__file__).with_name("two_teams_opening.json")
#: The layer solved here.
OPENING = (0, 0)


def exact_exits(model: TeamsModel) -> FloatArray:
    """Team 0's values of every class and of the two results, with the exact values after
    a score filled in and the opening layer at 0."""
    v = np.zeros(len(model.classes) + 2)
    v[model.win], v[model.loss] = 1.0, -1.0
    for c, value in scored_values().items():
        v[model.index[c]] = value
    return v


def one_turn_payoff(model: TeamsModel, i: int, v: FloatArray) -> FloatArray:
    """Class ``i``'s one-turn game at values ``v`` (team 0's value after each pair of
    class-order actions)."""
    payoff: FloatArray = v[model.successors(i)]
    return payoff


@dataclass
class _Sweep:
    """What solving a chunk of the layer's games returns."""

    fresh: FloatArray
    low: FloatArray
    high: FloatArray
    chain: FloatArray
    rest: FloatArray
    regrets: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


@cache
def cached_model() -> TeamsModel:
    """The model, built once per process (worker processes build their own)."""
    return build_model()


def _sweep(
    job: tuple[list[int], FloatArray, npt.NDArray[np.float32], npt.NDArray[np.float32], int],
) -> _Sweep:
    """Solve the one-turn games of classes ``ids`` at values ``v`` by ``iterations`` rounds
    of regret matching from the given regrets; each class's mixes give its row of the
    layer's transition matrix and its expected value at the exits."""
    ids, v, rx, ry, iterations = job
    model = cached_model()
    layer = model.layer(OPENING)
    column = np.full(len(v), -1)
    column[layer] = np.arange(len(layer))
    out = _Sweep(
        fresh=np.empty(len(ids)),
        low=np.empty(len(ids)),
        high=np.empty(len(ids)),
        chain=np.zeros((len(ids), len(layer))),
        rest=np.empty(len(ids)),
        regrets=(rx, ry),
    )
    for j, i in enumerate(ids):
        succ = model.successors(i)
        payoff = v[succ].astype(np.float32)  # float32 halves the memory traffic
        x, y = regret_matching(payoff, iterations, (rx[j], ry[j]))
        out.low[j] = float((x @ payoff).min())
        out.high[j] = float((payoff @ y).max())
        out.fresh[j] = float(x @ payoff @ y)
        rows, cols = np.flatnonzero(x > 1e-7), np.flatnonzero(y > 1e-7)
        weights = np.outer(x[rows] / x[rows].sum(), y[cols] / y[cols].sum()).ravel()
        targets = succ[np.ix_(rows, cols)].ravel()
        inside = column[targets] >= 0
        out.chain[j] = np.bincount(column[targets[inside]], weights[inside], len(layer))
        out.rest[j] = weights[~inside] @ v[targets[~inside]]
    return out


@dataclass
class OpeningSolution:
    """Team 0's values of the opening layer's classes, with their one-turn bounds."""

    values: FloatArray
    low: FloatArray
    high: FloatArray
    steps: int
    iterations: int
    seconds: float

    @property
    def error(self) -> float:
        """``max |T v - v|`` as certified by the bounds: how far any shipped value lies
        outside its one-turn game's value bounds, plus the bounds' width."""
        return float(np.maximum(self.high - self.values, self.values - self.low).max())

    def to_json(self, model: TeamsModel) -> dict[str, object]:
        """The shipped form: per class ``[squares, value, low, high]``."""
        layer = model.layer(OPENING)
        return {
            "variant": "two-teams",
            "teams": "NE-SW",
            "layer": list(OPENING),
            "error": self.error,
            "mean_gap": float(np.mean(self.high - self.low)),
            "steps": self.steps,
            "iterations": self.iterations,
            "classes": [
                [list(model.classes[i][0]), float(v), float(lo), float(hi)]
                for i, v, lo, hi in zip(layer, self.values, self.low, self.high, strict=True)
            ],
        }


def solve_opening(
    steps: int = 5, iterations: int = 400, workers: int = 2, verbose: bool = False
) -> OpeningSolution:
    """Newton's method over the opening layer with regret-matching one-turn games (see the
    module docstring); a last sweep at the final values measures the bounds."""
    start = time.perf_counter()
    model = cached_model()
    layer = model.layer(OPENING)
    v = exact_exits(model)
    n = len(layer)
    rx = np.zeros((n, model.choices**3), np.float32)
    ry = np.zeros_like(rx)
    parts = np.array_split(np.arange(n), max(1, workers))
    low = high = np.zeros(n)
    with ProcessPoolExecutor(max(1, workers)) as pool:
        for step in range(steps + 1):
            jobs = [([layer[k] for k in p], v, rx[p], ry[p], iterations) for p in parts]
            sweeps = list(pool.map(_sweep, jobs))
            for p, s in zip(parts, sweeps, strict=True):
                rx[p], ry[p] = s.regrets
            low = np.concatenate([s.low for s in sweeps])
            high = np.concatenate([s.high for s in sweeps])
            if step == steps:
                break  # the measuring sweep: values stay as they are
            chain = np.concatenate([s.chain for s in sweeps])
            rest = np.concatenate([s.rest for s in sweeps])
            fresh = np.concatenate([s.fresh for s in sweeps])
            residual = float(np.abs(fresh - v[layer]).max())
            v[layer] = np.linalg.solve(np.eye(n) - chain, rest)
            # Half a turn of the board maps the layer to itself and negates values: keep
            # the approximation exactly antisymmetric (the start then stays exactly 0).
            v[layer] = (v[layer] - v[model.image[layer]]) / 2
            if verbose:
                print(
                    f"step {step + 1}/{steps}: residual {residual:.2e}, mean one-turn gap "
                    f"{np.mean(high - low):.2e} ({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )
    return OpeningSolution(v[layer], low, high, steps, iterations, time.perf_counter() - start)


def start_in_layer(model: TeamsModel) -> int:
    """Where the start (every piece on the centre) is in the opening layer's order."""
    return model.layer(OPENING).index(model.index[((12, 12, 12), 0, 0)])


@cache
def _shipped() -> dict[str, Any]:
    """The shipped file, read once per process."""
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def opening_values() -> dict[tuple[int, ...], float]:
    """The shipped values (team 0 = N+E) of the opening layer, by sorted squares."""
    return {tuple(sq): float(v) for sq, v, _lo, _hi in _shipped()["classes"]}


def opening_error() -> float:
    """``max |T v - v|`` certified for the shipped values."""
    return float(_shipped()["error"])


@cache
def all_values() -> FloatArray:
    """Team 0's value of every class of :func:`build_model` and of the two results: exact
    after a score, the shipped near-exact values before."""
    model = cached_model()
    v = exact_exits(model)
    for squares, value in opening_values().items():
        v[model.index[(squares, 0, 0)]] = value
    return v


def _main() -> None:
    parser = argparse.ArgumentParser(description="Solve two-teams Push-Pull before a score.")
    parser.add_argument("--steps", type=int, default=5, help="Newton steps (default 5).")
    parser.add_argument(
        "--iterations", type=int, default=400, help="Regret-matching rounds a game a step."
    )
    parser.add_argument("--workers", type=int, default=2, help="Processes (default 2).")
    parser.add_argument("--write", action="store_true", help=f"Write {DATA.name}.")
    args = parser.parse_args()
    solution = solve_opening(args.steps, args.iterations, args.workers, verbose=True)
    model = cached_model()
    print(
        f"{len(solution.values)} classes in {solution.seconds:.0f} s; max |Tv - v| <= "
        f"{solution.error:.2e}, mean one-turn gap {np.mean(solution.high - solution.low):.2e}"
    )
    print(f"start: {solution.values[start_in_layer(model)]:+.6f}")
    if args.write:
        DATA.write_text(json.dumps(solution.to_json(model)) + "\n")
        print(f"wrote {DATA}")


if __name__ == "__main__":
    _main()
