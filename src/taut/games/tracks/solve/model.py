"""The compact board of the two-player Track Tiles solver, and the symmetries it may use.

A position is a board of kinds (0 = empty), the kind each seat holds and the seat to move.
The search keeps, besides the board, the ends of the path pieces the placed tiles form, as
:mod:`taut.games.tracks.fast` does: every cell side is an *edge* (edge units first, numbered
as in :mod:`taut.games.tracks.tiles`, then the inner edges), and ``ends[e]`` is the far end
of the piece that reaches edge ``e`` from a placed tile (``e`` itself while none does).
Placing a tile joins the piece behind each side of each strand to the piece behind the
other side; a strand whose piece then joins two opposite edge units is a track.

All tables are flat lists of ints (``strands[(cell * 4 + kind) * 4 + j]``), so the same
search code runs on them as Python lists or, compiled, as NumPy arrays.

Symmetries. Tiles are never rotated, so a symmetry of the board must map every kind to a
kind *and* keep each player's sequence 1 -> 2 -> 3 -> 1:

* the half turn (cell ``i`` -> ``cells - 1 - i``) swaps N with S and W with E: kind 1
  (N-W, E-S) becomes (S-E, W-N), kind 1 again; kind 2 and 3 are kept too, and the NS and
  WE axes are kept. It is a symmetry of every position: the search stores each position
  under the smaller key of it and its half turn;
* the transpose (row <-> column) swaps N with W and S with E: kinds 1, 2, 3 are kept but
  the axes are swapped, so a position with NS to move is worth, to NS, what its transpose
  with WE to move and the seats' kinds swapped is worth to WE. It maps a game with
  ``first=WE`` onto one with ``first=NS``; the search does not need it, the tests check it;
* the left-right and top-bottom mirrors swap kinds 1 and 2, which turns the sequence
  1 -> 2 -> 3 into 2 -> 1 -> 3: no symmetry of the game.

``tests/test_tracks_solve.py`` checks every one of these claims against the readable rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from taut.games.tracks.tiles import KINDS, STRANDS, step_table

#: Bits of a placement's result: the NS track and the WE track (as in ``fast``).
NS_TRACK, WE_TRACK = 1, 2
#: Border tags by the side an edge unit lies on (N, E, S, W); inner edges are tagged 0.
SIDE_TAGS = (1, 8, 2, 4)
#: ``TRACK_BITS[tag_a | tag_b]``: the track a piece ending at two tagged edges makes.
TRACK_BITS = tuple(NS_TRACK if t == 3 else WE_TRACK if t == 12 else 0 for t in range(16))
#: Labels of a side of a live empty cell in a position's key (:func:`shape_tables`): it
#: leads to the border N, E, S or W (0..3), to a border no track through it can use
#: (:data:`USELESS`), straight into a neighbouring empty cell (:data:`ADJACENT`), or along a
#: piece to inner edge ``e`` (``LINK + e``).
USELESS, ADJACENT, LINK = 4, 5, 6


@dataclass(frozen=True)
class Tables:
    """The fixed tables of one board size, as flat lists of ints.

    * ``side_edge[cell * 4 + side]``: the edge on ``side`` of ``cell``;
    * ``strands[(cell * 4 + kind) * 4 + j]``: the four edges of a tile of ``kind`` on
      ``cell``, strand by strand (``j`` 0 joined to 1, 2 joined to 3; kind 0 is unused);
    * ``tags[edge]``: :data:`SIDE_TAGS` of an edge unit, 0 for an inner edge;
    * ``edge_cells[edge * 2 + j]``: the cells on both sides of an edge (-1 off the board);
    * ``track_bits``: :data:`TRACK_BITS`;
    * ``labels``: the labels a side of an empty cell can have in a key (``LINK + edges``);
    * ``shape_keys[(cell * 4 + side) * labels + label]`` and ``shape_turned[...]``: the
      random part of a position's key for that side of an empty cell with that label, and
      of the key of its half turn (see :func:`shape_tables`);
    * ``dead_keys[n]``: the part of a key that says ``n`` empty cells are dead;
    * ``hand_keys[mover * 16 + ns_kind * 4 + we_kind]``: the part of a key that says who
      moves and what both seats hold.
    """

    size: int
    cells: int
    units: int
    edges: int
    side_edge: list[int]
    strands: list[int]
    tags: list[int]
    edge_cells: list[int]
    track_bits: list[int]
    labels: int
    shape_keys: list[int]
    shape_turned: list[int]
    dead_keys: list[int]
    hand_keys: list[int]


@lru_cache(maxsize=16)
def tables(size: int) -> Tables:
    """The tables of a ``size`` board (cached)."""
    step = step_table(size)
    cells = size * size
    units = 4 * size
    side_edge = [0] * (cells * 4)
    inner = units
    for slot, code in enumerate(step):
        if code < 0:
            side_edge[slot] = ~code
        elif slot < code:
            # The neighbour's side (slot ``code``) is the same inner edge: one id for both.
            side_edge[slot] = side_edge[code] = inner
            inner += 1
    edge_cells = [-1] * (inner * 2)
    for slot, edge in enumerate(side_edge):
        j = 0 if edge_cells[edge * 2] < 0 else 1
        edge_cells[edge * 2 + j] = slot // 4
    strands = [0] * (cells * 4 * 4)
    for cell in range(cells):
        for kind in KINDS:
            (a, b), (c, d) = STRANDS[kind]
            base = (cell * 4 + kind) * 4
            for j, side in enumerate((a, b, c, d)):
                strands[base + j] = side_edge[cell * 4 + side]
    tags = [SIDE_TAGS[e // size] if e < units else 0 for e in range(inner)]
    labels, shape_keys, shape_turned, dead_keys, hand_keys = shape_tables(size, side_edge, inner)
    return Tables(
        size,
        cells,
        units,
        inner,
        side_edge,
        strands,
        tags,
        edge_cells,
        list(TRACK_BITS),
        labels,
        shape_keys,
        shape_turned,
        dead_keys,
        hand_keys,
    )


def shape_tables(
    size: int, side_edge: Sequence[int], edges: int
) -> tuple[int, list[int], list[int], list[int], list[int]]:
    """The random (Zobrist) tables of position keys: ``labels``, ``shape_keys``,
    ``shape_turned``, ``dead_keys`` and ``hand_keys`` (see :class:`Tables`).

    A position's key says only what its future depends on: which empty cells are live,
    where each side of each live cell leads (its label), how many empty cells are dead,
    who moves and what both seats hold. The tiles themselves are left out: two boards
    whose pieces join the same sides of the same live cells to the same places are the
    same game from there on. ``shape_turned`` holds, for each side and label, the key of
    its image under the half turn, so that a position and its half turn share one key.
    """
    cells = size * size
    labels = LINK + edges
    # Random 62-bit keys: two positions share a key by chance at 2^-62 a pair.
    rng = random.Random(0x7EAC5 + size)
    shape_keys = [rng.getrandbits(62) for _ in range(cells * 4 * labels)]
    dead_keys = [rng.getrandbits(62) for _ in range(cells + 1)]
    hand_keys = [rng.getrandbits(62) for _ in range(32)]
    turned_edge = [0] * edges
    for cell in range(cells):
        for side in range(4):
            image = (cells - 1 - cell) * 4 + (side + 2) % 4
            turned_edge[side_edge[cell * 4 + side]] = side_edge[image]
    shape_turned = [0] * len(shape_keys)
    for cell in range(cells):
        for side in range(4):
            image = (cells - 1 - cell) * 4 + (side + 2) % 4
            for label in range(labels):
                if label < 4:
                    turned = (label + 2) % 4  # N <-> S, E <-> W
                elif label < LINK:
                    turned = label
                else:
                    turned = LINK + turned_edge[label - LINK]
                shape_turned[(cell * 4 + side) * labels + label] = shape_keys[
                    image * labels + turned
                ]
    return labels, shape_keys, shape_turned, dead_keys, hand_keys


def next_kind(kind: int) -> int:
    """The kind a seat holds after placing ``kind`` under ``roll=once`` (3 -> 1)."""
    return kind % 3 + 1


def kind_after(first_kind: int, placed: int) -> int:
    """The kind a seat holds after placing ``placed`` tiles, having rolled ``first_kind``."""
    return (first_kind - 1 + placed) % 3 + 1


def start_ends(t: Tables, board: Sequence[int]) -> list[int]:
    """The piece ends of ``board`` (order of placement does not matter)."""
    ends = list(range(t.edges))
    for cell, kind in enumerate(board):
        if kind:
            place(t, ends, cell, kind)
    return ends


def place(t: Tables, ends: list[int], cell: int, kind: int) -> int:
    """Join the pieces behind both strands of ``kind`` placed on ``cell``; return the
    track bits it made (the readable twin of the kernel's placement, for tests)."""
    base = (cell * 4 + kind) * 4
    a, b, c, d = t.strands[base : base + 4]
    fa, fb = ends[a], ends[b]
    ends[fa] = fb
    ends[fb] = fa
    fc, fd = ends[c], ends[d]
    ends[fc] = fd
    ends[fd] = fc
    bits = TRACK_BITS
    return bits[t.tags[fa] | t.tags[fb]] | bits[t.tags[fc] | t.tags[fd]]


# -- symmetries ------------------------------------------------------------------------------


def half_turn(size: int, board: Sequence[int]) -> tuple[int, ...]:
    """The board turned by 180 degrees (kinds kept: a symmetry of the game)."""
    return tuple(reversed(board))


def half_turn_cell(size: int, cell: int) -> int:
    """Where ``cell`` goes under the half turn."""
    return size * size - 1 - cell


def transpose(size: int, board: Sequence[int]) -> tuple[int, ...]:
    """The board reflected in its main diagonal (kinds kept, NS and WE swapped)."""
    return tuple(board[c * size + r] for r in range(size) for c in range(size))


def transpose_cell(size: int, cell: int) -> int:
    """Where ``cell`` goes under the transpose."""
    r, c = divmod(cell, size)
    return c * size + r


def mirror(size: int, board: Sequence[int]) -> tuple[int, ...]:
    """The board mirrored left to right, with kinds 1 and 2 swapped as the picture is (no
    symmetry of the game: it reverses the sequence of kinds)."""
    swap = (0, 2, 1, 3)
    return tuple(swap[board[r * size + size - 1 - c]] for r in range(size) for c in range(size))
