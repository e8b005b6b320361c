"""The two-player Track Tiles solver (``taut.games.tracks.solve``) against the readable rules.

The compact board's tracks, the reachability bound and dead cells, the symmetries the solver
relies on, the search against plain minimax over :class:`~taut.games.tracks.rules.Tracks`,
the compiled kernel against the Python one, the shipped data against the search, the
``taut solve tracks`` command and the perfect agent.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from functools import cache
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from taut.agents.perfect import PerfectAgent
from taut.cli import cli
from taut.core.registry import plugin_of
from taut.core.terms import CHANCE_SEAT
from taut.games.tracks.cells import NS, WE
from taut.games.tracks.paths import track_traces, tracks
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.solve import kernel
from taut.games.tracks.solve.book import (
    SYMMETRIES,
    book_moves,
    image,
    position_key,
    shipped,
)
from taut.games.tracks.solve.model import (
    half_turn,
    mirror,
    next_kind,
    place,
    start_ends,
    tables,
    transpose,
)
from taut.games.tracks.solve.report import stored_results
from taut.games.tracks.solve.search import Position, Solver, first_kinds

runner = CliRunner()

#: The die face that gives each kind (face mod 3 + 1 = kind).
FACE = {1: 3, 2: 1, 3: 2}
FIRST = {"NS": NS, "WE": WE}


def vec(values: object) -> Any:
    """``values`` as the kernel takes them: int64 arrays when it is compiled, else lists."""
    assert isinstance(values, (list, tuple))
    return np.asarray(values, dtype=np.int64) if kernel.COMPILED else list(values)


def rolled(size: int, ns_kind: int, we_kind: int, first: str = "NS") -> TracksState:
    """The start of a ``roll=once`` game after both rolls."""
    state = Tracks(size=size, first=first).new_initial_state()
    for kind in (ns_kind, we_kind):
        state = state.apply({CHANCE_SEAT: FACE[kind] - 1})
    assert state.kinds == (ns_kind, we_kind)
    return state


def position(state: TracksState) -> Position:
    mover = state.to_move()
    assert mover is not None
    return Position(state.game.size, state.board, state.kinds, mover)


def random_partial_boards(size: int, count: int, seed: int) -> list[TracksState]:
    """Positions of random games (not over), stopped after a random number of tiles."""
    rng = random.Random(seed)
    out: list[TracksState] = []
    while len(out) < count:
        state = rolled(size, rng.randint(1, 3), rng.randint(1, 3), rng.choice(["NS", "WE"]))
        stop = rng.randrange(size * size)
        for _ in range(stop):
            mover = state.to_move()
            assert mover is not None
            nxt = state.place(mover, rng.choice(list(state.legal_actions(mover))))
            if nxt.is_terminal():
                break
            state = nxt
        out.append(state)
    return out


# -- the compact board against the rules -----------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_compact_tracks_match_the_rules_move_by_move(size: int) -> None:
    rng = random.Random(size)
    t = tables(size)
    strands, tags, bits_table = vec(t.strands), vec(t.tags), vec(t.track_bits)
    undo = vec([0] * 8)
    for _ in range(60):
        state = rolled(size, rng.randint(1, 3), rng.randint(1, 3))
        ends = start_ends(t, state.board)
        kernel_ends = vec(ends)
        while not state.is_terminal():
            mover = state.to_move()
            assert mover is not None
            cell = rng.choice(list(state.legal_actions(mover)))
            kind = state.kinds[mover]
            before = list(kernel_ends)
            tried = kernel.trial(kernel_ends, strands, tags, bits_table, cell, kind)
            made = kernel.place(kernel_ends, strands, tags, bits_table, cell, kind, undo, 0)
            kernel.unplace(kernel_ends, undo, 0)
            # trial, and place then unplace, leave the ends as they were.
            assert list(kernel_ends) == before
            kernel.place(kernel_ends, strands, tags, bits_table, cell, kind, undo, 0)
            bits = place(t, ends, cell, kind)
            assert list(kernel_ends) == ends
            state = state.place(mover, cell)
            ns, we = tracks(state.board, size)
            assert bits == tried == made == (1 if ns else 0) | (2 if we else 0)


@pytest.mark.parametrize("size", [2, 3])
def test_reachability_is_sound_and_dead_cells_are_never_on_a_track(size: int) -> None:
    t = tables(size)
    cells = size * size
    parent = vec([0] * (cells + t.units))
    flags = vec([0] * (cells + t.units))
    for state in random_partial_boards(size, 80, seed=size):
        board = state.board
        ends = start_ends(t, board)
        can = kernel.reachable(vec(board), vec(ends), vec(t.side_edge), vec(t.edge_cells),
                               vec(t.tags), cells, t.units, parent, flags)  # fmt: skip
        dead = {c for c in range(cells) if board[c] == 0 and not kernel.live(parent, flags, c)}
        empty = [c for c in range(cells) if board[c] == 0]
        seen = 0
        for kinds in itertools.product((1, 2, 3), repeat=len(empty)):
            full = list(board)
            for c, k in zip(empty, kinds, strict=True):
                full[c] = k
            for axis in (0, 1):
                for trace in track_traces(full, size, axis):
                    seen |= 1 << axis
                    assert not dead & {cell for cell, _, _ in trace.segments}
        assert seen & ~can == 0, (state.board_rows(), seen, can)


def test_reachability_finds_a_cut() -> None:
    # Row 2 of kind 3 everywhere but the middle, a kind 1 there: N to S still open through
    # the straight tiles; a full row of kind 1 curves send every path back.
    t = tables(3)
    parent = vec([0] * (9 + t.units))
    flags = vec([0] * (9 + t.units))
    board = (0, 0, 0, 1, 1, 1, 0, 0, 0)
    can = kernel.reachable(vec(board), vec(start_ends(t, board)), vec(t.side_edge),
                           vec(t.edge_cells), vec(t.tags), 9, t.units, parent, flags)  # fmt: skip
    ns_possible = any(tracks(full, 3)[0] for full in _fillings(board))
    assert bool(can & 1) == ns_possible


def _fillings(board: tuple[int, ...]) -> list[list[int]]:
    empty = [c for c, k in enumerate(board) if k == 0]
    out = []
    for kinds in itertools.product((1, 2, 3), repeat=len(empty)):
        full = list(board)
        for c, k in zip(empty, kinds, strict=True):
            full[c] = k
        out.append(full)
    return out


# -- symmetries against the rules -------------------------------------------------------------


def test_half_turn_keeps_tracks_and_transpose_swaps_them() -> None:
    rng = random.Random(5)
    for size in (2, 3, 4, 5):
        for _ in range(200):
            board = tuple(rng.choice((0, 1, 2, 3)) for _ in range(size * size))
            ns, we = tracks(board, size)
            assert tracks(half_turn(size, board), size) == (ns, we)
            assert tracks(transpose(size, board), size) == (we, ns)
            # Mirroring with kinds 1 and 2 swapped keeps the picture's tracks ...
            assert tracks(mirror(size, board), size) == (ns, we)


def test_mirror_is_no_symmetry_of_the_game() -> None:
    # ... but it turns the sequence 1 -> 2 -> 3 -> 1 around, so no game maps to itself.
    swap = {1: 2, 2: 1, 3: 3}
    assert any(swap[next_kind(k)] != next_kind(swap[k]) for k in (1, 2, 3))


def test_symmetric_positions_have_equal_values() -> None:
    for state in random_partial_boards(4, 40, seed=11):
        if state.placed() < 6:
            continue  # the first few plies of 4x4 take seconds each
        pos = position(state)
        values = {Solver(4, tt_bits=16).value(image(pos, m, s)) for m, s in SYMMETRIES}
        assert len(values) == 1


@pytest.mark.parametrize("size", [2, 3])
def test_first_we_games_are_transposed_first_ns_games(size: int) -> None:
    solver = Solver(size)
    for a, b in first_kinds():
        we_first = solver.solve_start(a, b, WE)
        ns_first = solver.solve_start(b, a, NS)
        assert we_first.value == -ns_first.value


# -- the search against plain minimax -------------------------------------------------------


def minimax(state: TracksState, memo: dict[tuple[object, ...], int]) -> int:
    """The value to NS by the readable rules, every move tried."""
    if state.is_terminal():
        return int(state.returns()[0])
    key = (state.board, state.kinds, state.to_move())
    if key not in memo:
        mover = state.to_move()
        assert mover is not None
        values = [minimax(state.place(mover, c), memo) for c in state.legal_actions(mover)]
        memo[key] = max(values) if mover == NS else min(values)
    return memo[key]


def to_ns(value: int, mover: int) -> int:
    return value if mover == NS else -value


def test_positions_sharing_a_key_share_their_value_by_the_rules() -> None:
    # A key leaves the tiles out (only where the live cells' sides lead, the dead cells'
    # number, the hands and the mover): every 3x3 position of random games that shares a
    # key with another must have the same value to the mover by plain minimax.
    memo: dict[tuple[object, ...], int] = {}
    solver = Solver(3)
    groups: dict[int, set[tuple[int, ...]]] = {}
    values: dict[int, int] = {}
    for state in random_partial_boards(3, 3000, seed=11):
        if state.is_terminal():
            continue
        pos = position(state)
        k1, k2 = solver.keys(pos)
        key = min(k1, k2)
        value = to_ns(minimax(state, memo), pos.mover)
        # The half turn's key is the other one of the pair.
        turned = Position(3, half_turn(3, pos.board), pos.hands, pos.mover)
        assert sorted(solver.keys(turned)) == sorted((k1, k2))
        assert values.setdefault(key, value) == value, (pos, value, values[key])
        groups.setdefault(key, set()).add(pos.board)
    # Different boards do share keys (else the key would be the board again).
    shared = [g for g in groups.values() if len(g) > 1]
    assert len(shared) >= 50, len(shared)


def test_keys_tell_apart_positions_with_different_futures() -> None:
    # Same empty cells, different tiles around them: a piece that leads to the border
    # differs from one that leads back to a side of another empty cell.
    solver = Solver(3)
    a = Position(3, (1, 0, 0, 0, 0, 0, 0, 0, 0), (2, 1), WE)
    b = Position(3, (3, 0, 0, 0, 0, 0, 0, 0, 0), (2, 1), WE)
    c = Position(3, (3, 0, 0, 0, 0, 0, 0, 0, 0), (2, 2), WE)
    d = Position(3, (3, 0, 0, 0, 0, 0, 0, 0, 0), (2, 2), NS)
    keys = {min(solver.keys(p)) for p in (a, b, c, d)}
    assert len(keys) == 4


@pytest.mark.parametrize(("size", "first"), [(2, "NS"), (2, "WE"), (3, "NS")])
def test_search_matches_minimax_from_the_start(size: int, first: str) -> None:
    memo: dict[tuple[object, ...], int] = {}
    solver = Solver(size)
    seat = NS if first == "NS" else WE
    for a, b in first_kinds():
        state = rolled(size, a, b, first)
        expected = minimax(state, memo)
        sol = solver.solve_start(a, b, seat)
        assert sol.value == expected
        # The move it gives keeps that value.
        after = state.place(seat, sol.move)
        assert minimax(after, memo) == expected


def test_search_matches_minimax_on_4x4_middle_games() -> None:
    memo: dict[tuple[object, ...], int] = {}
    solver = Solver(4)
    rng = random.Random(44)
    checked = 0
    for state in random_partial_boards(4, 60, seed=4):
        if state.placed() < 8 or 0 in state.kinds:
            continue
        pos = position(state)
        assert to_ns(solver.value(pos), pos.mover) == minimax(state, memo)
        values = solver.move_values(pos)
        cell = rng.choice(sorted(values))
        assert to_ns(values[cell], pos.mover) == minimax(state.place(pos.mover, cell), memo)
        v, best = solver.best_moves(pos)
        assert best and all(values[c] == v for c in best)
        assert all(values[c] < v for c in values if c not in best)
        checked += 1
    assert checked >= 10


def test_compiled_and_python_kernels_agree() -> None:
    # One process with TAUT_NO_NUMBA=1 (plain Python on lists), compared with this one.
    code = (
        "import json; from taut.games.tracks.solve.search import Solver, first_kinds;"
        "s = Solver(3);"
        "r = [s.solve_start(a, b) for a, b in first_kinds()];"
        "print(json.dumps([s.compiled] + [[x.value, x.move, x.nodes] for x in r]))"
    )
    env = dict(os.environ, TAUT_NO_NUMBA="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    python = json.loads(out.stdout)
    assert python[0] is False
    solver = Solver(3)
    sols = [solver.solve_start(a, b) for a, b in first_kinds()]
    here = [[x.value, x.move, x.nodes] for x in sols]
    assert python[1:] == here


# -- the shipped data ------------------------------------------------------------------------


@cache
def _stored(size: int) -> dict[tuple[int, int], dict[str, int]]:
    entry = shipped(size)
    assert entry is not None
    return {(s["ns"], s["we"]): s for s in entry["starts"]}


@pytest.mark.parametrize("size", [2, 3])
def test_shipped_small_boards_match_the_search(size: int) -> None:
    solver = Solver(size)
    for a, b in first_kinds():
        sol = solver.solve_start(a, b)
        stored = _stored(size)[(a, b)]
        got = (sol.value, sol.move, sol.nodes)
        assert (stored["value"], stored["move"], stored["nodes"]) == got


def test_shipped_4x4_quick_games_and_book_match_the_search() -> None:
    solver = Solver(4)
    # The two quickest of the nine (a few million nodes each); all nine: the slow test.
    for a, b in [(1, 3)]:
        sol = solver.solve_start(a, b)
        assert _stored(4)[(a, b)]["value"] == sol.value
    entry = shipped(4)
    assert entry is not None
    rng = random.Random(3)
    book = entry["book"]
    replies = [k for k in book if k.count(".") == 15]
    for key in rng.sample(replies, 2):
        pos = _from_key(4, key)
        v = solver.value(pos)
        assert all(solver.move_value(pos, m, v - 1, v) >= v for m in book[key])


@pytest.mark.slow
def test_shipped_4x4_games_match_the_search() -> None:
    solver = Solver(4)
    for a, b in first_kinds():
        sol = solver.solve_start(a, b)
        stored = _stored(4)[(a, b)]
        assert (stored["value"], stored["move"]) == (sol.value, sol.move)
        pos = Position.start(4, a, b, NS)
        entry = shipped(4)
        assert entry is not None
        assert solver.best_moves(pos)[1] == entry["book"][position_key(pos)]


def _from_key(size: int, key: str) -> Position:
    board, hands, mover = key.split("/")
    return Position(
        size,
        tuple(0 if ch == "." else int(ch) for ch in board),
        (int(hands[0]), int(hands[1])),
        0 if mover == "NS" else 1,
    )


def test_book_answers_symmetric_positions() -> None:
    entry = shipped(4)
    assert entry is not None
    book = entry["book"]
    start = Position.start(4, 2, 3, WE)  # a first=WE game: the transpose of a stored one
    moves = book_moves(book, start)
    assert moves
    value_ns = {(r.ns_kind, r.we_kind): r.value for r in stored_results(4, WE)}[(2, 3)]
    v = -value_ns  # to WE, who moves
    assert Solver(4).move_value(start, moves[0], v - 1, v) >= v


# -- the command ----------------------------------------------------------------------------


def test_solve_command_json() -> None:
    r = runner.invoke(cli, ["solve", "tracks", "--size", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["size"] == 2 and data["roll"] == "once" and data["first"] == "NS"
    assert len(data["games"]) == 9
    memo: dict[tuple[object, ...], int] = {}
    names = {1: "NS win", 0: "draw", -1: "WE win"}
    for g in data["games"]:
        assert set(g) == {"ns_kind", "we_kind", "value", "winner", "move", "move_id", "nodes",
                          "seconds", "solved", "lo", "hi"}  # fmt: skip
        assert g["solved"] and g["lo"] == g["hi"]
        value = minimax(rolled(2, g["ns_kind"], g["we_kind"]), memo)
        assert g["value"] == names[value]
        assert g["winner"] == {1: "NS", 0: None, -1: "WE"}[value]


def test_solve_command_text_and_stored() -> None:
    r = runner.invoke(cli, ["solve", "tracks", "--size", "3"])
    assert r.exit_code == 0, r.output
    assert "NS win" in r.stdout and "draw" in r.stdout and "b2" in r.stdout
    stored = runner.invoke(cli, ["solve", "tracks", "--size", "4", "--stored", "--first", "WE"])
    assert stored.exit_code == 0, stored.output
    assert "WE places first" in stored.stdout and "shipped results" in stored.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "6"], "out of this solver's reach"),
        (["--size", "13"], "--size must be 2..12"),
        (["--size", "1"], "--size must be 2..12"),
        (["--roll", "each"], "only --roll once is solved"),
        (["--first", "random"], "--first"),
    ],
)
def test_solve_command_refuses_bad_options(args: list[str], message: str) -> None:
    r = runner.invoke(cli, ["solve", "tracks", *args])
    assert r.exit_code == 2
    assert message in r.output


# -- the perfect agent ----------------------------------------------------------------------


def test_exact_policy_only_for_solved_boards() -> None:
    plugin = plugin_of(Tracks())
    assert plugin.exact_policy(Tracks(size=6)) is None
    assert plugin.exact_policy(Tracks(size=3, roll="each")) is None
    assert plugin.exact_policy(Tracks(size=4)) is not None


@pytest.mark.parametrize(("size", "games"), [(3, 18), (4, 4)])
def test_perfect_agent_keeps_the_value_against_random_play(size: int, games: int) -> None:
    rng = random.Random(size)
    agent = PerfectAgent()
    for g in range(games):
        a, b = rng.randint(1, 3), rng.randint(1, 3)
        first = rng.choice(["NS", "WE"])
        state = rolled(size, a, b, first)
        seat = g % 2
        # The start's value to NS, as shipped (checked against the search above).
        value_ns = {(r.ns_kind, r.we_kind): r.value for r in stored_results(size, FIRST[first])}
        value = value_ns[(a, b)] * (1 if seat == NS else -1)
        while not state.is_terminal():
            mover = state.to_move()
            assert mover is not None
            if mover == seat:
                cell = agent.act(state, seat, rng)
            else:
                cell = rng.choice(list(state.legal_actions(mover)))
            state = state.place(mover, cell)
        result = int(state.returns()[seat])
        assert result >= value, (size, a, b, first, seat, value, state.board_rows())
