"""Two-teams Push-Pull as the solver sees it: position classes and one-turn successor tables.

In ``variant=two-teams`` each of the two players chooses, for every piece on the board, one
of 9 pairs of choices (one per side it holds); pieces never interact and are
interchangeable, so a position is the sorted tuple of the squares of the pieces on the
board plus how many pieces each team has scored. Scoring is irreversible, so the classes
form layers by the score: 1-1 (one piece left, 25 classes), 1-0 and 0-1 (two pieces, 325
each) and 0-0 (three pieces, 2,925).

Turning the board half a turn swaps the teams and negates the value: a 1-0 class is the
negated image of a 0-1 class, and the start (every piece on the centre) is its own image,
so **its value is exactly 0**.

A one-turn game is indexed by *class-order actions*: base-9 numbers over the class's pieces
in sorted order, the first piece the most significant digit, each digit a player's piece
choice as the game encodes it (first side's choice most significant, base 3).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.solve.layers import (
    Canon,
    IntArray,
    ResultClasses,
    score_tables,
    successor_table,
)
from taut.games.push_pull.variants import NUM_PIECES, Layout, layout

#: Squares of the board; piece code ``SQUARES`` is "scored by team 0", ``SQUARES + 1`` by 1.
SQUARES = SIZE * SIZE
FIRST_SCORED, SECOND_SCORED = SQUARES, SQUARES + 1
#: Score layers of the non-terminal classes, in the order they can be solved.
LAYERS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0), (0, 1), (0, 0))


def half_turn(square: int) -> int:
    """The square half a turn of the board takes ``square`` to."""
    return SQUARES - 1 - square


def half_turn_class(c: Canon) -> Canon:
    """The class half a turn away: squares turned, the teams' scores swapped."""
    squares, first, second = c
    return (tuple(sorted(half_turn(s) for s in squares)), second, first)


@dataclass(frozen=True)
class TeamsModel(ResultClasses):
    """Classes of two-teams Push-Pull and the tables to build their one-turn games."""

    layout: Layout
    classes: tuple[Canon, ...]
    index: dict[Canon, int]
    step: IntArray
    """``step[square, a, b]``: the piece code after piece choices ``a`` (seat 0) and ``b``
    (seat 1): a square, or :data:`FIRST_SCORED` / :data:`SECOND_SCORED`."""
    tables: dict[tuple[int, int], IntArray]
    """Per score layer, the class (or WIN / LOSS) for every combination of piece codes."""
    image: IntArray
    """The class half a turn away (its value is the negated value); WIN <-> LOSS."""

    @property
    def choices(self) -> int:
        """Piece choices per player (9)."""
        return int(self.step.shape[1])

    def layer(self, score: tuple[int, int]) -> list[int]:
        """The classes of one score layer."""
        return [i for i, (_, a, b) in enumerate(self.classes) if (a, b) == score]

    def successors(self, i: int) -> IntArray:
        """``succ[a, b]``: the class (or WIN / LOSS) after class-order actions ``a``, ``b``."""
        squares, first, second = self.classes[i]
        return successor_table(self.step, squares, self.tables[(first, second)])

    def classify(self, locs: tuple[int, ...] | list[int]) -> Canon:
        """The class of a game state's piece locations (team 0 is the layout's unit 0)."""
        squares, scores = [], [0, 0]
        for loc in locs:
            if loc < OFF:
                squares.append(loc)
            else:
                scores[self.layout.exit_unit(loc - OFF)] += 1
        return (tuple(sorted(squares)), scores[0], scores[1])


def _step(lay: Layout) -> IntArray:
    """One piece's next code for every square and pair of piece choices, read from the
    engine's own move table so the solver and the game share the arrow rule."""
    b = lay.piece_base
    step = np.empty((SQUARES, b, b), dtype=np.int64)
    for square in range(SQUARES):
        for a in range(b):
            # contrib[seat][action][0]: the joint index part of piece L; an action c * b^2
            # chooses c for L (and pass for the others).
            part_a = lay.contrib[0][a * b * b][0]
            for c in range(b):
                loc = lay.dest[square * lay.joint_size + part_a + lay.contrib[1][c * b * b][0]]
                if loc < OFF:
                    step[square, a, c] = loc
                else:
                    unit = lay.exit_unit(loc - OFF)
                    step[square, a, c] = FIRST_SCORED if unit == 0 else SECOND_SCORED
    return step


def build_model(teams: str = "NE-SW") -> TeamsModel:
    """Enumerate the classes of two-teams Push-Pull (no shifts) and their tables."""
    lay = layout("two-teams", False, teams)
    classes: list[Canon] = []
    for first, second in LAYERS:
        for squares in itertools.combinations_with_replacement(
            range(SQUARES), NUM_PIECES - first - second
        ):
            classes.append((squares, first, second))
    index = {c: i for i, c in enumerate(classes)}
    win, loss = len(classes), len(classes) + 1
    image = np.array([index[half_turn_class(c)] for c in classes] + [loss, win])
    tables = score_tables(LAYERS, SQUARES, index, win, loss)
    return TeamsModel(lay, tuple(classes), index, _step(lay), tables, image)
