"""What a best reply can win against uniform random play in Push-Pull's team games.

In ``two-teams`` each player moves two adjacent sides; ``four-teams`` is the same game with
each side moved by its own seat, so a team that coordinated perfectly would be a
``two-teams`` player. Against a uniformly random opponent (a random ``two-teams`` player,
or two independent random seats, which is the same thing), the replying side faces a
Markov decision process, and its exact value bounds what *any* agent can win there.

Pieces never interact: each moves by its own arrows. So a position is one of 27 states per
piece (25 squares, or scored by one of the two teams), the opponent's random choice for a
piece is independent of its choices for the others, and one turn's transition is a product
of per-piece transition matrices. Value iteration contracts the value tensor with them one
piece at a time; the transitions come from the rules' own tables (``Layout.dest`` and
``Layout.contrib``), and a test checks them against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from taut.core.errors import InvalidOptionError
from taut.core.registry import make
from taut.games.push_pull.board import OFF
from taut.games.push_pull.rules import PushPull
from taut.games.push_pull.variants import NUM_PIECES

#: Piece states: the 25 squares, then "scored by team 0" and "scored by team 1".
SQUARES = 25
SCORED = (SQUARES, SQUARES + 1)
PIECE_STATES = SQUARES + 2


@dataclass(frozen=True)
class PieceModel:
    """One piece's dynamics in a ``two-teams`` game, seat 0 replying to random seat 1."""

    codes: tuple[int, ...]
    """Seat 0's possible contributions for one piece (its per-piece choice)."""
    next_state: np.ndarray
    """(27, len(codes), len(other codes)): the piece's next state for each pair."""
    transition: np.ndarray
    """(len(codes), 27, 27): next-state probabilities against the uniform random seat 1."""


def piece_model(game: PushPull) -> PieceModel:
    """The per-piece transitions of ``game`` (a ``two-teams`` game without shifts)."""
    lay = game.layout
    if lay.variant != "two-teams" or lay.shifts:
        raise InvalidOptionError(
            "the team reply to random play is computed for variant=two-teams without shifts"
        )
    every = (1 << NUM_PIECES) - 1
    own = sorted({lay.contrib[0][a][0] for a in lay.legal[every]})
    other = sorted({lay.contrib[1][a][0] for a in lay.legal[every]})
    for p in range(1, NUM_PIECES):  # every piece has the same choices
        assert sorted({lay.contrib[0][a][p] for a in lay.legal[every]}) == own
    nxt = np.zeros((PIECE_STATES, len(own), len(other)), dtype=np.intp)
    for x in range(PIECE_STATES):
        for i, c in enumerate(own):
            for j, d in enumerate(other):
                if x >= SQUARES:
                    nxt[x, i, j] = x  # a scored piece stays scored
                    continue
                loc = lay.dest[x * lay.joint_size + c + d]
                nxt[x, i, j] = loc if loc < OFF else SQUARES + lay.exit_unit(loc - OFF)
    transition = np.zeros((len(own), PIECE_STATES, PIECE_STATES))
    for i in range(len(own)):
        for x in range(PIECE_STATES):
            for j in range(len(other)):
                transition[i, x, nxt[x, i, j]] += 1.0 / len(other)
    return PieceModel(tuple(own), nxt, transition)


@dataclass(frozen=True)
class TeamReply:
    """The best reply's value against random play, from every position."""

    values: np.ndarray
    """(27, 27, 27): the replying team's expected result (+1 win, -1 loss, 0 endless)."""
    start: int
    sweeps: int

    @property
    def value(self) -> float:
        """From the start (all pieces on the centre square)."""
        return float(self.values[self.start, self.start, self.start])

    @property
    def win_share(self) -> float:
        """The share of games the reply wins from the start, as games end with certainty."""
        return (1.0 + self.value) / 2.0


def terminal_values() -> tuple[np.ndarray, np.ndarray]:
    """(27, 27, 27) results of finished positions, and the mask of those positions."""
    count0 = np.zeros((PIECE_STATES,) * 3, dtype=int)
    count1 = np.zeros_like(count0)
    for axis in range(NUM_PIECES):
        shape = [1, 1, 1]
        shape[axis] = PIECE_STATES
        states = np.arange(PIECE_STATES).reshape(shape)
        count0 = count0 + (states == SCORED[0])
        count1 = count1 + (states == SCORED[1])
    done = (count0 >= 2) | (count1 >= 2)
    return np.where(count0 >= 2, 1.0, np.where(count1 >= 2, -1.0, 0.0)), done


def team_reply_to_random(
    teams: str = "NE-SW", tol: float = 1e-10, max_sweeps: int = 10_000
) -> TeamReply:
    """Value iteration for the team that replies best to uniform random play."""
    game = make("push-pull", variant="two-teams", teams=teams)
    assert isinstance(game, PushPull)
    t = piece_model(game).transition  # (C, 27, 27)
    result, done = terminal_values()
    v = result.copy()
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        # q[c1, x1, c2, x2, c3, x3]: expected value for choices c per piece, contracted
        # piece by piece; the maximum over the choices is taken last.
        a = np.tensordot(t, v, axes=([2], [0]))  # (c1, x1, y2, y3)
        b = np.tensordot(a, t, axes=([2], [2]))  # (c1, x1, y3, c2, x2)
        best = np.full(v.shape, -np.inf)
        for c3 in range(len(t)):
            r = np.tensordot(b, t[c3], axes=([2], [1]))  # (c1, x1, c2, x2, x3)
            np.maximum(best, r.max(axis=(0, 2)), out=best)
        new = np.where(done, result, best)
        change = float(np.abs(new - v).max())
        v = new
        if change < tol:
            break
    return TeamReply(v, game.layout.start, sweeps)
