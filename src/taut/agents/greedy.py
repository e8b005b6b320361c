"""The greedy agent: one turn of look-ahead with an injected evaluator.

* At a one-seat node it plays the action whose successor evaluates best (ties at random;
  a chance successor is averaged over its outcomes).
* At a two-seat simultaneous node it builds the one-turn matrix game of evaluations,
  solves it by linear programming and samples its equilibrium mix: a deterministic choice
  in a simultaneous game is exploitable.
* With more simultaneous seats it scores each of its actions against a sample of the
  others' joint choices.
* When a matrix would be huge (more than ``MAX_CELLS`` cells) it is built on a random sample
  of ``SAMPLED_MOVES`` moves per side.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from taut.agents.base import Agent, Evaluator
from taut.core.chance import sample_mix
from taut.core.game import State
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.solve.matrix import solve_matrix_game

#: Opponent profiles sampled per action when three or more seats act at once.
SAMPLED_PROFILES = 48
#: Above this many cells the one-turn matrix game is built on sampled moves (with several
#: hundred moves a side, or thousands, the full matrix would take minutes).
MAX_CELLS = 4096
#: Moves sampled per side when the matrix would exceed ``MAX_CELLS``.
SAMPLED_MOVES = 48


class GreedyAgent(Agent):
    """One-turn look-ahead; ``evaluator`` defaults to the game's own heuristic."""

    name = "greedy"

    def __init__(self, evaluator: Evaluator | None = None) -> None:
        self.evaluator = evaluator

    def _value(self, state: State, seat: int) -> float:
        if state.kind is NodeKind.CHANCE:
            return sum(
                p * self._value(state.apply({CHANCE_SEAT: o}), seat)
                for o, p in state.chance_outcomes()
            )
        evaluate = self.evaluator or state.game.heuristic
        return evaluate(state)[seat]

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Choose by one-turn look-ahead (see the module docstring)."""
        return sample_mix(self.strategy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The mix this agent samples from: the matrix game's equilibrium at a two-seat
        simultaneous node, else uniform over the best-scoring actions."""
        seats = state.acting_seats()
        mine = list(state.legal_actions(seat))
        if len(mine) == 1:
            return {mine[0]: 1.0}
        others = [s for s in seats if s != seat]
        if not others:
            scores = [self._value(state.apply({seat: a}), seat) for a in mine]
            return _best(mine, scores)
        if len(others) == 1:
            other = others[0]
            theirs = list(state.legal_actions(other))
            if len(mine) * len(theirs) > MAX_CELLS:
                mine = sorted(rng.sample(mine, min(SAMPLED_MOVES, len(mine))))
                theirs = sorted(rng.sample(theirs, min(SAMPLED_MOVES, len(theirs))))
            matrix = np.array(
                [
                    [self._value(state.apply({seat: a, other: b}), seat) for b in theirs]
                    for a in mine
                ]
            )
            _, mix, _ = solve_matrix_game(matrix)
            return {a: float(p) for a, p in zip(mine, mix, strict=True) if p > 1e-12}
        legal = [list(state.legal_actions(s)) for s in others]
        size = 1
        for options in legal:
            size *= len(options)
        if size <= SAMPLED_PROFILES:
            profiles = list(itertools.product(*legal))
        else:
            profiles = [tuple(rng.choice(o) for o in legal) for _ in range(SAMPLED_PROFILES)]
        scores = []
        for a in mine:
            total = 0.0
            for profile in profiles:
                joint = dict(zip(others, profile, strict=True))
                joint[seat] = a
                total += self._value(state.apply(joint), seat)
            scores.append(total / len(profiles))
        return _best(mine, scores)


def _best(actions: list[int], scores: list[float]) -> dict[int, float]:
    """Uniform over the actions scoring within 1e-9 of the best."""
    top = max(scores)
    winners = [a for a, v in zip(actions, scores, strict=True) if v >= top - 1e-9]
    return {a: 1.0 / len(winners) for a in winners}
