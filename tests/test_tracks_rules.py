"""Track Tiles rules: tile joins, path tracing, the win rule, dice and notation."""

from __future__ import annotations

import json
import random

import pytest

import taut
from taut.core.errors import IllegalActionError, MalformedActionError, PositionError
from taut.core.record import GameRecord
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.games.tracks import Tracks, TracksState, cell_name, parse_cell
from taut.games.tracks.heuristic import distance
from taut.games.tracks.paths import exit_unit, matching, trace, tracks, tracks_through
from taut.games.tracks.render import render_state
from taut.games.tracks.tiles import (
    JOIN,
    E,
    N,
    S,
    W,
    roll_to_kind,
    solitaire_kind,
    unit_id,
    unit_name,
)

# Expected joins, written out from the rules rather than from the JOIN table.
EXPECTED = {
    1: {N: W, W: N, E: S, S: E},
    2: {N: E, E: N, S: W, W: S},
    3: {N: S, S: N, E: W, W: E},
}


@pytest.mark.parametrize("kind", [1, 2, 3])
@pytest.mark.parametrize("side", [N, E, S, W])
def test_each_kind_from_each_side_on_a_single_cell(kind: int, side: int) -> None:
    # On a 1x1 board the four units are the four sides of the one cell.
    board = (kind,)
    assert exit_unit(board, 1, unit_id(1, side, 0)) == unit_id(1, EXPECTED[kind][side], 0)
    assert JOIN[kind][side] == EXPECTED[kind][side]


@pytest.mark.parametrize("kind", [1, 2, 3])
@pytest.mark.parametrize("side", [N, E, S, W])
def test_each_kind_from_each_side_in_the_middle_of_a_board(kind: int, side: int) -> None:
    # The centre of a 3x3 board with kind-3 crossings around it: the path entering the
    # centre from `side` goes straight through a neighbour and leaves by the unit beyond.
    board = [3] * 9
    board[4] = kind
    start = unit_id(3, side, 1)
    end = exit_unit(board, 3, start)
    assert end == unit_id(3, EXPECTED[kind][side], 1)
    t = trace(board, 3, start)
    assert [cell for cell, _, _ in t.segments] == [
        {N: 1, S: 7, W: 3, E: 5}[side],
        4,
        {N: 1, S: 7, W: 3, E: 5}[EXPECTED[kind][side]],
    ]


def test_paths_stop_at_empty_cells() -> None:
    board = (3, 0, 0, 0)
    assert exit_unit(board, 2, unit_id(2, N, 0)) is None
    t = trace(board, 2, unit_id(2, N, 0))
    assert t.end_unit is None and t.stop_cell == 2
    assert exit_unit(board, 2, unit_id(2, W, 0)) is None


@pytest.mark.parametrize("size", range(2, 9))
def test_the_all_kind_1_board_has_no_track(size: int) -> None:
    board = (1,) * (size * size)
    assert tracks(board, size) == (False, False)
    # Every path joins a top or left unit to a left or top unit, or bottom to right.
    for u, v in enumerate(matching(board, size)):
        assert v is not None
        sides = {unit_name(size, u)[0], unit_name(size, v)[0]}
        assert sides in ({"N", "W"}, {"S", "E"}), (unit_name(size, u), unit_name(size, v))


def test_full_board_of_kind_1_is_a_draw() -> None:
    game = Tracks(size=3)
    rows = ["111", "111", "111"]
    state = game.state_from_json({"board": rows, "first": "NS", "tiles": {"NS": 1, "WE": 2}})
    assert state.is_terminal() and state.outcome is not None
    assert state.outcome.is_draw and state.outcome.reason.name == "full"
    assert state.returns() == (0.0, 0.0)


def test_all_kind_3_columns_make_tracks() -> None:
    board = (3,) * 9
    assert tracks(board, 3) == (True, True)


# A 3x3 position where kind 3 on the centre completes both tracks at once.
DOUBLE = ["131", "3.3", "131"]


@pytest.mark.parametrize("first", ["NS", "WE"])
def test_double_completion_wins_for_the_placer(first: str) -> None:
    game = Tracks(size=3, first=first)
    state = game.state_from_json({"board": DOUBLE, "first": first, "tiles": {"NS": 3, "WE": 3}})
    assert state.kind is NodeKind.DECISION
    placer = state.acting_seats()[0]
    assert placer == (0 if first == "NS" else 1)  # eight tiles placed: the first player again
    assert tracks(state.board, 3) == (False, False)
    after = state.apply(state.string_to_action(placer, "b2"))
    assert isinstance(after, TracksState)
    assert tracks_through(after.board, 3, 4) == (True, True)
    assert after.outcome is not None
    assert after.outcome.winners == (placer,) and after.outcome.reason.name == "both"
    # Rebuilt from JSON, the same verdict.
    again = game.state_from_json(json.loads(json.dumps(after.to_json())))
    assert again.outcome == after.outcome


def test_completing_the_opponents_track_makes_the_opponent_win() -> None:
    # Column b is joined except b3; NS's path is done by WE's placing kind 3 there.
    game = Tracks(size=3, first="WE")
    state = game.state_from_json(
        {"board": ["131", "131", "2.1"], "first": "WE", "tiles": {"NS": 1, "WE": 3}}
    )
    assert state.acting_seats() == (1,)
    after = state.apply(parse_cell(3, "b3"))
    assert after.outcome is not None and after.outcome.winners == (0,)
    assert after.outcome.reason.name == "track"


def test_die_faces_give_kinds_by_the_rules() -> None:
    assert [roll_to_kind(f) for f in range(1, 7)] == [2, 3, 1, 2, 3, 1]
    assert [solitaire_kind(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_roll_once_steps_each_players_kind() -> None:
    game = Tracks(size=4)
    state = game.new_initial_state()
    assert state.kind is NodeKind.CHANCE and state.chance_outcomes()[0] == (0, 1 / 6)
    state = state.apply(state.string_to_action(CHANCE_SEAT, "3"))  # NS: 3 mod 3 + 1 = 1
    state = state.apply(state.string_to_action(CHANCE_SEAT, "5"))  # WE: 5 mod 3 + 1 = 3
    assert isinstance(state, TracksState)
    assert state.kinds == (1, 3)
    seen = []
    for cell in ("a1", "a2", "b1", "b2", "c1", "c2", "d1"):
        seat = state.acting_seats()[0]
        seen.append((seat, state.kinds[seat]))
        state = state.apply(state.string_to_action(seat, cell))
    assert seen == [(0, 1), (1, 3), (0, 2), (1, 1), (0, 3), (1, 2), (0, 1)]


def test_roll_each_rolls_before_every_placement() -> None:
    game = Tracks(size=3, roll="each", first="WE")
    state = game.new_initial_state()
    assert state.kind is NodeKind.CHANCE and state.rolling_seat() == 1
    state = state.apply(1)  # face 2 -> kind 3
    assert isinstance(state, TracksState) and state.kinds == (0, 3)
    state = state.apply({1: parse_cell(3, "a1")})
    assert isinstance(state, TracksState)
    assert state.kinds == (0, 0) and state.rolling_seat() == 0
    assert game.info.max_game_length == 9 + 9


def test_first_random_flips_a_coin() -> None:
    game = Tracks(size=3, first="random")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(CHANCE_SEAT, 1) == "WE"
    state = state.apply(state.string_to_action(CHANCE_SEAT, "we"))
    assert isinstance(state, TracksState) and state.first == 1
    assert game.info.max_game_length == 1 + 2 + 9


def test_cell_notation_round_trips_and_is_forgiving() -> None:
    for size in (2, 6, 12):
        for cell in range(size * size):
            assert parse_cell(size, cell_name(size, cell)) == cell
    assert parse_cell(6, "C3") == parse_cell(6, "3c") == parse_cell(6, " c 3 ") == 14
    for bad in ("z9", "c", "c0", "g1", "33", ""):
        with pytest.raises(MalformedActionError):
            parse_cell(6, bad)


def test_action_json_forms() -> None:
    game = Tracks(size=5)
    state = game.state_from_json(
        {"board": ["....."] * 5, "first": "NS", "tiles": {"NS": 2, "WE": 1}}
    )
    a = parse_cell(5, "d2")
    assert state.action_to_json(0, a) == {"cell": "d2", "row": 1, "col": 3}
    assert state.action_from_json(0, {"row": 1, "col": 3}) == a
    assert state.action_from_json(0, "d2") == a
    with pytest.raises(MalformedActionError):
        state.action_from_json(0, {"row": 7, "col": 0})


def test_illegal_placements_are_refused_with_reasons() -> None:
    game = Tracks(size=3)
    state = game.state_from_json(
        {"board": ["1..", "...", "..."], "first": "NS", "tiles": {"NS": 2, "WE": 1}}
    )
    assert state.acting_seats() == (1,)
    with pytest.raises(IllegalActionError, match="already holds a tile"):
        state.apply(0)
    with pytest.raises(IllegalActionError, match="WE"):
        state.apply({0: 1})
    assert not state.is_legal(0, 1)
    assert "not NS's turn" in state.illegal_reason(0, 1)


def test_bad_positions_are_refused() -> None:
    game = Tracks(size=3)
    cases = [
        ({"board": ["..."]}, "3 rows"),
        ({"board": ["...", "..4", "..."]}, "not a kind"),
        ({"board": ["1..", "...", "..."], "first": None}, "first=NS"),
        ({"board": ["...", "...", "..."], "first": "XY"}, "NS, WE or null"),
        ({"board": ["...", "...", "..."], "first": "NS", "last": "a1"}, "empty"),
        ({"board": ["...", "...", "..."], "tiles": {"NS": 4}}, "1, 2, 3 or null"),
    ]
    for data, why in cases:
        with pytest.raises(PositionError, match=why):
            game.state_from_json(data)
    coin = Tracks(size=3, first="random")
    with pytest.raises(PositionError, match="not decided"):
        coin.state_from_json({"board": ["1..", "...", "..."]})


def test_options_are_checked() -> None:
    assert isinstance(taut.make("tracks"), Tracks)  # registered under its CLI name
    with pytest.raises(ValueError, match="size"):
        taut.make("tracks", size=13)
    with pytest.raises(ValueError, match="roll"):
        Tracks(roll="twice")
    game = Tracks()
    assert isinstance(game, Tracks)
    assert game.info.num_distinct_actions == 36 and game.info.max_game_length == 2 + 36


def test_distance_heuristic() -> None:
    empty = (0,) * 16
    assert distance(empty, 4, 0) == 4 and distance(empty, 4, 1) == 4
    board = list(empty)
    board[1] = board[5] = 3  # column b: two straight tiles from the top
    assert distance(board, 4, 0) == 2
    assert distance((1,) * 16, 4, 0) == 17  # no track possible: size * size + 1
    game = Tracks(size=4)
    s = game.state_from_json(
        {"board": ["3...", "3...", "....", "...."], "first": "NS", "tiles": {"NS": 1, "WE": 1}}
    )
    ns, we = game.heuristic(s)
    assert ns > 0 > we and ns == -we


def test_draw_by_agreement_round_trips() -> None:
    game = Tracks(size=3)
    state = game.new_initial_state().apply(0).apply(0).apply(4)
    assert isinstance(state, TracksState)
    agreed = state.end_by_agreement()
    assert agreed.outcome is not None and agreed.outcome.reason.name == "agreement"
    again = game.state_from_json(json.loads(json.dumps(agreed.to_json())))
    assert again == agreed


def test_record_replays_and_render_highlights_the_winner() -> None:
    game = Tracks(size=4, first="random", roll="each")
    rng = random.Random(5)
    state = game.new_initial_state()
    record = GameRecord.start(game)
    while not state.is_terminal():
        joint = state.random_joint(rng)
        record.add(state, joint)
        state = state.apply(joint)
    record.finish(state)
    assert GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay() == state
    text = render_state(state)
    assert "a    b    c    d" in text and state.describe_outcome() in text
    marked = render_state(state, markup=True)
    out = state.outcome
    assert out is not None
    if out.winners:
        # The winning track is bold in the winner's colour (blue for NS, vermillion for WE).
        colour = ("#0072B2", "#D55E00")[out.winners[0]]
        assert f"[bold {colour}]╰" in marked or f"[bold {colour}]─" in marked


@pytest.mark.parametrize("roll", ["once", "each"])
def test_greedy_beats_random(roll: str) -> None:
    from taut.agents import GreedyAgent, RandomAgent
    from taut.arena.match import play_match

    game = Tracks(size=5, roll=roll, first="random")
    wins = losses = 0
    for i in range(12):
        seat = i % 2
        agents = [GreedyAgent(), RandomAgent()] if seat == 0 else [RandomAgent(), GreedyAgent()]
        out = play_match(game, agents, seed=i).state.outcome
        assert out is not None
        wins += out.winners == (seat,)
        losses += out.winners == (1 - seat,)
    assert wins >= 9 and losses <= 1, (wins, losses)
