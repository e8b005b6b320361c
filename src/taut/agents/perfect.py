"""The perfect agent: plays the exact optimal mixed strategy of the Push-Pull duel.

The duel's solution (``taut.solve.push_pull``) gives, for every position, an optimal mix
for each player; this agent samples its move from that mix. The solution is computed on
first use (a fraction of a second) and kept for the process. Playing it guarantees West
an expected result of at least the position's value, whatever the opponent does.
"""

from __future__ import annotations

import random

from taut.agents.base import Agent
from taut.core.errors import InvalidOptionError
from taut.core.game import State


class PerfectAgent(Agent):
    """Samples the solved optimal mix of the Push-Pull duel (``variant=duel`` only)."""

    name = "perfect"

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Draw an action from the optimal mix of ``seat`` at ``state``."""
        from taut.games.push_pull.rules import PushPullState
        from taut.solve.push_pull import cached_solution, duel_position_key

        if not isinstance(state, PushPullState) or state.game.variant != "duel":
            raise InvalidOptionError(
                "the perfect agent knows only the Push-Pull duel (push-pull, variant=duel)"
            )
        mix = cached_solution().strategy(duel_position_key(state), state.seat_name(seat))
        actions = sorted(mix)
        r = rng.random()
        acc = 0.0
        for action in actions:
            acc += mix[action]
            if r < acc:
                return state.string_to_action(seat, action)
        return state.string_to_action(seat, max(actions, key=mix.__getitem__))
