"""Depth-limited Nash search for two-player zero-sum games.

Backward induction to a fixed depth (in turns), with the injected evaluator at the horizon:

* a simultaneous node's value is the value of the matrix game of its children, solved by
  linear programming. The matrix is filled lazily by a *double oracle* (after Bošanský,
  Lisý, Lanctot et al., "Algorithms for computing strategies in two-player simultaneous
  move games", 2016): start from one row and one column, solve the restricted game, add each
  side's best response to the other's mix, and stop when neither improves. Usually only a
  small part of the matrix is ever searched;
* a one-seat node is a max (or min) node searched with alpha-beta bounds;
* a chance node is the expectation over its outcomes.

Values are cached per (position, depth) within one search. The agent plays by sampling the
root's equilibrium mix; ``think`` seconds deepen the search one turn at a time (iterative
deepening) while time remains.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable

import numpy as np

from taut.agents import params
from taut.agents.base import Agent, Evaluator
from taut.agents.budget import Deadline
from taut.agents.result import SearchResult
from taut.core.chance import sample_mix
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.solve.matrix import solve_small_matrix_game

#: Positions searched between two reads of the clock.
CLOCK_EVERY = 256


class _OutOfTime(Exception):
    pass


class NashSearchAgent(Agent):
    """Depth-limited Nash search; see the module docstring.

    Parameters: ``depth`` (maximum turns ahead, default 2), ``think`` (seconds: deepen from
    1 up to ``depth`` while time remains; default none: search exactly ``depth``),
    ``evaluator`` (defaults to the game's heuristic).
    """

    name = "nash"

    def __init__(
        self,
        depth: int | str = 2,
        think: float | str | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.depth = params.count("depth", depth, 1)
        self.think = None if think is None else params.positive("think", think, "seconds")
        self.evaluator = evaluator
        self._nodes = 0
        self._cache: dict[tuple[Hashable, int], float] = {}
        self._deadline = Deadline(None)

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """Nash search needs perfect information, two seats and a zero-sum game."""
        info = game.info
        if not info.perfect_information:
            return "needs perfect information"
        if info.num_seats != 2:
            return "needs a game of two seats"
        if not info.zero_sum:
            return "needs a zero-sum game"
        return None

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Search and sample from ``seat``'s equilibrium mix at the root."""
        return sample_mix(self.strategy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """``seat``'s equilibrium mix at the root (no search where it has one legal action)."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return {legal[0]: 1.0}
        return self.search(state).mix(seat)

    def search(self, state: State) -> SearchResult:
        """The deepest completed search from ``state``: the acting seats' equilibrium mixes
        (uniform when not even one turn could be searched in time), seat 0's value and its
        opposite for seat 1, the depth reached and the positions searched."""
        refusal = self.refuses(state.game)
        if refusal is not None:
            raise InvalidOptionError(f"Nash search {refusal}")
        seats = state.acting_seats()
        if state.kind is NodeKind.CHANCE or not seats:
            raise InvalidOptionError("Nash search starts from a position where seats act")
        uniform: dict[int, dict[int, float]] = {}
        for s in seats:
            legal = state.legal_actions(s)
            uniform[s] = {a: 1.0 / len(legal) for a in legal}
        if all(len(state.legal_actions(s)) == 1 for s in seats):
            return SearchResult(uniform)
        self._nodes = 0
        self._cache = {}
        result = SearchResult(uniform)
        self._deadline = Deadline(self.think)
        start = self.depth if self.think is None else 1
        for depth in range(start, self.depth + 1):
            try:
                value, policy = self._root(state, depth)
            except _OutOfTime:
                break
            result = SearchResult(
                policy,
                value={0: value, 1: -value},
                iterations=depth - start + 1,
                nodes=self._nodes,
                depth=depth,
            )
        self._cache = {}
        return result

    # -- search ---------------------------------------------------------------------------

    def _leaf(self, state: State) -> float:
        if state.is_terminal():
            return state.returns()[0]
        return (self.evaluator or state.game.heuristic)(state)[0]

    def _root(self, state: State, depth: int) -> tuple[float, dict[int, dict[int, float]]]:
        """Seat 0's value of ``state`` searched ``depth`` turns deep and the acting seats'
        mixes: the matrix game's equilibrium, or uniform over the best moves of one seat."""
        seats = state.acting_seats()
        if len(seats) == 2:
            value, x, y, rows, cols = self._matrix(state, depth)
            return value, {
                0: {a: float(p) for a, p in zip(rows, x, strict=True) if p > 1e-9},
                1: {a: float(p) for a, p in zip(cols, y, strict=True) if p > 1e-9},
            }
        (seat,) = seats
        values = {
            a: self._value(state.apply_unchecked({seat: a}), depth - 1, -math.inf, math.inf)
            for a in state.legal_actions(seat)
        }
        sign = 1 if seat == 0 else -1
        top = max(sign * v for v in values.values())
        winners = [a for a, v in values.items() if sign * v >= top - 1e-9]
        return sign * top, {seat: {a: 1.0 / len(winners) for a in winners}}

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """Seat 0's value of ``state`` searched ``depth`` turns deep."""
        if state.is_terminal() or depth <= 0:
            return self._leaf(state)
        self._nodes += 1
        if self._nodes % CLOCK_EVERY == 0 and self._deadline.passed():
            raise _OutOfTime
        kind = state.kind
        if kind is NodeKind.CHANCE:
            return sum(
                p * self._value(state.apply_unchecked({CHANCE_SEAT: o}), depth, -math.inf, math.inf)
                for o, p in state.chance_outcomes()
            )
        key = (state.transposition_key(), depth)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if kind is NodeKind.SIMULTANEOUS:
            value = self._matrix(state, depth)[0]
        else:
            (seat,) = state.acting_seats()
            maximise = seat == 0
            value = -math.inf if maximise else math.inf
            exact = True
            for a in state.legal_actions(seat):
                v = self._value(state.apply_unchecked({seat: a}), depth - 1, alpha, beta)
                if maximise:
                    value = max(value, v)
                    alpha = max(alpha, v)
                else:
                    value = min(value, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    exact = False  # a cut: only a bound, not cached
                    break
            if not exact:
                return value
        self._cache[key] = value
        return value

    def _matrix(
        self, state: State, depth: int
    ) -> tuple[float, np.ndarray, np.ndarray, list[int], list[int]]:
        """Solve the node's matrix game by double oracle; returns value, mixes, actions."""
        rows = list(state.legal_actions(0))
        cols = list(state.legal_actions(1))
        cells: dict[tuple[int, int], float] = {}
        # On the last turn searched every child is a leaf: a game that values them all at
        # once (a compiled kernel) saves making each one.
        leaves = (
            state.game.heuristic_matrix(state) if depth == 1 and self.evaluator is None else None
        )

        def entry(i: int, j: int) -> float:
            if leaves is not None:
                return leaves[i][j]
            v = cells.get((i, j))
            if v is None:
                child = state.apply_unchecked({0: rows[i], 1: cols[j]})
                v = self._value(child, depth - 1, -math.inf, math.inf)
                cells[(i, j)] = v
            return v

        r_set, c_set = [0], [0]
        while True:
            sub = np.array([[entry(i, j) for j in c_set] for i in r_set])
            value, x, y = solve_small_matrix_game(sub)
            # Best responses over all actions to the restricted mixes (in Python floats: the
            # same numbers as NumPy's, without a scalar object per product).
            xs, ys = x.tolist(), y.tolist()
            row_scores = [
                sum(ys[k] * entry(i, j) for k, j in enumerate(c_set)) for i in range(len(rows))
            ]
            col_scores = [
                sum(xs[k] * entry(i, j) for k, i in enumerate(r_set)) for j in range(len(cols))
            ]
            br_row = max(range(len(rows)), key=row_scores.__getitem__)
            br_col = min(range(len(cols)), key=col_scores.__getitem__)
            grew = False
            if row_scores[br_row] > value + 1e-9 and br_row not in r_set:
                r_set.append(br_row)
                grew = True
            if col_scores[br_col] < value - 1e-9 and br_col not in c_set:
                c_set.append(br_col)
                grew = True
            if not grew:
                break
        full_x = np.zeros(len(rows))
        full_y = np.zeros(len(cols))
        for k, i in enumerate(r_set):
            full_x[i] = x[k]
        for k, j in enumerate(c_set):
            full_y[j] = y[k]
        return value, full_x, full_y, rows, cols
