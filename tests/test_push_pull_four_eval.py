"""The four-sided Push-Pull evaluation (exact values against random play) and ``hard``."""

from __future__ import annotations

import random

import pytest

from taut.agents.levels import level_agent
from taut.agents.reply import ReplyAgent
from taut.core.game import State
from taut.games.push_pull.board import OFF, SIZE
from taut.games.push_pull.evaluation import (
    FloatArray,
    _state_index,
    evaluate_board,
    unit_value,
    unit_values,
)
from taut.games.push_pull.rules import PushPull
from taut.games.push_pull.solve.random_reply import reply_to_random
from taut.games.push_pull.variants import Layout, layout

N, E, S, W = range(4)


def sq(row: int, col: int) -> int:
    return row * SIZE + col


def turn(square: int) -> int:
    """A quarter turn clockwise (North's edge to East's)."""
    row, col = divmod(square, SIZE)
    return col * SIZE + (SIZE - 1 - row)


def loc_turn(loc: int) -> int:
    return turn(loc) if loc < OFF else OFF + (loc - OFF + 1) % 4


POSITIONS = [
    (sq(2, 2), sq(2, 2), sq(2, 2)),
    (sq(0, 2), sq(4, 2), sq(2, 0)),
    (sq(1, 3), OFF + N, sq(3, 3)),
    (OFF + E, sq(0, 0), OFF + S),
    (sq(4, 4), sq(2, 1), OFF + W),
]


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_four_matches_random_reply_for_every_seat(seat: int) -> None:
    # The rotated table of North read for another seat equals that seat's own solution.
    lay = layout("four")
    solved = reply_to_random("four", seats=(seat,)).values
    table = unit_values("four", shared=0.0)
    ours, theirs = 25, 26
    for locs in POSITIONS:
        idx = tuple(
            loc if loc < OFF else ours if lay.exit_unit(loc - OFF) == seat else theirs
            for loc in locs
        )
        assert unit_value_with(table, lay, seat, locs) == pytest.approx(solved[idx], abs=1e-5)


def unit_value_with(table: FloatArray, lay: Layout, unit: int, locs: tuple[int, ...]) -> float:
    """``unit``'s value read from unit 0's ``table`` through the board's rotation."""
    index = _state_index(lay)[unit]
    return float(table[index[locs[0]], index[locs[1]], index[locs[2]]])


def test_hand_checked_values_in_four() -> None:
    lay = layout("four")
    # Two pieces scored by others, the last one on North's edge: North's best reply
    # pulls it, and it leaves by North unless the random seats' arrows move it elsewhere.
    edge = unit_value(lay, N, (OFF + E, OFF + S, sq(0, 2)))
    far = unit_value(lay, N, (OFF + E, OFF + S, sq(4, 2)))
    assert -1.0 < far < edge < 1.0
    # With pieces at the centre every seat has the same value, by symmetry.
    start = (sq(2, 2),) * 3
    values = evaluate_board(lay, start, None, (0.0,) * 4)
    assert max(values) - min(values) < 1e-9


@pytest.mark.parametrize("locs", POSITIONS)
def test_four_is_symmetric_under_rotation(locs: tuple[int, int, int]) -> None:
    lay = layout("four")
    turned = tuple(loc_turn(loc) for loc in locs)
    for seat in range(4):
        assert unit_value(lay, (seat + 1) % 4, turned) == pytest.approx(
            unit_value(lay, seat, locs), abs=1e-9
        )


def test_teams_are_symmetric_under_half_turn() -> None:
    lay = layout("four-teams")
    locs = (sq(0, 1), sq(3, 4), OFF + N)
    half = tuple(loc_turn(loc_turn(loc)) for loc in locs)
    assert unit_value(lay, 1, half) == pytest.approx(unit_value(lay, 0, locs), abs=1e-9)
    # A team one piece up with another on its side leads; its rival trails.
    ours = unit_value(lay, 0, locs)
    assert ours > 0 > unit_value(lay, 1, locs)


def test_two_teams_matches_random_reply() -> None:
    solved = reply_to_random("two-teams", seats=(0,)).values
    lay = layout("two-teams")
    for locs in [(sq(2, 2),) * 3, (sq(0, 4), OFF + N, sq(4, 0))]:
        idx = tuple(
            loc if loc < OFF else 25 if lay.exit_unit(loc - OFF) == 0 else 26 for loc in locs
        )
        assert unit_value(lay, 0, locs) == pytest.approx(solved[idx], abs=1e-5)


def test_game_heuristic_uses_the_table_on_the_board_only() -> None:
    game = PushPull(variant="four")
    state = game.state_from_json({"pieces": {"L": [0, 2], "M": [2, 2], "S": [4, 2]}})
    lay = game.layout
    assert game.heuristic(state) == pytest.approx(
        tuple(unit_value(lay, s, state.locs) for s in range(4))
    )
    duel = PushPull()
    values = duel.heuristic(duel.new_initial_state())
    assert values == (0.0, 0.0)


@pytest.mark.parametrize("variant", ["four", "four-teams", "two-teams"])
def test_hard_plays_a_legal_move(variant: str) -> None:
    game = PushPull(variant=variant)
    state = game.new_initial_state()
    rng = random.Random(3)
    for seat in range(game.info.num_seats):
        agent = level_agent("hard", game, think=0.05)
        action = agent.act(state, seat, rng)
        assert action in state.legal_actions(seat)


def test_reply_learns_that_rivals_play_at_random() -> None:
    game = PushPull(variant="four")
    agent = ReplyAgent(think=0.02)
    rng = random.Random(7)
    state: State = game.new_initial_state()
    for _ in range(4):
        if state.is_terminal():
            break
        joint = {s: rng.choice(state.legal_actions(s)) for s in range(1, 4)}
        joint[0] = agent.act(state, 0, rng)
        state = state.apply(joint)
    assert agent.share < 0.05
