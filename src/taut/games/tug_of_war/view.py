"""Hidden information: what one seat (or a spectator) may know of a state.

A seat sees its own hand, every train, every score, every hand's size and the boneyard's
size. It never sees another hand, the boneyard's content or order, or a tile someone else
has just drawn. A spectator sees no hand at all. The view is a state of the same game and
class (with ``is_view`` set), so agents can play it forward for their own seat and average
over draws of the tiles they cannot see.
"""

from __future__ import annotations

from typing import TypeVar

from taut.games.tug_of_war.model import DRAWN, TugModel

M = TypeVar("M", bound=TugModel)


def make_view(state: M, seat: int | None) -> M:
    """``state`` as ``seat`` may know it (None: a spectator)."""
    n = state.game.num_players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r}; seats are 0..{n - 1} (or None for a spectator)")
    if state.is_view and state.viewer == seat:
        return state
    hands = tuple(hand if s == seat else None for s, hand in enumerate(state.hands))
    # A drawn tile is known only to the player who drew it.
    own_draw = seat is not None and state.phase == DRAWN and state.current == seat
    return state._with(
        viewer=seat,
        is_view=True,
        hands=hands,
        stock=None,
        drawn=state.drawn if own_draw else -1,
    )
