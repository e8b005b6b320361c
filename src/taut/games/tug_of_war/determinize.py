"""Sampling the hidden tiles of a view: a full state the viewer cannot tell from the truth.

The tiles the viewer cannot see (other hands and the boneyard) are shuffled and dealt to
the hidden hands by their known sizes; the rest form the boneyard. A tile another player
has just drawn is one of that player's sampled tiles. No inference is made from past
moves (a player who drew probably held nothing playable): every consistent deal is equally
likely, which is what information-set search needs as a start.
"""

from __future__ import annotations

import random
from typing import TypeVar

from taut.games.tug_of_war.model import DRAWN, TugModel

M = TypeVar("M", bound=TugModel)


def determinize(view: M, seat: int, rng: random.Random) -> M:
    """A random full state consistent with ``view`` (which ``seat`` may see)."""
    if not view.is_view:
        return view
    unseen = view.unseen()
    rng.shuffle(unseen)
    hands = []
    taken = 0
    for s, hand in enumerate(view.hands):
        if hand is None:
            size = view.sizes[s]
            hands.append(frozenset(unseen[taken : taken + size]))
            taken += size
        else:
            hands.append(hand)
    drawn = view.drawn
    if view.phase == DRAWN and drawn == -1:
        drawn = rng.choice(sorted(hands[view.current]))
    return view._with(
        viewer=None,
        is_view=False,
        hands=tuple(hands),
        stock=frozenset(unseen[taken:]),
        drawn=drawn,
    )
