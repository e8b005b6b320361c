"""Proven bounds on the values of two-teams Push-Pull before the first score.

The near-exact values of :mod:`.teams_opening` are not proofs. A bound is: fix a stationary
strategy ``x`` for N+E before the first score (here the regret-matching mix that ``hard``
plays, :func:`opening_mix`) and the exact optimal play after it; whatever S+W does,

1. **play ends**: ``x`` leaves S+W no way to keep all three pieces on the board forever.
   With ``s_0 = 1`` on the layer and ``s_{n+1}(i) = max_b sum_a x_a(i) s_n(succ(i, a, b))``
   (0 once a piece is scored), ``s_K(i)`` is the most S+W can make the probability that
   no piece is scored within ``K`` turns; if ``q = max_i s_K(i) < 1``, surviving ``mK``
   turns has probability at most ``q^m``, so a score comes with probability 1;
2. **N+E gets at least ``L``**: ``L`` is the value of ``x`` against S+W's best reply,
   found by policy iteration, lowered by a small slack and then *checked*: for every
   class, every reply ``b`` of S+W gives ``sum_a x_a L(succ(i, a, b)) >= L(i) - d``, with
   the exact values after a score at the layer's exits and ``d`` the largest shortfall
   the check finds (floating-point rounding, about 1e-15). Then ``L`` along any play loses
   at most ``d`` a turn in expectation and ends (by 1.) at an exact value N+E can hold;
   play lasts at most ``K / (1 - q)`` turns on average, so the game's value is at least
   ``L - d K / (1 - q)``, which is what is shipped as the lower bound.

Half a turn of the board swaps the teams, so S+W playing the turned strategy gives the
upper bound ``U(i) = -L(half_turn(i))``. Both rest on the exact values after a score
(themselves exact to about 5e-10) and on the model's endless-play value 0.

``python -m taut.games.push_pull.solve.teams_bounds --write`` computes them (about ten
minutes on two cores) into ``two_teams_bounds.json``.
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

from taut.games.push_pull.solve.teams_model import TeamsModel
from taut.games.push_pull.solve.teams_opening import (
    OPENING,
    all_values,
    cached_model,
    start_in_layer,
)
from taut.solve.matrix import regret_matching

FloatArray = npt.NDArray[np.float64]
"""Values or mixes."""

#: Where the bounds are shipped.
DATA = Path(__file__).with_name("two_teams_bounds.json")
#: Regret-matching rounds of the mixes :func:`opening_mix` plays (and ``hard`` plays).
ITERATIONS = 1000
#: How far the lower bound is set below the best reply's value before it is checked.
SLACK = 1e-7


def opening_mix(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The mixes ``(N+E's, S+W's)`` that regret matching finds for an opening class's
    one-turn game ``payoff`` (deterministic: the same every time)."""
    x, y = regret_matching(payoff.astype(np.float32), ITERATIONS)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    return x64 / x64.sum(), y64 / y64.sum()


def _mixes(ids: list[int]) -> npt.NDArray[np.float64]:
    """N+E's mixes of classes ``ids`` (a worker's share)."""
    model, values = cached_model(), all_values()
    return np.stack([opening_mix(values[model.successors(i)])[0] for i in ids])


def _replies(
    job: tuple[list[int], FloatArray, npt.NDArray[np.float64], bool],
) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """For classes ``ids`` with N+E's mixes ``xs``: the value of S+W's worst reply for N+E
    under ``w`` (or, with ``best``, S+W's best reply for itself: the smallest value) and
    that reply; with ``best`` False, the largest value instead."""
    ids, w, xs, best = job
    model = cached_model()
    values = np.empty(len(ids))
    replies = np.empty(len(ids), dtype=np.int64)
    for j, i in enumerate(ids):
        columns = xs[j] @ w[model.successors(i)]
        b = int(np.argmin(columns) if best else np.argmax(columns))
        values[j], replies[j] = columns[b], b
    return values, replies


@dataclass
class Bounds:
    """Proven bounds on N+E's value of every class of the opening layer."""

    low: FloatArray
    high: FloatArray
    survival: float
    """``q``: the most S+W can make the chance that no piece is scored in ``turns`` turns."""
    turns: int
    policy_steps: int
    seconds: float

    def to_json(self, model: TeamsModel) -> dict[str, object]:
        """The shipped form: per class ``[squares, low, high]``."""
        layer = model.layer(OPENING)
        return {
            "variant": "two-teams",
            "teams": "NE-SW",
            "survival": self.survival,
            "turns": self.turns,
            "slack": SLACK,
            "iterations": ITERATIONS,
            "classes": [
                [list(model.classes[i][0]), float(lo), float(hi)]
                for i, lo, hi in zip(layer, self.low, self.high, strict=True)
            ],
        }


def prove_bounds(workers: int = 2, turns: int = 12, verbose: bool = False) -> Bounds:
    """Compute and check the bounds (see the module docstring)."""
    start = time.perf_counter()
    model = cached_model()
    layer = model.layer(OPENING)
    n = len(layer)
    parts = [list(p) for p in np.array_split(np.arange(n), max(1, workers))]

    def say(what: str) -> None:
        if verbose:
            print(f"{what} ({time.perf_counter() - start:.0f} s)", flush=True)

    with ProcessPoolExecutor(max(1, workers)) as pool:
        xs = np.concatenate(list(pool.map(_mixes, [[layer[k] for k in p] for p in parts])))
        say("mixes")

        def sweep(w: FloatArray, best: bool) -> tuple[FloatArray, npt.NDArray[np.int64]]:
            jobs = [([layer[k] for k in p], w, xs[p], best) for p in parts]
            done = list(pool.map(_replies, jobs))
            return np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done])

        # 1. Play ends: the longest S+W can keep every piece on the board.
        s = np.zeros(len(model.classes) + 2)
        s[layer] = 1.0
        for _ in range(turns):
            s[layer] = sweep(s, best=False)[0]
        survival = float(s[layer].max())
        say(f"survival over {turns} turns at most {survival:.4f}")
        if survival >= 1.0:
            raise RuntimeError(f"S+W can keep the pieces on the board for {turns} turns")
        # 2. The value of x against S+W's best reply, by policy iteration.
        w = all_values().copy()
        column = np.full(len(w), -1)
        column[layer] = np.arange(n)
        previous: npt.NDArray[np.int64] | None = None
        steps = 0
        for steps in range(1, 50):
            _, replies = sweep(w, best=True)
            if previous is not None and np.array_equal(replies, previous):
                break
            previous = replies
            chain = np.zeros((n, n))
            rest = np.zeros(n)
            for j, i in enumerate(layer):
                targets = model.successors(i)[:, replies[j]]
                inside = column[targets] >= 0
                chain[j] = np.bincount(column[targets[inside]], xs[j][inside], n)
                rest[j] = xs[j][~inside] @ w[targets[~inside]]
            w[layer] = np.linalg.solve(np.eye(n) - chain, rest)
            say(f"policy step {steps}")
        # 3. Check the lowered values: no reply of S+W takes N+E below them by more than
        # rounding, which costs at most its size times the expected turns before a score.
        w[layer] -= SLACK
        worst, _ = sweep(w, best=True)
        shortfall = max(0.0, float((w[layer] - worst).max()))
        if shortfall > 1e-9:
            raise RuntimeError(f"the lower bound fails its check by {shortfall:.2e}")
        say(f"checked (shortfall {shortfall:.1e})")
    low = w[layer] - shortfall * turns / (1.0 - survival)
    high = -w[model.image[layer]]
    return Bounds(low, high, survival, turns, steps, time.perf_counter() - start)


@cache
def _shipped() -> dict[str, Any]:
    """The shipped file, read once per process."""
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def opening_bounds() -> dict[tuple[int, ...], tuple[float, float]]:
    """The shipped bounds (N+E's value) of the opening layer, by sorted squares."""
    return {tuple(sq): (float(lo), float(hi)) for sq, lo, hi in _shipped()["classes"]}


def survival() -> tuple[float, int]:
    """``(q, turns)`` of the shipped proof that play ends."""
    data = _shipped()
    return float(data["survival"]), int(data["turns"])


def _main() -> None:
    parser = argparse.ArgumentParser(description="Prove bounds on two-teams before a score.")
    parser.add_argument("--workers", type=int, default=2, help="Processes (default 2).")
    parser.add_argument("--turns", type=int, default=12, help="Turns of the survival check.")
    parser.add_argument("--write", action="store_true", help=f"Write {DATA.name}.")
    args = parser.parse_args()
    bounds = prove_bounds(args.workers, args.turns, verbose=True)
    model = cached_model()
    width = bounds.high - bounds.low
    print(
        f"{len(width)} classes in {bounds.seconds:.0f} s: widest bracket {width.max():.4f}, "
        f"mean {width.mean():.4f}; survival {bounds.survival:.4f} over {bounds.turns} turns"
    )
    start = start_in_layer(model)
    print(f"start: [{bounds.low[start]:+.6f}, {bounds.high[start]:+.6f}]")
    if args.write:
        DATA.write_text(json.dumps(bounds.to_json(model)) + "\n")
        print(f"wrote {DATA}")


if __name__ == "__main__":
    _main()
