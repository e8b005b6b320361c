"""Agents: the matrix-game solver, random and greedy play, the match loop."""

from __future__ import annotations

import random

import numpy as np
import pytest

import taut
from taut.agents import GreedyAgent, RandomAgent, make_agent, solve_matrix_game
from taut.arena import play_match
from taut.core.errors import InvalidOptionError
from taut.games.pulling_strings import PullingStringsState


def test_rock_paper_scissors() -> None:
    value, x, y = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert value == pytest.approx(0.0, abs=1e-9)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-7)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-7)


def test_matching_pennies_biased() -> None:
    # Row wins 3 on (H,H), 1 on (T,T), loses 2 on mismatches... value and mixes known:
    a = np.array([[3.0, -2.0], [-2.0, 1.0]])
    value, x, y = solve_matrix_game(a)
    # x = (3/8, 5/8), y = (3/8, 5/8), value = -1/8.
    assert value == pytest.approx(-1 / 8, abs=1e-9)
    assert x == pytest.approx([3 / 8, 5 / 8], abs=1e-7)
    assert y == pytest.approx([3 / 8, 5 / 8], abs=1e-7)


def test_saddle_point_and_constant() -> None:
    value, x, _ = solve_matrix_game([[1, 2], [0, -1]])
    assert value == pytest.approx(1.0) and x == pytest.approx([1, 0], abs=1e-9)
    value, x, y = solve_matrix_game([[2, 2], [2, 2]])
    assert value == 2 and x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
    with pytest.raises(ValueError):
        solve_matrix_game(np.zeros((0, 2)))


def test_greedy_takes_a_winning_pull() -> None:
    game = taut.make("pulling-strings")
    # X home at (1,4): g moves the 5-stack there whatever O pulls, unless O pulls g too.
    state = game.state_from_json({"stacks": [[1, 3, 5]], "broken": []})
    agent = GreedyAgent()
    picks = [agent.act(state, 0, random.Random(i)) for i in range(20)]
    g = state.string_to_action(0, "g")
    assert picks.count(g) >= 15


def test_greedy_beats_random() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    wins = 0
    for seed in range(30):
        agents = [GreedyAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), GreedyAgent()]
        result = play_match(game, agents, seed=seed)
        out = result.state.outcome
        assert out is not None
        greedy_seat = 0 if seed % 2 == 0 else 1
        wins += out.winners == (greedy_seat,)
    assert wins >= 25


def test_match_is_reproducible_and_records_replay() -> None:
    game = taut.make("pulling-strings", max_turns=100)
    a = play_match(game, [make_agent("greedy"), make_agent("random")], seed=11)
    b = play_match(game, [make_agent("greedy"), make_agent("random")], seed=11)
    assert a.record.moves == b.record.moves
    final = a.record.replay()
    assert isinstance(final, PullingStringsState) and final == a.state


def test_make_agent_errors() -> None:
    with pytest.raises(
        InvalidOptionError,
        match="agents: counter, easy, greedy, hard, ismcts, mcts, medium, nash, perfect, random",
    ):
        make_agent("wizard")
    with pytest.raises(InvalidOptionError, match="key=value"):
        make_agent("random:fast")
    with pytest.raises(InvalidOptionError, match="does not take"):
        make_agent("random:depth=3")


def test_greedy_samples_huge_matrices() -> None:
    from taut.agents.greedy import MAX_CELLS, SAMPLED_MOVES

    game = taut.make("push-pull", variant="two-teams")
    state = game.new_initial_state()
    calls = 0

    def counting(s: object) -> tuple[float, ...]:
        nonlocal calls
        calls += 1
        return game.heuristic(s)  # type: ignore[arg-type]

    assert len(state.legal_actions(0)) * len(state.legal_actions(1)) > MAX_CELLS
    action = GreedyAgent(evaluator=counting).act(state, 0, random.Random(0))
    assert state.is_legal(0, action)
    assert calls == SAMPLED_MOVES * SAMPLED_MOVES


def test_draw_offer_in_a_game_without_agreed_draws_is_ignored() -> None:
    from taut.agents.base import Agent
    from taut.arena.match import DrawOffer
    from taut.core.game import State

    class OffersOnce(Agent):
        def __init__(self) -> None:
            self.offered = False

        def act(self, state: State, seat: int, rng: random.Random) -> int:
            if not self.offered:
                self.offered = True
                raise DrawOffer(seat)
            return state.legal_actions(seat)[0]

        def accept_draw(self, state: State, seat: int) -> bool:
            return True

    game = taut.make("push-pull", max_turns=3)
    result = play_match(game, [OffersOnce(), OffersOnce()], seed=0)
    assert result.state.outcome is not None and result.state.outcome.reason.name != "agreement"
    # Pulling Strings has agreed draws: the same offer ends the game.
    ps = taut.make("pulling-strings")
    result = play_match(ps, [OffersOnce(), OffersOnce()], seed=0)
    assert result.state.outcome is not None and result.state.outcome.reason.name == "agreement"
    assert result.record.replay().outcome == result.state.outcome
