"""The duel's optimal play as a policy: a seat's solved mix at a game state, by action id.

Playing it guarantees West an expected result of at least the position's value, and East at
most, whatever the opponent does. The solution is computed on first use (a fraction of a
second) and kept for the process.
"""

from __future__ import annotations

from taut.core.errors import InvalidOptionError
from taut.core.game import State
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.solve.duel_newton import cached_solution
from taut.games.push_pull.solve.duel_positions import duel_position_key


def duel_policy(state: State, seat: int) -> dict[int, float]:
    """The solved optimal mix of ``seat`` at ``state`` (a duel position), by action id.

    Raises :class:`InvalidOptionError` for a state of another game or variant.
    """
    if not isinstance(state, PushPullState) or state.game.variant != "duel":
        raise InvalidOptionError(
            "the exact solution is known only for the Push-Pull duel (push-pull, variant=duel)"
        )
    mix = cached_solution().strategy(duel_position_key(state), state.seat_name(seat))
    return {state.string_to_action(seat, text): p for text, p in sorted(mix.items())}


def duel_values(state: State) -> tuple[float, float]:
    """The solved values ``(West's, East's)`` of ``state`` (a duel position; the returns
    once it is over). Like the policy, they are the values of the game without a turn
    limit. Raises :class:`InvalidOptionError` for a state of another game or variant."""
    if not isinstance(state, PushPullState) or state.game.variant != "duel":
        raise InvalidOptionError(
            "the exact solution is known only for the Push-Pull duel (push-pull, variant=duel)"
        )
    if state.is_terminal():
        west, east = state.returns()
        return west, east
    value = cached_solution().value(duel_position_key(state))
    return value, 0.0 - value  # never -0.0
