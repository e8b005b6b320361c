"""Seeded chance: every random choice in the package comes from an injected generator.

:func:`sample_index` is the one draw from a discrete distribution: chance outcomes, a
search's selection, an agent's move from its mix all go through it, so one seed gives the
same draws wherever they are made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chancy(Protocol):
    """A position that draws its own chance outcomes (every :class:`~taut.core.game.State`:
    named by what it does here, so that the protocol's module can import this one)."""

    def sample_chance(self, rng: random.Random) -> int:
        """A chance outcome drawn with its probability."""
        ...


def make_rng(seed: int | None) -> random.Random:
    """A generator for ``seed`` (a fresh unpredictable one when ``seed`` is None)."""
    return random.Random(seed)


def derive_seed(seed: int, *labels: int | str) -> int:
    """A child seed for a sub-task (a game in a series, a seat's agent), stable across runs."""
    rng = random.Random(f"{seed}:" + ":".join(str(x) for x in labels))
    return rng.getrandbits(63)


def sample_index(probabilities: Sequence[float], rng: random.Random) -> int:
    """Draw an index with its probability, from one ``rng.random()``.

    The indices are taken in order, each covering its probability of ``[0, 1)``. Where
    rounding leaves the probabilities a little short of the draw, the last index with a
    positive probability is drawn (the last index if none is positive).
    """
    r = rng.random()
    acc = 0.0
    for i, p in enumerate(probabilities):
        acc += p
        if r < acc:
            return i
    for i in range(len(probabilities) - 1, -1, -1):
        if probabilities[i] > 0:
            return i
    if not probabilities:
        raise ValueError("cannot draw from an empty distribution")
    return len(probabilities) - 1


def sample_mix(mix: Mapping[T, float], rng: random.Random) -> T:
    """Draw a key of ``mix`` (key -> probability, in the mapping's order) with
    :func:`sample_index`: one ``rng.random()``."""
    keys = list(mix)
    return keys[sample_index(list(mix.values()), rng)]


def sample_chance(state: Chancy, rng: random.Random) -> int:
    """Draw a chance outcome of ``state`` with its probability."""
    return state.sample_chance(rng)
