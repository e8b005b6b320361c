"""Sampling the hidden tiles of a view: a full state the viewer cannot tell from the truth.

The tiles the viewer cannot see (other hands and the boneyard) are dealt to the hidden
hands by their known sizes; the rest form the boneyard. A tile another player has just
drawn is one of that player's sampled tiles.

What the table has shown is respected: a player who drew, or passed, held no tile with a
number then showing on an open end (the state's ``voids``), so such tiles go to that hand
only where every consistent deal needs them. The most constrained hand is dealt first,
each from the tiles it may hold, uniformly; with one hidden hand (two players) this is
exactly a uniform draw among the consistent deals. (A hand that has just drawn an unseen
tile is dealt without constraint: that tile may fit.) If the greedy order leaves a hand
short (several constrained hands competing for few tiles), the deal is tried again a few
times and then made without the constraints, which is always possible.
"""

from __future__ import annotations

import random
from typing import TypeVar

from taut.games.tug_of_war.model import DRAWN, TugModel

M = TypeVar("M", bound=TugModel)

#: Constrained deals tried before one that ignores the voids.
TRIES = 8


def determinize(view: M, seat: int, rng: random.Random) -> M:
    """A random full state consistent with ``view`` (which ``seat`` may see)."""
    if not view.is_view:
        return view
    unseen = view.unseen()
    hidden = [s for s, hand in enumerate(view.hands) if hand is None and view.sizes[s] > 0]
    dealt = None
    if any(view.voids[s] for s in hidden):
        for _ in range(TRIES):
            dealt = _constrained(view, unseen, hidden, rng)
            if dealt is not None:
                break
    if dealt is None:
        dealt = _uniform(view, unseen, hidden, rng)
    hands = list(view.hands)
    taken: set[int] = set()
    for s, tiles in dealt.items():
        hands[s] = frozenset(tiles)
        taken.update(tiles)
    for s, hand in enumerate(hands):
        if hand is None:
            hands[s] = frozenset()  # a hidden hand of no tiles
    drawn = view.drawn
    if view.phase == DRAWN and drawn == -1:
        current = hands[view.current]
        assert current is not None
        drawn = rng.choice(sorted(current))
    return view._with(
        viewer=None,
        is_view=False,
        hands=tuple(hands),
        stock=frozenset(t for t in unseen if t not in taken),
        drawn=drawn,
    )


def _uniform(
    view: TugModel, unseen: list[int], hidden: list[int], rng: random.Random
) -> dict[int, list[int]]:
    """Every hidden hand dealt from a shuffle of the unseen tiles, constraints ignored."""
    pool = list(unseen)
    rng.shuffle(pool)
    out = {}
    start = 0
    for s in hidden:
        size = view.sizes[s]
        out[s] = pool[start : start + size]
        start += size
    return out


def _constrained(
    view: TugModel, unseen: list[int], hidden: list[int], rng: random.Random
) -> dict[int, list[int]] | None:
    """Each hidden hand dealt from the tiles its voids allow, most constrained first; None
    when one is left short."""
    numbers = view.game.dominoes.numbers
    voids = list(view.voids)
    if view.phase == DRAWN and view.drawn == -1:
        voids[view.current] = 0  # the tile just drawn may fit: not covered yet
    pool = set(unseen)

    def allowed(s: int) -> list[int]:
        mask = voids[s]
        return sorted(t for t in pool if not numbers[t] & mask)

    out = {}
    for s in sorted(hidden, key=lambda s: len(allowed(s)) - view.sizes[s]):
        choices = allowed(s)
        size = view.sizes[s]
        if len(choices) < size:
            return None
        picked = rng.sample(choices, size)
        out[s] = picked
        pool.difference_update(picked)
    return out
