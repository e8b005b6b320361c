"""One piece's dynamics when some seats reply to uniformly random other seats.

Pieces never interact, and a random seat's choices for different pieces are independent,
so one turn of any Push-Pull variant is a product of one transition matrix per piece
(:func:`piece_model`); :func:`best_step` is one Bellman step of the replying side over the
three pieces. The best reply to random play (``random_reply.py``) iterates it to the
fixed point, and the four-sided evaluation (``evaluation.py``) tabulates its values. Built
from a variant's :class:`~taut.games.push_pull.variants.Layout` alone, never from the
rules' classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from taut.core.errors import InvalidOptionError
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.variants import NUM_PIECES, Layout

FloatArray = npt.NDArray[np.float64]
"""Probabilities or values."""


class HasLayout(Protocol):
    """Anything that has a variant's layout (a Push-Pull game)."""

    @property
    def layout(self) -> Layout:
        """The variant's tables."""
        ...


#: Which side a scoring unit is on.
OURS, THEIRS = 0, 1


@dataclass(frozen=True)
class PieceModel:
    """One piece's dynamics with the replying seats' choices free and the others random."""

    squares: int
    """Squares of the board; piece state ``squares`` is "scored by us", ``+1`` "by them"."""
    choices: tuple[int, ...]
    """The replying side's distinct summed contributions for one piece."""
    landing: npt.NDArray[np.intp]
    """(squares, choices, sums of the others): the next piece state (scores as above)."""
    weights: tuple[float, ...]
    """The probability of each sum of the random seats' contributions."""
    transition: FloatArray
    """(choices, states, states + 2): next-state probabilities. The last two columns are a
    piece scored earlier (by us, by them), kept apart from new scores for ``four``, where
    the scorers of the last piece win."""

    @property
    def states(self) -> int:
        """Piece states: the squares, then scored by us, scored by them."""
        return self.squares + 2


def _codes(lay: Layout, seat: int) -> list[int]:
    """A seat's distinct per-piece contributions (the same for every piece)."""
    every = lay.legal[(1 << NUM_PIECES) - 1]
    codes = sorted({lay.contrib[seat][a][0] for a in every})
    for p in range(1, NUM_PIECES):
        assert sorted({lay.contrib[seat][a][p] for a in every}) == codes
    return codes


def _unit_sides(lay: Layout, seats: tuple[int, ...]) -> list[int]:
    """:data:`OURS` or :data:`THEIRS` for each scoring unit; raises InvalidOptionError
    unless ``seats`` are distinct seats that hold whole units."""
    if not seats or not set(seats) <= set(range(lay.num_seats)) or len(set(seats)) != len(seats):
        raise InvalidOptionError(
            f"replying seats must be distinct seats of {', '.join(lay.seats)}, got {seats!r}"
        )
    ours = set(seats)
    side: list[int] = []
    for unit, members in zip(lay.units, lay.unit_seats, strict=True):
        if set(members) <= ours:
            side.append(OURS)
        elif not set(members) & ours:
            side.append(THEIRS)
        else:
            raise InvalidOptionError(f"the replying seats must hold all of {unit} or none of it")
    return side


def _sums(lay: Layout, seats: tuple[int, ...]) -> tuple[list[int], dict[int, float]]:
    """Our distinct summed contributions, and the distribution of the others' sum.

    Different picks of ours with the same sum move a piece alike; the others' sum has the
    convolved distribution of their uniform choices.
    """
    choices = {0}
    for s in seats:
        choices = {c + d for c in choices for d in _codes(lay, s)}
    dist = {0: 1.0}
    for s in range(lay.num_seats):
        if s not in seats:
            codes = _codes(lay, s)
            new: dict[int, float] = {}
            for c, p in dist.items():
                for d in codes:
                    new[c + d] = new.get(c + d, 0.0) + p / len(codes)
            dist = new
    return sorted(choices), dist


def piece_model(source: Layout | HasLayout, seats: tuple[int, ...]) -> PieceModel:
    """The per-piece transitions when ``seats`` reply to uniformly random other seats
    (``source``: a variant's layout, or a game that has one)."""
    lay = source if isinstance(source, Layout) else source.layout
    side = _unit_sides(lay, seats)
    own, dist = _sums(lay, seats)
    sums = sorted(dist)
    squares = lay.rows * SIZE
    landing = np.zeros((squares, len(own), len(sums)), dtype=np.intp)
    for x in range(squares):
        for i, c in enumerate(own):
            for j, d in enumerate(sums):
                loc = lay.dest[x * lay.joint_size + c + d]
                landing[x, i, j] = loc if loc < OFF else squares + side[lay.exit_unit(loc - OFF)]
    states = squares + 2
    transition = np.zeros((len(own), states, states + 2))
    for i in range(len(own)):
        for x in range(squares):
            for j, d in enumerate(sums):
                transition[i, x, landing[x, i, j]] += dist[d]
        transition[i, squares, states] = 1.0  # scored before this turn
        transition[i, squares + 1, states + 1] = 1.0
    return PieceModel(squares, tuple(own), landing, tuple(dist[d] for d in sums), transition)


def best_step(t: FloatArray, after: FloatArray) -> FloatArray:
    """One Bellman step: the best expected ``after`` over our choices for each piece.

    ``q[c1, x1, c2, x2, c3, x3]`` is the sum over outcomes ``y`` of ``t[c1, x1, y1]
    t[c2, x2, y2] t[c3, x3, y3] after[y1, y2, y3]``, contracted piece by piece and
    maximised over the choices ``c`` last.
    """
    x = t.shape[1]
    a = np.tensordot(t, after, axes=([2], [0]))  # (c1, x1, y2, y3)
    b = np.tensordot(a, t, axes=([2], [2]))  # (c1, x1, y3, c2, x2)
    best = np.full((x,) * NUM_PIECES, -np.inf)
    for c3 in range(len(t)):
        r = np.tensordot(b, t[c3], axes=([2], [1]))  # (c1, x1, c2, x2, x3)
        np.maximum(best, r.max(axis=(0, 2)), out=best)
    return best
