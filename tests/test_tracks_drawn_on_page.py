"""The Track Tiles board the page draws from plain data (``taut/games/tracks/table.js``,
from :func:`taut.games.tracks.table_data.table_data`) is the server's picture
(:func:`taut.games.tracks.svg.board_svg`), byte for byte, at every node of many random
games: every board size, the coin and the roll before every placement, draws agreed,
each seat with its legal placements and the live picture that offers every empty cell.
All the drawing runs in one ``node`` process; without ``node`` these tests are skipped,
saying so. The data is plain JSON, holds no markup, and stays small."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from taut.core.forfeit import drawable, forfeit
from taut.core.game import State
from taut.core.registry import make, plugin
from taut.games.tracks.rules import TracksState
from taut.games.tracks.table_data import table_data
from tests.page_drawing import THROWN, Drawn, assert_drawn_alike, draw_on_page

MODULE = Path(__file__).resolve().parents[1] / "src/taut/games/tracks/table.js"
#: What goes unchecked without ``node``.
WHAT = "the page's Track Tiles drawing"

#: Games played per option set: every board size, the options that change the picture
#: (a coin for the first player, a roll before every placement, WE first).
CONFIGS: list[tuple[dict[str, Any], int]] = [
    ({"size": 2}, 4),
    ({"size": 3}, 4),
    ({"size": 4}, 4),
    ({"size": 5, "roll": "each"}, 2),
    ({"size": 6}, 3),
    ({"size": 6, "first": "random"}, 2),
    ({"size": 6, "first": "WE", "roll": "each"}, 1),
    ({"size": 7}, 1),
    ({"size": 8}, 2),
    ({"size": 8, "first": "random", "roll": "each"}, 1),
    ({"size": 9}, 1),
    ({"size": 10}, 1),
    ({"size": 11}, 1),
    ({"size": 12}, 1),
]
#: The seed of the random games.
SEED = 2024


@dataclass(frozen=True)
class Case:
    """One picture: what it is of, the server's picture and the data the page gets."""

    what: str
    picture: str
    data: dict[str, Any]


def _frames(state: State, rng: random.Random) -> Iterator[tuple[State, int | None, list[str]]]:
    """What the server and its callers draw of one node: the live picture (no seat, no
    moves) and each seat's, with its legal placements when it places."""
    yield drawable(state), None, []
    for seat in (0, 1):
        acting = seat in state.acting_seats()
        legal = [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
        view = drawable(state if state.is_terminal() else state.view(seat))
        yield view, seat, legal if acting else []
    if state.acting_seats() and rng.random() < 0.1:
        # A forfeit is drawn as the position stood.
        yield drawable(forfeit(state, rng.randrange(2))), None, []


def _games(seed: int) -> Iterator[tuple[str, State, int | None, list[str]]]:
    """Every frame of every node of the random games of :data:`CONFIGS`; now and then a
    game ends in a draw agreed at a placement."""
    rng = random.Random(seed)
    for options, games in CONFIGS:
        for game in range(games):
            state: State = make("tracks", **options).new_initial_state()
            node = 0
            while True:
                what = f"{options} game {game} node {node}"
                for view, seat, legal in _frames(state, rng):
                    yield f"{what} seat {seat}", view, seat, legal
                if state.is_terminal():
                    break
                if state.kind.name == "DECISION" and rng.random() < 0.02:
                    assert isinstance(state, TracksState)
                    state = state.end_by_agreement()
                else:
                    state = state.apply(state.random_joint(rng))
                node += 1


def _cases(seed: int) -> list[Case]:
    found = plugin("tracks")
    out = []
    for what, view, seat, legal in _games(seed):
        assert isinstance(view, TracksState)
        out.append(Case(what, found.svg(view, seat, legal), table_data(view, seat, legal)))
    return out


def _played(size: int, placed: int, seed: int) -> TracksState:
    """A game of ``size`` played at random (from ``seed``) until ``placed`` tiles are down."""
    rng = random.Random(seed)
    state = make("tracks", size=size).new_initial_state()
    while state.placed() < placed:  # type: ignore[attr-defined]
        state = state.apply(state.random_joint(rng))
    assert isinstance(state, TracksState)
    return state


def _to_place(size: int, placed: int, seed: int) -> tuple[TracksState, int, list[str]]:
    """:func:`_played`'s position, still going: it, the seat to place and its placements."""
    state = _played(size, placed, seed)
    assert not state.is_terminal()
    mover = state.to_move()
    assert mover is not None
    return state, mover, [state.action_to_string(mover, a) for a in state.legal_actions(mover)]


def test_the_page_draws_every_position_as_the_server_does() -> None:
    cases = _cases(SEED)
    # One picture for every width: the page draws no narrow one either.
    assert_drawn_alike(MODULE, [Drawn(c.what, c.data, c.picture, None) for c in cases], WHAT)
    # The games went through everything the picture shows.
    pictures = "".join(case.picture for case in cases)
    for shown in (
        "data-glow",  # a winner's track
        'stroke="#0072B2" stroke-width="8.88889" stroke-linecap="butt" stroke-dasharray',
        "data-move=",  # a seat's placements
        "tt-offer-",  # cells offered to whoever places
        "A coin decides who places first.",
        "rolls before placing",
        "Drawn by agreement.",
        'stroke-dasharray="6 3"',  # the last placement
    ):
        assert shown in pictures, shown
    assert len(cases) > 1000


def test_a_changed_position_draws_differently() -> None:
    """The comparison can fail: data changed in a cell, the hands or the status draw a
    picture that is not the server's."""
    state = _played(size=4, placed=5, seed=1)
    data = table_data(state, None, [])
    changed = [
        {**data, "cells": [*data["cells"][:-1], data["cells"][-1] ^ 1 or 3]},
        {**data, "hands": [data["hands"][1], data["hands"][0] % 3 + 1]},
        {**data, "status": data["status"] + " <&>"},
    ]
    picture = plugin("tracks").svg(state, None, [])
    drawn = draw_on_page(MODULE, [data, *changed], WHAT)
    assert drawn[0][0] == picture
    # Drawn otherwise, not thrown: an error would differ from any picture too.
    assert not any(wide is None or wide.startswith(THROWN) for wide, _ in drawn), drawn
    assert all(wide != picture for wide, _ in drawn[1:])
    assert "&lt;&amp;&gt;" in (drawn[3][0] or "")


def test_placements_written_otherwise_are_read_as_the_server_reads_them() -> None:
    """Cells in capitals or row first are clickable; what names no empty cell is not."""
    state, mover, empty = _to_place(size=5, placed=6, seed=4)
    full = next(i for i, k in enumerate(state.board) if k)
    legal = [
        empty[0].upper(),
        f"{empty[1][1:]}{empty[1][0]}",
        f" {empty[2]} ",
        "z9",
        "no cell",
        state.action_to_string(mover, full),
    ]
    data = table_data(state, mover, legal)
    assert len(data["moves"]) == 3
    picture = plugin("tracks").svg(state, mover, legal)
    assert picture.count("data-move=") == 3
    assert draw_on_page(MODULE, [data], WHAT)[0][0] == picture


def test_the_data_is_plain_json_without_markup() -> None:
    for what, view, seat, legal in _games(SEED + 1):
        assert isinstance(view, TracksState)
        data = table_data(view, seat, legal)
        text = orjson.dumps(data)
        assert b"<" not in text, what
        assert orjson.loads(text) == data, what
        assert orjson.dumps(table_data(view, seat, legal)) == text, what


def test_a_mid_game_6x6_board_is_under_one_and_a_half_kilobytes() -> None:
    state, mover, legal = _to_place(size=6, placed=18, seed=6)
    for seat, moves in ((None, []), (mover, legal)):
        size = len(orjson.dumps(table_data(state, seat, moves)))
        assert 100 < size < 1500, (seat, size)
