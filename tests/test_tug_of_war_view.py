"""Hidden information: a seat's view shows its own hand and public facts, never a hidden tile."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import taut
from taut.agents import GreedyAgent
from taut.games.tug_of_war import TugOfWar, TugState
from taut.games.tug_of_war.state import DRAWING, DRAWN


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _tiles_in(value: Any) -> set[tuple[int, int]]:
    """Every ``[a, b]`` pair of ints in a JSON value (a train's open ``ends`` are numbers,
    not a tile, and are skipped)."""
    out: set[tuple[int, int]] = set()
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            out.add((min(value), max(value)))
        for v in value:
            out |= _tiles_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "ends":
                out |= _tiles_in(v)
    return out


def _expected_view(full: dict[str, Any], seat: int | None, state: TugState) -> dict[str, Any]:
    want = copy.deepcopy(full)
    want["view"] = "spectator" if seat is None else seat
    want["hands"] = [h if s == seat else None for s, h in enumerate(full["hands"])]
    want["boneyard"] = None
    if not (seat is not None and state.phase == DRAWN and state.current == seat):
        want["drawn"] = None
    return want


def _hidden_from(state: TugState, seat: int | None) -> set[tuple[int, int]]:
    ds = state.game.dominoes
    assert state.stock is not None
    hidden = set(state.stock)
    for s, hand in enumerate(state.hands):
        if s != seat and hand is not None:
            hidden |= hand
    return {ds.tiles[t] for t in hidden}


@pytest.mark.parametrize(
    "options", [{"players": 3, "target": 20}, {"players": 4, "hand": 5, "target": 15}]
)
def test_views_hide_every_hidden_tile_along_random_games(options: dict[str, Any]) -> None:
    game = _game(**options)
    n = game.num_players
    for g in range(3):
        rng = random.Random(g)
        state = game.new_initial_state()
        assert isinstance(state, TugState)
        while True:
            full = state.to_json()
            for seat in [*range(n), None]:
                view = state.view(seat)
                data = json.loads(json.dumps(view.to_json()))
                # Every field is the full state's, with exactly the hidden ones removed.
                assert data == _expected_view(full, seat, state)
                hidden = _hidden_from(state, seat)
                fields = (data["hands"], data["boneyard"], data["drawn"], data["trains"])
                assert not (_tiles_in(list(fields)) & hidden)
                # The text picture leaks nothing either.
                text = str(view)
                for a, b in hidden:
                    assert f" {a}-{b} " not in f" {text} ".replace("\n", " ")
                # A view rebuilds from its own JSON.
                assert game.state_from_json(data).to_json() == data
                if seat is not None and seat in state.acting_seats():
                    assert list(view.legal_actions(seat)) == list(state.legal_actions(seat))
            if state.is_terminal():
                break
            after = state.apply(state.random_joint(rng))
            assert isinstance(after, TugState)
            state = after


def test_a_view_at_a_draw_averages_over_the_tiles_the_viewer_cannot_see() -> None:
    game = _game(players=3, hand=5)
    rng = random.Random(5)
    state = game.new_initial_state()
    assert isinstance(state, TugState)
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.phase == DRAWING:
            for seat in range(3):
                view = state.view(seat)
                outcomes = view.chance_outcomes()
                ds = game.dominoes
                got = {ds.index(*ds.unorient(o)) for o, _ in outcomes}
                own = state.hands[seat]
                assert own is not None
                unseen = set(range(ds.size)) - own - state.train_tiles()
                assert got == unseen
                assert all(p == pytest.approx(1 / len(unseen)) for _, p in outcomes)
                # Applying one to the view hands the drawer a tile only the drawer sees.
                after = view.apply(outcomes[0][0])
                assert isinstance(after, TugState)
                assert after.sizes[state.current] == state.sizes[state.current] + 1
                assert (after.drawn >= 0) == (seat == state.current)
            checked += 1
        after = state.apply(state.random_joint(rng))
        assert isinstance(after, TugState)
        state = after
    assert checked > 0


def test_spectator_sees_no_hand_and_a_seat_only_its_own() -> None:
    game = _game(players=3)
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance():
        state = state.apply(state.random_joint(rng))
    assert isinstance(state, TugState)
    spectator = state.view(None)
    assert all(h is None for h in spectator.hands) and spectator.stock is None
    assert spectator.sizes == state.sizes and spectator.stock_size == state.stock_size
    mine = state.view(1)
    assert mine.hands[1] == state.hands[1]
    assert mine.hands[0] is None and mine.hands[2] is None
    assert mine.view(1) is mine
    with pytest.raises(ValueError):
        state.view(3)


def test_greedy_plays_from_a_view_to_the_end_of_a_round() -> None:
    # The greedy agent looks one move ahead inside its view, including the play that ends
    # the round (the leftover is then estimated from the unseen tiles).
    game = _game(players=3, end="rounds", rounds=2)
    agent = GreedyAgent()
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.random_joint(rng))
            continue
        seat = state.acting_seats()[0]
        action = agent.act(state.view(seat), seat, rng)
        assert state.is_legal(seat, action)
        state = state.apply(action)
    assert state.outcome is not None
