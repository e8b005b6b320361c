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
import numpy.typing as npt

from taut.core.errors import InvalidOptionError
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.rules import PushPull
from taut.games.push_pull.variants import NUM_PIECES, WIN_LAST, Layout

FloatArray = npt.NDArray[np.float64]
"""Probabilities or values."""

#: Default replying seats: West in the duel, N and S (the opposite seats an arena gives one
#: agent) in ``four``, team N+E in ``four-teams`` and player NE in ``two-teams``.
DEFAULT_SEATS = {"duel": (0,), "four": (0, 2), "four-teams": (0, 1), "two-teams": (0,)}

#: Which side a scoring unit is on.
OURS, THEIRS = 0, 1


@dataclass(frozen=True)
class PieceModel:
    """One piece's dynamics with the replying seats' choices free and the others random."""

    squares: int
    """Squares of the board; piece state ``squares`` is "scored by us", ``+1`` "by them"."""
    choices: tuple[int, ...]
    """The replying side's distinct summed contributions for one piece."""
    landing: npt.NDArray[np.intp]
    """(squares, choices, sums of the others): the next piece state (scores as above)."""
    weights: tuple[float, ...]
    """The probability of each sum of the random seats' contributions."""
    transition: FloatArray
    """(choices, states, states + 2): next-state probabilities. The last two columns are a
    piece scored earlier (by us, by them), kept apart from new scores for ``four``, where
    the scorers of the last piece win."""

    @property
    def states(self) -> int:
        """Piece states: the squares, then scored by us, scored by them."""
        return self.squares + 2


def _codes(game: PushPull, seat: int) -> list[int]:
    """A seat's distinct per-piece contributions (the same for every piece)."""
    lay = game.layout
    every = lay.legal[(1 << NUM_PIECES) - 1]
    codes = sorted({lay.contrib[seat][a][0] for a in every})
    for p in range(1, NUM_PIECES):
        assert sorted({lay.contrib[seat][a][p] for a in every}) == codes
    return codes


def _unit_sides(lay: Layout, seats: tuple[int, ...]) -> list[int]:
    """:data:`OURS` or :data:`THEIRS` for each scoring unit; raises InvalidOptionError
    unless ``seats`` are distinct seats that hold whole units."""
    if not seats or not set(seats) <= set(range(lay.num_seats)) or len(set(seats)) != len(seats):
        raise InvalidOptionError(
            f"replying seats must be distinct seats of {', '.join(lay.seats)}, got {seats!r}"
        )
    ours = set(seats)
    side: list[int] = []
    for unit, members in zip(lay.units, lay.unit_seats, strict=True):
        if set(members) <= ours:
            side.append(OURS)
        elif not set(members) & ours:
            side.append(THEIRS)
        else:
            raise InvalidOptionError(f"the replying seats must hold all of {unit} or none of it")
    return side


def _sums(game: PushPull, seats: tuple[int, ...]) -> tuple[list[int], dict[int, float]]:
    """Our distinct summed contributions, and the distribution of the others' sum.

    Different picks of ours with the same sum move a piece alike; the others' sum has the
    convolved distribution of their uniform choices.
    """
    choices = {0}
    for s in seats:
        choices = {c + d for c in choices for d in _codes(game, s)}
    dist = {0: 1.0}
    for s in range(game.layout.num_seats):
        if s not in seats:
            codes = _codes(game, s)
            new: dict[int, float] = {}
            for c, p in dist.items():
                for d in codes:
                    new[c + d] = new.get(c + d, 0.0) + p / len(codes)
            dist = new
    return sorted(choices), dist


def piece_model(game: PushPull, seats: tuple[int, ...]) -> PieceModel:
    """The per-piece transitions when ``seats`` reply to uniformly random other seats."""
    lay = game.layout
    side = _unit_sides(lay, seats)
    own, dist = _sums(game, seats)
    sums = sorted(dist)
    squares = lay.rows * SIZE
    landing = np.zeros((squares, len(own), len(sums)), dtype=np.intp)
    for x in range(squares):
        for i, c in enumerate(own):
            for j, d in enumerate(sums):
                loc = lay.dest[x * lay.joint_size + c + d]
                landing[x, i, j] = loc if loc < OFF else squares + side[lay.exit_unit(loc - OFF)]
    states = squares + 2
    transition = np.zeros((len(own), states, states + 2))
    for i in range(len(own)):
        for x in range(squares):
            for j, d in enumerate(sums):
                transition[i, x, landing[x, i, j]] += dist[d]
        transition[i, squares, states] = 1.0  # scored before this turn
        transition[i, squares + 1, states + 1] = 1.0
    return PieceModel(squares, tuple(own), landing, tuple(dist[d] for d in sums), transition)


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


def _best(t: FloatArray, after: FloatArray) -> FloatArray:
    """One Bellman step: the best expected ``after`` over our choices for each piece.

    ``q[c1, x1, c2, x2, c3, x3]`` is the sum over outcomes ``y`` of ``t[c1, x1, y1]
    t[c2, x2, y2] t[c3, x3, y3] after[y1, y2, y3]``, contracted piece by piece and
    maximised over the choices ``c`` last.
    """
    x = t.shape[1]
    a = np.tensordot(t, after, axes=([2], [0]))  # (c1, x1, y2, y3)
    b = np.tensordot(a, t, axes=([2], [2]))  # (c1, x1, y3, c2, x2)
    best = np.full((x,) * NUM_PIECES, -np.inf)
    for c3 in range(len(t)):
        r = np.tensordot(b, t[c3], axes=([2], [1]))  # (c1, x1, c2, x2, x3)
        np.maximum(best, r.max(axis=(0, 2)), out=best)
    return best


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
