"""The conformance checks every game passes: random playouts and protocol invariants.

Call :func:`check_conformance` from a game's test module with a game instance.
"""

from __future__ import annotations

import json
import random

import pytest

from taut.core import CHANCE_SEAT, GameRecord, NodeKind
from taut.core.errors import GameOverError, IllegalActionError, MalformedActionError
from taut.core.game import Game, State


def _check_state(state: State) -> None:
    info = state.game.info
    seats = state.acting_seats()
    kind = state.kind
    if kind is NodeKind.TERMINAL:
        assert seats == ()
        assert state.outcome is not None
        rets = state.returns()
        assert len(rets) == info.num_seats
        assert all(info.min_utility <= r <= info.max_utility for r in rets)
        if info.zero_sum:
            assert abs(sum(rets)) < 1e-9
        assert all(state.legal_action_strings(s) == [] for s in range(info.num_seats))
        return
    assert state.outcome is None
    if kind is NodeKind.CHANCE:
        assert seats == (CHANCE_SEAT,)
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node has outcomes"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(0 <= o < info.num_chance_outcomes for o, _ in outcomes)
        # Chance's outcomes told one by one (a game may answer without the list).
        offered = {o for o, _ in outcomes}
        for o in range(-1, info.num_chance_outcomes + 1):
            assert state.is_chance_outcome(o) == (o in offered), o
        return
    if kind is NodeKind.DECISION:
        assert len(seats) == 1
    else:
        assert info.simultaneous and len(seats) >= 2
    for seat in seats:
        legal = list(state.legal_actions(seat))
        assert legal, f"seat {seat} must have a legal action"
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        for a in legal:
            assert 0 <= a < info.num_distinct_actions
            text = state.action_to_string(seat, a)
            assert state.string_to_action(seat, text) == a, (text, a)
            as_json = state.action_to_json(seat, a)
            assert state.action_from_json(seat, json.loads(json.dumps(as_json))) == a
            assert state.is_legal(seat, a)
        # The notation of every legal move at once (kept by some games): the same strings,
        # in the same order, in a list the caller may change.
        texts = state.legal_action_strings(seat)
        assert texts == [state.action_to_string(seat, a) for a in legal]
        texts.append("changed by the caller")
        assert state.legal_action_strings(seat) == texts[:-1]
    for seat in range(info.num_seats):
        if seat not in seats:
            assert not list(state.legal_actions(seat))
            assert state.legal_action_strings(seat) == []


def check_conformance(game: Game, games: int = 20, seed: int = 0, max_nodes: int = 5000) -> None:
    """Play ``games`` random games checking every invariant of the protocol."""
    info = game.info
    assert info.num_seats >= 1 and info.num_distinct_actions >= 1
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = game.new_initial_state()
        record = GameRecord.start(game)
        nodes = 0
        while not state.is_terminal():
            _check_state(state)
            before_json = json.dumps(state.to_json(), sort_keys=True)
            joint = state.random_joint(rng)
            after = state.apply(joint)
            # States are values: applying never changes the state applied to.
            assert json.dumps(state.to_json(), sort_keys=True) == before_json
            record.add(state, joint, after)
            # Round trip through JSON.
            rebuilt = game.state_from_json(json.loads(json.dumps(after.to_json())))
            assert json.dumps(rebuilt.to_json(), sort_keys=True) == json.dumps(
                after.to_json(), sort_keys=True
            )
            state = after
            nodes += 1
            assert nodes <= max_nodes, "game did not end"
        _check_state(state)
        record.finish(state)
        # Record -> JSON -> replay gives the same final state.
        again = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay(game)
        assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(
            state.to_json(), sort_keys=True
        )
        with pytest.raises(GameOverError):
            state.apply({})
    # Same seed, same game.
    a = game.random_playout(random.Random(seed))
    b = game.random_playout(random.Random(seed))
    assert a == b
    # Malformed and illegal input is refused with typed errors.
    state = game.new_initial_state()
    while state.kind is NodeKind.CHANCE:
        state = state.apply(state.random_joint(random.Random(seed)))
    seat = state.acting_seats()[0]
    with pytest.raises(MalformedActionError):
        state.string_to_action(seat, "\u2603 not an action")
    joint = state.random_joint(random.Random(seed))
    joint[seat] = info.num_distinct_actions + 7
    with pytest.raises(IllegalActionError):
        state.apply(joint)
    with pytest.raises(IllegalActionError):
        state.apply({})  # no action for the seats that act
