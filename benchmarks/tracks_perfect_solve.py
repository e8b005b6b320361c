"""Nodes and times of the exact two-player Track Tiles solver (``roll=once``), by board size.

For every size, the nine games (pairs of first kinds, NS placing first) are solved from the
empty board, each with a fresh transposition table: the values found, the nodes searched
and the time, with the compiled kernel (Numba) when it is installed. The plain Python
kernel (``TAUT_NO_NUMBA=1``, run in a child process) solves the sizes up to
``--python-max-size`` too, and the ratio column compares the two on the same games.
Times are wall-clock seconds on one core.

Sizes past the solved ones (5x5) are searched with ``--budget`` nodes a question (the two
null-window questions of :meth:`Solver.solve_start`): the row then counts the games whose
questions were answered (``open`` the games left with bounds only).

    python benchmarks/tracks_perfect_solve.py [--max-size 4] [--python-max-size 3]
    python benchmarks/tracks_perfect_solve.py --min-size 5 --max-size 5 --budget 100000000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from taut.games.tracks.solve.search import SOLVED_SIZES, Solver, first_kinds

_CHILD = """
import json, sys, time
from taut.games.tracks.solve.search import SOLVED_SIZES, Solver, first_kinds
size = int(sys.argv[1])
solver = Solver(size)
t0 = time.perf_counter()
nodes = sum(solver.solve_start(a, b).nodes for a, b in first_kinds())
print(json.dumps([solver.compiled, nodes, time.perf_counter() - t0]))
"""


def python_run(size: int) -> tuple[int, float]:
    """Nodes and seconds of the nine games of ``size`` with the Python kernel."""
    env = dict(os.environ, TAUT_NO_NUMBA="1")
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(size)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    compiled, nodes, seconds = json.loads(out.stdout)
    assert not compiled
    return int(nodes), float(seconds)


def main() -> None:
    """Print one row per board size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-size", type=int, default=2)
    parser.add_argument("--max-size", type=int, default=4)
    parser.add_argument("--python-max-size", type=int, default=3)
    parser.add_argument(
        "--budget", type=int, default=100_000_000, help="nodes a question past the solved sizes"
    )
    args = parser.parse_args()
    print(
        f"{'size':>4} {'NS wins':>7} {'WE wins':>7} {'draws':>5} {'open':>4} {'nodes':>13} "
        f"{'max game':>11} {'seconds':>8} {'nodes/s':>10} {'python s':>9} {'ratio':>6}"
    )
    compiled = False
    for size in range(args.min_size, args.max_size + 1):
        solver = Solver(size)
        compiled = solver.compiled
        t0 = time.perf_counter()
        budget = None if size in SOLVED_SIZES else args.budget
        sols = [solver.solve_start(a, b, budget=budget) for a, b in first_kinds()]
        seconds = time.perf_counter() - t0
        nodes = sum(s.nodes for s in sols)
        wins = [sum(1 for s in sols if s.solved and s.value == v) for v in (1, -1, 0)]
        still_open = sum(1 for s in sols if not s.solved)
        py = ""
        ratio = ""
        if size <= args.python_max_size:
            py_nodes, py_seconds = python_run(size)
            assert py_nodes == nodes, "the two kernels must search the same tree"
            py = f"{py_seconds:9.2f}"
            ratio = f"{py_seconds / seconds:6.1f}"
        print(
            f"{size:>4} {wins[0]:>7} {wins[1]:>7} {wins[2]:>5} {still_open:>4} {nodes:>13,} "
            f"{max(s.nodes for s in sols):>11,} {seconds:8.2f} {nodes / seconds:>10,.0f} "
            f"{py:>9} {ratio:>6}"
        )
    print("kernel:", "compiled (Numba)" if compiled else "Python (Numba not available)")


if __name__ == "__main__":
    main()
