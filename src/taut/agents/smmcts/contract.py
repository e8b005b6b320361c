"""What both implementations of the SM-MCTS kernels promise, shared by both.

The plain kernels (:mod:`taut.agents.smmcts.kernels`) and the compiled ones
(:mod:`taut.agents.smmcts.compiled`) return the same reasons for stopping a descent, treat
the same regrets as rounding noise and are handed to a search as one :class:`Kernels`
value. These live here, below both, so that the compiled kernels never import the module
that chooses and loads them: the dependency runs one way, ``kernels -> compiled``, and
both import this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from taut.agents.smmcts.flat import FloatArray, IntArray, UIntArray

# Why ``descend`` stopped (the node it stopped at is returned with it).
#: The selected child is already on the descent's path.
STOP_CYCLE = 0
#: The selected child is a finished game.
STOP_END = 1
#: The selected child is not an expanded node: the search goes on from it in Python.
STOP_OPEN = 2
#: The depth limit: the node reached is the last of the path, and nothing was selected.
STOP_DEPTH = 3

#: Regrets below this are rounding noise and count as 0 (rewards are scaled to [0, 1]).
NOISE = 1e-12


class Kernels(NamedTuple):
    """One implementation of the kernels (see :mod:`taut.agents.smmcts.kernels`)."""

    name: str
    """``numba`` or ``python``."""
    update: Callable[[int, IntArray, FloatArray, IntArray, FloatArray, float], None]
    choose: Callable[[int, IntArray, FloatArray, UIntArray], tuple[int, int]]
    descend: Callable[
        [int, int, int, int, IntArray, FloatArray, IntArray, IntArray, IntArray, int, UIntArray],
        tuple[int, int, int],
    ]
    backup: Callable[[IntArray, int, int, IntArray, FloatArray, IntArray, FloatArray, float], None]
    descents: Callable[
        [
            int,
            int,
            int,
            int,
            IntArray,
            FloatArray,
            IntArray,
            FloatArray,
            IntArray,
            IntArray,
            UIntArray,
            float,
        ],
        tuple[int, int, int, int],
    ]
    next_double: Callable[[UIntArray], float]
