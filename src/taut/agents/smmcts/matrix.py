"""The full-width node of SM-MCTS: regret matching+ against the matrix of its children.

A node where exactly two seats act and the joint actions are few (at most
:data:`FULL_WIDTH_MAX`) is expanded whole on its first visit, and every backup through it
updates both seats' regrets against the *matrix* of its children's current values, in
expectation over the other seat's current mix (the mean-value form of Lanctot, Lisý and
Winands 2013, without the sampling noise of the other seat's action). It uses regret
matching+ (regrets floored at 0) with linearly weighted averages, and the node's value is
the matrix's value under the two average mixes, so values propagate as in value iteration.

The statistics live in the search's flat arrays (:mod:`taut.agents.smmcts.flat`), where
the kernels (:mod:`taut.agents.smmcts.kernels`) select and update; a :class:`MatrixNode`
reads them. Children are named by number, never by reference: a tree of a game with
cycles then holds no reference cycles, and is freed as soon as its search ends instead of
waiting for Python's cycle collector (whose full passes would stall later searches).
"""

from __future__ import annotations

import numpy as np

from taut.agents.smmcts.flat import MIX, REGRET, UPDATES, FlatTree, FloatArray

#: The most joint actions a node may have for full-width regret matching; it applies them
#: all when it is expanded, so larger nodes use the bandit form.
FULL_WIDTH_MAX = 1024


class MatrixNode:
    """A view of expanded node ``ident``'s statistics in ``flat``."""

    __slots__ = ("flat", "id")

    def __init__(self, flat: FlatTree, ident: int) -> None:
        self.flat = flat
        self.id = ident

    @property
    def updates(self) -> int:
        """How many backups updated the node."""
        return int(self.flat.meta[self.id, UPDATES])

    def average(self, j: int) -> FloatArray:
        """Seat ``j``'s (0 or 1, in acting order) average mix (uniform before any update)."""
        return self.flat.average(self.id, j)

    def current(self, j: int) -> FloatArray:
        """Seat ``j``'s current mix, before exploration (a copy)."""
        return np.array(self.flat.run(self.id, j, MIX))

    def regret(self, j: int) -> FloatArray:
        """Seat ``j``'s cumulative regrets (a copy)."""
        return np.array(self.flat.run(self.id, j, REGRET))
