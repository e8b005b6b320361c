"""The agent layer's API: injected selection rules, frozen search results, which agents fit
which games, parameter checks, the one sampling draw and the think budget."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

import taut
from taut.agents import (
    AGENTS,
    ISMCTSAgent,
    LevelAgent,
    NashSearchAgent,
    PerfectAgent,
    SearchResult,
    SMMCTSAgent,
    agent_refusal,
    agents_for,
    make_agent,
    solve_matrix_game,
)
from taut.agents.budget import Deadline, spend
from taut.agents.levels import BlunderingAgent
from taut.agents.smmcts import UCT, Exp3, RegretMatching, SeatStats, SelectionRule
from taut.core.chance import sample_index, sample_mix
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.plugin import GamePlugin, Policy
from taut.core.registry import register_plugin, unregister_plugin
from tests.toygames import MatrixGame

BIASED = [[3.0, -2.0], [-2.0, 1.0]]  # equilibrium (3/8, 5/8) for both, value -1/8


# -- selection rules ----------------------------------------------------------------------


class FirstAction(SelectionRule):
    """A rule of our own: always the first action; counts how often it is called."""

    name = "first"

    def __init__(self) -> None:
        self.chosen = 0
        self.updated = 0

    def choose(self, stats: SeatStats, rng: random.Random) -> tuple[int, float]:
        self.chosen += 1
        return 0, 1.0

    def update(self, stats: SeatStats, index: int, probability: float, reward: float) -> None:
        self.updated += 1
        stats.n[index] += 1
        stats.total += 1

    def final(self, stats: SeatStats) -> list[float]:
        return [n / stats.total for n in stats.n]


def test_the_select_parameter_builds_rule_objects() -> None:
    assert isinstance(SMMCTSAgent("rm").rule, RegretMatching)
    assert isinstance(SMMCTSAgent("exp3", gamma=0.2).rule, Exp3)
    uct = SMMCTSAgent("uct", c=0.5).rule
    assert isinstance(uct, UCT) and uct.c == 0.5
    assert SMMCTSAgent("exp3").select == "exp3"


def test_a_custom_selection_rule_is_injected_and_used() -> None:
    rule = FirstAction()
    agent = SMMCTSAgent(select=rule, iterations=50, rollout=0)
    assert agent.rule is rule and agent.select == "first"
    state = MatrixGame(BIASED).new_initial_state()
    result = agent.search(state, random.Random(0))
    # Both seats select at the root on every descent; the rule is not full width, so the
    # root keeps per-seat statistics and every backup reaches the rule.
    assert rule.chosen == 2 * 50 and rule.updated == 2 * 50
    assert result.policy == {0: {0: 1.0}, 1: {0: 1.0}}
    assert result.visits[0] == {0: 50, 1: 0}
    with pytest.raises(InvalidOptionError, match="prior"):
        SMMCTSAgent(select=FirstAction(), prior=5)


def test_a_rule_that_takes_priors_is_seeded_at_the_root() -> None:
    agent = SMMCTSAgent("uct", iterations=1, prior=30, rollout=0)
    root, _, _ = agent._grow(MatrixGame(BIASED).new_initial_state(), random.Random(0))
    for stats in root.stats:
        assert stats.virtual == 30 and sum(stats.n) == 2 * 30 + 1
    # Virtual visits are left out of what the result reports.
    result = agent.search(MatrixGame(BIASED).new_initial_state(), random.Random(0))
    assert all(sum(v.values()) == 1 for v in result.visits.values())


# -- search results ----------------------------------------------------------------------


def _results() -> Iterator[SearchResult]:
    state = MatrixGame(BIASED).new_initial_state()
    yield SMMCTSAgent(iterations=200).search(state, random.Random(0))
    yield NashSearchAgent(depth=1).search(state)
    tracks = taut.make("tracks", size=3)
    position = tracks.new_initial_state()
    while position.is_chance():
        position = position.apply(position.sample_chance(random.Random(1)))
    (seat,) = position.acting_seats()
    yield ISMCTSAgent(iterations=30).search(position, seat, random.Random(0))


@pytest.mark.parametrize("result", list(_results()), ids=["smmcts", "nash", "ismcts"])
def test_search_results_are_immutable(result: SearchResult) -> None:
    seat = next(iter(result.policy))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.iterations = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.policy[seat][0] = 1.0  # type: ignore[index]
    with pytest.raises(TypeError):
        result.policy[99] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        result.value[seat] = 0.0  # type: ignore[index]
    mix = result.mix(seat)
    mix.clear()  # a copy: the result keeps its policy
    assert sum(result.policy[seat].values()) == pytest.approx(1.0)


def test_results_replace_the_attributes_searches_left_behind() -> None:
    state = MatrixGame(BIASED).new_initial_state()
    smmcts = SMMCTSAgent(iterations=300, gamma=0.05)
    result = smmcts.search(state, random.Random(0))
    assert result.iterations == 300 and result.nodes > 1
    assert result.value[0] == pytest.approx(-result.value[1])
    assert set(result.policy) == {0, 1}
    nash = NashSearchAgent(depth=1).search(state)
    value, x, _ = solve_matrix_game(BIASED)
    assert nash.value[0] == pytest.approx(value) and nash.depth == 1
    assert nash.policy[0][0] == pytest.approx(x[0])
    for agent in (smmcts, NashSearchAgent(), ISMCTSAgent()):
        for gone in ("last_policy", "last_iterations", "last_visits", "last_depth", "nodes"):
            assert not hasattr(agent, gone), (agent, gone)


def test_act_and_strategy_follow_the_search_result() -> None:
    state = MatrixGame(BIASED).new_initial_state()
    result = SMMCTSAgent(iterations=400).search(state, random.Random(4))
    assert SMMCTSAgent(iterations=400).strategy(state, 1, random.Random(4)) == result.policy[1]
    rng = random.Random(4)
    expected = SMMCTSAgent(iterations=400).search(state, rng)
    action = sample_mix(expected.policy[0], rng)
    assert SMMCTSAgent(iterations=400).act(state, 0, random.Random(4)) == action


# -- which agents play which games -----------------------------------------------------------


class SolvedMatrix(GamePlugin):
    """The toy matrix game with its exact policy (the LP equilibrium)."""

    game_class = MatrixGame

    def exact_policy(self, game: Game) -> Policy | None:
        assert isinstance(game, MatrixGame)
        _, x, y = solve_matrix_game(game.payoff)

        def policy(state: State, seat: int) -> Mapping[int, float]:
            mix = x if seat == 0 else y
            return {a: float(p) for a, p in enumerate(mix)}

        return policy


@pytest.fixture
def solved_matrix() -> Iterator[None]:
    register_plugin(SolvedMatrix())
    try:
        yield
    finally:
        unregister_plugin("matrix")


def test_every_name_declares_the_games_it_fits() -> None:
    matrix = MatrixGame(BIASED)
    hidden = taut.make("tug-of-war", players=3)
    for name in ("random", "greedy", "easy", "medium", "hard"):
        assert agent_refusal(name, matrix) is None and agent_refusal(name, hidden) is None
    assert agent_refusal("smmcts", hidden) == "needs perfect information"
    assert agent_refusal("mcts", hidden) == "needs perfect information"
    assert agent_refusal("nash", hidden) == "needs perfect information"
    assert agent_refusal("ismcts", matrix) == "needs a game without simultaneous moves"
    assert agent_refusal("ismcts", hidden) is None
    assert "no exact solution of Matrix game is known" in (agent_refusal("perfect", matrix) or "")
    four = taut.make("push-pull", variant="four")
    assert agent_refusal("nash", four) == "needs a game of two seats"
    unequal = MatrixGame(BIASED)
    unequal._info = dataclasses.replace(unequal.info, zero_sum=False)
    assert agent_refusal("nash", unequal) == "needs a zero-sum game"
    assert "one-turn games" in (agent_refusal("counter", matrix) or "")
    assert set(agents_for(matrix)) == set(AGENTS) - {"ismcts", "perfect", "counter"}
    assert agents_for(hidden) == ["easy", "greedy", "hard", "ismcts", "medium", "random", "reply"]
    with pytest.raises(InvalidOptionError, match="unknown agent"):
        agent_refusal("wizard", matrix)


def test_an_agent_that_cannot_play_the_game_is_refused_with_the_ones_that_can() -> None:
    game = taut.make("tug-of-war", players=3)
    with pytest.raises(InvalidOptionError) as caught:
        make_agent("nash:depth=2", game=game)
    message = str(caught.value)
    assert "'nash'" in message and game.title in message and "perfect information" in message
    assert "agents that can: easy, greedy, hard, ismcts, medium, random" in message
    assert isinstance(make_agent("ismcts:iterations=5", game=game), ISMCTSAgent)
    # Without a game nothing is checked, as before.
    assert isinstance(make_agent("nash"), NashSearchAgent)
    assert isinstance(make_agent("hard", think=0.5, game=game), LevelAgent)


def test_the_perfect_agent_plays_any_plugin_s_exact_policy(solved_matrix: None) -> None:
    game = MatrixGame(BIASED)
    assert agent_refusal("perfect", game) is None
    agent = make_agent("perfect", game=game)
    assert isinstance(agent, PerfectAgent)
    state = game.new_initial_state()
    mix = agent.strategy(state, 1, random.Random(0))
    assert mix == pytest.approx({0: 3 / 8, 1: 5 / 8})
    picks = [agent.act(state, 0, random.Random(k)) for k in range(400)]
    assert 0.25 < picks.count(0) / 400 < 0.5


def test_the_perfect_agent_refuses_a_game_without_an_exact_policy() -> None:
    state = MatrixGame(BIASED).new_initial_state()
    with pytest.raises(InvalidOptionError, match="no exact policy for Matrix game"):
        PerfectAgent().act(state, 0, random.Random(0))


# -- parameters -------------------------------------------------------------------------

BAD = [
    ("smmcts", "think", ["0", "-1", "nan", "inf", "soon"]),
    ("smmcts", "iterations", ["0", "-5", "2.7", "3.0", "nan", "many"]),
    ("smmcts", "c", ["-0.1", "nan", "inf"]),
    ("smmcts", "rollout", ["-1", "1.5", "inf"]),
    ("smmcts", "prior", ["-1", "nan", "inf"]),
    ("smmcts", "gamma", ["0", "1.5", "-0.1", "nan"]),
    ("mcts", "c", ["-1"]),
    ("ismcts", "think", ["0", "nan"]),
    ("ismcts", "iterations", ["0", "2.5"]),
    ("ismcts", "c", ["-1", "inf"]),
    ("ismcts", "rollout", ["-1"]),
    ("ismcts", "bias", ["-1", "nan", "inf"]),
    ("ismcts", "wide", ["1", "2.5", "-3"]),
    ("ismcts", "playout", ["-1", "0.5"]),
    ("nash", "depth", ["0", "1.5", "nan"]),
    ("nash", "think", ["0", "-2", "inf"]),
    ("hard", "think", ["0", "nan", "inf", "-1"]),
]


@pytest.mark.parametrize(
    ("name", "key", "value"), [(n, k, v) for n, k, values in BAD for v in values]
)
def test_bad_parameter_values_are_refused_by_name(name: str, key: str, value: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"^{key} must be"):
        make_agent(f"{name}:{key}={value}")


def test_parameter_messages_say_what_is_allowed() -> None:
    def message(spec: str) -> str:
        with pytest.raises(InvalidOptionError) as caught:
            make_agent(spec)
        return str(caught.value)

    assert message("smmcts:iterations=2.7") == "iterations must be an integer at least 1, got '2.7'"
    assert message("smmcts:gamma=nan") == "gamma must be a number in (0, 1], got 'nan'"
    assert message("ismcts:wide=1") == "wide must be an integer at least 2, got '1'"
    assert "think must be a positive finite number of seconds" in message("hard:think=inf")
    with pytest.raises(InvalidOptionError, match=r"blunder must be a number in \[0, 1\]"):
        BlunderingAgent(make_agent("greedy"), blunder=float("nan"))
    with pytest.raises(InvalidOptionError, match="blunder"):
        BlunderingAgent(make_agent("greedy"), blunder=-0.1)


def test_good_parameter_values_are_read_typed() -> None:
    agent = make_agent("smmcts:iterations=12:c=0:rollout=0:gamma=1:think=0.25")
    assert isinstance(agent, SMMCTSAgent)
    assert (agent.iterations, agent.c, agent.rollout, agent.gamma, agent.think) == (
        12,
        0.0,
        0,
        1.0,
        0.25,
    )
    ismcts = make_agent("ismcts:wide=2:playout=0:bias=0.5")
    assert isinstance(ismcts, ISMCTSAgent) and (ismcts.wide, ismcts.bias) == (2, 0.5)
    assert BlunderingAgent(make_agent("greedy"), blunder="1").blunder == 1.0
    assert isinstance(make_agent("nash:depth=3:think=1e-3"), NashSearchAgent)


# -- the one draw, the one budget ----------------------------------------------------------


def _cumulative(probabilities: Sequence[float], r: float) -> int:
    """The cumulative walk every sampler used to write out."""
    acc = 0.0
    for i, p in enumerate(probabilities):
        acc += p
        if r < acc:
            return i
    return len(probabilities) - 1


def test_sample_index_is_the_cumulative_walk_on_one_draw() -> None:
    rng = random.Random(0)
    for seed in range(200):
        weights = [rng.random() for _ in range(rng.randrange(1, 8))]
        total = sum(weights)
        probabilities = [w / total for w in weights]
        a, b = random.Random(seed), random.Random(seed)
        assert sample_index(probabilities, a) == _cumulative(probabilities, b.random())
        assert a.random() == b.random()  # exactly one number was drawn


def test_sample_index_edges() -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.999999

    assert sample_index([0.5, 0.4999, 0.0], Fixed()) == 1  # short by rounding: last positive
    assert sample_index([0.0, 0.0], Fixed()) == 1
    with pytest.raises(ValueError):
        sample_index([], random.Random(0))
    assert sample_mix({"a": 0.0, "b": 1.0}, random.Random(3)) == "b"


def test_chance_is_drawn_with_the_same_helper() -> None:
    game = taut.make("tracks", size=4)
    state = game.new_initial_state()
    assert state.is_chance()
    outcomes = state.chance_outcomes()
    for seed in range(30):
        expected = outcomes[_cumulative([p for _, p in outcomes], random.Random(seed).random())]
        assert state.sample_chance(random.Random(seed)) == expected[0]


def test_spend_runs_the_iterations_or_the_seconds() -> None:
    calls: list[int] = []
    assert spend(lambda: calls.append(1), 7, 100.0, 4) == 7 and len(calls) == 7
    count = spend(lambda: None, None, 0.02, 4)
    assert count >= 4 and count % 4 == 0
    assert Deadline(None).passed() is False
    assert Deadline(0.0).passed() is True
    assert math.isinf(Deadline(None).at)
