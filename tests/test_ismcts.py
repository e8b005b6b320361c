"""Information-set MCTS and the determinization it relies on: honest by construction."""

from __future__ import annotations

import json
import random

import pytest

import taut
from taut.agents import make_agent
from taut.agents.ismcts import ISMCTSAgent
from taut.core import NodeKind
from taut.core.errors import InvalidOptionError
from taut.core.game import State


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
