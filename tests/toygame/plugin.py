"""Rope's plugin: a picture of the rope and the marker's position as numbers."""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.game import Game, State
from taut.core.observation import FieldSpec, Layout, Observation, Observer, turn_bound
from taut.core.plugin import GamePlugin
from tests.toygame.rules import Rope, RopeState


class RopeObserver(Observer):
    """The marker and the turn."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """One field each."""
        assert isinstance(game, Rope)
        return [
            ("marker", 1, float(-game.goal), float(game.goal), "the marker's position"),
            ("turn", 1, 0.0, turn_bound(game), "turns played"),
        ]

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write both."""
        assert isinstance(view, RopeState)
        out[layout.start("marker")] = view.marker
        out[layout.start("turn")] = view.turn


class RopePlugin(GamePlugin):
    """Rope, for the tests: every shared layer from this one folder."""

    game_class = Rope
    summary = "Two players pull a marker along a rope; ties are settled by a coin."
    verb = "pulls"

    def render(self, state: State, markup: bool = False) -> str:
        """``L |--o--| R`` with the marker where it is."""
        assert isinstance(state, RopeState)
        goal = state.game.goal
        cells = ["-"] * (2 * goal + 1)
        cells[state.marker + goal] = "o"
        return f"L |{''.join(cells)}| R   turn {state.turn}" + (" (coin)" if state.coin else "")

    def observer(self) -> Observer:
        """The marker and the turn."""
        return RopeObserver()


plugin = RopePlugin()
