"""The one agent protocol: every player, from uniform random to a human, is an Agent."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from taut.core.game import State

#: Calls of ``act`` behind the default, sampled estimate of an agent's mixed strategy.
STRATEGY_SAMPLES = 200


def sample(mix: dict[int, float], rng: random.Random) -> int:
    """Draw an action from a mixed strategy (one ``rng.random()`` call)."""
    r = rng.random()
    acc = 0.0
    for action, p in mix.items():
        acc += p
        if r < acc:
            return action
    return max(mix, key=mix.__getitem__)


class Agent(ABC):
    """Chooses actions for one seat.

    ``act`` receives ``state.view(seat)`` (never more than the seat may know) and an
    injected random generator; it returns one of ``state.legal_actions(seat)``.
    """

    name: str = "agent"

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
        """Whether this seat accepts a draw offered by the opponent (default: no)."""
        return False

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
