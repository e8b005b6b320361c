"""Tug of War passes the protocol conformance checks, and its fast playout matches them."""

from __future__ import annotations

import random

import pytest

import taut
from taut.core.game import Game
from tests.conformance import check_conformance

SMALL = [
    {"players": 2, "hand": 3, "end": "rounds", "rounds": 2},
    {"players": 3, "target": 15},
    {"players": 3, "target": 10, "out": "stop", "tiebreak": "all"},
    {"players": 4, "hand": 3, "end": "round-points", "rounds": 2},
    {"players": 8, "end": "rounds", "rounds": 1},
]


@pytest.mark.parametrize("options", SMALL)
def test_conformance(options: dict[str, object]) -> None:
    check_conformance(taut.make("tug-of-war", **options), games=3)


@pytest.mark.parametrize(
    "options",
    [
        *SMALL,
        {"players": 3},
        {"players": 5, "end": "rounds", "rounds": 2, "tiebreak": "all"},
        {"players": 3, "end": "round-points", "rounds": 3, "round-score": "total"},
    ],
)
def test_fast_playout_plays_the_same_games_as_the_protocol(options: dict[str, object]) -> None:
    game = taut.make("tug-of-war", **options)
    for seed in range(15):
        assert game.random_playout(random.Random(seed)) == Game.random_playout(
            game, random.Random(seed)
        )


def test_info_and_action_space() -> None:
    game = taut.make("tug-of-war", players=3)
    info = game.info
    assert info.seats == ("P0", "P1", "P2")
    assert not info.perfect_information and info.chance and not info.simultaneous
    # 28 tiles x 3 trains x 2 ends, draw, pass, 169 bonus shares (0..168), keep.
    assert info.num_distinct_actions == 28 * 3 * 2 + 2 + 169 + 1
    assert info.num_chance_outcomes == 49
    assert taut.make("tug-of-war", players=4).info.num_chance_outcomes == 100


def test_heuristic_stays_in_range_and_is_exact_at_the_end() -> None:
    game = taut.make("tug-of-war", players=3, target=20)
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        values = game.heuristic(state)
        assert all(-1.0 <= v <= 1.0 for v in values)
        for seat in range(3):
            assert all(-1.0 <= v <= 1.0 for v in game.heuristic(state.view(seat)))
        state = state.apply(state.random_joint(rng))
    assert game.heuristic(state) == state.returns()
    assert sorted(state.returns()) == [-0.5, -0.5, 1.0]


@pytest.mark.parametrize("options", SMALL[:3])
def test_chance_outcomes_told_one_by_one_are_the_listed_ones_in_views_too(
    options: dict[str, object],
) -> None:
    """A deal or draw is checked without listing the stock: every oriented id, in the full
    state and in each seat's view, is a chance outcome exactly when the list offers it."""
    game = taut.make("tug-of-war", **options)
    rng = random.Random(11)
    chance_nodes = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance():
                chance_nodes += 1
                for here in (state, *(state.view(s) for s in range(game.info.num_seats))):
                    offered = {o for o, _ in here.chance_outcomes()}
                    told = {
                        o
                        for o in range(-1, game.info.num_chance_outcomes + 1)
                        if here.is_chance_outcome(o)
                    }
                    assert told == offered
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(state.random_joint(rng))
    assert chance_nodes > 20
