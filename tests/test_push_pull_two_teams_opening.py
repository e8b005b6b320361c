"""Two-teams Push-Pull before the first score: the shipped near-exact values and the
one-turn games built on them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from taut.core.registry import make, plugin_of
from taut.games.push_pull.solve.teams_games import TeamsOneTurnGames, class_order_actions
from taut.games.push_pull.solve.teams_model import build_model
from taut.games.push_pull.solve.teams_opening import (
    OPENING,
    _sweep,
    all_values,
    opening_error,
    opening_values,
)
from taut.solve.matrix import certify, regret_matching


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return build_model()


@pytest.fixture(scope="module")
def games() -> TeamsOneTurnGames:
    return TeamsOneTurnGames()


def test_the_shipped_layer_is_whole_bounded_and_antisymmetric(model) -> None:  # type: ignore[no-untyped-def]
    """Every class of the layer once, values in [-1, 1], half a turn negates them, the
    start is exactly 0 and the certified error is small."""
    values = opening_values()
    assert len(values) == len(model.layer(OPENING)) == 2925
    v = all_values()
    layer = model.layer(OPENING)
    assert np.all(np.abs(v[layer]) <= 1.0)
    assert np.allclose(v[model.image[layer]], -v[layer], atol=1e-12)
    assert values[(12, 12, 12)] == 0.0
    assert 0.0 < opening_error() < 0.01
    # Not a constant: pieces near a team's own exits are worth something to it.
    assert np.ptp(v[layer]) > 0.5


@pytest.mark.parametrize("squares", [(12, 12, 12), (4, 12, 20), (0, 6, 24), (3, 3, 17)])
def test_shipped_values_are_a_fixed_point_within_the_error(model, squares) -> None:  # type: ignore[no-untyped-def]
    """Solved afresh at the shipped values, a class's one-turn game has a value whose
    certified bounds meet the shipped value, to within the shipped error."""
    v = all_values()
    i = model.index[(squares, 0, 0)]
    payoff = v[model.successors(i)]
    x, y = regret_matching(payoff.astype(np.float32), 3000)
    low = float((x @ payoff).min())
    high = float((payoff @ y).max())
    tolerance = opening_error() + 1e-6
    assert low - tolerance <= v[i] <= high + tolerance, (low, v[i], high)


def test_a_sweep_rows_are_distributions_that_reproduce_the_game_value(model) -> None:  # type: ignore[no-untyped-def]
    """One solver sweep on a few classes: each transition row with its exit weight sums to
    one, and the row with the exits gives back the mixes' value of the one-turn game."""
    v = all_values()
    layer = model.layer(OPENING)
    ids = [layer[0], layer[1000], model.index[((12, 12, 12), 0, 0)]]
    n = model.choices**3
    rx = np.zeros((len(ids), n), np.float32)
    ry = np.zeros_like(rx)
    sweep = _sweep((ids, v, rx, ry, 60))
    assert np.any(rx > 0) and np.any(ry > 0)  # regrets were updated in place
    for j in range(len(ids)):
        assert sweep.chain[j].sum() <= 1.0 + 1e-9
        assert sweep.low[j] <= sweep.fresh[j] + 1e-5
        assert sweep.fresh[j] <= sweep.high[j] + 1e-5
        # fresh = x A y, split into the part inside the layer and the part at its exits
        # (the mixes' tiny entries are dropped from the row, hence the tolerance).
        assert sweep.chain[j] @ v[layer] + sweep.rest[j] == pytest.approx(sweep.fresh[j], abs=1e-3)


@pytest.mark.parametrize("teams", ["NE-SW", "NW-SE"])
def test_one_turn_games_follow_the_engine(teams: str) -> None:
    """At random positions the rows are the legal moves, and each sampled pair of moves
    leads to the position the successor table names, valued as the table says (N+W
    against S+E is the solved board reflected)."""
    game = make("push-pull", variant="two-teams", teams=teams)
    games = plugin_of(game).one_turn_games(game)
    assert isinstance(games, TeamsOneTurnGames) and games.mirrored == (teams == "NW-SE")
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            one = games.game(state)
            assert one is not None
            assert sorted(one.rows) == sorted(state.legal_actions(0))
            assert sorted(one.cols) == sorted(state.legal_actions(1))
            assert one.row_mix.sum() == pytest.approx(1.0)
            assert one.col_mix.sum() == pytest.approx(1.0)
            r, c = rng.randrange(len(one.rows)), rng.randrange(len(one.cols))
            after = state.apply({0: one.rows[r], 1: one.cols[c]})
            assert games.key(after) == one.successors[r, c]
            assert games.values[games.key(after)] == one.payoff[r, c]
            checked += 1
            state = after
    assert checked > 100
    assert games.game(state) is None


def test_class_order_actions_put_the_lowest_square_first() -> None:
    """Piece L on square 20, M scored, S on square 3: S's digit is the most significant
    and M passes."""
    from taut.games.push_pull.board import OFF

    actions = class_order_actions((20, OFF, 3), 9)
    assert len(actions) == 81
    assert actions[1] == 81  # the second class-order action moves L (digit weight 9^2)
    assert actions[9] == 1  # S's digit (weight 9^0) comes first in class order
    assert all(a // 9 % 9 == 0 for a in actions)  # M, off the board, always passes


def test_the_plugin_offers_the_games_only_where_solved() -> None:
    """Two-teams without shifts has one-turn games, in either arrangement of the teams;
    shifts and the other variants do not."""
    plugin = plugin_of(make("push-pull", variant="two-teams"))
    assert plugin.one_turn_games(make("push-pull", variant="two-teams")) is not None
    assert plugin.one_turn_games(make("push-pull", variant="two-teams", teams="NW-SE")) is not None
    assert plugin.one_turn_games(make("push-pull", variant="two-teams", shifts=True)) is None
    assert plugin.one_turn_games(make("push-pull", variant="duel")) is None
    assert plugin.one_turn_games(make("push-pull", variant="four-teams")) is None


def test_the_equilibrium_of_a_small_game_is_exact(games: TeamsOneTurnGames) -> None:
    """With one piece left the game is 9 x 9 and solved by LP: a zero duality gap."""
    game = make("push-pull", variant="two-teams")
    state = game.state_from_json(
        {"turn": 5, "pieces": {"L": [2, 2], "M": "N", "S": "S"}, "scored_on": {"M": 3, "S": 4}}
    )
    one = games.game(state)
    assert one is not None and one.payoff.shape == (9, 9)
    assert certify(one.payoff, one.row_mix, one.col_mix)[1] < 1e-9
