"""Two-teams Push-Pull: the solver's model against the engine, and the shipped exact values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from taut.core.registry import make
from taut.games.push_pull.solve.teams_model import (
    FIRST_SCORED,
    SECOND_SCORED,
    build_model,
    half_turn_class,
)
from taut.games.push_pull.solve.teams_solve import (
    _solve_layer,
    game_value,
    scored_values,
)
from taut.solve.matrix import MatrixSolver


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return build_model()


def _values(model) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The shipped values in the model's class order (0 before the first score)."""
    from taut.games.push_pull.solve.teams_opening import exact_exits

    return exact_exits(model)


def _class_action(
    per_piece: tuple[tuple[int, ...], ...], on_board: list[tuple[int, int]], base: int
) -> int:
    """A seat's class-order action from its decoded choices."""
    a = 0
    for _, p in on_board:
        first, second = per_piece[p]
        a = a * base + first * 3 + second
    return a


def test_successor_tables_follow_the_engine(model) -> None:  # type: ignore[no-untyped-def]
    """Random games: the class after each joint move is what the model's table says."""
    game = make("push-pull", variant="two-teams")
    rng = random.Random(3)
    b = model.choices
    lay = model.layout
    checked = 0
    for _ in range(150):
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 2000:
            c = model.classify(state.locs)
            i = model.index[c]
            acts = {s: rng.choice(state.legal_actions(s)) for s in (0, 1)}
            after = state.apply(acts)
            # The class-order actions: per piece on the board, in square order, the piece
            # choice (first side's choice most significant, base 3).
            on_board = sorted((loc, p) for p, loc in enumerate(state.locs) if loc < 25)
            a, bb = (_class_action(lay.decode(s, acts[s]), on_board, b) for s in (0, 1))
            target = int(model.successors(i)[a, bb])
            if after.is_terminal():
                winners = set(after.outcome.winners)
                assert target == (model.win if winners == {0} else model.loss)
            else:
                assert target == model.index[model.classify(after.locs)]
            state = after
            checked += 1
    assert checked > 500


def test_step_table_scores_both_ways(model) -> None:  # type: ignore[no-untyped-def]
    """Every square can be left towards both teams or stayed on; codes are in range."""
    assert model.step.min() >= 0 and model.step.max() <= SECOND_SCORED
    assert (model.step == FIRST_SCORED).any() and (model.step == SECOND_SCORED).any()


def test_half_turn_pairs_classes(model) -> None:  # type: ignore[no-untyped-def]
    """The half turn is an involution and the start is its own image (value exactly 0)."""
    for c in model.classes:
        assert half_turn_class(half_turn_class(c)) == c
    start = model.index[((12, 12, 12), 0, 0)]
    assert model.image[start] == start


def test_shipped_values_are_antisymmetric(model) -> None:  # type: ignore[no-untyped-def]
    """A class and its half-turn image have opposite values."""
    values = scored_values()
    assert len(values) == 25 + 2 * 325
    for c, v in values.items():
        assert values[half_turn_class(c)] == pytest.approx(-v, abs=1e-9)
    assert all(-1.0 <= v <= 1.0 for v in values.values())


def test_shipped_values_are_the_fixed_point(model) -> None:  # type: ignore[no-untyped-def]
    """``v = T v`` at the shipped values: the whole 1-1 layer and a sample of 1-0."""
    v = _values(model)
    games = MatrixSolver()
    sample = model.layer((1, 1)) + random.Random(5).sample(model.layer((1, 0)), 25)
    for i in sample:
        value, _, _ = game_value(model, i, v, games)
        assert value == pytest.approx(v[i], abs=1e-8), model.classes[i]


def test_last_piece_layer_solves_from_scratch(model) -> None:  # type: ignore[no-untyped-def]
    """Newton's method on the 1-1 layer, from zero, reaches the shipped values."""
    v = np.zeros(len(model.classes) + 2)
    v[model.win], v[model.loss] = 1.0, -1.0
    ids = model.layer((1, 1))
    _steps, residual = _solve_layer(model, ids, v, MatrixSolver(), 1e-12)
    assert residual < 1e-8
    shipped = _values(model)
    np.testing.assert_allclose(v[ids], shipped[ids], atol=1e-8)
    # The centre with one piece left is a fair race; a piece beside team 0's corner is not.
    assert v[model.index[((12,), 1, 1)]] == pytest.approx(0.0, abs=1e-9)
    assert v[model.index[((4,), 1, 1)]] > 0.5


def test_solve_command_prints_what_is_proven() -> None:
    """``taut solve push-pull --variant two-teams``: the start's value, the solved layers,
    and every value with --json."""
    import json

    from click.testing import CliRunner

    from taut.cli import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "push-pull", "--variant", "two-teams"])
    assert result.exit_code == 0, result.output
    assert "exactly 0" in result.output and "675 positions" in result.output
    assert "+0.843214" in result.output
    assert "2,925 positions before the first score" in result.output
    result = runner.invoke(cli, ["solve", "push-pull", "--variant", "two-teams", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert len(data["classes"]) == 675
    opening = data["opening"]["classes"]
    assert len(opening) == 2925
    assert all(low - 0.01 <= value <= high + 0.01 for _, value, low, high in opening)
    result = runner.invoke(cli, ["solve", "push-pull", "--variant", "four"])
    assert result.exit_code == 2 and "duel" in result.output
