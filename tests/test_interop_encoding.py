"""The shared observation encoding reads each game's plugin: a game added at run time is
encoded by its own observer, a game without one by the common header; and the adapters'
source names no game."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from taut.core.errors import MalformedActionError
from taut.core.game import Game, State
from taut.core.observation import INF, FieldSpec, Layout, Observation, Observer
from taut.core.plugin import GamePlugin
from taut.core.registry import plugins, register_plugin, unregister_plugin
from taut.core.terms import JSON, GameInfo, NodeKind, Outcome, Termination
from taut.interop import encoding

PARITY = Termination("parity", "won on the parity of the sum")


class SitOut(Game):
    """Both seats choose 0 or 1, then seat 0 alone chooses again; seat 0 wins on an odd sum."""

    name = "sit-out"
    title = "Sit out"
    TERMINATIONS = (PARITY,)

    @property
    def info(self) -> GameInfo:
        return GameInfo(
            "sit-out", "Sit out", "1", ("A", "B"), True, False, True, 2, 0, -1.0, 1.0, True, 2
        )

    def new_initial_state(self) -> SitOutState:
        return SitOutState(self, ())

    def state_from_json(self, data: JSON) -> SitOutState:
        return SitOutState(self, tuple(data))


class SitOutState(State):
    game: SitOut

    def __init__(self, game: SitOut, moves: tuple[int, ...]) -> None:
        self.game = game
        self.moves = moves

    @property
    def kind(self) -> NodeKind:
        return NodeKind.TERMINAL if len(self.moves) == 3 else NodeKind.SIMULTANEOUS

    def acting_seats(self) -> tuple[int, ...]:
        return ((0, 1), (0,), (), ())[len(self.moves) // 2 + (len(self.moves) == 3)]

    def legal_actions(self, seat: int) -> Sequence[int]:
        return (0, 1) if seat in self.acting_seats() else ()

    def _apply(self, joint: dict[int, int]) -> SitOutState:
        return SitOutState(self.game, self.moves + tuple(joint[s] for s in sorted(joint)))

    def action_to_string(self, seat: int, action: int) -> str:
        return "ab"[action]

    def string_to_action(self, seat: int, text: str) -> int:
        if text not in ("a", "b"):
            raise MalformedActionError(text)
        return "ab".index(text)

    @property
    def outcome(self) -> Outcome | None:
        if len(self.moves) < 3:
            return None
        return Outcome((0,) if sum(self.moves) % 2 else (1,), PARITY)

    def returns(self) -> tuple[float, ...]:
        out = self.outcome
        if out is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if out.winners == (0,) else (-1.0, 1.0)

    def to_json(self) -> JSON:
        return list(self.moves)


class SitOutObserver(Observer):
    """The choices made so far, -1 for those still to come."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        return [("moves", 3, -1.0, 1.0, "each choice so far, -1 before it is made")]

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        assert isinstance(view, SitOutState)
        at = layout.start("moves")
        out[at : at + 3] = -1.0
        out[at : at + len(view.moves)] = view.moves


class SitOutPlugin(GamePlugin):
    """The toy game with its own observer, picture and position keys."""

    game_class = SitOut

    def observer(self) -> Observer:
        return SitOutObserver()

    def render(self, state: State, markup: bool = False) -> str:
        assert isinstance(state, SitOutState)
        return "moves: " + ("".join("ab"[m] for m in state.moves) or "none")

    def state_key(self, state: State) -> str:
        assert isinstance(state, SitOutState)
        return "".join("ab"[m] for m in state.moves) or "start"


@pytest.fixture
def sit_out() -> Iterator[SitOutPlugin]:
    """The toy game in the registry for the length of one test."""
    found = SitOutPlugin()
    register_plugin(found)
    try:
        yield found
    finally:
        unregister_plugin(found.name)


def test_a_game_registered_at_run_time_is_encoded_by_its_observer(sit_out: SitOutPlugin) -> None:
    game = SitOut()
    fields = encoding.observation_fields(game)
    assert [(f.name, f.offset, f.size) for f in fields] == [
        ("seat", 0, 2),
        ("acting", 2, 2),
        ("over", 4, 1),
        ("moves", 5, 3),
    ]
    assert encoding.observation_shape(game) == (8,)
    low, high = encoding.observation_bounds(game)
    assert low.tolist() == [0, 0, 0, 0, 0, -1, -1, -1]
    assert high.tolist() == [1] * 8
    state = game.new_initial_state().apply({0: 1, 1: 0})
    vec = encoding.observe(game, state, 1)
    assert vec.dtype == np.float32
    assert vec.tolist() == [0, 1, 1, 0, 0, 1, 0, -1]  # seat B; A alone acts; moves b, a
    end = state.apply({0: 0})
    assert encoding.observe(game, end, 0).tolist() == [1, 0, 0, 0, 1, 1, 0, 0]
    assert encoding.observation_string(game, state, 0) == "moves: ba" == str(state.view(0))
    assert encoding.action_mask(game, state, 1).tolist() == [0, 0]
    with pytest.raises(ValueError, match="no seat 2"):
        encoding.observe(game, state, 2)
    # The layout's bound arrays are shared: nobody may change them in place.
    with pytest.raises(ValueError):
        encoding.observation_layout(game).low[0] = 5.0


def test_a_plugin_registered_again_brings_its_new_observer(sit_out: SitOutPlugin) -> None:
    game = SitOut()
    assert encoding.observation_shape(game) == (8,)

    class Wider(SitOutObserver):
        def fields(self, game: Game) -> Sequence[FieldSpec]:
            return [*super().fields(game), ("count", 1, 0.0, INF, "choices made")]

        def fill(self, game: Game, view: State, seat: int, out: Observation, lay: Layout) -> None:
            super().fill(game, view, seat, out, lay)
            assert isinstance(view, SitOutState)
            out[lay.start("count")] = len(view.moves)

    class Again(SitOutPlugin):
        def observer(self) -> Observer:
            return Wider()

    register_plugin(Again())
    assert encoding.observation_shape(game) == (9,)
    state = game.new_initial_state().apply({0: 1, 1: 1})
    assert encoding.observe(game, state, 0)[-1] == 2.0
    assert encoding.observation_bounds(game)[1][-1] == np.inf


def test_a_game_without_an_observer_has_the_header_only() -> None:
    game = SitOut()  # not registered: a default plugin
    assert [f.name for f in encoding.observation_fields(game)] == ["seat", "acting", "over"]
    state = game.new_initial_state()
    assert encoding.observe(game, state, 0).tolist() == [1, 0, 1, 1, 0]
    assert encoding.observation_string(game, state, 1) == "[]"  # the default picture: JSON


def test_check_action_names_the_action_and_the_legal_ones() -> None:
    state = SitOut().new_initial_state().apply({0: 0, 1: 1})
    assert encoding.check_action(state, 0, np.int64(1)) == 1
    assert encoding.check_action(state, 0, np.array([0])) == 0
    with pytest.raises(ValueError, match=r"action 1 is not legal for B now: B does not act"):
        encoding.check_action(state, 1, 1)
    with pytest.raises(ValueError, match=r"outside the action ids 0\.\.1; legal: 0 \(a\), 1"):
        encoding.check_action(state, 0, 2)
    with pytest.raises(ValueError, match="must be an integer id"):
        encoding.check_action(state, 0, True)
    assert encoding.describe_legal(state, 1) == "none"


def _words(plugin: GamePlugin) -> set[str]:
    """The ways a game can be named: its name, title, package and adapter names."""
    package = type(plugin).__module__.split(".")
    words = {plugin.name, plugin.name.replace("-", "_"), plugin.name.replace("-", " ")}
    words |= {plugin.title, plugin.openspiel_name, plugin.env_id.split("/")[1].split("-")[0]}
    if len(package) > 2 and package[:2] == ["taut", "games"]:
        words.add(package[2])
    return {w.lower() for w in words if w}


def test_the_adapters_name_no_game() -> None:
    import taut.interop

    root = Path(taut.interop.__file__).parent
    sources = {p: p.read_text(encoding="utf-8").lower() for p in sorted(root.rglob("*.py"))}
    assert len(sources) >= 5
    for found in plugins():
        for word in _words(found):
            pattern = re.compile(r"(?<![a-z0-9_])" + re.escape(word) + r"(?![a-z0-9_])")
            for path, text in sources.items():
                assert not pattern.search(text), f"{path.name} names {word!r}"
    for path, text in sources.items():
        assert "taut.games." not in text, f"{path.name} imports a game package"
