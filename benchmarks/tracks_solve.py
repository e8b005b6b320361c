"""Solve times of the track-tile solitaire by board size, for each way of finding the maximum.

For every size, random puzzles are made as the rules describe and solved piece by piece:
counting the tilings up to the cap (frontier program, guided by the original as the
solver does, and unguided for comparison), the maximum difference by MaxSAT and by the
frontier passes, and the whole :func:`solve` as the CLI runs it. Times are wall-clock
seconds on one core; ratio columns compare the alternatives on the same puzzles.

    python benchmarks/tracks_solve.py [--puzzles 20] [--max-size 7] [--dp-max-size 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from taut.games.tracks.solitaire import generate, realises
from taut.games.tracks.solver import FrontierSolver, max_difference_sat, sat_available, solve


def main() -> None:
    """Print one row per board size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=20)
    parser.add_argument("--min-size", type=int, default=2)
    parser.add_argument("--max-size", type=int, default=7)
    parser.add_argument("--dp-max-size", type=int, default=6)
    parser.add_argument("--cap", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    if not sat_available():
        raise SystemExit("python-sat is needed: pip install 'taut[solve]'")
    print(
        f"{'size':>4} {'puzzles':>7} {'count':>7} {'unguided':>8} {'ratio':>6} "
        f"{'sat mean':>8} {'sat max':>8} {'dp mean':>8} {'dp max':>7} {'dp/sat':>7} "
        f"{'solve mean':>10} {'solve max':>9}"
    )
    for size in range(args.min_size, args.max_size + 1):
        rng = random.Random(args.seed * 100 + size)
        t_count, t_free, t_sat, t_dp, t_total = [], [], [], [], []
        for _ in range(args.puzzles):
            puzzle = generate(size, rng)
            assert puzzle.original is not None
            partner = puzzle.partner()
            solver = FrontierSolver(size, partner)
            t0 = time.perf_counter()
            solver.count(args.cap)
            t_free.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            solver.count(args.cap, puzzle.original)
            t1 = time.perf_counter()
            tiles, best = max_difference_sat(size, partner, puzzle.original)
            t2 = time.perf_counter()
            t_count.append(t1 - t0)
            t_sat.append(t2 - t1)
            if tiles is not None:
                assert realises(puzzle, tiles)
            if size <= args.dp_max_size:
                _, dp_best = solver.max_difference(puzzle.original)
                t_dp.append(time.perf_counter() - t2)
                assert dp_best == best, (dp_best, best)
            t_total.append(solve(size, partner, puzzle.original, cap=args.cap).seconds)
        dp_mean = f"{statistics.mean(t_dp):8.3f}" if t_dp else f"{'-':>8}"
        dp_max = f"{max(t_dp):7.3f}" if t_dp else f"{'-':>7}"
        ratio = f"{statistics.mean(t_dp) / statistics.mean(t_sat):7.1f}" if t_dp else f"{'-':>7}"
        guided = statistics.mean(t_count)
        free = statistics.mean(t_free)
        print(
            f"{size:>4} {args.puzzles:>7} {guided:7.3f} {free:8.3f} {free / guided:6.1f} "
            f"{statistics.mean(t_sat):8.3f} {max(t_sat):8.3f} {dp_mean} {dp_max} {ratio} "
            f"{statistics.mean(t_total):10.3f} {max(t_total):9.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
