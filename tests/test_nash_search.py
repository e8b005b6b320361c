"""Depth-limited Nash search: exact on matrix games, finds forced wins, prunes."""

from __future__ import annotations

import random

import numpy as np
import pytest

import taut
from taut.agents import make_agent, solve_matrix_game
from taut.agents.nash import NashSearchAgent
from taut.core.errors import InvalidOptionError
from taut.games.pulling_strings import PullingStringsState
from tests.toygames import MatrixGame


@pytest.mark.parametrize("seed", range(5))
def test_double_oracle_matches_full_lp(seed: int) -> None:
    rng = np.random.default_rng(seed)
    payoff = rng.uniform(-1, 1, size=(7, 6)).round(3).tolist()
    game = MatrixGame(payoff)
    result = NashSearchAgent(depth=1).search(game.new_initial_state())
    policy = result.mix(0)
    value, _, _ = solve_matrix_game(payoff)
    assert result.value[0] == pytest.approx(value, abs=1e-7)
    assert result.value[1] == pytest.approx(-value, abs=1e-7)
    # The mix found guarantees the value against every column.
    x = np.array([policy.get(i, 0.0) for i in range(7)])
    assert (x @ np.array(payoff)).min() == pytest.approx(value, abs=1e-6)


def test_biased_pennies() -> None:
    state = MatrixGame([[3, -2], [-2, 1]]).new_initial_state()
    policy = NashSearchAgent(depth=1).strategy(state, 1, random.Random(0))
    assert policy[0] == pytest.approx(3 / 8, abs=1e-6)


def forced_win_positions(count: int, seed: int = 0) -> list[tuple[PullingStringsState, set[int]]]:
    """Positions where X has a pull that wins against every O pull (found by brute force)."""
    game = taut.make("pulling-strings", max_turns=200)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        stacks = [[rng.randrange(5), rng.randrange(5), rng.randrange(1, 6)] for _ in range(3)]
        if len({(r, c) for r, c, _ in stacks}) < 3:
            continue
        state = game.state_from_json({"stacks": stacks, "broken": []})
        assert isinstance(state, PullingStringsState)
        if state.is_terminal():
            continue
        winning = {
            p for p in range(20) if all(state.pull(p, q).returns()[0] == 1.0 for q in range(20))
        }
        if winning:
            found.append((state, winning))
    return found


def test_finds_forced_wins_searching_part_of_the_matrix() -> None:
    for state, winning in forced_win_positions(5):
        result = NashSearchAgent(depth=1).search(state)
        assert result.value[0] == pytest.approx(1.0)
        assert set(result.policy[0]) <= winning
        assert result.nodes <= 1 and result.depth == 1


def test_a_threat_that_can_be_answered_is_not_a_forced_win() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    # X threatens g (onto X's home at row 1, column 4); O's d splits the stack between
    # both players' homes, so neither side can force a win this turn.
    state = game.state_from_json({"stacks": [[1, 3, 5]], "broken": []})
    result = NashSearchAgent(depth=1).search(state)
    assert -1.0 < result.value[0] < 1.0


def test_iterative_deepening_and_errors() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    agent = make_agent("nash:depth=3:think=0.3")
    assert isinstance(agent, NashSearchAgent)
    action = agent.act(game.new_initial_state(), 0, random.Random(0))
    assert 0 <= action < 20
    assert 1 <= agent.search(game.new_initial_state()).depth <= 3
    with pytest.raises(InvalidOptionError, match="at least 1"):
        NashSearchAgent(depth=0)
