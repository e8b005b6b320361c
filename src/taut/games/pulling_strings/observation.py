"""Pulling Strings as numbers: the fields of a seat's observation vector.

After the common header (see :mod:`taut.core.observation`); cells are ``row * 5 + col``
and ends ``N0..N4 E0..E4 S0..S4 W0..W4`` (the action ids):

* ``stacks`` (25): disks on each cell (0 = empty), ``[0, inf)``;
* ``broken`` (20): 1 for each broken end, in end-id order;
* ``home`` (2): disks on X's four homes, on O's four homes;
* ``turn`` (1): turns played, up to ``max_turns`` (``inf`` without one).
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.game import Game, State
from taut.core.observation import INF, FieldSpec, Layout, Observation, Observer, turn_bound
from taut.games.pulling_strings.board import NUM_CELLS, NUM_ENDS
from taut.games.pulling_strings.rules import PullingStringsState


class PullingStringsObserver(Observer):
    """Stacks, broken ends, disks home and the turn."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """Stacks, broken ends, home counts, turn."""
        return [
            ("stacks", NUM_CELLS, 0.0, INF, "disks on each cell (row * 5 + col)"),
            ("broken", NUM_ENDS, 0.0, 1.0, "1 for each broken end, in end-id order"),
            ("home", 2, 0.0, INF, "disks on X's homes, on O's homes"),
            ("turn", 1, 0.0, turn_bound(game), "turns played"),
        ]

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write the position (everything is public)."""
        assert isinstance(view, PullingStringsState)
        at = layout.start("stacks")
        for cell, n in view.stacks.items():
            out[at + cell] = n
        at = layout.start("broken")
        for end in view.broken_ends():
            out[at + end] = 1.0
        out[layout.slice("home")] = view.home()
        out[layout.start("turn")] = view.turn
