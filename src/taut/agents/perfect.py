"""The perfect agent: plays the exact optimal mixed strategy of the Push-Pull duel.

The duel's solution (``taut.solve.push_pull``) gives, for every position, an optimal mix
for each player; this agent samples its move from that mix. The solution is computed on
first use (a fraction of a second) and kept for the process. Playing it guarantees West
an expected result of at least the position's value, whatever the opponent does.
"""

from __future__ import annotations

import random

from taut.agents.base import Agent, sample
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State


class PerfectAgent(Agent):
    """Samples the solved optimal mix of the Push-Pull duel (``variant=duel`` only)."""

    name = "perfect"

    @staticmethod
    def knows(game: Game) -> bool:
        """True when ``game`` is one this agent has a solution for."""
        return game.info.name == "push-pull" and game.options.get("variant") == "duel"

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Draw an action from the optimal mix of ``seat`` at ``state``."""
        return sample(self.strategy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The solved optimal mix of ``seat`` at ``state``, by action id."""
        from taut.games.push_pull.rules import PushPullState
        from taut.solve.push_pull import cached_solution, duel_position_key

        if not isinstance(state, PushPullState) or not self.knows(state.game):
            raise InvalidOptionError(
                "the perfect agent knows only the Push-Pull duel (push-pull, variant=duel)"
            )
        mix = cached_solution().strategy(duel_position_key(state), state.seat_name(seat))
        return {state.string_to_action(seat, text): p for text, p in sorted(mix.items())}
