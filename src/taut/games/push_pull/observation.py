"""Push-Pull as numbers: the fields of a seat's observation vector.

After the common header (see :mod:`taut.core.observation`); ``r`` rows (1 for the duel
strip, 5 otherwise) and ``u`` scoring units:

* ``pieces`` (3 x (5r + 8)): for L, then M, then S, a one-hot block: ``5r`` squares
  (``row * 5 + col``; strip positions 0..4 in the duel), then the 8 ways off the board it
  left by, ``N E S W NE SE SW NW`` (corners only in team games);
* ``scores`` (u): pieces scored by each unit (a player, or a team such as ``N+E``);
* ``turn`` (1): turns played, up to ``max_turns`` (``inf`` without one).
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.game import Game, State
from taut.core.observation import FieldSpec, Layout, Observation, Observer, turn_bound
from taut.games.push_pull.board import EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.variants import NUM_PIECES

#: Ways off the board a piece's block ends with (sides, then corners).
_EXITS = len(EXIT_NAMES)


class PushPullObserver(Observer):
    """Where each piece is (or which way it left), the scores and the turn."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """Pieces, scores, turn."""
        assert isinstance(game, PushPull)
        lay = game.layout
        block = lay.rows * SIZE + _EXITS
        return [
            (
                "pieces",
                NUM_PIECES * block,
                0.0,
                1.0,
                f"L, M, S: one-hot over {lay.rows * SIZE} squares then exits N E S W NE SE SW NW",
            ),
            (
                "scores",
                len(lay.units),
                0.0,
                float(NUM_PIECES),
                "pieces scored by each unit: " + " ".join(lay.units),
            ),
            ("turn", 1, 0.0, turn_bound(game), "turns played"),
        ]

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write the position (everything is public)."""
        assert isinstance(game, PushPull) and isinstance(view, PushPullState)
        squares = game.layout.rows * SIZE
        block = squares + _EXITS
        at = layout.start("pieces")
        for p, loc in enumerate(view.locs):
            index = loc if loc < OFF else squares + (loc - OFF)
            out[at + p * block + index] = 1.0
        out[layout.slice("scores")] = view.scores()
        out[layout.start("turn")] = view.turn
