"""The perfect agent: plays the exact optimal mixed strategy of a solved game.

A game whose plugin knows an exact optimal policy (``GamePlugin.exact_policy``) gives, for
every position, an optimal mix for each seat; this agent samples its move from that mix.
In a two-seat zero-sum game, playing it guarantees a seat an expected result of at least
the position's value, whatever the opponent does. Games without an exact policy are
refused.
"""

from __future__ import annotations

import random

from taut.agents.base import Agent
from taut.core.chance import sample_mix
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.plugin import Policy
from taut.core.registry import plugin_of


class PerfectAgent(Agent):
    """Samples the exact optimal mix that the game's plugin provides."""

    name = "perfect"

    def __init__(self) -> None:
        self._known: tuple[Game, Policy] | None = None

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """The perfect agent needs a game whose plugin has an exact policy."""
        plugin = plugin_of(game)
        if plugin.exact_policy(game) is None:
            return f"needs a solved game: {plugin.unsolved_because(game)}"
        return None

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Draw an action from the optimal mix of ``seat`` at ``state``."""
        return sample_mix(self.strategy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The exact optimal mix of ``seat`` at ``state``, by action id."""
        policy = self._policy(state.game)
        return dict(sorted(policy(state, seat).items()))

    def _policy(self, game: Game) -> Policy:
        """The exact policy of ``game`` (asked of its plugin once per game)."""
        if self._known is None or self._known[0] is not game:
            policy = plugin_of(game).exact_policy(game)
            if policy is None:
                raise InvalidOptionError(
                    f"the perfect agent has no exact policy for {game.title}: "
                    "it plays only solved games"
                )
            self._known = (game, policy)
        return self._known[1]
