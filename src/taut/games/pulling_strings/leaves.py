"""Every child of a Pulling Strings position valued at once: the leaf layer of a search.

A look-ahead search (``hard``'s Nash search) spends most of its time on the last turn it
looks at: for each of up to 20 x 20 pairs of pulls it makes the child position and scores
it with :func:`~taut.games.pulling_strings.heuristic.evaluate`. :func:`child_values` does
that for the whole matrix in one call of a compiled kernel, on a compact position (the
stacks as two arrays, in the order the position holds them) and the move plans as flat
tables. It gives exactly the numbers the readable path gives: the children's stacks are
built in the same order as :meth:`PullingStringsState.pull` builds them and the
evaluation's sums are added in that order, a finished child is worth its result (+1, -1,
0) as the game judges it; ``tests/test_pulling_strings_leaves.py`` compares every entry
over random positions of several option sets.

Without Numba (see :mod:`taut.core.jit`) the kernel would be slower than the readable
path, so :func:`child_values` answers None and the search makes the children itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from taut.core.jit import COMPILED, jit
from taut.games.pulling_strings.board import (
    CELL_END_MASK,
    HOME_CELLS,
    NUM_CELLS,
    NUM_ENDS,
    opposite,
    plans,
)
from taut.games.pulling_strings.heuristic import EDGE, GAINS_O, GAINS_X, SCALE, THREAT
from taut.games.pulling_strings.state import WIN_DISKS, PullingStringsState


@dataclass(frozen=True)
class Tables:
    """The rules and the evaluation as flat arrays (per corner rule).

    ``plan_a[(p * 20 + q) * 25 + cell]`` is where pulls ``p`` and ``q`` move a stack on
    ``cell``; where it splits, ``plan_b`` is the second half's cell (else -1). The gains of
    the evaluation are per cell ``gx_start[cell]:gx_start[cell + 1]`` in ``gx_end`` and
    ``gx_gain`` (X's; ``go_*`` O's)."""

    plan_a: np.ndarray
    plan_b: np.ndarray
    edge: np.ndarray
    gx_start: np.ndarray
    gx_end: np.ndarray
    gx_gain: np.ndarray
    go_start: np.ndarray
    go_end: np.ndarray
    go_gain: np.ndarray
    home_x: np.ndarray
    home_o: np.ndarray
    cell_mask: np.ndarray
    opposite: np.ndarray


_TABLES: dict[bool, Tables] = {}


def tables(corner_keep: bool) -> Tables:
    """The flat tables for a corner rule (built once)."""
    found = _TABLES.get(corner_keep)
    if found is not None:
        return found
    plan_a = np.full(NUM_ENDS * NUM_ENDS * NUM_CELLS, -1, dtype=np.int64)
    plan_b = np.full(NUM_ENDS * NUM_ENDS * NUM_CELLS, -1, dtype=np.int64)
    for index, plan in enumerate(plans(corner_keep)):
        for cell, move in enumerate(plan):
            at = index * NUM_CELLS + cell
            if isinstance(move, int):
                plan_a[at] = move
            else:
                plan_a[at], plan_b[at] = move

    def gains(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        start = np.zeros(NUM_CELLS + 1, dtype=np.int64)
        ends: list[int] = []
        values: list[int] = []
        for cell in range(NUM_CELLS):
            for end, gain in table[cell]:
                ends.append(end)
                values.append(gain)
            start[cell + 1] = len(ends)
        return start, np.array(ends, dtype=np.int64), np.array(values, dtype=np.int64)

    gx = gains(GAINS_X)
    go = gains(GAINS_O)
    home_x = np.zeros(NUM_CELLS, dtype=np.int64)
    home_o = np.zeros(NUM_CELLS, dtype=np.int64)
    home_x[list(HOME_CELLS[0])] = 1
    home_o[list(HOME_CELLS[1])] = 1
    made = Tables(
        plan_a,
        plan_b,
        np.array(EDGE, dtype=np.float64),
        *gx,
        *go,
        home_x,
        home_o,
        np.array(CELL_END_MASK, dtype=np.int64),
        np.array([opposite(e) for e in range(NUM_ENDS)], dtype=np.int64),
    )
    _TABLES[corner_keep] = made
    return made


def child_values(state: PullingStringsState) -> list[list[float]] | None:
    """X's value of every child of ``state``: row ``i`` X's ``i``-th legal pull, column
    ``j`` O's ``j``-th (the legal pulls in their order); a finished child's result, else
    its evaluation. None where no compiled kernel is at hand or ``state`` is not a plain
    position (a learning game's, or one that counts repetitions)."""
    if not COMPILED:
        return None
    return values_of(state)


def values_of(state: PullingStringsState) -> list[list[float]] | None:
    """:func:`child_values`, compiled or not (what the tests compare with the readable
    path in both modes)."""
    if type(state) is not PullingStringsState or state.outcome is not None:
        return None
    game = state.game
    t = tables(game.options["corner"] == "keep")
    stacks = state.stacks
    cells = np.fromiter(stacks.keys(), dtype=np.int64, count=len(stacks))
    counts = np.fromiter(stacks.values(), dtype=np.int64, count=len(stacks))
    legal = np.array(game.legal_ends(state.broken), dtype=np.int64)
    out = np.empty((len(legal), len(legal)), dtype=np.float64)
    limit = -1 if game.max_turns is None else int(game.max_turns)
    _values(
        cells, counts, state.broken, state.turn, limit, game.break_string, legal,
        t.plan_a, t.plan_b, t.edge, t.gx_start, t.gx_end, t.gx_gain,
        t.go_start, t.go_end, t.go_gain, t.home_x, t.home_o, t.cell_mask, t.opposite, out,
    )  # fmt: skip
    values: list[list[float]] = out.tolist()  # Python floats, as the readable path gives
    return values


@jit
def _values(
    cells: Any,
    counts: Any,
    broken: int,
    turn: int,
    max_turns: int,
    break_string: bool,
    legal: Any,
    plan_a: Any,
    plan_b: Any,
    edge: Any,
    gx_start: Any,
    gx_end: Any,
    gx_gain: Any,
    go_start: Any,
    go_end: Any,
    go_gain: Any,
    home_x: Any,
    home_o: Any,
    cell_mask: Any,
    opp: Any,
    out: Any,
) -> None:
    """Fill ``out[i, j]`` with X's value of the child after pulls ``legal[i]`` and
    ``legal[j]`` (see the module docstring)."""
    count = np.zeros(25, dtype=np.int64)  # the child's stacks, by cell
    order = np.zeros(25, dtype=np.int64)  # their cells, in the order a dict would hold them
    gain_x = np.zeros(20, dtype=np.int64)
    gain_o = np.zeros(20, dtype=np.int64)
    stacks = len(cells)
    moves = len(legal)
    for i in range(moves):
        p = legal[i]
        for j in range(moves):
            q = legal[j]
            base = (p * 20 + q) * 25
            held = 0
            for k in range(stacks):
                cell = cells[k]
                n = counts[k]
                a = plan_a[base + cell]
                b = plan_b[base + cell]
                if b < 0:
                    if count[a] == 0:
                        order[held] = a
                        held += 1
                    count[a] += n
                else:
                    h = (n + 1) >> 1
                    if count[a] == 0:
                        order[held] = a
                        held += 1
                    count[a] += h
                    if count[b] == 0:
                        order[held] = b
                        held += 1
                    count[b] += h
            now_broken = broken
            if p == q:
                now_broken |= 1 << p
                if break_string:
                    now_broken |= 1 << opp[p]
            hx = 0
            ho = 0
            for k in range(held):
                cell = order[k]
                hx += count[cell] * home_x[cell]
                ho += count[cell] * home_o[cell]
            if (hx >= 5 or ho >= 5) and hx != ho:
                value = 1.0 if hx > ho else -1.0
            else:
                stuck = now_broken != 0
                if stuck:
                    for k in range(held):
                        if cell_mask[order[k]] & ~now_broken:
                            stuck = False
                            break
                if stuck or (max_turns >= 0 and turn + 1 >= max_turns):
                    value = 0.0
                else:
                    score = 0.0
                    for k in range(held):
                        cell = order[k]
                        n = count[cell]
                        score += n * edge[cell]
                        for g in range(gx_start[cell], gx_start[cell + 1]):
                            gain_x[gx_end[g]] += n * gx_gain[g]
                        for g in range(go_start[cell], go_start[cell + 1]):
                            gain_o[go_end[g]] += n * go_gain[g]
                    best_x = 0
                    best_o = 0
                    for e in range(20):
                        if gain_x[e] > best_x and not (now_broken >> e) & 1:
                            best_x = gain_x[e]
                        if gain_o[e] > best_o and not (now_broken >> e) & 1:
                            best_o = gain_o[e]
                        gain_x[e] = 0
                        gain_o[e] = 0
                    score += 0.5 * (best_x - best_o)
                    value = 0.95 * math.tanh(score / 5.0)
            out[i, j] = value
            for k in range(held):
                count[order[k]] = 0


# The kernel writes the evaluation's constants out (Numba reads globals as constants at
# compile time, and a cached kernel would not see them change): check they still agree.
assert THREAT == 0.5 and SCALE == 5.0 and WIN_DISKS == 5 and NUM_ENDS == 20 and NUM_CELLS == 25
