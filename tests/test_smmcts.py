"""SM-MCTS: converges to known equilibria, finds forced wins, plays reproducibly."""

from __future__ import annotations

import random

import pytest

import taut
from taut.agents import make_agent
from taut.agents.smmcts import SMMCTSAgent
from taut.core.errors import InvalidOptionError
from tests.conformance import check_conformance
from tests.toygames import MatrixGame

BIASED = [[3.0, -2.0], [-2.0, 1.0]]  # equilibrium (3/8, 5/8) for both, value -1/8


def test_toy_game_conforms() -> None:
    check_conformance(MatrixGame(BIASED), games=3)


@pytest.mark.parametrize(("select", "width"), [("rm", "full"), ("rm", "sampled"), ("exp3", "full")])
def test_converges_to_mixed_equilibrium(select: str, width: str) -> None:
    game = MatrixGame(BIASED)
    state = game.new_initial_state()
    agent = SMMCTSAgent(select=select, iterations=40000, gamma=0.05, width=width)
    for seat in (0, 1):
        policy = agent.strategy(state, seat, random.Random(seat))
        assert policy.get(0, 0.0) == pytest.approx(3 / 8, abs=0.06), (select, seat, policy)


def test_rock_paper_scissors_is_near_uniform() -> None:
    game = MatrixGame([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    policy = SMMCTSAgent(select="rm", iterations=30000, gamma=0.05).strategy(
        game.new_initial_state(), 0, random.Random(1)
    )
    assert all(abs(policy.get(a, 0) - 1 / 3) < 0.06 for a in range(3)), policy


@pytest.mark.parametrize("select", ["rm", "exp3", "uct"])
def test_finds_winning_pull(select: str) -> None:
    game = taut.make("pulling-strings", max_turns=200)
    # X wins now by pulling g (the 5-stack moves onto X's home at row 1, column 4)
    # unless O also pulls g; any other O pull cannot stop it.
    state = game.state_from_json({"stacks": [[1, 3, 5]], "broken": []})
    agent = SMMCTSAgent(select=select, iterations=4000)
    policy = agent.strategy(state, 0, random.Random(0))
    g = state.string_to_action(0, "g")
    assert max(policy, key=policy.__getitem__) == g, policy


def test_reproducible_with_seed_and_iterations() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    state = game.new_initial_state()
    a = SMMCTSAgent(iterations=500).act(state, 0, random.Random(5))
    b = SMMCTSAgent(iterations=500).act(state, 0, random.Random(5))
    assert a == b


def test_spec_parameters_and_errors() -> None:
    agent = make_agent("smmcts:select=exp3:iterations=10:gamma=0.2")
    assert isinstance(agent, SMMCTSAgent) and agent.select == "exp3" and agent.iterations == 10
    with pytest.raises(InvalidOptionError, match="rm, exp3 or uct"):
        make_agent("smmcts:select=best")
    with pytest.raises(InvalidOptionError, match="gamma"):
        make_agent("smmcts:gamma=0")


def test_mcts_is_uct_and_handles_one_seat_nodes() -> None:
    from taut.core.turn_based import TurnBasedGame

    agent = make_agent("mcts:iterations=300")
    assert isinstance(agent, SMMCTSAgent) and agent.select == "uct"
    game = TurnBasedGame(taut.make("pulling-strings", max_turns=100))
    state = game.new_initial_state()
    assert 0 <= agent.act(state, 0, random.Random(0)) < 20


@pytest.mark.parametrize(
    ("width", "iterations", "tolerance"), [("sampled", 30000, 0.15), ("full", 3000, 0.03)]
)
def test_transpositions_let_regret_matching_find_the_duel_mix(
    width: str, iterations: int, tolerance: float
) -> None:
    """One Push-Pull piece left: a cyclic race whose exact mix the solver knows. Sharing
    nodes by position and closing cycles with node values lets the search converge; the
    full-width backup needs a tenth of the descents for a fifth of the gap."""
    from taut.core.registry import plugin_of

    game = taut.make("push-pull")
    exact_policy = plugin_of(game).exact_policy(game)
    assert exact_policy is not None
    state = game.state_from_json({"turn": 0, "pieces": {"L": "W", "M": 3, "S": "E"}})
    agent = SMMCTSAgent("rm", iterations=iterations, rollout=0, width=width)
    mixes = agent.strategies(state, (0, 1), random.Random(1))
    for seat in (0, 1):
        exact = exact_policy(state, seat)
        gap = sum(abs(mixes[seat].get(action, 0.0) - p) for action, p in exact.items())
        assert gap < tolerance, (seat, mixes[seat], exact)


def test_full_width_backup_is_used_only_where_it_fits() -> None:
    from taut.agents import smmcts

    game = taut.make("pulling-strings", max_turns=200)
    state = game.new_initial_state()
    k0, k1 = (len(state.legal_actions(s)) for s in state.acting_seats())
    root, _, _ = SMMCTSAgent("rm", iterations=20)._grow(state, random.Random(0))
    assert root.full == (k0 * k1 <= smmcts.FULL_WIDTH_MAX)
    assert (root.matrix is not None) == root.full
    sampled, _, _ = SMMCTSAgent("rm", iterations=20, width="sampled")._grow(state, random.Random(0))
    assert not sampled.full
    assert not SMMCTSAgent("exp3", iterations=20)._grow(state, random.Random(0))[0].full
    with pytest.raises(InvalidOptionError, match="width"):
        make_agent("smmcts:width=half")


def test_remembered_successors_do_not_change_the_search() -> None:
    """The second search reuses the positions the first one applied; with the same seed
    and budget it must end with exactly the same mixes."""
    game = taut.make("push-pull")
    state = game.new_initial_state()
    agent = SMMCTSAgent("rm", iterations=400, rollout=0)
    cold = agent.strategies(state, (0, 1), random.Random(3))
    assert len(agent._memo) > 0  # the first search filled it
    warm = agent.strategies(state, (0, 1), random.Random(3))
    fresh = SMMCTSAgent("rm", iterations=400, rollout=0).strategies(state, (0, 1), random.Random(3))
    assert cold == warm == fresh


def test_transpose_parameter() -> None:
    assert make_agent("smmcts:transpose=off").transpose is False  # type: ignore[attr-defined]
    assert SMMCTSAgent(transpose="on").transpose is True
    with pytest.raises(InvalidOptionError, match="transpose"):
        SMMCTSAgent(transpose="maybe")


def test_root_priors_start_uct_at_the_one_turn_estimate() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    # X wins at once by pulling g unless O pulls g too (see test_finds_winning_pull).
    state = game.state_from_json({"stacks": [[1, 3, 5]], "broken": []})
    agent = SMMCTSAgent("uct", iterations=1, prior=50, rollout=0)
    root, _, _ = agent._grow(state, random.Random(0))
    g = state.string_to_action(0, "g")
    stats = root.stats[root.seats.index(0)]
    best = max(range(stats.k), key=lambda i: stats.mean[i])
    assert root.actions[root.seats.index(0)][best] == g
    assert stats.n[best] >= 50
    with pytest.raises(InvalidOptionError, match="prior"):
        SMMCTSAgent("rm", prior=10)
    with pytest.raises(InvalidOptionError, match="prior"):
        SMMCTSAgent("uct", prior="many")


def test_root_priors_on_the_clock_keep_to_the_think_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two teams with shifts offer 15,625 moves a seat: every profile of every move is
    # 750,000 evaluations (15 s a move at think=0.05 before priors kept to the clock).
    game = taut.make("push-pull", variant="two-teams", shifts=True)
    calls = [0]
    heuristic = type(game).heuristic

    def counted(self: object, state: object) -> object:
        calls[0] += 1
        return heuristic(self, state)  # type: ignore[arg-type]

    monkeypatch.setattr(type(game), "heuristic", counted)
    state = game.new_initial_state()
    agent = make_agent("hard:think=0.05")
    action = agent.act(state.view(0), 0, random.Random(3))
    assert state.is_legal(0, action)
    assert 0 < calls[0] < 100_000, calls[0]


def test_root_priors_on_the_clock_reach_every_move_when_time_allows() -> None:
    game = taut.make("pulling-strings", max_turns=200)
    state = game.state_from_json({"stacks": [[1, 3, 5]], "broken": []})
    # Seeded on the clock: every move is reached, and the winning pull leads as when
    # seeded by count.
    agent = SMMCTSAgent("uct", think=0.2, prior=50, rollout=0)
    root, _, _ = agent._grow(state, random.Random(0))
    g = state.string_to_action(0, "g")
    stats = root.stats[root.seats.index(0)]
    best = max(range(stats.k), key=lambda i: stats.mean[i])
    assert root.actions[root.seats.index(0)][best] == g


def test_final_best_plays_the_most_likely_root_move() -> None:
    game = MatrixGame(BIASED)
    state = game.new_initial_state()
    mix = SMMCTSAgent("rm", iterations=3000).strategies(state, (0, 1), random.Random(2))
    best = SMMCTSAgent("rm", iterations=3000, final="best").strategies(
        state, (0, 1), random.Random(2)
    )
    for seat in (0, 1):
        assert len(mix[seat]) == 2  # the equilibrium mixes both moves
        assert best[seat] == {max(mix[seat], key=mix[seat].__getitem__): 1.0}
    with pytest.raises(InvalidOptionError, match="final"):
        make_agent("smmcts:final=random")
