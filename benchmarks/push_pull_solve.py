"""Time to solve the Push-Pull duel: plain value iteration against taut's solver.

Four methods, each to about 1e-9 or better:

1. ``naive``: value iteration over all 305 labelled positions, Jacobi sweeps, one HiGHS LP
   per position per sweep (``taut.solve.matrix.highs_value``);
2. ``classes``: the same on the 37 position classes (pieces interchangeable, mirror image),
   Gauss-Seidel sweeps;
3. ``classes+simplex``: as 2, with the warm-started simplex instead of HiGHS;
4. ``newton``: taut's solver: layers by score, Newton steps, warm-started simplex.

Prints seconds, ratios to the naive method and the largest value difference from the
solver. The naive method takes a minute or more; ``--naive-seconds`` stops it early (its
time and speed-up are then lower bounds, and its values are not converged).

Run: ``.venv/bin/python benchmarks/push_pull_solve.py [--naive-seconds S] [--json]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from taut.games.push_pull.solve.duel_baselines import iterate_values, solve_duel_naive
from taut.games.push_pull.solve.duel_model import Canon
from taut.games.push_pull.solve.duel_newton import solve_duel
from taut.games.push_pull.solve.duel_positions import all_positions, classify, position_key
from taut.games.push_pull.solve.duel_solution import DuelSolution, SolveStats

TOL = 1e-10


def _max_diff(values: dict[str, float], reference: DuelSolution) -> float:
    return max(abs(v - reference.values[k]) for k, v in values.items())


def _labelled(by_class: dict[Canon, float]) -> dict[str, float]:
    return {position_key(p): by_class[classify(p)[0]] for p in all_positions()}


def _value_iteration(highs: bool) -> tuple[float, SolveStats, dict[str, float]]:
    stats = SolveStats("value-iteration")
    t = time.perf_counter()
    by_class = iterate_values(0.0, tol=TOL, highs=highs, stats=stats)
    return time.perf_counter() - t, stats, _labelled(by_class)


def main() -> None:
    """Run the four methods and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive-seconds", type=float, default=None, help="cap the naive run")
    parser.add_argument("--repeats", type=int, default=5, help="runs of the fast solver")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    fast_times = []
    fast = solve_duel()
    for _ in range(args.repeats):
        t = time.perf_counter()
        fast = solve_duel()
        fast_times.append(time.perf_counter() - t)
    rows: list[dict[str, object]] = []

    t = time.perf_counter()
    naive = solve_duel_naive(tol=TOL, max_seconds=args.naive_seconds)
    naive_time = time.perf_counter() - t
    complete = args.naive_seconds is None or naive_time < args.naive_seconds
    classes_time, classes, classes_values = _value_iteration(highs=True)
    rows.append(
        {
            "method": "naive" + ("" if complete else " (stopped early)"),
            "seconds": naive_time,
            "sweeps": naive.stats.sweeps,
            "lp_calls": naive.stats.lp_calls,
            "max_diff": _max_diff(naive.values, fast) if complete else None,
        }
    )
    rows.append(
        {
            "method": "classes",
            "seconds": classes_time,
            "sweeps": classes.sweeps,
            "lp_calls": classes.lp_calls,
            "max_diff": _max_diff(classes_values, fast),
        }
    )
    simplex_time, simplex, simplex_values = _value_iteration(highs=False)
    rows.append(
        {
            "method": "classes+simplex",
            "seconds": simplex_time,
            "sweeps": simplex.sweeps,
            "lp_calls": simplex.lp_calls,
            "max_diff": _max_diff(simplex_values, fast),
        }
    )
    rows.append(
        {
            "method": "newton",
            "seconds": statistics.median(fast_times),
            "sweeps": fast.stats.sweeps,
            "lp_calls": fast.stats.lp_calls,
            "max_diff": 0.0,
            "newton_steps": fast.stats.newton_steps,
            "pivots": fast.stats.pivots,
            "max_gap": fast.stats.max_gap,
        }
    )
    base = float(rows[0]["seconds"])  # type: ignore[arg-type]
    for row in rows:
        row["speedup"] = base / float(row["seconds"])  # type: ignore[arg-type]
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'method':<26} {'seconds':>9} {'speed-up':>9} {'sweeps':>7} {'LPs':>7}  max |dv|")
    for row in rows:
        diff = row["max_diff"]
        print(
            f"{row['method']!s:<26} {row['seconds']:>9.3f} {row['speedup']:>8.0f}x "
            f"{row['sweeps'] if row['sweeps'] is not None else '-':>7} "
            f"{row['lp_calls'] if row['lp_calls'] is not None else '-':>7}  "
            f"{'-' if diff is None else f'{diff:.1e}'}"
        )
    print(
        f"newton: {fast.stats.newton_steps} Newton steps, {fast.stats.pivots} simplex pivots, "
        f"largest duality gap {fast.stats.max_gap:.1e}; runs: "
        + ", ".join(f"{x:.3f}" for x in fast_times)
    )


if __name__ == "__main__":
    main()
