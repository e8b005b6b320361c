"""A quick evaluation of Track Tiles positions for the look-ahead agents.

For each player it computes the fewest empty cells that must still be filled to make a
track, over all paths that follow the placed tiles and may turn any way in an empty cell
(from any side of an empty cell some kind leads out through each other side). This is a
shortest path over ``(cell, entry side)`` pairs where passing a placed tile costs nothing
and entering an empty cell costs one: a 0-1 breadth-first search.

The value for NS grows with WE's distance minus NS's, with half a cell of credit to the
player about to move, squashed into (-1, 1) so that a finished game always outranks it.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from taut.games.tracks.tiles import EMPTY, JOIN, E, N, S, W, step_table

#: Scale of the squashing: a lead of this many cells is worth about 0.76.
SCALE = 2.5


def distance(board: Sequence[int], size: int, axis: int) -> int:
    """Fewest empty cells to fill for a track on ``axis`` (0: N-S, 1: W-E).

    Returns ``size * size + 1`` when no track can be made any more.
    """
    start_side, goal_side = (N, S) if axis == 0 else (W, E)
    step = step_table(size)
    cells = size * size
    inf = cells + 1
    best = [inf] * (cells * 4)
    queue: deque[tuple[int, int]] = deque()
    # Seeds: entering each border cell of the start side through that side.
    for i in range(size):
        cell = i if start_side == N else i * size
        code = cell * 4 + start_side
        cost = 1 if board[cell] == EMPTY else 0
        if cost < best[code]:
            best[code] = cost
            if cost:
                queue.append((cost, code))
            else:
                queue.appendleft((cost, code))
    answer = inf
    while queue:
        d, code = queue.popleft()
        if d > best[code] or d >= answer:
            continue
        cell, side_in = code >> 2, code & 3
        kind = board[cell]
        outs = (JOIN[kind][side_in],) if kind else tuple(s for s in range(4) if s != side_in)
        for side_out in outs:
            nxt = step[cell * 4 + side_out]
            if nxt < 0:
                # Leaving the board: a track when it leaves through the goal side.
                if side_out == goal_side and d < answer:
                    answer = d
                continue
            nd = d + (1 if board[nxt >> 2] == EMPTY else 0)
            if nd < best[nxt]:
                best[nxt] = nd
                if nd == d:
                    queue.appendleft((nd, nxt))
                else:
                    queue.append((nd, nxt))
    return answer


@lru_cache(maxsize=4096)
def distances(board: tuple[int, ...], size: int) -> tuple[int, int]:
    """NS's and WE's distances for a board (cached: look-ahead meets boards again)."""
    return distance(board, size, 0), distance(board, size, 1)


def evaluate(board: tuple[int, ...], size: int, to_move: int | None) -> float:
    """Value for NS in (-1, 1) of an unfinished position (WE's value is its negation)."""
    d_ns, d_we = distances(board, size)
    cap = size * size + 1
    if d_ns >= cap and d_we >= cap:
        return 0.0  # nobody can make a track: the game will be drawn
    lead = float(d_we - d_ns)
    if to_move == 0:
        lead += 0.5
    elif to_move == 1:
        lead -= 0.5
    return 0.95 * math.tanh(lead / SCALE)
