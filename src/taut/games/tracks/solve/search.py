"""Exact values of two-player Track Tiles positions (``roll=once``) by alpha-beta search.

(Longer than 400 lines: one Solver whose queries share its tables, its transposition table
and its move history.)

With ``roll=once`` a seat's kinds follow from its first roll, so a game is fixed by the
board size, both first kinds and who places first, and every position by its board, the
kind each seat holds and the seat to move. :class:`Solver` keeps one board size's tables,
transposition table and move history across searches (later searches reuse what earlier
ones found), and answers:

* :meth:`Solver.value` - a position's value to the seat to move (1 win, 0 draw, -1 loss);
* :meth:`Solver.move_values` - the value of every legal placement;
* :meth:`Solver.solve_start` - a whole game from the empty board: its value, a best first
  placement, nodes searched and seconds. With a node budget it asks two yes-or-no
  questions instead, with null windows: can the second player force a win (alpha-beta on
  ``-1..0``), and if not, can the first player (``0..1``). A search cut short proves
  nothing, but an answered question is a bound, and it keeps those.

The search itself is :func:`taut.games.tracks.solve.kernel.negamax` (compiled with Numba when
available); this module turns positions into its arrays and back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from taut.games.tracks.solve.model import (
    NS_TRACK,
    WE_TRACK,
    Tables,
    kind_after,
    next_kind,
    start_ends,
    tables,
)

#: The seats, as the rules number them.
NS, WE = 0, 1
#: Transposition table sizes (log2 of the slots) by board size, compiled and in Python.
TT_BITS_COMPILED = {2: 10, 3: 14, 4: 22, 5: 26}
TT_BITS_PYTHON = {2: 10, 3: 14, 4: 20, 5: 20}
#: The largest board the solver takes (its keys are exact up to 5x5).
MAX_SIZE = 5
#: The boards whose games are solved and shipped (5x5 is out of reach: see docs/tracks.md).
SOLVED_SIZES = (2, 3, 4)
#: The largest board whose best first placement is checked by a second search (cheap there).
CHECK_MOVE_MAX_SIZE = 4

#: Set once the compiled kernel has been loaded in this process.
_WARM: list[bool] = []

Progress = Callable[[int, float], None]
"""Called now and then during a long search with the nodes searched and seconds spent."""


class OutOfBudget(Exception):
    """A search gave up after its node budget (see :meth:`Solver.value`)."""


def _kernel() -> ModuleType:
    """The kernel module (imported on first use: it may import Numba)."""
    from taut.games.tracks.solve import kernel as tracks_kernel

    return tracks_kernel


@dataclass(frozen=True)
class Position:
    """A position of the two-player game: the board (row-major kinds, 0 empty), the kind
    each seat holds (NS's, WE's) and the seat to move."""

    size: int
    board: tuple[int, ...]
    hands: tuple[int, int]
    mover: int

    @classmethod
    def start(cls, size: int, ns_kind: int, we_kind: int, first: int) -> Position:
        """The empty board after both rolls."""
        return cls(size, (0,) * (size * size), (ns_kind, we_kind), first)

    def play(self, cell: int) -> tuple[Position, int]:
        """The position after the mover places its kind on ``cell``, and the track bits
        (NS 1, WE 2) that placement made."""
        t = tables(self.size)
        kind = self.hands[self.mover]
        ends = start_ends(t, self.board)
        from taut.games.tracks.solve.model import place

        made = place(t, ends, cell, kind)
        board = list(self.board)
        board[cell] = kind
        hands = list(self.hands)
        hands[self.mover] = next_kind(kind)
        return Position(self.size, tuple(board), (hands[0], hands[1]), 1 - self.mover), made

    def empty_cells(self) -> list[int]:
        """The empty cells in ascending order."""
        return [c for c, k in enumerate(self.board) if k == 0]


def placement_value(made: int, mover: int, full: bool) -> int | None:
    """The value to ``mover`` of a placement that made the track bits ``made``: 1 if it
    made the mover's track (or both), -1 if only the other's, 0 if it filled the board,
    None if the game goes on."""
    mine = NS_TRACK if mover == NS else WE_TRACK
    if made & mine:
        return 1
    if made:
        return -1
    return 0 if full else None


@dataclass(frozen=True)
class StartSolution:
    """One game solved from the empty board.

    ``value`` is to NS (1: NS wins, 0: draw, -1: WE wins); ``move`` is a best first
    placement by the first player (a cell id; with a lost start, where every placement
    loses, one of them; -1 when a search cut short found none);
    ``nodes`` the nodes searched and ``seconds`` the time it took. ``lo`` and ``hi`` bound
    the value to NS: equal to it when solved, else what the search proved before its
    budget ran out (``value`` is then ``lo``).
    """

    size: int
    ns_kind: int
    we_kind: int
    first: int
    value: int
    move: int
    nodes: int
    seconds: float
    lo: int = -1
    hi: int = 1

    @property
    def solved(self) -> bool:
        """Whether the value is exact (the search was not cut short)."""
        return self.lo == self.hi


class Solver:
    """The search for one board size, with its transposition table and history kept
    between calls (see the module's description).

    ``tt_bits`` sets the table at ``2 ** tt_bits`` slots (default by size; 16 bytes a slot
    compiled).
    """

    def __init__(self, size: int, tt_bits: int | None = None) -> None:
        if not 2 <= size <= MAX_SIZE:
            raise ValueError(f"the solver takes boards of side 2..{MAX_SIZE}, not {size}")
        self.size = size
        self.tables: Tables = tables(size)
        self.kernel = _kernel()
        compiled: bool = self.kernel.COMPILED
        self.compiled = compiled
        if tt_bits is None:
            tt_bits = (TT_BITS_COMPILED if compiled else TT_BITS_PYTHON)[size]
        self.tt_bits = tt_bits
        t = self.tables
        slots = 1 << tt_bits
        cells = t.cells
        self._arrays: dict[str, Any] = {}
        static = {
            "side_edge": t.side_edge,
            "strands": t.strands,
            "tags": t.tags,
            "bits": t.track_bits,
            "edge_cells": t.edge_cells,
            "shape": t.shape_keys,
            "shape_turned": t.shape_turned,
            "dead_keys": t.dead_keys,
            "hand_keys": t.hand_keys,
        }
        work = {
            "moves": [0] * (cells * (cells + 1)),
            "scores": [0] * (cells * (cells + 1)),
            "undo": [0] * (8 * (cells + 1)),
            "parent": [0] * (cells + t.units),
            "flags": [0] * (cells + t.units),
            "frames": [0] * (self.kernel.FIELDS * (cells + 1)),
            "history": [0] * self.kernel.history_size(cells),
            "tt_key": [-1] * slots,
            "tt_info": [0] * slots,
            "stats": [0, 0],
        }
        if compiled:
            import numpy as np

            for name, values in {**static, **work}.items():
                if name.startswith("tt_"):
                    fill = -1 if name == "tt_key" else 0
                    self._arrays[name] = np.full(slots, fill, dtype=np.int64)
                else:
                    self._arrays[name] = np.asarray(values, dtype=np.int64)
        else:
            self._arrays = {**static, **work}
        self._lock = threading.Lock()
        if compiled and not _WARM:
            # The first call loads (or compiles) the machine code: pay it here, on a 2x2
            # board, rather than inside the first timed search.
            _WARM.append(True)
            Solver(2).value(Position.start(2, 1, 1, NS))

    # -- arrays ----------------------------------------------------------------------------

    def _vector(self, values: Sequence[int]) -> Any:
        """``values`` as the kernel takes them: an int64 array compiled, else a list."""
        if self.compiled:
            import numpy as np

            return np.asarray(values, dtype=np.int64)
        return list(values)

    @property
    def nodes(self) -> int:
        """Nodes searched by this solver so far (all calls together)."""
        return int(self._arrays["stats"][0])

    def clear(self) -> None:
        """Forget the transposition table, the history and the node count."""
        for name in ("tt_key", "tt_info", "history", "stats"):
            arr = self._arrays[name]
            fill = -1 if name == "tt_key" else 0
            if self.compiled:
                arr.fill(fill)
            else:
                arr[:] = [fill] * len(arr)

    # -- searches --------------------------------------------------------------------------

    def value(
        self, pos: Position, alpha: int = -1, beta: int = 1, budget: int | None = None
    ) -> int:
        """The value of ``pos`` to the seat to move (fail-soft within ``alpha..beta``).

        The position must not be over: no track on the board, at least one empty cell.
        With a ``budget``, raises :class:`OutOfBudget` after that many nodes (what the
        table learnt so far is kept and true).
        """
        self._check(pos)
        t = self.tables
        a = self._arrays
        a["stats"][self.kernel.LIMIT] = 0 if budget is None else self.nodes + budget
        board = self._vector(pos.board)
        ends = self._vector(start_ends(t, pos.board))
        empties = sum(1 for k in pos.board if k == 0)
        with self._lock:
            v: int = self.kernel.negamax(
                a["side_edge"], a["strands"], a["tags"], a["bits"], a["edge_cells"],
                a["shape"], a["shape_turned"], a["dead_keys"], a["hand_keys"], t.labels,
                t.size, t.cells, t.units,
                board, ends, a["moves"], a["scores"], a["undo"], a["parent"], a["flags"],
                a["history"], a["frames"], a["tt_key"], a["tt_info"], self.tt_bits, a["stats"],
                pos.hands[0], pos.hands[1], pos.mover, empties, alpha, beta,
            )  # fmt: skip
        a["stats"][self.kernel.LIMIT] = 0
        if v == self.kernel.ABORTED:
            raise OutOfBudget(f"no answer within {budget} nodes")
        return int(v)

    def stored_move(self, pos: Position) -> int | None:
        """The best move the table holds for ``pos``, if any."""
        t = self.tables
        a = self._arrays
        k1, k2 = self.keys(pos)
        word = int(self.kernel.probe(a["tt_key"], a["tt_info"], self.tt_bits, min(k1, k2)))
        if word < 0:
            return None
        move = ((word >> 4) & 255) - 1
        if move < 0:
            return None
        return t.cells - 1 - move if k2 < k1 else move

    def keys(self, pos: Position) -> tuple[int, int]:
        """The table keys of ``pos`` and of its half turn (with the hands)."""
        t = self.tables
        a = self._arrays
        k = self.kernel
        board = self._vector(pos.board)
        ends = self._vector(start_ends(t, pos.board))
        parent, flags = a["parent"], a["flags"]
        with self._lock:
            k.reachable(board, ends, a["side_edge"], a["edge_cells"], a["tags"], t.cells,
                        t.units, parent, flags)  # fmt: skip
            k1, k2 = k.shape_keys(board, ends, a["side_edge"], t.cells, t.units, t.size,
                                  a["shape"], a["shape_turned"], t.labels, a["dead_keys"],
                                  parent, flags)  # fmt: skip
        hk = t.hand_keys[pos.mover * 16 + pos.hands[0] * 4 + pos.hands[1]]
        return int(k1) ^ hk, int(k2) ^ hk

    def move_value(self, pos: Position, cell: int, alpha: int = -1, beta: int = 1) -> int:
        """The value to the mover of placing on ``cell`` (fail-soft within the window)."""
        child, made = pos.play(cell)
        empties = sum(1 for k in child.board if k == 0)
        immediate = placement_value(made, pos.mover, empties == 0)
        if immediate is not None:
            return immediate
        return -self.value(child, -beta, -alpha)

    def move_values(self, pos: Position) -> dict[int, int]:
        """The exact value to the mover of every legal placement, by cell."""
        return {cell: self.move_value(pos, cell) for cell in pos.empty_cells()}

    def best_moves(self, pos: Position) -> tuple[int, list[int]]:
        """The value of ``pos`` to the mover and every placement that keeps it."""
        v = self.value(pos)
        best = []
        for cell in pos.empty_cells():
            # A null window around v: is this move worth at least v?
            if self.move_value(pos, cell, v - 1, v) >= v:
                best.append(cell)
        return v, best

    def solve_start(
        self,
        ns_kind: int,
        we_kind: int,
        first: int = NS,
        progress: Progress | None = None,
        every: float = 0.5,
        fresh: bool = True,
        budget: int | None = None,
    ) -> StartSolution:
        """Solve the game from the empty board; ``progress`` is called about every
        ``every`` seconds while the search runs (from this thread). ``fresh`` starts from
        an empty table and history, so that the nodes counted are this game's alone.

        With a ``budget`` (nodes a question) the search asks two null-window questions
        instead (see the module's description), and one left open leaves bounds, not a
        value.
        """
        if fresh:
            self.clear()
        pos = Position.start(self.size, ns_kind, we_kind, first)
        nodes0 = self.nodes
        t0 = time.perf_counter()
        if budget is None:
            v = self._timed(pos, -1, 1, None, progress, every, nodes0, t0)
            lo = hi = v
            move = self._root_move(pos, v)
        else:
            lo, hi, move = self._questions(pos, budget, progress, every, nodes0, t0)
        seconds = time.perf_counter() - t0
        if first != NS:
            lo, hi = -hi, -lo
        return StartSolution(
            self.size, ns_kind, we_kind, first, lo, move, self.nodes - nodes0, seconds, lo, hi
        )

    def _questions(
        self,
        pos: Position,
        budget: int,
        progress: Progress | None,
        every: float,
        nodes0: int,
        t0: float,
    ) -> tuple[int, int, int]:
        """Bounds on the value of ``pos`` to the seat to move, and a move keeping the lower
        bound (-1: none found), from two null-window searches of ``budget`` nodes each."""
        lo, hi, move = -1, 1, -1
        try:
            # Can the second player force a win? A result >= 0 says no.
            if self._timed(pos, -1, 0, budget, progress, every, nodes0, t0) < 0:
                return -1, -1, self._root_move(pos, -1)
            lo = 0
            move = self._root_move(pos, 0)
            # Can the first player force a win?
            if self._timed(pos, 0, 1, budget, progress, every, nodes0, t0) >= 1:
                return 1, 1, self._root_move(pos, 1)
            hi = 0
        except OutOfBudget:
            pass
        return lo, hi, move

    def _timed(
        self,
        pos: Position,
        alpha: int,
        beta: int,
        budget: int | None,
        progress: Progress | None,
        every: float,
        nodes0: int,
        t0: float,
    ) -> int:
        """:meth:`value` in a worker thread while ``progress`` is told, else directly."""
        if progress is None:
            return self.value(pos, alpha, beta, budget)
        result: list[int] = []
        failed: list[OutOfBudget] = []

        def run() -> None:
            try:
                result.append(self.value(pos, alpha, beta, budget))
            except OutOfBudget as exc:
                failed.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        while worker.is_alive():
            worker.join(every)
            progress(self.nodes - nodes0, time.perf_counter() - t0)
        if failed:
            raise failed[0]
        return result[0]

    def _root_move(self, pos: Position, v: int) -> int:
        """A first placement worth ``v`` to the mover, just after a search proved that the
        start is worth ``v`` (or at least 0 when ``v`` is 0): the table's move at the root,
        checked by a second search on small boards, else the first placement that is."""
        move = self.stored_move(pos)
        if move is not None and self.size > CHECK_MOVE_MAX_SIZE:
            return move  # the root was stored last, by the cutoff that proved it
        if move is None or self.move_value(pos, move, v - 1, v) < v:
            move = next(
                (c for c in pos.empty_cells() if self.move_value(pos, c, v - 1, v) >= v),
                pos.empty_cells()[-1],
            )
        return move

    def _check(self, pos: Position) -> None:
        if pos.size != self.size:
            raise ValueError(f"this solver is for {self.size}x{self.size} boards")
        if 0 not in pos.board:
            raise ValueError("the board is full: the game is over")
        for k in pos.hands:
            if k not in (1, 2, 3):
                raise ValueError(f"kinds in hand must be 1, 2 or 3, got {pos.hands}")


def first_kinds() -> list[tuple[int, int]]:
    """The nine pairs of first kinds (NS's, WE's), NS's kind varying slowest."""
    return [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]


def hands_after(ns_kind: int, we_kind: int, first: int, placed: int) -> tuple[int, int]:
    """Both seats' kinds in hand after ``placed`` tiles of a game with these first kinds."""
    ns_placed = (placed + (1 if first == NS else 0)) // 2
    we_placed = placed - ns_placed
    return kind_after(ns_kind, ns_placed), kind_after(we_kind, we_placed)
