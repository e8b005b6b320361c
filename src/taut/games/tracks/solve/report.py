"""The nine games of one board size solved, for ``taut solve tracks``: by search or from the
shipped data, as rows and as JSON. Boards past the solved ones (5x5) have shipped
*bounds*: what searches with a node budget proved about each game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taut.games.tracks.cells import SEATS, cell_name
from taut.games.tracks.solve.model import transpose_cell
from taut.games.tracks.solve.search import SOLVED_SIZES, Solver, StartSolution, first_kinds

#: The largest board ``taut solve tracks`` solves.
MAX_SOLVED = max(SOLVED_SIZES)
#: The largest board with shipped results (bounds past :data:`MAX_SOLVED`).
MAX_STORED = 5

Report = Callable[[int, str], None]
"""Told how many games are done and what is being solved now."""


@dataclass(frozen=True)
class Row:
    """One solved game: first kinds, value to NS, a best first move (cell id, -1 when
    none is known), effort; ``stored`` when read from the shipped data, ``compiled`` when
    searched by Numba. ``lo`` and ``hi`` bound the value to NS (both equal to it when the
    game is solved; ``value`` is ``lo`` otherwise)."""

    ns_kind: int
    we_kind: int
    value: int
    move: int
    nodes: int
    seconds: float
    stored: bool
    compiled: bool
    lo: int = -1
    hi: int = 1

    @property
    def solved(self) -> bool:
        """Whether the value is exact."""
        return self.lo == self.hi


def _from_solution(sol: StartSolution, compiled: bool) -> Row:
    return Row(
        sol.ns_kind,
        sol.we_kind,
        sol.value,
        sol.move,
        sol.nodes,
        sol.seconds,
        False,
        compiled,
        sol.lo,
        sol.hi,
    )


def solve_all(size: int, first: int, progress: Report | None = None) -> list[Row]:
    """Search the nine games of ``size`` with ``first`` placing first."""
    solver = Solver(size)
    rows: list[Row] = []
    for done, (a, b) in enumerate(first_kinds()):
        label = f"Solving {size}x{size}, NS kind {a}, WE kind {b}"
        if progress is not None:
            progress(done, label)

        def tick(nodes: int, seconds: float, label: str = label, done: int = done) -> None:
            if progress is not None:
                progress(done, f"{label}: {nodes / 1e6:.1f}M nodes")

        sol = solver.solve_start(a, b, first, progress=tick if progress else None)
        rows.append(_from_solution(sol, solver.compiled))
    if progress is not None:
        progress(len(rows), f"Solved {size}x{size}")
    return rows


def stored_results(size: int, first: int) -> list[Row]:
    """The nine games of ``size`` from the shipped data (``first=NS`` games are stored;
    a ``first=WE`` game is the transpose of one: the seats swap axes and kinds). Games
    not solved keep their bounds (``lo``, ``hi``)."""
    from taut.games.tracks.solve.book import shipped

    entry = shipped(size)
    if entry is None:
        raise ValueError(f"no shipped solution of {size}x{size}; solved sizes: {SOLVED_SIZES}")
    by_kinds = {(s["ns"], s["we"]): s for s in entry["starts"]}
    rows = []
    for a, b in first_kinds():
        s = by_kinds[(a, b) if first == 0 else (b, a)]
        lo, hi = s.get("lo", s.get("value")), s.get("hi", s.get("value"))
        move = s["move"]
        if first != 0:
            lo, hi = -hi, -lo
            move = transpose_cell(size, move) if move >= 0 else -1
        rows.append(Row(a, b, lo, move, s["nodes"], s["seconds"], True, False, lo, hi))
    return rows


def value_name(value: int) -> str:
    """``NS win``, ``WE win`` or ``draw`` for a value to NS."""
    return "NS win" if value > 0 else "WE win" if value < 0 else "draw"


def bounds_name(lo: int, hi: int) -> str:
    """What the bounds ``lo..hi`` on a value to NS say: the value itself when they meet,
    else ``NS win or draw``, ``WE win or draw`` or ``unknown``."""
    if lo == hi:
        return value_name(lo)
    if lo == 0:
        return "NS win or draw"
    if hi == 0:
        return "WE win or draw"
    return "unknown"


def report(size: int, first: str, rows: list[Row]) -> dict[str, Any]:
    """The JSON form: ``size``, ``roll``, ``first``, ``games`` (one object a pair of first
    kinds: ``ns_kind``, ``we_kind``, ``value`` as text, ``winner`` (NS, WE or null),
    ``move`` (a best first placement by the first player; null when none is known),
    ``move_id``, ``nodes``, ``seconds``, ``solved``, and ``lo`` and ``hi``, the bounds on
    the value to NS: equal when solved), and the totals; ``solved`` when all nine are."""
    games = []
    for r in rows:
        games.append(
            {
                "ns_kind": r.ns_kind,
                "we_kind": r.we_kind,
                "value": bounds_name(r.lo, r.hi),
                "winner": None if r.value == 0 or not r.solved else SEATS[0 if r.value > 0 else 1],
                "move": cell_name(size, r.move) if r.move >= 0 else None,
                "move_id": r.move,
                "nodes": r.nodes,
                "seconds": round(r.seconds, 3),
                "solved": r.solved,
                "lo": r.lo,
                "hi": r.hi,
            }
        )
    return {
        "game": "tracks",
        "size": size,
        "roll": "once",
        "first": first,
        "games": games,
        "nodes": sum(r.nodes for r in rows),
        "seconds": round(sum(r.seconds for r in rows), 3),
        "solved": all(r.solved for r in rows),
        "stored": bool(rows) and rows[0].stored,
        "compiled": bool(rows) and rows[0].compiled,
    }
