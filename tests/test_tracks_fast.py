"""Track Tiles' compact random play against the readable rules, node by node.

The protocol path below draws as ``State.random_joint`` does: a chance node takes
``state.sample_chance(rng)``, a placement ``rng.choice(state.legal_actions(seat))``, and the
result goes through the validated ``state.apply``. The compact loop must give the
same positions, the same outcome and leave the generator in the same state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taut
from taut.core.game import Game
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.games.tracks import Tracks, TracksState
from taut.games.tracks.fast import Playout, draw_index, thresholds, wiring
from taut.games.tracks.paths import exit_unit, follow, tracks
from taut.games.tracks.tiles import JOIN, E, N, S, W, unit_cell

SIZES = list(range(2, 13))
FIRSTS = ["NS", "WE", "random"]
ROLLS = ["once", "each"]


def protocol_step(state: TracksState, rng: random.Random) -> TracksState:
    """One node of random play through the readable rules."""
    if state.kind is NodeKind.CHANCE:
        nxt = state.apply({CHANCE_SEAT: state.sample_chance(rng)})
    else:
        (seat,) = state.acting_seats()
        nxt = state.apply({seat: rng.choice(state.legal_actions(seat))})
    assert isinstance(nxt, TracksState)
    return nxt


def protocol_game(game: Tracks, seed: int) -> tuple[list[TracksState], random.Random]:
    """Every position of one random game through the readable rules, and its generator."""
    rng = random.Random(seed)
    states = [game.new_initial_state()]
    while not states[-1].is_terminal():
        states.append(protocol_step(states[-1], rng))
    return states, rng


def _seeds(size: int) -> range:
    # Small boards are quick and end in every way; big ones are long games.
    return range(60 if size <= 6 else 12)


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("first", FIRSTS)
@pytest.mark.parametrize("size", SIZES)
def test_random_playout_matches_the_protocol(size: int, first: str, roll: str) -> None:
    game = taut.make("tracks", size=size, first=first, roll=roll)
    assert isinstance(game, Tracks)
    reasons = set()
    for seed in _seeds(size):
        states, rng = protocol_game(game, seed)
        fast_rng = random.Random(seed)
        nodes, outcome = game.random_playout(fast_rng)
        assert (nodes, outcome) == (len(states) - 1, states[-1].outcome), seed
        assert fast_rng.getstate() == rng.getstate(), seed
        # The generic loop of the protocol agrees as well.
        assert Game.random_playout(game, random.Random(seed)) == (nodes, outcome)
        assert outcome is not None
        reasons.add(outcome.reason.name)
    if size <= 4:
        # Small boards meet a track and a full board within these seeds.
        assert {"track", "full"} <= reasons, reasons


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("first", FIRSTS)
@pytest.mark.parametrize("size", [2, 3, 5, 8, 12])
def test_every_prefix_of_a_rollout_is_the_protocol_position(
    size: int, first: str, roll: str
) -> None:
    # rollout(start, rng, k) stops the one incremental loop after k nodes: each must be the
    # protocol's k-th position, with the generator where the protocol leaves it.
    game = taut.make("tracks", size=size, first=first, roll=roll)
    assert isinstance(game, Tracks)
    for seed in range(3):
        states, _ = protocol_game(game, seed)
        rng = random.Random(seed)
        for k, expected in enumerate(states):
            fast_rng = random.Random(seed)
            got = game.rollout(states[0], fast_rng, k)
            assert got == expected, (seed, k)
            assert got.placed() == expected.placed() == sum(1 for c in got.board if c)
            assert got.kind is expected.kind
            if k:
                protocol_step(states[k - 1], rng)
            assert fast_rng.getstate() == rng.getstate(), (seed, k)
        assert game.rollout(states[-1], random.Random(seed), 10) is states[-1]


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("first", FIRSTS)
@pytest.mark.parametrize("size", [3, 6])
def test_rollout_from_a_rebuilt_midgame_position(size: int, first: str, roll: str) -> None:
    # A position read back from JSON carries no history: the pieces are rebuilt from the
    # board, then the loop goes on with the protocol's draws.
    game = taut.make("tracks", size=size, first=first, roll=roll)
    assert isinstance(game, Tracks)
    for seed in range(40):
        states, _ = protocol_game(game, seed)
        start = game.state_from_json(states[len(states) // 2].to_json())
        for limit in (1, 2, 3, 7, 1000):
            fast = game.rollout(start, random.Random(seed + 1), limit)
            rng = random.Random(seed + 1)
            s = start
            for _ in range(limit):
                if s.is_terminal():
                    break
                s = protocol_step(s, rng)
            assert fast == s, (seed, limit)


def test_rollout_with_no_room_returns_the_position() -> None:
    game = taut.make("tracks", first="random")
    assert isinstance(game, Tracks)
    start = game.new_initial_state()
    assert game.rollout(start, random.Random(0), 0) is start
    assert game.rollout(start, random.Random(0), -3) is start


def test_rollout_of_unrolled_kinds_on_a_placed_board() -> None:
    # A position can be given with tiles placed and no kinds rolled (tiles null): both
    # paths roll NS, then WE, then place.
    game = taut.make("tracks", size=3)
    assert isinstance(game, Tracks)
    start = game.state_from_json({"board": ["1..", ".2.", "..."], "tiles": {}})
    for seed in range(30):
        fast = game.rollout(start, random.Random(seed), 3)
        rng = random.Random(seed)
        s = start
        for _ in range(3):
            s = protocol_step(s, rng)
        assert fast == s and fast.kind is s.kind


@given(st.floats(min_value=0.0, max_value=1.0, exclude_max=True))
def test_die_and_coin_draws_match_sample_index(r: float) -> None:
    from taut.core.chance import sample_index

    die = [1.0 / 6] * 6
    assert draw_index(thresholds(die), r) == sample_index(die, _Fixed(r))
    assert draw_index(thresholds([0.5, 0.5]), r) == sample_index([0.5, 0.5], _Fixed(r))


class _Fixed(random.Random):
    """A generator whose ``random()`` returns one given number."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def _edge(size: int, cell: int, side: int) -> int:
    """The edge id of a side of a cell, read from the straight kind's strands (N-S, E-W)."""
    n_, s_, e_, w_ = wiring(size).strands[cell * 4 + 3]
    return {N: n_, S: s_, E: e_, W: w_}[side]


@settings(max_examples=300)
@given(st.integers(2, 9), st.data())
def test_piece_ends_agree_with_path_tracing(size: int, data: st.DataObject) -> None:
    # Any board, empty cells included: from every edge unit and every side of a placed
    # cell facing an empty one, the far end kept by the pieces is where tracing stops.
    board = data.draw(st.lists(st.integers(0, 3), min_size=size * size, max_size=size * size))
    w = wiring(size)
    play = Playout.from_position(w, False, board, 0, [1, 1], None)
    units = 4 * size
    for unit in range(units):
        cell, side = unit_cell(size, unit)
        if board[cell] == 0:
            assert play.ends[unit] == unit
            continue
        end = exit_unit(board, size, unit)
        far = play.ends[unit]
        assert (far if far < units else None) == end, (unit, far, end)
        if end is None:
            # The path stops at an empty cell: the far end is an inner edge of it.
            stop = -1 - follow(board, size, cell, JOIN[board[cell]][side])
            assert far == _edge(size, stop >> 2, stop & 3)
    assert play.placed == sum(1 for k in board if k)
    ns, we = tracks(board, size)
    track_units = {
        (min(u, play.ends[u]), max(u, play.ends[u]))
        for u in range(units)
        if play.ends[u] < units and play.ends[u] != u
    }
    sides = {(a // size, b // size) for a, b in track_units}
    assert ns == ((0, 2) in sides)
    assert we == ((1, 3) in sides)
