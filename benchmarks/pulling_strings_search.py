"""Search speed of Pulling Strings: Nash search at a fixed depth, and how deep ``hard`` gets.

Positions come from seeded uniform-random play (default options) at different turns. On
each the benchmark runs ``NashSearchAgent(depth=D)`` without a time limit and prints the
positions searched, the seconds and positions per second, and the root's value and mixes;
then a ``hard``-like agent (``NashSearchAgent(depth=3, think=T)``) and the seconds at which
each of its deepenings finished.

Comparing two trees of the source on the same machine in the same run (the machine may be
busy, so the ratios say more than the seconds)::

    git archive HEAD src | tar -x -C /tmp/ps_base
    .venv/bin/python benchmarks/pulling_strings_search.py --base /tmp/ps_base/src

With ``--base`` both trees are measured in child processes, alternating ``--rounds`` times
(the fastest round counts), and the fixed-depth values and mixes of the two are checked to
be identical. ``--src DIR`` measures the tree in ``DIR`` alone (what each child runs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
OWN_SRC = os.path.join(os.path.dirname(HERE), "src")


def positions(count: int, seed: int) -> list[Any]:
    """``count`` unfinished positions from seeded random games, at turns 0, 2, 4, ...

    A game that ends before the wanted turn is replaced by the next seed's game.
    """
    import random

    from taut.games.pulling_strings.rules import PullingStrings

    game = PullingStrings()
    out: list[Any] = []
    k = 0
    while len(out) < count:
        want = 2 * len(out)
        rng = random.Random(seed * 1000 + k)
        k += 1
        state: Any = game.new_initial_state()
        for _ in range(want):
            legal = state.legal_actions(0)
            state = state.apply({0: rng.choice(legal), 1: rng.choice(legal)})
            if state.is_terminal():
                break
        if not state.is_terminal():
            out.append(state)
    return out


def timed_search(state: Any, think: float) -> tuple[int, list[float]]:
    """The depth a ``hard``-like agent reaches in ``think`` seconds, and the seconds at
    which each of its deepenings finished."""
    from taut.agents.nash import NashSearchAgent

    agent = NashSearchAgent(depth=3, think=think)
    reached: list[float] = []
    inner = agent._root
    start = time.perf_counter()

    def root(s: Any, d: int) -> Any:
        out = inner(s, d)
        reached.append(time.perf_counter() - start)
        return out

    agent._root = root  # type: ignore[method-assign,assignment]
    start = time.perf_counter()
    return agent.search(state).depth, reached


def measure(count: int, seed: int, depth: int, think: float) -> dict[str, Any]:
    """Fixed-depth and timed searches on the positions, as JSON-ready data."""
    from taut.agents.nash import NashSearchAgent

    rows = []
    found = positions(count, seed)
    # Once per process, unmeasured: a compiled kernel is loaded on its first call (about
    # a second), which would otherwise be charged to the first position.
    NashSearchAgent(depth=1).search(found[0])
    for state in found:
        agent = NashSearchAgent(depth=depth)
        start = time.perf_counter()
        result = agent.search(state)
        seconds = time.perf_counter() - start
        depth_got, reached = timed_search(state, think)
        rows.append(
            {
                "turn": state.turn,
                "nodes": result.nodes,
                "seconds": seconds,
                "value": result.value[0],
                "mix": [sorted(result.policy[s].items()) for s in (0, 1)],
                "depth": depth_got,
                "reached": reached,
            }
        )
    return {"rows": rows}


def child(src: str, args: argparse.Namespace) -> dict[str, Any]:
    """Measure the tree in ``src`` in a fresh interpreter."""
    cmd = [sys.executable, os.path.abspath(__file__), "--src", src, "--json"]
    cmd += ["--positions", str(args.positions), "--seed", str(args.seed)]
    cmd += ["--depth", str(args.depth), "--think", str(args.think)]
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per position, the fastest fixed-depth time and the deepest timed search."""
    rows = [dict(r) for r in runs[0]["rows"]]
    for run in runs[1:]:
        for row, other in zip(rows, run["rows"], strict=True):
            row["seconds"] = min(row["seconds"], other["seconds"])
            if (other["depth"], -other["reached"][-1]) > (row["depth"], -row["reached"][-1]):
                row["depth"], row["reached"] = other["depth"], other["reached"]
    return {"rows": rows}


def fmt_reached(reached: list[float]) -> str:
    """Seconds at which depths 1, 2, 3 finished ('-' for not in time)."""
    cells = [f"{t:5.2f}" for t in reached] + ["    -"] * (3 - len(reached))
    return " ".join(cells)


def report_one(data: dict[str, Any]) -> None:
    """Print one tree's table."""
    print("turn   nodes  seconds  nodes/s  depth  finished d1 d2 d3 (s)")
    nodes = secs = 0.0
    for r in data["rows"]:
        nodes += r["nodes"]
        secs += r["seconds"]
        rate = r["nodes"] / r["seconds"]
        print(
            f"{r['turn']:4d} {r['nodes']:7d} {r['seconds']:8.3f} {rate:8.0f} {r['depth']:6d}  "
            + fmt_reached(r["reached"])
        )
    print(f"all  {nodes:7.0f} {secs:8.3f} {nodes / secs:8.0f}")


def compare(old: dict[str, Any], new: dict[str, Any]) -> int:
    """Print the ratios old/new and check that the searches agree; 1 if they do not."""
    print("turn   nodes  old s   new s  speed-up  depth old->new  d3 at old/new (s)")
    bad = 0
    to, tn = 0.0, 0.0
    deep = [0, 0]
    for o, n in zip(old["rows"], new["rows"], strict=True):
        same = o["nodes"] == n["nodes"] and o["value"] == n["value"] and o["mix"] == n["mix"]
        bad += not same
        to += o["seconds"]
        tn += n["seconds"]
        deep[0] += o["depth"] == 3
        deep[1] += n["depth"] == 3
        d3 = [f"{r['reached'][2]:.2f}" if len(r["reached"]) > 2 else "-" for r in (o, n)]
        print(
            f"{o['turn']:4d} {o['nodes']:7d} {o['seconds']:7.3f} {n['seconds']:7.3f} "
            f"{o['seconds'] / n['seconds']:8.2f}x {o['depth']:5d} -> {n['depth']}"
            f"      {d3[0]:>5} / {d3[1]:<5}" + ("" if same else "  DIFFERENT SEARCH")
        )
    count = len(old["rows"])
    print(f"all: {to:.3f} s -> {tn:.3f} s, speed-up {to / tn:.2f}x; ", end="")
    print(f"depth 3 reached on {deep[0]}/{count} -> {deep[1]}/{count} positions")
    print("searches identical" if not bad else f"{bad} searches DIFFER")
    return 1 if bad else 0


def main() -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", help="measure the source tree in DIR (default: this checkout)")
    ap.add_argument("--base", help="also measure the tree in DIR and print old/new ratios")
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--depth", type=int, default=3, help="fixed search depth (default 3)")
    ap.add_argument("--think", type=float, default=1.0, help="seconds of the timed agent")
    ap.add_argument("--rounds", type=int, default=1, help="alternating rounds with --base")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.base:
        old_runs, new_runs = [], []
        for _ in range(args.rounds):
            old_runs.append(child(args.base, args))
            new_runs.append(child(args.src or OWN_SRC, args))
        old, new = best(old_runs), best(new_runs)
        print(f"old: {args.base}")
        report_one(old)
        print(f"new: {args.src or OWN_SRC}")
        report_one(new)
        return compare(old, new)
    sys.path.insert(0, args.src or OWN_SRC)
    data = measure(args.positions, args.seed, args.depth, args.think)
    if args.json:
        print(json.dumps(data))
    else:
        report_one(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
