"""Seeded chance: every random choice in the package comes from an injected generator."""

from __future__ import annotations

import random

from taut.core.game import State


def make_rng(seed: int | None) -> random.Random:
    """A generator for ``seed`` (a fresh unpredictable one when ``seed`` is None)."""
    return random.Random(seed)


def derive_seed(seed: int, *labels: int | str) -> int:
    """A child seed for a sub-task (a game in a series, a seat's agent), stable across runs."""
    rng = random.Random(f"{seed}:" + ":".join(str(x) for x in labels))
    return rng.getrandbits(63)


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome of ``state`` with its probability."""
    return state.sample_chance(rng)
