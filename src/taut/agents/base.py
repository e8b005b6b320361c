"""The one agent protocol: every player, from uniform random to a human, is an Agent."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from taut.core.game import Game, State

Evaluator = Callable[[State], tuple[float, ...]]
"""A quick evaluation of a state: one value per seat, in the game's utility range.

Searches take one (the greedy look-ahead, SM-MCTS, ISMCTS, Nash search); where none is
given they use the game's own :meth:`~taut.core.game.Game.heuristic`.
"""

#: Calls of ``act`` behind the default, sampled estimate of an agent's mixed strategy.
STRATEGY_SAMPLES = 200


#: How far above even (a share of the utility range) an agent still takes a draw.
DRAW_MARGIN = 0.02


class Agent(ABC):
    """Chooses actions for one seat.

    ``act`` receives ``state.view(seat)`` (never more than the seat may know) and an
    injected random generator; it returns one of ``state.legal_actions(seat)``.
    """

    name: str = "agent"

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """Why this kind of agent cannot play ``game`` (None: it can).

        The reason completes the sentence "the agent ..." (``needs perfect information``).
        The default plays every game.
        """
        return None

    @abstractmethod
    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Choose an action id for ``seat`` at ``state``."""

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The mixed strategy this agent plays at ``state``: ``action -> probability``.

        Agents that know their mix return it exactly; this default estimates it from
        ``STRATEGY_SAMPLES`` calls of :meth:`act`.
        """
        counts: dict[int, int] = {}
        for _ in range(STRATEGY_SAMPLES):
            a = self.act(state, seat, rng)
            counts[a] = counts.get(a, 0) + 1
        return {a: n / STRATEGY_SAMPLES for a, n in sorted(counts.items())}

    def strategies(
        self, state: State, seats: tuple[int, ...], rng: random.Random
    ) -> dict[int, dict[int, float]]:
        """The mixes of several ``seats`` at a perfect-information ``state``.

        The default asks :meth:`strategy` once per seat; a search that finds every seat's
        mix at once (SM-MCTS) answers all of them from one search.
        """
        return {seat: self.strategy(state, seat, rng) for seat in seats}

    def accept_draw(self, state: State, seat: int) -> bool:
        """Whether this seat accepts a draw offered by another seat.

        The default answers as a player would: yes when the game's evaluation of ``state``
        for ``seat`` says the game is even or lost (at most :data:`DRAW_MARGIN` of the
        utility range above its middle), no when it is ahead.
        """
        info = state.game.info
        span = info.max_utility - info.min_utility
        middle = info.min_utility + span / 2
        value = state.game.heuristic(state)[seat]
        return value <= middle + DRAW_MARGIN * span

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions(seat))

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """Uniform over the legal actions."""
        legal = state.legal_actions(seat)
        return {a: 1.0 / len(legal) for a in legal}
