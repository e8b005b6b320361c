"""The leaf kernel of Pulling Strings search against the readable path: every child of
every position of seeded random games, made by ``pull`` and scored by ``evaluate`` (or its
result where it is finished), is the same float as the kernel's entry; compiled and as
plain Python alike. A search that takes the kernel's matrix searches the same tree to the
same values and mixes as one that makes each child."""

from __future__ import annotations

import random
from typing import Any

import pytest

import taut
from taut.agents.nash import NashSearchAgent
from taut.core.game import State
from taut.core.jit import COMPILED
from taut.games.pulling_strings import leaves
from taut.games.pulling_strings.heuristic import evaluate
from taut.games.pulling_strings.state import PullingStringsState

OPTIONS: list[dict[str, object]] = [
    {},
    {"break": "string"},
    {"corner": "keep"},
    {"max_turns": 9},
    {"edition": "published", "seed": 4, "corner": "keep", "break": "string"},
]


def positions(options: dict[str, object], games: int, seed: int) -> list[PullingStringsState]:
    """Every unfinished position of ``games`` seeded random games."""
    game = taut.make("pulling-strings", **options)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, PullingStringsState)
            found.append(state)
            legal = state.legal_actions(0)
            state = state.pull(rng.choice(legal), rng.choice(legal))
    return found


def readable(state: PullingStringsState) -> list[list[float]]:
    """Each child made and valued as the search would without the kernel."""
    legal = state.legal_actions(0)
    rows = []
    for p in legal:
        row = []
        for q in legal:
            child = state.pull(p, q)
            row.append(child.returns()[0] if child.is_terminal() else evaluate(child))
        rows.append(row)
    return rows


def _named(options: dict[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


@pytest.mark.parametrize("options", OPTIONS, ids=_named)
def test_every_child_is_valued_as_the_readable_path_values_it(options: dict[str, object]) -> None:
    compared = 0
    for state in positions(options, games=6, seed=len(str(options))):
        assert leaves.values_of(state) == readable(state)
        compared += 1
    assert compared > 50


def test_the_plain_python_kernel_gives_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """What runs without Numba (the function as written) agrees too, where it is compiled."""
    if not COMPILED:
        pytest.skip("without Numba the kernel runs as plain Python in the test above")
    monkeypatch.setattr(leaves, "_values", leaves._values.py_func)  # type: ignore[attr-defined]
    for state in positions({"corner": "keep"}, games=2, seed=5)[::4]:
        assert leaves.values_of(state) == readable(state)


def test_only_plain_unfinished_positions_have_a_matrix() -> None:
    game = taut.make("pulling-strings")
    state = game.new_initial_state()
    assert isinstance(state, PullingStringsState)
    assert leaves.values_of(state) is not None
    over = state.end_by_agreement()
    assert leaves.values_of(over) is None
    published = {"edition": "published", "learning": "strict", "seed": 1}
    learning = taut.make("pulling-strings", **published).new_initial_state()
    repeat = taut.make("pulling-strings", repeat=3).new_initial_state()
    for other in (learning, repeat):
        assert type(other) is not PullingStringsState
        assert other.game.heuristic_matrix(other) is None
    assert (game.heuristic_matrix(state) is not None) == COMPILED


def test_a_search_over_the_matrix_is_the_search_over_each_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same nodes, values and mixes with the kernel's matrix and without it."""
    chosen = positions({}, games=1, seed=3)[::5][:4]
    with_kernel = [NashSearchAgent(depth=2).search(s) for s in chosen]

    def none(self: Any, state: State) -> None:
        return None

    monkeypatch.setattr(type(chosen[0].game), "heuristic_matrix", none)
    without = [NashSearchAgent(depth=2).search(s) for s in chosen]
    for a, b in zip(with_kernel, without, strict=True):
        assert (a.value, a.policy, a.nodes) == (b.value, b.policy, b.nodes)
