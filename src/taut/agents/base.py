"""The one agent protocol: every player, from uniform random to a human, is an Agent."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from taut.core.game import State


class Agent(ABC):
    """Chooses actions for one seat.

    ``act`` receives ``state.view(seat)`` (never more than the seat may know) and an
    injected random generator; it returns one of ``state.legal_actions(seat)``.
    """

    name: str = "agent"

    @abstractmethod
    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Choose an action id for ``seat`` at ``state``."""

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
