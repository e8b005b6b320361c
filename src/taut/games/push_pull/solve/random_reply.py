"""What the best reply to uniform random play can win, in every Push-Pull variant.

Some seats (one player, a team, or two seats an arena gives one agent) reply to the other
seats, which choose uniformly at random. With the random seats fixed the game is a Markov
decision process for the replying seats, and its exact optimum bounds what *any* agent in
those seats can win against random play, even one that coordinates all of them.

Pieces never interact: each moves by the sum of the seats' contributions for it
(``Layout.dest`` and ``Layout.contrib``), a random seat's choices for different pieces are
independent, and so one turn's transition is a product of one matrix per piece. A piece is
in one of ``squares + 2`` states: a square, or scored by the replying side ("ours") or by
the others ("theirs"). Value iteration contracts the value tensor with the per-piece
matrices one piece at a time and takes the maximum over the replying side's per-piece
choices last. Its transitions come from the rules' tables; a test checks them against the
engine and plays the reply through the engine.

Results are weighted: a win scores 1, a loss ``-loss_weight``, a draw (shared win, or the
turn limit) 0. With ``loss_weight = 19`` a negative value proves that no agent reaches 95%
of the decisive games: ``W / (W + L) >= 0.95`` exactly when ``W - 19 L >= 0``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from taut.games.push_pull.rules import PushPull
from taut.games.push_pull.solve.pieces import (
    OURS,
    THEIRS,
    FloatArray,
    PieceModel,
    piece_model,
)
from taut.games.push_pull.solve.pieces import best_step as _best
from taut.games.push_pull.variants import NUM_PIECES, WIN_LAST

__all__ = ["OURS", "THEIRS", "PieceModel", "RandomReply", "piece_model", "reply_to_random"]

#: Default replying seats: West in the duel, N and S (the opposite seats an arena gives one
#: agent) in ``four``, team N+E in ``four-teams`` and player NE in ``two-teams``.
DEFAULT_SEATS = {"duel": (0,), "four": (0, 2), "four-teams": (0, 1), "two-teams": (0,)}


@dataclass(frozen=True)
class RandomReply:
    """The best reply's weighted value against random play, from every position."""

    variant: str
    seats: tuple[int, ...]
    loss_weight: float
    turns: int | None
    values: FloatArray
    """(states, states, states): the value with every piece in each state."""
    start: int
    sweeps: int

    @property
    def value(self) -> float:
        """From the start (every piece on the starting square)."""
        return float(self.values[self.start, self.start, self.start])

    @property
    def win_share(self) -> float:
        """With ``loss_weight`` 1, in a game that ends with certainty and has no shared
        wins: the share of games the reply wins, ``(1 + value) / 2``."""
        return (1.0 + self.value) / 2.0


def outcome_values(model: PieceModel, win_last: bool, loss_weight: float) -> FloatArray:
    """The value of each combination of per-piece outcomes of one turn, (states + 2)^3,
    for finished games; NaN where the game goes on."""
    n, us, them = model.squares, model.squares, model.squares + 1
    old_us, old_them = n + 2, n + 3
    size = n + 4
    grid = np.indices((size,) * NUM_PIECES).reshape(NUM_PIECES, -1).T
    out = np.full(len(grid), np.nan)
    for k, outcome in enumerate(grid):
        live = sum(1 for y in outcome if y < n)
        scored_us = sum(1 for y in outcome if y in (us, old_us))
        scored_them = sum(1 for y in outcome if y in (them, old_them))
        if win_last:
            if live:
                continue
            new = {y for y in outcome if y in (us, them)}
            if not new:  # cannot happen: the game ended on an earlier turn
                continue
            out[k] = 1.0 if new == {us} else -loss_weight if new == {them} else 0.0
        elif scored_us >= 2:
            out[k] = 1.0
        elif scored_them >= 2:
            out[k] = -loss_weight
    return out.reshape((size,) * NUM_PIECES)


def reply_to_random(
    variant: str = "duel",
    seats: tuple[int, ...] | None = None,
    teams: str | None = None,
    loss_weight: float = 1.0,
    turns: int | None = None,
    tol: float = 1e-10,
    max_sweeps: int = 100_000,
) -> RandomReply:
    """Value iteration for ``seats`` (default :data:`DEFAULT_SEATS`) replying best to
    uniform random play. ``turns`` fixes the horizon (a draw after that many turns, as
    ``max_turns``); without it, iterate until the change is below ``tol`` (a game that
    never ends scores 0)."""
    game = PushPull(variant=variant) if teams is None else PushPull(variant=variant, teams=teams)
    if seats is None:
        seats = DEFAULT_SEATS[variant]
    model = piece_model(game, tuple(seats))
    x = model.states
    final = outcome_values(model, game.layout.win == WIN_LAST, loss_weight)
    done = ~np.isnan(final)
    # A piece outcome y continues as piece state: a square, or scored (new or old alike).
    as_state = np.array([*range(model.squares), x - 2, x - 1, x - 2, x - 1])
    v = np.zeros((x,) * NUM_PIECES)
    limit = max_sweeps if turns is None else turns
    sweeps = 0
    while sweeps < limit:
        sweeps += 1
        after = np.where(done, np.nan_to_num(final), v[np.ix_(as_state, as_state, as_state)])
        best = _best(model.transition, after)
        change = float(np.abs(best - v).max())
        v = best
        if turns is None and change < tol:
            break
    return RandomReply(variant, tuple(seats), loss_weight, turns, v, game.layout.start, sweeps)
