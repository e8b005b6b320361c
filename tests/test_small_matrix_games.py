"""The small-game solver a search uses (:func:`taut.solve.matrix.solve_small_matrix_game`):
the same value as the LP on every kind of game it shortcuts, mixes that are equilibria
(duality gap at rounding), and the shortcuts actually taken."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from taut.solve import matrix
from taut.solve.matrix import certify, solve_matrix_game, solve_small_matrix_game

#: Games with few distinct entries, so that ties, saddle points and degenerate games abound.
GAMES = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=st.sampled_from([-1.0, -0.5, 0.0, 0.25, 1.0]))
)


@settings(max_examples=300, deadline=None)
@given(GAMES)
def test_the_value_is_the_lps_and_the_mixes_are_an_equilibrium(a: np.ndarray) -> None:
    value, x, y = solve_small_matrix_game(a)
    lp_value, _, _ = solve_matrix_game(a)
    assert value == pytest.approx(lp_value, abs=1e-9)
    assert x.shape == (a.shape[0],) and y.shape == (a.shape[1],)
    assert x.min() >= -1e-12 and y.min() >= -1e-12
    assert x.sum() == pytest.approx(1.0) and y.sum() == pytest.approx(1.0)
    mid, gap = certify(a, x, y)
    assert gap <= 1e-9 and mid == pytest.approx(value, abs=1e-9)


def test_a_saddle_point_is_played_pure_without_an_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lp(a: object) -> object:
        raise AssertionError("an LP was solved")

    monkeypatch.setattr(matrix, "solve_matrix_game", no_lp)
    monkeypatch.setattr(matrix, "simplex_matrix_game", no_lp)
    a = np.array([[3.0, 1.0, 4.0], [2.0, 0.0, 1.0], [5.0, 1.0, 9.0]])  # saddle at (0, 1)
    value, x, y = solve_small_matrix_game(a)
    assert value == 1.0 and x[0] == 1.0 and y[1] == 1.0
    # One row: the column player's best reply; matching pennies in 2x2: the closed form.
    assert solve_small_matrix_game(np.array([[2.0, -1.0, 0.5]]))[0] == -1.0
    value, x, y = solve_small_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert value == 0.0 and list(x) == [0.5, 0.5] and list(y) == [0.5, 0.5]
    value, x, y = solve_small_matrix_game(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    assert value == pytest.approx(0.2) and x[0] == pytest.approx(0.4)


def test_a_larger_game_without_a_saddle_point_goes_to_the_simplex() -> None:
    # Rock, paper, scissors: no saddle point and 3x3.
    a = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    value, x, y = solve_small_matrix_game(a)
    assert value == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(x, 1 / 3) and np.allclose(y, 1 / 3)
