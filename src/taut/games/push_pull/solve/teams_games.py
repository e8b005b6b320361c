"""Two-teams Push-Pull as one-turn matrix games over its solved values.

Every position of ``variant=two-teams`` (teams N+E against S+W, no shifts) becomes the
matrix game of its legal moves, each pair of moves scored by the value of the position it
leads to: exact after a score (:mod:`.teams_solve`), near-exact before
(:mod:`.teams_opening`). The equilibrium mixes come from an LP where a game is small (one
or two pieces on the board: 9 x 9 or 81 x 81) and from regret matching where it is
729 x 729 (:func:`~.teams_bounds.opening_mix`, the strategy whose guarantee is proven);
games are kept per position class for the process, so a class is solved once.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from taut.core.game import State
from taut.core.one_turn import OneTurnGame
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.solve.teams_bounds import opening_mix
from taut.games.push_pull.solve.teams_model import TeamsModel
from taut.games.push_pull.solve.teams_opening import all_values, cached_model
from taut.solve.matrix import certify, solve_matrix_game

#: Largest game solved by LP.
LP_MOVES = 81
#: Classes whose games are kept per process.
KEPT = 4096


def mirror(square: int) -> int:
    """The square a reflection of the board through its North-South axis takes
    ``square`` to (East's edge to West's)."""
    row, col = divmod(square, SIZE)
    return row * SIZE + (SIZE - 1 - col)


class TeamsOneTurnGames:
    """:class:`~taut.core.one_turn.OneTurnGames` of two-teams Push-Pull; keys are the
    solver's class numbers, with the two results after them.

    The solver's board has N+E against S+W. With ``mirrored``, the game is N+W against
    S+E, the same game reflected East for West: squares are reflected before they are
    looked up, and a seat's action ids mean the same (its sides in the same order)."""

    exact = False

    def __init__(self, mirrored: bool = False) -> None:
        self.model: TeamsModel = cached_model()
        self.values = all_values()
        self.mirrored = mirrored
        self._class_game = lru_cache(maxsize=KEPT)(self._solve_class)

    def _locs(self, state: PushPullState) -> tuple[int, ...]:
        """The pieces' locations on the solver's board (scored pieces as they are)."""
        if not self.mirrored:
            return state.locs
        return tuple(mirror(loc) if loc < OFF else loc for loc in state.locs)

    def key(self, state: State) -> int:
        """The class of ``state`` (or the pseudo-class of its result)."""
        assert isinstance(state, PushPullState)
        if state.is_terminal():
            return self.model.win if state.returns()[0] > 0 else self.model.loss
        scores = [0, 0]
        for loc in state.locs:
            if loc >= OFF:
                scores[state.game.layout.exit_unit(loc - OFF)] += 1
        squares = tuple(sorted(loc for loc in self._locs(state) if loc < OFF))
        return self.model.index[(squares, scores[0], scores[1])]

    def _solve_class(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
        """``(payoff, successors, row mix, column mix, value)`` of class ``i`` in
        class-order actions."""
        succ = self.model.successors(i)
        payoff = self.values[succ]
        if payoff.shape[0] <= LP_MOVES:
            value, x, y = solve_matrix_game(payoff)
        else:  # the mixes whose guarantees teams_bounds proves
            x, y = opening_mix(payoff)
            value = certify(payoff, x, y)[0]
        return payoff, succ, x, y, value

    def game(self, state: State) -> OneTurnGame | None:
        """The one-turn game at ``state``; None once the game is over."""
        assert isinstance(state, PushPullState)
        if state.is_terminal():
            return None
        i = self.key(state)
        payoff, succ, x, y, value = self._class_game(i)
        moves = class_order_actions(self._locs(state), self.model.choices)
        return OneTurnGame(moves, moves, payoff, succ, x, y, value)


def class_order_actions(locs: tuple[int, ...], choices: int) -> list[int]:
    """The action id of each class-order action (the pieces on the board in the order of
    their squares, the first the most significant digit) for pieces at ``locs``; pieces off
    the board pass (digit 0 of the action id)."""
    count = len(locs)
    order = sorted((p for p in range(count) if locs[p] < OFF), key=lambda p: locs[p])
    weights = [choices ** (count - 1 - p) for p in order]
    actions = [0]
    for w in weights:
        actions = [a + d * w for a in actions for d in range(choices)]
    return actions
