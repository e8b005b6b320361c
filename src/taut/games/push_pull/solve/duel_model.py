"""The duel as the solver sees it: position classes and their one-turn successor tables.

Pieces are interchangeable and do not interact, so a position is the sorted tuple of the
squares of the pieces on the board plus how many each side has scored: 70 classes instead
of 305 labelled positions. Mirroring the strip swaps the players and negates the value,
which pairs the classes up (37 are solved, the others are their mirror images).

Scoring is irreversible, so the classes form layers by the score (1-1, then 1-0 and 0-1,
then 0-0); a layer's successors lie in that layer, in a later one, or are a finished game.

A one-turn game is indexed by *class-order actions*: base-3 numbers over the class's
pieces in sorted order, the first piece the most significant digit, with the digits 0 pass,
1 pull, 2 push (the game's choice codes).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from taut.games.push_pull.arrows import E, W
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.solve.layers import ResultClasses, score_tables, successor_table
from taut.games.push_pull.variants import NUM_PIECES, layout

Canon = tuple[tuple[int, ...], int, int]
"""A position class: sorted squares of the pieces on the board, West's and East's scores."""

IntArray = npt.NDArray[np.int64]
"""An array of class indices or action numbers."""

#: Score pairs of the non-terminal layers, in the order they can be solved.
LAYERS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0), (0, 1), (0, 0))
#: Piece codes in the successor tables: squares 0..4, then scored by West, by East.
W_SCORED, E_SCORED = SIZE, SIZE + 1
#: Choices per piece in the duel: pass, pull, push.
NUM_CHOICES = 3
#: Position classes of the duel (sorted squares on the board, scores).
NUM_CLASSES = 70


@dataclass(frozen=True)
class DuelModel(ResultClasses):
    """Position classes of the duel and their one-turn successor tables."""

    classes: tuple[Canon, ...]
    index: dict[Canon, int]
    mirror: IntArray
    """Class index of each class's mirror image (and WIN <-> LOSS)."""
    succ: tuple[IntArray, ...]
    """``succ[i][a, b]``: the class (or WIN / LOSS) after West's class-order action ``a``
    and East's ``b``."""


def mirror_class(c: Canon) -> Canon:
    """The class of the mirror image: squares reflected, the scores swapped."""
    squares, w, e = c
    return (tuple(sorted(SIZE - 1 - s for s in squares)), e, w)


@functools.cache
def piece_step(square: int, west: int, east: int) -> int:
    """Where one piece on ``square`` goes under West's and East's choice codes.

    Returns the new square, or :data:`W_SCORED` / :data:`E_SCORED` when West / East scores
    it. It reads the engine's own move table, so the solver and the game share the one
    arrow rule.
    """
    lay = layout("duel")
    weight = {side: NUM_CHOICES**k for k, side in enumerate(lay.sides)}
    loc: int = lay.dest[square * lay.joint_size + west * weight[W] + east * weight[E]]
    if loc < OFF:
        return loc
    return W_SCORED if loc - OFF == W else E_SCORED


def _classes() -> list[Canon]:
    """Every non-terminal class, layer by layer in the order of :data:`LAYERS`."""
    classes: list[Canon] = []
    for w, e in LAYERS:
        for squares in itertools.combinations_with_replacement(range(SIZE), NUM_PIECES - w - e):
            classes.append((squares, w, e))
    return classes


def _successors(
    classes: list[Canon], tables: dict[tuple[int, int], IntArray]
) -> tuple[IntArray, ...]:
    """Each class's successor table, by broadcasting one piece's steps per piece."""
    step = np.array(
        [
            [[piece_step(sq, a, b) for b in range(NUM_CHOICES)] for a in range(NUM_CHOICES)]
            for sq in range(SIZE)
        ],
        dtype=np.int64,
    )
    return tuple(successor_table(step, squares, tables[(w, e)]) for squares, w, e in classes)


def build_model() -> DuelModel:
    """Enumerate the classes and build their successor tables from the game's move tables."""
    classes = _classes()
    index = {c: i for i, c in enumerate(classes)}
    win, loss = len(classes), len(classes) + 1
    mirror = np.array([index[mirror_class(c)] for c in classes] + [loss, win])
    succ = _successors(classes, score_tables(LAYERS, SIZE, index, win, loss))
    return DuelModel(tuple(classes), index, mirror, succ)
