"""The counter agent: safe best replies on a solved game's one-turn games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from taut.agents import make_agent
from taut.agents.base import RandomAgent
from taut.agents.counter import MODELS, PRIOR, CounterAgent
from taut.agents.levels import LevelAgent
from taut.core.errors import InvalidOptionError
from taut.core.registry import make, plugin_of


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return make("push-pull", variant="two-teams")


def _positions(game, count: int, seed: int):  # type: ignore[no-untyped-def]
    """Positions of random games, before their end."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            state = state.apply({s: rng.choice(state.legal_actions(s)) for s in (0, 1)})
    return found


def test_it_plays_only_games_with_one_turn_games(game) -> None:  # type: ignore[no-untyped-def]
    """Two-teams has a solution's one-turn games in either arrangement of the teams; the
    duel (an exact policy only), two-teams with shifts and games of other kinds do not."""
    assert CounterAgent.refuses(game) is None
    assert CounterAgent.refuses(make("push-pull", variant="two-teams", teams="NW-SE")) is None
    assert CounterAgent.refuses(make("push-pull", variant="duel")) is not None
    assert CounterAgent.refuses(make("push-pull", variant="two-teams", shifts=True)) is not None
    assert "two-seat" in (CounterAgent.refuses(make("push-pull", variant="four")) or "")
    with pytest.raises(InvalidOptionError, match="counter"):
        make_agent("counter", game=make("pulling-strings"))


def test_hard_counters_in_two_teams(game) -> None:  # type: ignore[no-untyped-def]
    """``hard`` picks the counter agent where a solution's games exist, and not with
    shifts."""
    assert isinstance(LevelAgent("hard").agent_for(game), CounterAgent)
    other = make("push-pull", variant="two-teams", shifts=True)
    assert not isinstance(LevelAgent("hard").agent_for(other), CounterAgent)


def test_moves_are_legal_and_never_unsafe(game) -> None:  # type: ignore[no-untyped-def]
    """Whatever the belief, every move it may play loses at most ``safety`` against the
    equilibrium mix (the solution's guarantee minus the safety)."""
    agent = CounterAgent(safety=0.02, samples=2)
    games = plugin_of(game).one_turn_games(game)
    assert games is not None
    rng = random.Random(5)
    for state in _positions(game, 12, seed=2):
        one = games.game(state)
        assert one is not None
        for seat in (0, 1):
            guaranteed = one.reply_values(seat, one.mix(1 - seat))
            floor = float(one.mix(seat) @ guaranteed) - 0.02 - 1e-9
            index = {a: k for k, a in enumerate(one.moves(seat))}
            for action, p in agent.strategy(state, seat, rng).items():
                assert p > 0 and state.is_legal(seat, action)
                assert guaranteed[index[action]] >= floor
            assert state.is_legal(seat, agent.act(state, seat, rng))


def test_a_huge_margin_plays_the_equilibrium_mix(game) -> None:  # type: ignore[no-untyped-def]
    """When no reply may leave the solution's mix, the agent plays exactly that mix."""
    agent = CounterAgent(margin=100)
    games = plugin_of(game).one_turn_games(game)
    assert games is not None
    state = _positions(game, 3, seed=4)[2]
    one = games.game(state)
    assert one is not None
    mix = agent.strategy(state, 1, random.Random(0))
    expected = {int(a): float(p) for a, p in zip(one.cols, one.col_mix, strict=True) if p > 0}
    assert mix.keys() == expected.keys()
    assert all(mix[a] == pytest.approx(p) for a, p in expected.items())


def test_the_belief_follows_bayes_rule() -> None:
    """A position that only some models predict moves the belief by their likelihoods
    (each blended half and half with the random model's); a position that follows from
    no move of the opponent starts the belief afresh."""
    agent = CounterAgent()
    prior = np.array(PRIOR)
    # Three opponent moves lead to positions 5, 6 and 7; the equilibrium model predicts
    # the first, greedy the second, random all three alike.
    played = np.array([5, 6, 7])
    predicted = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    agent._last = (0, played, predicted)
    agent._observe(6, 0)
    likelihood = 0.5 * predicted[:, 1] + 0.5 / 3
    expected = prior * likelihood / (prior * likelihood).sum()
    assert list(agent.belief.values()) == pytest.approx(expected.tolist())
    assert agent._last is None
    agent._last = (0, played, predicted)
    agent._observe(7, 1)  # evidence about the other seat: nothing learnt
    assert list(agent.belief.values()) == pytest.approx(expected.tolist())
    agent._last = (0, played, predicted)
    agent._observe(99, 0)  # no move leads there: another game has begun
    assert list(agent.belief.values()) == pytest.approx(PRIOR)


def test_against_random_play_the_belief_in_random_rises(game) -> None:  # type: ignore[no-untyped-def]
    """Over a few seeded games against uniformly random play, the belief that the
    opponent is random ends above where it started on average (the evidence of one turn
    is weak, so single games vary)."""
    finals = []
    for seed in range(4):
        agent, rng, opponent = CounterAgent(samples=8), random.Random(seed), RandomAgent()
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply({0: agent.act(state, 0, rng), 1: opponent.act(state, 1, rng)})
        finals.append(agent.belief["random"])
    assert np.mean(finals) > PRIOR[MODELS.index("random")]


def test_one_agent_on_both_seats_learns_nothing(game) -> None:  # type: ignore[no-untyped-def]
    """Playing both seats, each position follows a move of the other seat: no evidence."""
    agent = CounterAgent(samples=1)
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(4):
        if state.is_terminal():
            break
        state = state.apply({0: agent.act(state, 0, rng), 1: agent.act(state, 1, rng)})
    assert np.allclose(list(agent.belief.values()), PRIOR)


def test_the_starting_belief_is_a_parameter(game) -> None:  # type: ignore[no-untyped-def]
    """``prior`` sets the starting belief (scaled to sum to 1); a malformed one is refused
    with what is allowed."""
    agent = make_agent("counter:prior=1,2,1", game=game)
    assert isinstance(agent, CounterAgent)
    assert list(agent.belief.values()) == pytest.approx([0.25, 0.5, 0.25])
    agent.act(game.new_initial_state(), 0, random.Random(0))  # a new game keeps it
    assert list(agent.belief.values()) == pytest.approx([0.25, 0.5, 0.25])
    for bad in ("1,2", "0,0,0", "1,-1,1", "a,b,c"):
        with pytest.raises(InvalidOptionError, match="prior must be three numbers"):
            make_agent(f"counter:prior={bad}", game=game)
