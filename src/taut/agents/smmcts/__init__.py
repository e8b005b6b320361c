"""Simultaneous-move Monte Carlo tree search (SM-MCTS) with decoupled selection.

At every node each acting seat keeps its own statistics over its own actions and selects
independently; the joint action of the selections leads to the child. How a seat selects
is an injected :class:`~taut.agents.smmcts.selection.SelectionRule` object: regret
matching (``rm``), Exp3 (``exp3``), decoupled UCT (``uct``), or one of your own.

Regret matching has two backups. ``width=sampled`` is the bandit form of the rule. With
``width=full`` (the default), a node where exactly two seats act and the joint actions are
few is expanded whole on its first visit and backed up against the matrix of its
children's values (:mod:`~taut.agents.smmcts.matrix`). Nodes shared by transposition make
the children's values good estimates quickly; other nodes use the bandit form. The
children of an expanded node are scored by the evaluator (no rollouts), and the positions
a node leads to are remembered between searches.

At a simultaneous root the move played is *sampled* from the root's mixed strategy (the
average strategy for ``rm`` and ``exp3``, with Exp3's exploration noise removed; visit
frequencies for ``uct``): in a simultaneous game a deterministic choice can be exploited.
Where only one seat acts, the most visited action is played. One-seat nodes use the same
machinery with one seat, and chance nodes sample an outcome, so the agent plays any game of
the protocol with perfect information.

Modules: :mod:`~taut.agents.smmcts.selection` (the rules and per-seat statistics),
:mod:`~taut.agents.smmcts.matrix` (the full-width node), :mod:`~taut.agents.smmcts.tree`
(nodes), :mod:`~taut.agents.smmcts.flat` (the search's per-node numbers as flat arrays),
:mod:`~taut.agents.smmcts.kernels` (the hot loops of full-width search, in Python/NumPy,
and compiled by :mod:`~taut.agents.smmcts.compiled` when Numba is installed: the optional
``fast`` extra), :mod:`~taut.agents.smmcts.search` (the descents of one search) and
:mod:`~taut.agents.smmcts.agent` (parameters and the answer at the root). A search returns
a frozen :class:`~taut.agents.result.SearchResult`.
"""

from taut.agents.smmcts.agent import SMMCTSAgent
from taut.agents.smmcts.matrix import FULL_WIDTH_MAX, MatrixNode
from taut.agents.smmcts.search import MAX_DEPTH, MEMO_MAX, PRIOR_PROFILES, TreeSearch
from taut.agents.smmcts.selection import (
    RULES,
    UCT,
    Exp3,
    RegretMatching,
    SeatStats,
    SelectionRule,
    make_rule,
)
from taut.agents.smmcts.tree import Node

__all__ = [
    "FULL_WIDTH_MAX",
    "MAX_DEPTH",
    "MEMO_MAX",
    "PRIOR_PROFILES",
    "RULES",
    "UCT",
    "Exp3",
    "MatrixNode",
    "Node",
    "RegretMatching",
    "SMMCTSAgent",
    "SeatStats",
    "SelectionRule",
    "TreeSearch",
    "make_rule",
]
