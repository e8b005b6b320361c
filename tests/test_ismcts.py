"""Information-set MCTS and the determinization it relies on: honest by construction."""

from __future__ import annotations

import json
import random

import pytest

import taut
from taut.agents import make_agent
from taut.agents.greedy import GreedyAgent
from taut.agents.ismcts import ISMCTSAgent, spread
from taut.core import NodeKind
from taut.core.errors import InvalidOptionError
from taut.core.game import State
from taut.games.tug_of_war.state import TugState


def random_midgame(seed: int, players: int = 3, steps: int = 40) -> State:
    game = taut.make("tug-of-war", players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(state.random_joint(rng))
    return state


def dumps(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("seed", range(12))
def test_determinization_looks_the_same_to_the_viewer(seed: int) -> None:
    state = random_midgame(seed, steps=10 + 7 * seed)
    game = state.game
    for seat in range(game.info.num_seats):
        view = state.view(seat)
        for k in range(3):
            full = game.determinize(view, seat, random.Random(k))
            assert dumps(full.view(seat)) == dumps(view)
            # and it is a real, playable state
            if full.kind is NodeKind.DECISION:
                (actor,) = full.acting_seats()
                assert list(full.legal_actions(actor))


def test_private_chance_is_hidden_from_others() -> None:
    game = taut.make("tug-of-war", players=2)
    rng = random.Random(0)
    state = game.new_initial_state()
    seen = {0: 0, 1: 0}
    hidden = {0: 0, 1: 0}
    while state.kind is NodeKind.CHANCE:
        outcome = state.sample_chance(rng)
        for seat in (0, 1):
            if state.chance_observation(seat, outcome) is None:
                hidden[seat] += 1
            else:
                seen[seat] += 1
        state = state.apply(outcome)
    hand = game.options["hand"]
    assert isinstance(hand, int)
    # Each seat sees both starters and its own hand, never the other hand.
    assert seen == {0: 2 + hand, 1: 2 + hand}
    assert hidden == {0: hand, 1: hand}


def test_decision_depends_only_on_the_view() -> None:
    state = random_midgame(3, steps=30)
    while (
        state.kind is not NodeKind.DECISION or len(state.legal_actions(state.acting_seats()[0])) < 2
    ):
        state = state.apply(state.random_joint(random.Random(1)))
    (seat,) = state.acting_seats()
    view = state.view(seat)
    # Two different truths behind the same view.
    other = state.game.determinize(view, seat, random.Random(99))
    assert dumps(other) != dumps(state) and dumps(other.view(seat)) == dumps(view)
    a = ISMCTSAgent(iterations=150).act(state.view(seat), seat, random.Random(7))
    b = ISMCTSAgent(iterations=150).act(other.view(seat), seat, random.Random(7))
    assert a == b
    assert a in state.legal_actions(seat)


def test_refuses_simultaneous_games() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    with pytest.raises(InvalidOptionError, match="smmcts"):
        make_agent("ismcts:iterations=5").act(state, 0, random.Random(0))


def test_spread_keeps_both_ends_and_at_most_k() -> None:
    actions = list(range(10, 110))
    picked = spread(actions, 7)
    assert len(picked) == 7
    assert picked[0] == 10 and picked[-1] == 109
    assert list(picked) == sorted(set(picked))
    assert spread(actions[:5], 7) == actions[:5]


def test_bad_new_parameters_are_refused() -> None:
    with pytest.raises(InvalidOptionError):
        ISMCTSAgent(bias=-1)
    with pytest.raises(InvalidOptionError):
        ISMCTSAgent(wide=1)
    with pytest.raises(InvalidOptionError):
        make_agent("ismcts:playout=x")


def turn_positions(count: int) -> list[State]:
    """Decision positions with a real choice, the mover holding two tiles or more (so no
    move ends the round and a view's estimate of hidden hands cannot change the ranking)."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        state = random_midgame(seed, steps=12 + 3 * (seed % 20))
        seed += 1
        if state.kind is not NodeKind.DECISION:
            continue
        (seat,) = state.acting_seats()
        assert isinstance(state, TugState)
        if state.phase == "turn" and state.sizes[seat] >= 2 and len(state.legal_actions(seat)) > 2:
            out.append(state)
    return out


def test_biased_search_starts_from_the_one_move_look_ahead() -> None:
    # With one iteration the only real visit goes to the child with the best evaluator
    # prior: exactly the greedy agent's choice.
    for state in turn_positions(10):
        (seat,) = state.acting_seats()
        view = state.view(seat)
        best = GreedyAgent().strategy(view, seat, random.Random(0))
        agent = ISMCTSAgent(iterations=1, bias=5, rollout=0)
        assert agent.act(view, seat, random.Random(1)) in best


def test_biased_search_is_honest_and_legal() -> None:
    state = random_midgame(5, steps=35)
    while (
        state.kind is not NodeKind.DECISION or len(state.legal_actions(state.acting_seats()[0])) < 2
    ):
        state = state.apply(state.random_joint(random.Random(2)))
    (seat,) = state.acting_seats()
    view = state.view(seat)
    other = state.game.determinize(view, seat, random.Random(5))
    assert dumps(other) != dumps(state)
    spec = {"iterations": 200, "bias": 5, "c": 0.3, "rollout": 0, "playout": 2}
    a = ISMCTSAgent(**spec).act(state.view(seat), seat, random.Random(3))
    b = ISMCTSAgent(**spec).act(other.view(seat), seat, random.Random(3))
    assert a == b and a in state.legal_actions(seat)


def test_root_bonus_allocation_considers_every_share() -> None:
    # A round won: the winner hands out the leftover. Below the root a wide node branches
    # on a few shares only, but at the root every legal share gets a value.
    game = taut.make("tug-of-war", players=3)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and not (
            isinstance(state, TugState) and state.phase == "bonus"
        ):
            state = state.apply(state.random_joint(rng))
        if state.is_terminal():
            continue
        (seat,) = state.acting_seats()
        legal = list(state.legal_actions(seat))
        if len(legal) > 30:
            break
    else:
        pytest.fail("no bonus allocation with more than 30 shares found")
    agent = ISMCTSAgent(iterations=len(legal) + 50, bias=2, rollout=0, wide=5)
    result = agent.search(state.view(seat), seat, random.Random(0))
    assert set(result.policy[seat]) <= set(legal)
    assert set(result.visits[seat]) == set(legal)
    assert result.iterations == len(legal) + 50
