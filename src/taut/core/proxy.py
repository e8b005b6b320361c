"""Proxies: a simpler game whose agents play for the seats of another.

Some options add choices that matter to a person but not to a strategy. In a learning
game a player gives the other face of a tile (a handshape, a Roman numeral) to pull its
string: a computer player should choose *which* string as in the plain game and answer
correctly (or, for a gentler partner, err now and then). A game with such options returns
a :class:`Proxy` from :meth:`~taut.core.game.Game.proxy`: the agents search the proxy's
game, at its speed and with its exact solvers, and :meth:`Proxy.lift` turns their choice
into an action of the real game. :func:`taut.agents.make_agent` wraps agents this way
whenever it is given such a game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taut.core.game import Game, State


class Proxy(ABC):
    """Maps the positions of a game onto a simpler game, and its actions back."""

    #: The game the agents play instead.
    game: Game

    @abstractmethod
    def state(self, state: State) -> State:
        """The position of :attr:`game` that stands for ``state``."""

    @abstractmethod
    def lift(self, state: State, seat: int, action: int, rng: random.Random) -> int:
        """The action of the real game at ``state`` for the proxy's ``action`` of ``seat``
        (``rng`` draws anything the lift leaves to chance, such as a mistake)."""

    @abstractmethod
    def lift_policy(self, state: State, seat: int, policy: Mapping[int, float]) -> dict[int, float]:
        """The mixed strategy of the real game that playing ``policy`` through
        :meth:`lift` amounts to."""
