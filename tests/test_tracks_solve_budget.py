"""Searches of the Track Tiles solver with a node budget, and the shipped 5x5 bounds.

A search cut off by its budget must leave only true bounds behind (in the table and in the
game's ``lo``/``hi``), both kernels must cut at the same node, and ``taut solve tracks
--size 5`` prints the shipped bounds and says that 5x5 is not solved.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from taut.cli import cli
from taut.games.tracks.solve.book import refine, shipped
from taut.games.tracks.solve.report import bounds_name, stored_results
from taut.games.tracks.solve.search import NS, WE, OutOfBudget, Position, Solver, first_kinds

runner = CliRunner()


def _exact(size: int) -> dict[tuple[int, int], int]:
    entry = shipped(size)
    assert entry is not None
    return {(s["ns"], s["we"]): s["value"] for s in entry["starts"]}


def test_a_search_out_of_budget_raises_and_leaves_a_sound_table() -> None:
    solver = Solver(3)
    pos = Position.start(3, 3, 1, NS)
    with pytest.raises(OutOfBudget):
        solver.value(pos, budget=50)
    assert solver.nodes == 51  # the node past the budget is counted, then the search stops
    # The same table, no budget: the shipped value (what was stored before the cut holds).
    assert solver.value(pos) == _exact(3)[(3, 1)] == 1


@pytest.mark.parametrize("size", [2, 3])
def test_bounds_under_any_budget_hold_the_value(size: int) -> None:
    exact = _exact(size)
    solver = Solver(size)
    seen = set()
    for budget in (1, 5, 20, 100, 400, 1000, 3000):
        for a, b in first_kinds():
            for first in (NS, WE):
                sol = solver.solve_start(a, b, first, budget=budget)
                value = exact[(a, b)] if first == NS else -exact[(b, a)]
                assert sol.lo <= value <= sol.hi
                assert sol.solved == (sol.lo == sol.hi)
                seen.add((sol.lo, sol.hi))
                # The first player's lower bound, and a move that keeps it when proved.
                lo = sol.lo if first == NS else -sol.hi
                if lo > -1 or sol.solved:
                    assert sol.move >= 0
                    assert solver.move_value(Position.start(size, a, b, first), sol.move) >= lo
                else:
                    assert sol.move == -1
    # Small budgets leave the games open, large ones settle them, some stop halfway.
    assert (-1, 1) in seen and (0, 0) in seen
    if size == 3:
        assert (0, 1) in seen


def test_4x4_bounds_with_a_budget() -> None:
    # The second player's question takes under a million nodes in these two games, the
    # first player's more: a budget of a million proves "the second player cannot win".
    exact = _exact(4)
    solver = Solver(4)
    for a, b in [(2, 3), (3, 1)]:
        sol = solver.solve_start(a, b, NS, budget=1_000_000)
        assert (sol.lo, sol.hi) == (0, 1)
        assert sol.lo <= exact[(a, b)] <= sol.hi
        assert bounds_name(sol.lo, sol.hi) == "NS win or draw"


def test_compiled_and_python_kernels_cut_at_the_same_node() -> None:
    code = (
        "import json; from taut.games.tracks.solve.search import Solver, first_kinds;"
        "s = Solver(3);"
        "r = [s.solve_start(a, b, budget=700) for a, b in first_kinds()];"
        "print(json.dumps([s.compiled] + [[x.lo, x.hi, x.move, x.nodes] for x in r]))"
    )
    env = dict(os.environ, TAUT_NO_NUMBA="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    python = json.loads(out.stdout)
    assert python[0] is False
    solver = Solver(3)
    here = [[x.lo, x.hi, x.move, x.nodes] for x in
            (solver.solve_start(a, b, budget=700) for a, b in first_kinds())]  # fmt: skip
    assert python[1:] == here
    assert any(lo != hi for lo, hi, _, _ in here)


# -- the shipped 5x5 results ----------------------------------------------------------------


def test_shipped_5x5_bounds_are_consistent() -> None:
    entry = shipped(5)
    assert entry is not None and entry["budget"] > 0
    starts = entry["starts"]
    assert sorted((s["ns"], s["we"]) for s in starts) == first_kinds()
    for s in starts:
        assert -1 <= s["lo"] <= s["hi"] <= 1
        assert ("value" in s) == (s["lo"] == s["hi"])
        # Each of the (at most two) questions ran until answered or out of its budget (a
        # game searched longer than the others keeps its own).
        assert 0 < s["nodes"] <= 2 * (s.get("budget", entry["budget"]) + 1)
        assert s["lo"] == -1 or s["move"] >= 0
    ns_rows = stored_results(5, NS)
    we_rows = stored_results(5, WE)
    for r in we_rows:
        twin = next(x for x in ns_rows if (x.ns_kind, x.we_kind) == (r.we_kind, r.ns_kind))
        assert (r.lo, r.hi) == (-twin.hi, -twin.lo)


def test_solve_command_size_5_prints_the_shipped_bounds() -> None:
    r = runner.invoke(cli, ["solve", "tracks", "--size", "5"])
    assert r.exit_code == 0, r.output
    assert "5x5 is not solved" in r.stdout and "shipped results" in r.stdout
    data = json.loads(runner.invoke(cli, ["solve", "tracks", "--size", "5", "--json"]).stdout)
    assert data["stored"] and len(data["games"]) == 9
    assert data["solved"] == all(g["solved"] for g in data["games"])
    for g in data["games"]:
        assert g["value"] == bounds_name(g["lo"], g["hi"])
        assert g["winner"] is None or g["solved"]


@pytest.mark.slow
def test_shipped_5x5_bounds_match_the_search() -> None:
    # One game searched again with the shipped budget (minutes): the same bounds and nodes.
    entry = shipped(5)
    assert entry is not None
    # A game searched with the size's budget (a game refined with its own budget says so).
    s = next(x for x in entry["starts"] if "budget" not in x)
    sol = Solver(5).solve_start(s["ns"], s["we"], NS, budget=entry["budget"])
    assert (sol.lo, sol.hi, sol.nodes) == (s["lo"], s["hi"], s["nodes"])


def test_refining_one_game_keeps_only_what_proves_more() -> None:
    # An entry that knows nothing of 3x3: a budget too small changes nothing, a larger one
    # proves NS 3 - WE 1 (an NS win) and records its budget; the other games stay.
    unknown: dict[str, Any] = {"lo": -1, "hi": 1, "move": -1, "nodes": 0, "seconds": 0.0}
    starts: list[dict[str, Any]] = [{**unknown, "ns": a, "we": b} for a, b in first_kinds()]
    entry: dict[str, Any] = {"budget": 10, "book": {}, "starts": starts}
    logged: list[str] = []
    assert not refine(entry, 3, 3, 1, 10, log=logged.append)
    assert all((x["lo"], x["hi"]) == (-1, 1) for x in starts)
    assert refine(entry, 3, 3, 1, 100_000, log=logged.append)
    got = next(x for x in starts if (x["ns"], x["we"]) == (3, 1))
    assert (got["lo"], got["hi"], got["value"], got["budget"]) == (1, 1, 1, 100_000)
    assert Solver(3).move_value(Position.start(3, 3, 1, NS), got["move"]) == 1
    assert sum(1 for x in starts if "budget" in x) == 1
    # Proving the same again is no news.
    assert not refine(entry, 3, 3, 1, 100_000, log=logged.append)
    assert len(logged) == 3
