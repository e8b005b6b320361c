"""Proven bounds on two-teams Push-Pull before the first score: the shipped file and the
inequality its proof rests on, re-checked at sampled positions."""

from __future__ import annotations

import numpy as np
import pytest

from taut.games.push_pull.solve.teams_bounds import opening_bounds, opening_mix, survival
from taut.games.push_pull.solve.teams_model import half_turn_class
from taut.games.push_pull.solve.teams_opening import (
    OPENING,
    all_values,
    cached_model,
    opening_values,
)


def test_the_bounds_bracket_the_near_exact_values() -> None:
    """Every class has low <= high, bracketing the near-exact value; the start's bracket
    holds its exact value 0; half a turn maps each bracket onto the negated other; play
    provably ends."""
    bounds = opening_bounds()
    values = opening_values()
    assert len(bounds) == 2925
    for squares, (low, high) in bounds.items():
        assert -1.0 <= low <= values[squares] + 1e-6
        assert values[squares] - 1e-6 <= high <= 1.0
        turned, _, _ = half_turn_class((squares, 0, 0))
        assert bounds[turned] == pytest.approx((-high, -low), abs=1e-12)
    low, high = bounds[(12, 12, 12)]
    assert low <= 0.0 <= high
    q, turns = survival()
    assert 0.0 < q < 1.0 and turns > 0


@pytest.mark.parametrize("squares", [(12, 12, 12), (4, 12, 20), (0, 0, 24), (7, 11, 13)])
def test_no_reply_takes_ne_below_its_bound(squares: tuple[int, ...]) -> None:
    """The proof's inequality at one class: with N+E's mix there, every reply of S+W
    leads on average to at least the class's lower bound (bounds inside the layer, exact
    values outside it)."""
    model = cached_model()
    values = all_values()
    w = values.copy()
    for sq, (low, _high) in opening_bounds().items():
        w[model.index[(sq, 0, 0)]] = low
    i = model.index[(squares, 0, 0)]
    x, _ = opening_mix(values[model.successors(i)])
    assert x.sum() == pytest.approx(1.0) and np.all(x >= 0)
    worst = float((x @ w[model.successors(i)]).min())
    # Regret matching runs in float32, whose sums vary in the last bits with the BLAS
    # threads, so the mix recomputed here may differ from the solver's by about 1e-7.
    assert worst >= w[i] - 1e-6
    # The bound is not trivially low: within a few hundredths of the near-exact value.
    assert w[i] > values[i] - 0.1


def test_the_layer_is_the_opening() -> None:
    """The bounds cover exactly the classes before the first score."""
    model = cached_model()
    assert {model.classes[i][0] for i in model.layer(OPENING)} == set(opening_bounds())
