"""Solved Track Tiles games (``roll=once``), shipped as data, and the exact policy.

``solved.json`` holds, for every solved board size, each of the nine games with
``first=NS`` solved from the empty board (value, a best first placement, nodes, seconds)
and a small *book*: the best placements in the positions where a search would take
seconds (on 4x4: the empty board, every best first placement, and one best reply to every
first placement). Games with ``first=WE`` are the transposes of games with ``first=NS``
(the seats swap axes, kinds are kept), so the book answers them too. 5x5 is not solved:
its nine games keep the bounds that searches with a node budget proved (no book).

:class:`TracksPolicy` plays a solved size perfectly: a position in the book (or one of its
symmetric images) is answered from it, any other by the search (:class:`Solver`, whose
table it keeps between moves). ``python -m taut.games.tracks.solve.book`` rebuilds the data.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from taut.games.tracks.solve.model import half_turn_cell, transpose_cell
from taut.games.tracks.solve.search import (
    NS,
    SOLVED_SIZES,
    Position,
    Solver,
    StartSolution,
    first_kinds,
)

#: The shipped data.
DATA = Path(__file__).with_name("solved.json")
#: The smallest board whose book holds more than the start (smaller ones search in ms).
BOOK_FROM_SIZE = 4
SEAT_NAMES = ("NS", "WE")

Cellmap = Callable[[int, int], int]


def position_key(pos: Position) -> str:
    """A position as text: the board's kinds row-major (``.`` empty), both kinds in hand
    and the mover, e.g. ``"1.......3/21/WE"``."""
    board = "".join(str(k) if k else "." for k in pos.board)
    return f"{board}/{pos.hands[0]}{pos.hands[1]}/{SEAT_NAMES[pos.mover]}"


def _identity(size: int, cell: int) -> int:
    return cell


def _anti_transpose(size: int, cell: int) -> int:
    return half_turn_cell(size, transpose_cell(size, cell))


#: The board's symmetries as cell maps, each its own inverse, and whether it swaps the
#: seats' axes (the transposes do: the seats then swap kinds in hand and turns).
SYMMETRIES: tuple[tuple[Cellmap, bool], ...] = (
    (_identity, False),
    (half_turn_cell, False),
    (transpose_cell, True),
    (_anti_transpose, True),
)


def image(pos: Position, cellmap: Cellmap, swaps: bool) -> Position:
    """The image of ``pos`` under a symmetry of the board."""
    n = pos.size
    board = [0] * (n * n)
    for cell, kind in enumerate(pos.board):
        board[cellmap(n, cell)] = kind
    if not swaps:
        return Position(n, tuple(board), pos.hands, pos.mover)
    return Position(n, tuple(board), (pos.hands[1], pos.hands[0]), 1 - pos.mover)


@cache
def load() -> dict[str, Any]:
    """The shipped data (read once)."""
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def shipped(size: int) -> dict[str, Any] | None:
    """The shipped solution of a board size (``starts`` and ``book``), or None."""
    entry: dict[str, Any] | None = load()["sizes"].get(str(size))
    return entry


def book_moves(book: Mapping[str, Sequence[int]], pos: Position) -> list[int] | None:
    """The best placements the book holds for ``pos`` or a symmetric image of it."""
    for cellmap, swaps in SYMMETRIES:
        moves = book.get(position_key(image(pos, cellmap, swaps)))
        if moves is not None:
            return sorted(cellmap(pos.size, m) for m in moves)
    return None


class TracksPolicy:
    """The exact policy of solved boards: every best placement, equally likely.

    Called as ``policy(state, seat)`` with a :class:`~taut.games.tracks.rules.TracksState`
    at a placement of ``seat`` (``roll=once``); returns ``{cell: probability}``.
    """

    def __init__(self, size: int) -> None:
        if size not in SOLVED_SIZES:
            raise ValueError(f"boards of side {SOLVED_SIZES} are solved, not {size}")
        self.size = size
        entry = shipped(size)
        self.book: dict[str, list[int]] = {} if entry is None else entry["book"]
        self._solver: Solver | None = None

    @property
    def solver(self) -> Solver:
        """The search (built on first use; its table is kept between moves)."""
        if self._solver is None:
            self._solver = Solver(self.size)
        return self._solver

    def best(self, pos: Position) -> list[int]:
        """Every placement that keeps the value of ``pos`` for the mover."""
        moves = book_moves(self.book, pos)
        if moves is None:
            _, moves = self.solver.best_moves(pos)
        return moves

    def __call__(self, state: Any, seat: int) -> dict[int, float]:
        """The optimal mix of ``seat`` at ``state`` (a placement of that seat)."""
        mover = state.to_move()
        if state.is_terminal() or mover != seat or 0 in state.kinds:
            raise ValueError(f"{SEAT_NAMES[seat]} does not place a tile in this position")
        pos = Position(self.size, tuple(state.board), (state.kinds[0], state.kinds[1]), seat)
        moves = self.best(pos)
        share = 1.0 / len(moves)
        return {m: share for m in moves}


@cache
def policy(size: int) -> TracksPolicy:
    """The exact policy of a solved size (one per process)."""
    return TracksPolicy(size)


# -- building the data -----------------------------------------------------------------------


def solve_size(size: int, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Solve the nine ``first=NS`` games of a size and build its book."""
    solver = Solver(size)
    starts = []
    book: dict[str, list[int]] = {}
    for ns_kind, we_kind in first_kinds():
        sol = solver.solve_start(ns_kind, we_kind, NS)
        starts.append(
            {
                "ns": ns_kind,
                "we": we_kind,
                "value": sol.value,
                "move": sol.move,
                "nodes": sol.nodes,
                "seconds": round(sol.seconds, 3),
            }
        )
        log(f"{size}x{size} NS {ns_kind} WE {we_kind}: {sol.value:+d} {sol.nodes} nodes")
        if size < BOOK_FROM_SIZE:
            continue
        start = Position.start(size, ns_kind, we_kind, NS)
        _, best = solver.best_moves(start)
        book[position_key(start)] = best
        for cell in start.empty_cells():
            if half_turn_cell(size, cell) < cell:
                continue  # its half turn is in the book
            child, _ = start.play(cell)
            book[position_key(child)] = [_one_best(solver, child)]
        log(f"  book: {len(book)} positions, {time.strftime('%H:%M:%S')}")
    return {"starts": starts, "book": book}


def _one_best(solver: Solver, pos: Position) -> int:
    """A best placement in ``pos``: the table's, checked, else the first that is."""
    v = solver.value(pos)
    move = solver.stored_move(pos)
    if move is not None and solver.move_value(pos, move, v - 1, v) >= v:
        return move
    return next(c for c in pos.empty_cells() if solver.move_value(pos, c, v - 1, v) >= v)


def bound_size(
    size: int,
    budget: int,
    log: Callable[[str], None] = print,
    save: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Search the nine ``first=NS`` games of a size too large to solve in full, each
    question (see :meth:`Solver.solve_start`) within ``budget`` nodes: every game keeps
    ``lo`` and ``hi``, the bounds on its value to NS that were proved (and ``value`` when
    they meet), and there is no book. ``save`` is given the entry so far after each game,
    so that a long run loses nothing when stopped."""
    solver = Solver(size)
    entry: dict[str, Any] = {"starts": [], "book": {}, "budget": budget}
    for ns_kind, we_kind in first_kinds():
        sol = solver.solve_start(ns_kind, we_kind, NS, budget=budget)
        entry["starts"].append(_bounded(sol))
        log(f"{size}x{size} NS {ns_kind} WE {we_kind}: {sol.lo:+d}..{sol.hi:+d} {sol.nodes} nodes")
        if save is not None:
            save(entry)
    return entry


def refine(
    entry: dict[str, Any],
    size: int,
    ns_kind: int,
    we_kind: int,
    budget: int,
    tt_bits: int | None = None,
    log: Callable[[str], None] = print,
) -> bool:
    """Search one ``first=NS`` game of an unsolved size again with its own ``budget``
    (nodes a question) and keep the result in ``entry`` when it proves more than the game
    held (narrower bounds; the game then records its ``budget``). Returns whether it did.
    The searches already made cannot be continued (the table lives in memory), so a
    larger budget searches from the start again."""
    solver = Solver(size, tt_bits)
    sol = solver.solve_start(ns_kind, we_kind, NS, budget=budget)
    log(f"{size}x{size} NS {ns_kind} WE {we_kind}: {sol.lo:+d}..{sol.hi:+d} {sol.nodes} nodes")
    starts = entry["starts"]
    at = next(i for i, x in enumerate(starts) if (x["ns"], x["we"]) == (ns_kind, we_kind))
    old = starts[at]
    if sol.lo < old["lo"] or sol.hi > old["hi"] or (sol.lo, sol.hi) == (old["lo"], old["hi"]):
        return False
    starts[at] = {**_bounded(sol), "budget": budget}
    return True


def _bounded(sol: StartSolution) -> dict[str, Any]:
    """A game searched with a budget, as the data keeps it (``value`` once solved)."""
    start: dict[str, Any] = {
        "ns": sol.ns_kind,
        "we": sol.we_kind,
        "lo": sol.lo,
        "hi": sol.hi,
        "move": sol.move,
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 3),
    }
    if sol.solved:
        start["value"] = sol.value
    return start


def _option(args: list[str], name: str) -> str | None:
    """Take ``name VALUE`` out of ``args`` and return VALUE (None when absent)."""
    if name not in args:
        return None
    at = args.index(name)
    value = args[at + 1]
    del args[at : at + 2]
    return value


def main(argv: Sequence[str] | None = None) -> None:
    """Rebuild the shipped data: ``python -m taut.games.tracks.solve.book [SIZE ...]
    [--budget NODES]``; sizes past the solved ones are searched within the budget a
    question (default 25 million nodes, as shipped) and keep bounds.

    ``python -m taut.games.tracks.solve.book 5 --game NS,WE --budget NODES [--table-bits
    B]`` searches one game of an unsolved size again with a larger budget and keeps what
    it proves beyond the shipped bounds (the other games are left as they are)."""
    args = list(sys.argv[1:] if argv is None else argv)
    budget_text = _option(args, "--budget")
    budget = 25_000_000 if budget_text is None else int(budget_text)
    game = _option(args, "--game")
    bits = _option(args, "--table-bits")
    sizes = [int(a) for a in args] or list(SOLVED_SIZES)
    data: dict[str, Any] = {"format": 1, "rules": {"roll": "once", "first": "NS"}, "sizes": {}}
    if DATA.exists():
        data = json.loads(DATA.read_text())

    def save(size: int, entry: dict[str, Any]) -> None:
        data["sizes"][str(size)] = entry
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")

    if game is not None:
        ns_kind, we_kind = (int(k) for k in game.split(","))
        for size in sizes:
            entry = data["sizes"][str(size)]
            tt_bits = None if bits is None else int(bits)
            if refine(entry, size, ns_kind, we_kind, budget, tt_bits):
                save(size, entry)
        return
    for size in sizes:
        if size in SOLVED_SIZES:
            save(size, solve_size(size))
        else:
            bound_size(size, budget, save=partial(save, size))


if __name__ == "__main__":
    main()
