"""Pulling Strings evaluation and the search that plays it at the hard level.

The hard level plays Pulling Strings with depth-2 Nash search (``nash:depth=2``) over the
game's evaluation; these tests check the evaluation's threat term and that the search finds
forced wins, mixes its pulls and replays exactly from a seed.
"""

from __future__ import annotations

import random

import pytest

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.agents.nash import NashSearchAgent
from taut.arena.match import play_match
from taut.games.pulling_strings import PullingStringsState
from taut.games.pulling_strings.heuristic import evaluate
from tests.test_nash_search import forced_win_positions


def position(stacks: list[list[int]], broken: list[str] | None = None) -> PullingStringsState:
    """A classic-edition position with a 200-turn limit."""
    game = taut.make("pulling-strings", max_turns=200)
    state = game.state_from_json({"stacks": stacks, "broken": broken or []})
    assert isinstance(state, PullingStringsState)
    return state


def test_evaluation_is_zero_sum_and_bounded() -> None:
    rng = random.Random(3)
    game = taut.make("pulling-strings", max_turns=200)
    for _ in range(50):
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 30)):
            if state.is_terminal():
                break
            legal = state.legal_actions(0)
            state = state.apply({0: rng.choice(legal), 1: rng.choice(legal)})
        x, o = game.heuristic(state)
        assert x == -o
        assert -1.0 <= x <= 1.0
        if not state.is_terminal():
            assert abs(x) < 1.0


def test_symmetric_start_is_even() -> None:
    game = taut.make("pulling-strings")
    assert evaluate(game.new_initial_state()) == pytest.approx(0.0)  # type: ignore[arg-type]


def test_threat_needs_an_unbroken_end() -> None:
    # Three disks on row 1, column 1: pulling b (N1) puts them on X's home at row 0, and
    # pulling x (W1) on O's home at row 1, column 0; the threats cancel while both ends work.
    both = evaluate(position([[1, 1, 3]]))
    assert both == pytest.approx(0.0, abs=1e-12)
    assert evaluate(position([[1, 1, 3]], ["b"])) < both  # X's pull is gone
    assert evaluate(position([[1, 1, 3]], ["x"])) > both  # O's pull is gone


def test_hard_search_takes_a_forced_win_one_turn_from_home() -> None:
    for state, winning in forced_win_positions(3, seed=1):
        result = NashSearchAgent(depth=2).search(state)
        assert result.value[0] == pytest.approx(1.0)
        assert set(result.policy[0]) <= winning


def test_hard_search_mixes_its_pulls() -> None:
    # Three disks on X's home at row 4, column 3 and three at row 3, column 1 (one step
    # from a home of each side): every pure choice of either side can be punished, so
    # both equilibrium mixes use more than one pull.
    state = position([[3, 1, 3], [4, 3, 3]])
    agent = NashSearchAgent(depth=2)
    for seat in (0, 1):
        policy = agent.strategy(state, seat, random.Random(0))
        assert len(policy) >= 2
        assert sum(policy.values()) == pytest.approx(1.0)
        assert max(policy.values()) < 1.0


def test_hard_search_replays_from_a_seed() -> None:
    game = taut.make("pulling-strings", max_turns=12)

    def moves(seed: int) -> list[dict[str, int]]:
        agents = [NashSearchAgent(depth=2), GreedyAgent()]
        record = play_match(game, agents, seed=seed).record
        return [dict(turn) for turn in record.to_json()["moves"]]

    assert moves(5) == moves(5)


def test_greedy_with_this_evaluation_beats_random() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    wins = 0
    for g in range(6):
        seats = [GreedyAgent(), RandomAgent()] if g % 2 == 0 else [RandomAgent(), GreedyAgent()]
        outcome = play_match(game, seats, seed=g).state.outcome
        assert outcome is not None
        wins += outcome.winners == ((0,) if g % 2 == 0 else (1,))
    assert wins >= 5
