"""One-turn games of a solved (or nearly solved) two-seat simultaneous game.

Where a two-seat zero-sum game with simultaneous moves has been solved, exactly or to a
known precision, every position is a matrix game: each pair of moves leads to a position
whose value is known, so the position's value is the matrix game's value and the
solution's mixes are its equilibrium. A game's plugin offers these matrices through
:meth:`~taut.core.plugin.GamePlugin.one_turn_games`; agents that know the values can then
reply to a model of the opponent instead of guessing the values by search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from taut.core.game import State


@dataclass(frozen=True)
class OneTurnGame:
    """A position's matrix game: rows are seat 0's moves, columns seat 1's."""

    rows: Sequence[int]
    """Seat 0's action ids, one per row (every legal move, each once)."""
    cols: Sequence[int]
    """Seat 1's action ids, one per column."""
    payoff: npt.NDArray[np.float64]
    """Seat 0's value of the position each pair of moves leads to (seat 1's is its negation)."""
    successors: npt.NDArray[np.int64]
    """``successors[r, c]``: the key (:meth:`OneTurnGames.key`) of the position reached."""
    row_mix: npt.NDArray[np.float64]
    """Seat 0's equilibrium mix over ``rows``."""
    col_mix: npt.NDArray[np.float64]
    """Seat 1's equilibrium mix over ``cols``."""
    value: float
    """Seat 0's value of the position (the matrix game's value at the solution's values)."""

    def moves(self, seat: int) -> Sequence[int]:
        """The action ids of ``seat``'s side of the matrix."""
        return self.rows if seat == 0 else self.cols

    def mix(self, seat: int) -> npt.NDArray[np.float64]:
        """``seat``'s equilibrium mix, in the order of :meth:`moves`."""
        return self.row_mix if seat == 0 else self.col_mix

    def reply_values(self, seat: int, other: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``seat``'s expected value of each of its moves when the other seat plays
        ``other`` (a mix over the other seat's moves)."""
        if seat == 0:
            values: npt.NDArray[np.float64] = self.payoff @ other
            return values
        return -(other @ self.payoff)


class OneTurnGames(Protocol):
    """The one-turn games of a solved game, by position."""

    exact: bool
    """True when the values are exact (not approximations)."""

    def key(self, state: State) -> int:
        """A number naming ``state``'s position, shared by positions of equal value and
        equal one-turn game (as :attr:`OneTurnGame.successors` names them)."""

    def game(self, state: State) -> OneTurnGame | None:
        """The one-turn game at ``state`` (None at a position the solution does not cover)."""
