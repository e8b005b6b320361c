"""An agent that plays a game through its proxy (see :class:`taut.core.game.Proxy`)."""

from __future__ import annotations

import random

from taut.agents.base import Agent
from taut.core.game import Proxy, State


class ProxiedAgent(Agent):
    """Plays ``base`` on the proxy's game and lifts its choices into the real game."""

    def __init__(self, base: Agent, proxy: Proxy) -> None:
        self.base = base
        self.proxy = proxy
        self.name = base.name

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The base agent's choice in the proxy game, lifted."""
        chosen = self.base.act(self.proxy.state(state), seat, rng)
        return self.proxy.lift(state, seat, chosen, rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The base agent's mix in the proxy game, lifted."""
        mix = self.base.strategy(self.proxy.state(state), seat, rng)
        return self.proxy.lift_policy(state, seat, mix)

    def strategies(
        self, state: State, seats: tuple[int, ...], rng: random.Random
    ) -> dict[int, dict[int, float]]:
        """Every seat's mix from one base search, lifted."""
        mixes = self.base.strategies(self.proxy.state(state), seats, rng)
        return {s: self.proxy.lift_policy(state, s, mix) for s, mix in mixes.items()}

    def accept_draw(self, state: State, seat: int) -> bool:
        """The base agent's answer on the proxy position."""
        return self.base.accept_draw(self.proxy.state(state), seat)

    def __repr__(self) -> str:
        return repr(self.base)
