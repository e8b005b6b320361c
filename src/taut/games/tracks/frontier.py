"""The frontier dynamic program for the track-tile solitaire: a cell-by-cell exact search.

The board is filled in row-major order. After some cells are placed, the *frontier* is
the set of ``size + 1`` cell sides between placed and unplaced cells: the bottom side of
the last placed cell of every column (or the N unit of a column not yet reached) and the
left side of the next cell (or the W unit of the row). Every frontier side carries exactly
one strand, and following it back through the placed cells ends either at an edge unit
or at another frontier side. A frontier is stored as a tuple with one small integer per
side (index ``col`` for the column sides, index ``size`` for the left side):

* ``0 <= v < 4 * size``: the strand leads back to edge unit ``v``;
* ``v == DEAD`` (``4 * size``): nothing there any more (the bottom row is done);
* ``v >= BASE`` (``4 * size + 1``): the strand leads back to frontier side ``v - BASE``.

Pointing at positions rather than numbering the open segments makes the tuple canonical
without relabelling. A placement consumes the top and left sides of the cell and creates
its bottom and right sides; when two strands meet that both lead back to edge units, those
units must be partners in the puzzle, otherwise the partial tiling is dropped. Every
tiling that survives to the end joins exactly the labelled pairs (cycles inside the board
are allowed and need no check).

The program answers three questions with the same step function:

* :meth:`FrontierSolver.count` - the number of tilings that realise the pairing, by a
  memoised depth-first search that stops once ``cap`` tilings are certain;
* :meth:`FrontierSolver.max_difference` - a tiling differing from the original in as many
  cells as possible, by forward passes that allow at most ``k`` cells equal to the original
  for ``k = 0, 1, 2, ...``: the first pass with a survivor proves the maximum;
* :meth:`FrontierSolver.any_tiling` - one tiling, for puzzles without an original.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache

from taut.games.tracks.tiles import KINDS, E, N, S, W, unit_id

# Port names inside one cell while a step is planned.
_T, _L, _B, _R = "T", "L", "B", "R"
#: The two strands of each kind as pairs of ports (top, left, bottom, right).
_INNER: dict[int, dict[str, str]] = {
    1: {_T: _L, _L: _T, _B: _R, _R: _B},
    2: {_T: _R, _R: _T, _L: _B, _B: _L},
    3: {_T: _B, _B: _T, _L: _R, _R: _L},
}


@cache
def _plan(kind: int, linked: bool) -> tuple[tuple[str, str], ...]:
    """How a placement joins what lies beyond the cell's four sides.

    The terminals are ``Tx`` and ``Lx`` (what the top and left strands lead back to) and
    ``B`` and ``R`` (the new bottom and right sides, or the edge units there). ``linked``
    means the top and left strands are the two ends of one segment, so ``Tx``/``Lx`` do not
    exist and the walk goes from one port to the other. Returns the terminal pairs that
    end up joined; a closed loop contributes nothing.
    """
    inner = _INNER[kind]
    outer: dict[str, str] = {_B: "B", _R: "R"}
    if linked:
        outer[_T] = _L
        outer[_L] = _T
        terminals = {"B": _B, "R": _R}
    else:
        outer[_T] = "Tx"
        outer[_L] = "Lx"
        terminals = {"Tx": _T, "Lx": _L, "B": _B, "R": _R}
    seen: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for term, port in terminals.items():
        if term in seen:
            continue
        while True:
            nxt = outer[inner[port]]
            if nxt in terminals:
                pairs.append((term, nxt))
                seen.update((term, nxt))
                break
            port = nxt  # an internal link: T <-> L
    return tuple(pairs)


class SolveAborted(Exception):
    """Raised inside the counting search once the cap is certainly reached."""


class FrontierSolver:
    """The frontier dynamic program for one puzzle.

    ``partner[u]`` is the unit paired with unit ``u`` (every unit in exactly one pair).
    """

    def __init__(self, size: int, partner: Sequence[int]) -> None:
        if len(partner) != 4 * size:
            raise ValueError(f"partner needs {4 * size} entries, got {len(partner)}")
        self.size = size
        self.partner = tuple(partner)
        self.dead = 4 * size
        self.base = 4 * size + 1
        # The frontier before any placement: column sides are the N units, the left side
        # is unit W0.
        self.start: tuple[int, ...] = tuple(
            [unit_id(size, N, c) for c in range(size)] + [unit_id(size, W, 0)]
        )

    # -- one placement -----------------------------------------------------------------

    def step(self, frontier: tuple[int, ...], cell: int, kind: int) -> tuple[int, ...] | None:
        """The frontier after placing ``kind`` on ``cell`` (the next cell in row order).

        Returns None when the placement joins two edge units that are not partners.
        """
        n = self.size
        base = self.base
        r, c = divmod(cell, n)
        top = frontier[c]
        left = frontier[n]
        linked = top == base + n  # top and left are the two ends of one segment
        out = list(frontier)
        # Each terminal is packed into one int: an edge unit as itself (0 <= v < base), the
        # far end of an older segment as base + its frontier position, and a new side of
        # this cell (a slot: the bottom or right) as -1 - its frontier position. On the
        # last row or column the bottom or right is an edge unit instead of a slot.
        b_unit = unit_id(n, S, c) if r == n - 1 else -1
        r_unit = unit_id(n, E, r) if c == n - 1 else -1
        partner = self.partner
        for x, y in _plan(kind, linked):
            xv = self._terminal(x, top, left, b_unit, r_unit, c)
            yv = self._terminal(y, top, left, b_unit, r_unit, c)
            # Join x's path with y's: two units must be partners; otherwise whichever
            # frontier sides remain open learn where their path now leads.
            if 0 <= xv < base:
                if 0 <= yv < base:
                    if partner[xv] != yv:
                        return None
                elif yv >= base:
                    out[yv - base] = xv
                else:
                    out[-1 - yv] = xv
            elif xv >= base:
                p = xv - base
                if 0 <= yv < base:
                    out[p] = yv
                elif yv >= base:
                    out[p] = yv
                    out[yv - base] = xv
                else:
                    s = -1 - yv
                    out[p] = base + s
                    out[s] = xv
            else:
                s = -1 - xv
                if 0 <= yv < base:
                    out[s] = yv
                elif yv >= base:
                    out[s] = yv
                    out[yv - base] = base + s
                else:
                    t = -1 - yv
                    out[s] = base + t
                    out[t] = base + s
        if r == n - 1:
            out[c] = self.dead
        if c == n - 1:
            out[n] = unit_id(n, W, r + 1) if r < n - 1 else self.dead
        return tuple(out)

    def _terminal(self, name: str, top: int, left: int, b_unit: int, r_unit: int, c: int) -> int:
        if name == "Tx":
            return top
        if name == "Lx":
            return left
        if name == "B":
            return b_unit if b_unit >= 0 else -1 - c
        return r_unit if r_unit >= 0 else -1 - self.size

    # -- questions ---------------------------------------------------------------------

    def count(self, cap: int | None = None, guide: Sequence[int] | None = None) -> tuple[int, bool]:
        """Number of tilings realising the pairing: ``(count, capped)``.

        With a ``cap`` the search stops as soon as some reachable frontier is known to have
        at least ``cap`` completions; the answer is then ``(cap, True)``. A ``guide``
        tiling known to realise the pairing (the original) is tried first in every cell:
        the search then meets complete tilings at once and reaches the cap after visiting
        a hundredth of the frontiers it would otherwise visit on 7x7 boards.
        """
        cells = self.size * self.size
        memo: list[dict[tuple[int, ...], int]] = [{} for _ in range(cells + 1)]
        limit = cap if cap is not None and cap > 0 else None
        step = self.step
        orders = [
            KINDS if guide is None else (guide[i], *(k for k in KINDS if k != guide[i]))
            for i in range(cells)
        ]

        def walk(i: int, frontier: tuple[int, ...]) -> int:
            if i == cells:
                return 1
            layer = memo[i]
            got = layer.get(frontier)
            if got is not None:
                return got
            total = 0
            for kind in orders[i]:
                nxt = step(frontier, i, kind)
                if nxt is not None:
                    total += walk(i + 1, nxt)
                    # This frontier is reachable, so the whole board has at least as many
                    # tilings as the completions found from it so far.
                    if limit is not None and total >= limit:
                        raise SolveAborted
            layer[frontier] = total
            return total

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, cells + 100))
        try:
            total = walk(0, self.start)
        except SolveAborted:
            return limit or 0, True
        finally:
            sys.setrecursionlimit(old)
        if limit is not None and total >= limit:
            return limit, True
        return total, False

    def any_tiling(self) -> tuple[int, ...] | None:
        """Some tiling realising the pairing, or None when there is none.

        A depth-first search that remembers frontiers with no completion, so it stops at
        the first tiling it meets.
        """
        cells = self.size * self.size
        dead: list[set[tuple[int, ...]]] = [set() for _ in range(cells + 1)]
        tiles = [0] * cells
        step = self.step

        def walk(i: int, frontier: tuple[int, ...]) -> bool:
            if i == cells:
                return True
            if frontier in dead[i]:
                return False
            for kind in (1, 2, 3):
                nxt = step(frontier, i, kind)
                if nxt is not None and walk(i + 1, nxt):
                    tiles[i] = kind
                    return True
            dead[i].add(frontier)
            return False

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, cells + 100))
        try:
            found = walk(0, self.start)
        finally:
            sys.setrecursionlimit(old)
        return tuple(tiles) if found else None

    def max_difference(self, original: Sequence[int]) -> tuple[tuple[int, ...] | None, int]:
        """A tiling differing from ``original`` in the most cells, and that number.

        Returns ``(None, 0)`` when only the original realises the pairing (and
        ``(None, -1)`` when nothing does). Pass ``k`` keeps only partial tilings with at
        most ``k`` cells equal to the original; the first pass that completes a tiling
        has found the fewest equal cells, so its answer is a proven maximum.
        """
        cells = self.size * self.size
        for allowed in range(cells + 1):
            tiles = self._pass(original, allowed)
            if tiles is not None:
                differs = sum(1 for a, b in zip(tiles, original, strict=True) if a != b)
                if differs == 0:
                    return None, 0
                return tiles, differs
        return None, -1

    def _pass(self, original: Sequence[int] | None, allowed: int) -> tuple[int, ...] | None:
        """Forward pass keeping, per frontier, the fewest cells equal to ``original``.

        Frontiers whose fewest equal cells exceed ``allowed`` are dropped. Returns the
        tiling behind the best survivor, or None.
        """
        cells = self.size * self.size
        step = self.step
        # layer: frontier -> fewest equal cells so far; parents[i]: frontier after cell i
        # -> (frontier before, kind) of its best partial tiling.
        layer: dict[tuple[int, ...], int] = {self.start: 0}
        parents: list[dict[tuple[int, ...], tuple[tuple[int, ...], int]]] = []
        for i in range(cells):
            same_kind = original[i] if original is not None else 0
            new: dict[tuple[int, ...], int] = {}
            back: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
            for frontier, same in layer.items():
                for kind in (1, 2, 3):
                    s = same + (kind == same_kind)
                    if s > allowed:
                        continue
                    nxt = step(frontier, i, kind)
                    if nxt is None:
                        continue
                    old = new.get(nxt)
                    if old is None or s < old:
                        new[nxt] = s
                        back[nxt] = (frontier, kind)
            if not new:
                return None
            layer = new
            parents.append(back)
        # One frontier is left at the end (every side dead).
        final = next(iter(layer))
        tiles = [0] * cells
        frontier = final
        for i in range(cells - 1, -1, -1):
            frontier, kind = parents[i][frontier]
            tiles[i] = kind
        return tuple(tiles)
