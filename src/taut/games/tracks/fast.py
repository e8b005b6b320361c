"""Compact random play for Track Tiles: paths joined edge by edge, never traced again.

Every cell side is an *edge*; two neighbouring cells share one. Edge ids ``0 .. 4 * size -
1`` are the edge units (the board's border, numbered as in :mod:`taut.games.tracks.tiles`);
the inner edges follow. The placed tiles form path pieces, and :class:`Playout` keeps, in
``ends``, the far end of the piece that ends at each edge: ``ends[e]`` is the other end of
the piece that reaches ``e`` from a placed cell, or ``e`` itself while no piece reaches it.
Placing a tile joins, for each of its two strands, the piece behind one side to the piece
behind the other (four list reads and four writes); a strand whose piece then runs from
one edge unit to the unit across the board is a track. Only the far ends of a piece are
kept up to date; the inner edges it passed keep stale entries that are never read again,
since an edge is read only when an empty cell beside it is being filled.

The loop draws from the generator exactly as the protocol does (``sample_index`` at the
coin and the die, ``rng.choice`` over the empty cells in ascending order at a placement),
so a seed gives the same game either way; ``tests/test_tracks_fast.py`` replays every
placement through the readable rules (:mod:`taut.games.tracks.paths`).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from taut.games.tracks.tiles import EMPTY, KINDS, STRANDS, roll_to_kind, step_table

#: Bits of a placement's result: the NS track, the WE track (both: the placer wins).
NS_TRACK, WE_TRACK = 1, 2
#: Border tags by the side an edge unit lies on (N, E, S, W); inner edges are tagged 0.
SIDE_TAGS = (1, 8, 2, 4)
#: ``TRACK_BITS[tag_a | tag_b]``: the track a piece ending at two tagged edges makes (N
#: with S: NS; W with E: WE; anything else, an inner end included: none).
TRACK_BITS = tuple(NS_TRACK if t == 3 else WE_TRACK if t == 12 else 0 for t in range(16))
#: The kind after a placement under ``roll=once`` (1 -> 2 -> 3 -> 1), by the kind placed.
NEXT_KIND = (0, 2, 3, 1)


def thresholds(probabilities: Sequence[float]) -> tuple[float, ...]:
    """Running sums of ``probabilities``, added left to right as ``sample_index`` adds them,
    so that ``bisect_right(sums, r)`` is the index it draws for ``r`` below the last sum."""
    return tuple(accumulate(probabilities))


#: The die (outcomes 0..5 for faces 1..6, each 1/6) and the coin (the first seat, 1/2 each)
#: as the protocol's chance nodes list them.
DIE_THRESHOLDS = thresholds([1.0 / 6] * 6)
COIN_THRESHOLDS = thresholds([0.5, 0.5])
#: The two-player game's kind for each die outcome.
DIE_KINDS = tuple(roll_to_kind(outcome + 1) for outcome in range(6))


def draw_index(sums: tuple[float, ...], r: float) -> int:
    """The index ``sample_index`` draws for the uniform ``r`` from probabilities with the
    running ``sums``: the first whose sum exceeds ``r``, else the last (all are positive)."""
    i = bisect_right(sums, r)
    return i if i < len(sums) else len(sums) - 1


@dataclass(frozen=True)
class Wiring:
    """The fixed tables of one board size.

    ``strands[cell * 4 + kind]`` holds the four edges of a tile of ``kind`` on ``cell``,
    strand by strand (``a, b, c, d``: ``a`` joined to ``b``, ``c`` to ``d``; kind 0 is a
    placeholder); ``tags[edge]`` marks edge units by their side (see :data:`TRACK_BITS`).
    """

    size: int
    cells: int
    edges: int
    strands: tuple[tuple[int, int, int, int], ...]
    tags: tuple[int, ...]


@lru_cache(maxsize=16)
def wiring(size: int) -> Wiring:
    """The tables for a ``size`` board (cached)."""
    step = step_table(size)
    units = 4 * size
    edge_of = [0] * len(step)
    inner = units
    for slot, code in enumerate(step):
        if code < 0:
            edge_of[slot] = ~code
        elif slot < code:
            # The neighbour's side (slot ``code``) is the same inner edge: one id for both.
            edge_of[slot] = edge_of[code] = inner
            inner += 1
    strands: list[tuple[int, int, int, int]] = []
    for cell in range(size * size):
        base = cell * 4
        strands.append((0, 0, 0, 0))
        for kind in KINDS:
            (a, b), (c, d) = STRANDS[kind]
            strands.append(
                (edge_of[base + a], edge_of[base + b], edge_of[base + c], edge_of[base + d])
            )
    tags = tuple(SIDE_TAGS[e // size] if e < units else 0 for e in range(inner))
    return Wiring(size, size * size, inner, tuple(strands), tags)


def join(ends: list[int], tags: Sequence[int], strand_edges: Sequence[int]) -> int:
    """Join the pieces behind both strands of a tile just placed; return its track bits.

    A strand's check right after its own join is final: a piece whose two ends are edge
    units cannot grow, and when the second strand extends the first one's piece, the
    second check sees the whole of it. A loop closes on inner edges: no track.
    """
    a, b, c, d = strand_edges
    fa = ends[a]
    fb = ends[b]
    ends[fa] = fb
    ends[fb] = fa
    fc = ends[c]
    fd = ends[d]
    ends[fc] = fd
    ends[fd] = fc
    return TRACK_BITS[tags[fa] | tags[fb]] | TRACK_BITS[tags[fc] | tags[fd]]


class Playout:
    """A game in progress, kept in mutable lists for random play.

    ``empty`` lists the empty cells in ascending order, as ``legal_actions`` does, so that
    ``rng.choice`` picks the same cell from it.

    Build one with :meth:`start` or :meth:`from_position`, play with :meth:`run`, then read
    ``first``, ``kinds``, ``placed``, ``last``, ``hit`` (the track bits of the last
    placement) and ``full`` (the board filled without a track).
    """

    __slots__ = (
        "board",
        "empty",
        "ends",
        "first",
        "full",
        "hit",
        "kinds",
        "last",
        "placed",
        "roll_each",
        "wiring",
    )

    def __init__(
        self,
        wiring: Wiring,
        roll_each: bool,
        board: list[int],
        empty: list[int],
        ends: list[int],
        first: int | None,
        kinds: list[int],
        last: int | None,
    ) -> None:
        self.wiring = wiring
        self.roll_each = roll_each
        self.board = board
        self.empty = empty
        self.placed = wiring.cells - len(empty)
        self.ends = ends
        self.first = first
        self.kinds = kinds
        self.last = last
        self.hit = 0
        self.full = False

    @classmethod
    def start(cls, wiring: Wiring, roll_each: bool, first: int | None) -> Playout:
        """An empty board, before the coin (``first`` None) or the first roll."""
        return cls(
            wiring,
            roll_each,
            [EMPTY] * wiring.cells,
            list(range(wiring.cells)),
            list(range(wiring.edges)),
            first,
            [0, 0],
            None,
        )

    @classmethod
    def from_position(
        cls,
        wiring: Wiring,
        roll_each: bool,
        board: Sequence[int],
        first: int | None,
        kinds: Sequence[int],
        last: int | None,
    ) -> Playout:
        """A position given by its board, first seat, kinds in hand and last cell."""
        ends = list(range(wiring.edges))
        # Pieces do not depend on the order the tiles came in: join them cell by cell.
        for cell, kind in enumerate(board):
            if kind:
                join(ends, wiring.tags, wiring.strands[cell * 4 + kind])
        empty = [i for i, k in enumerate(board) if k == EMPTY]
        return cls(wiring, roll_each, list(board), empty, ends, first, list(kinds), last)

    def run(self, rng: random.Random, limit: int) -> int:
        """Play uniformly random nodes (chance by its odds) until the game ends or ``limit``
        nodes are played; return the number of nodes played.

        The position must not be over; afterwards ``hit`` or ``full`` say whether it is.
        """
        draw = rng.random
        kinds = self.kinds
        nodes = 0
        first = self.first
        if first is None:
            if limit <= 0:
                return 0
            first = self.first = draw_index(COIN_THRESHOLDS, draw())
            nodes = 1
        roll_each = self.roll_each
        if not roll_each:
            # roll=once: NS rolls, then WE, before anyone places.
            while nodes < limit and (kinds[0] == 0 or kinds[1] == 0):
                kinds[0 if kinds[0] == 0 else 1] = DIE_KINDS[draw_index(DIE_THRESHOLDS, draw())]
                nodes += 1
        choice = rng.choice
        board = self.board
        empty = self.empty
        remove = empty.remove
        ends = self.ends
        strands = self.wiring.strands
        tags = self.wiring.tags
        cells = self.wiring.cells
        die = DIE_THRESHOLDS
        die_kinds = DIE_KINDS
        top_face = len(die) - 1
        bits = TRACK_BITS
        placed = self.placed
        last = self.last
        hit = 0
        while nodes < limit:
            mover = (first + placed) & 1
            kind = kinds[mover]
            if kind == 0:
                # roll=each: the mover rolls before every placement, a node of its own.
                i = bisect_right(die, draw())
                kind = kinds[mover] = die_kinds[i if i < top_face else top_face]
                nodes += 1
                if nodes >= limit:
                    break
            cell = choice(empty)
            remove(cell)
            board[cell] = kind
            kinds[mover] = 0 if roll_each else NEXT_KIND[kind]
            placed += 1
            nodes += 1
            last = cell
            # join(), inlined: this is the hot path of random play and search playouts.
            a, b, c, d = strands[cell * 4 + kind]
            fa = ends[a]
            fb = ends[b]
            ends[fa] = fb
            ends[fb] = fa
            fc = ends[c]
            fd = ends[d]
            ends[fc] = fd
            ends[fd] = fc
            hit = bits[tags[fa] | tags[fb]] | bits[tags[fc] | tags[fd]]
            if hit or placed == cells:
                break
        self.placed = placed
        self.last = last
        self.hit = hit
        self.full = placed == cells and not hit
        return nodes
