"""The full-width node of SM-MCTS: regret matching+ against the matrix of its children.

A node where exactly two seats act and the joint actions are few (at most
:data:`FULL_WIDTH_MAX`) is expanded whole on its first visit, and every backup through it
updates both seats' regrets against the *matrix* of its children's current values, in
expectation over the other seat's current mix (the mean-value form of Lanctot, Lisý and
Winands 2013, without the sampling noise of the other seat's action). It uses regret
matching+ (regrets floored at 0) with linearly weighted averages, and the node's value is
the matrix's value under the two average mixes, so values propagate as in value iteration.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from taut.agents.smmcts.tree import Node
    from taut.core.game import State

#: The most joint actions a node may have for full-width regret matching; it applies them
#: all when it is expanded, so larger nodes use the bandit form.
FULL_WIDTH_MAX = 1024


class MatrixNode:
    """Full-width statistics of a node where two seats act: its distinct children, which
    of them each joint action leads to, and each seat's regrets, current mix and weighted
    strategy sum as arrays."""

    __slots__ = ("cdf", "cells", "cum", "gamma", "grid", "kids", "mix", "regret", "updates")

    def __init__(self, kids: list[tuple[Node, State]], cells: np.ndarray, gamma: float) -> None:
        k0, k1 = cells.shape
        self.kids = kids
        self.cells = cells  # (k0, k1) index into kids of each joint action's child
        ids = np.array([kid.id for kid, _ in kids], dtype=np.intp)
        self.grid = ids[cells]  # (k0, k1) child ids, rows in the search's value table
        self.gamma = gamma
        self.regret = (np.zeros(k0), np.zeros(k1))
        self.cum = (np.zeros(k0), np.zeros(k1))
        self.updates = 0
        self.mix = (np.full(k0, 1.0 / k0), np.full(k1, 1.0 / k1))
        self.cdf = (np.cumsum(self.mix[0]), np.cumsum(self.mix[1]))

    def choose(self, rng: random.Random) -> tuple[int, int]:
        """Both seats' selections: each current mix with ``gamma`` uniform exploration."""
        c0, c1 = self.cdf
        i = int(c0.searchsorted(rng.random(), side="right"))
        j = int(c1.searchsorted(rng.random(), side="right"))
        return min(i, len(c0) - 1), min(j, len(c1) - 1)

    def update(self, values0: np.ndarray, values1: np.ndarray) -> tuple[float, float]:
        """Regret matching+ against the children's values to the two seats (rows of the
        value table), in expectation over the other seat's current mix; the node's new
        value to each seat, under the average mixes."""
        x0, x1 = values0[self.grid], values1[self.grid]  # (k0, k1)
        p0, p1 = self.mix
        u0 = x0 @ p1  # seat s0's value of each of its actions
        u1 = p0 @ x1
        r0, r1 = self.regret
        r0 += u0 - float(p0 @ u0)
        r1 += u1 - float(u1 @ p1)
        np.maximum(r0, 0.0, out=r0)
        np.maximum(r1, 0.0, out=r1)
        self.updates += 1
        c0, c1 = self.cum  # linear averaging: later, better mixes weigh more
        c0 += self.updates * p0
        c1 += self.updates * p1
        self.mix = (proportional(r0), proportional(r1))
        g = self.gamma
        self.cdf = (
            np.cumsum((1 - g) * self.mix[0] + g / len(r0)),
            np.cumsum((1 - g) * self.mix[1] + g / len(r1)),
        )
        a0, a1 = self.average(0), self.average(1)
        return float(a0 @ x0 @ a1), float(a0 @ x1 @ a1)

    def average(self, j: int) -> np.ndarray:
        """Seat ``j``'s average mix (uniform before any update)."""
        return proportional(self.cum[j])


def proportional(weights: np.ndarray) -> np.ndarray:
    """``weights`` (non-negative) scaled to sum to 1; uniform if they are all 0."""
    total = float(weights.sum())
    return weights / total if total > 0 else np.full(len(weights), 1.0 / len(weights))
