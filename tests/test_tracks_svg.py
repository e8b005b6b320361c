"""Track Tiles in the browser: the SVG board, its clickable cells and its colours."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.games.tracks.cells import SEATS, cell_name, column_letter
from taut.games.tracks.plugin import plugin
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.svg import (
    BLUE,
    GREY,
    INK,
    VERMILLION,
    board_svg,
    reached_sides,
    strand_path,
)
from taut.games.tracks.tiles import KINDS, E, N, S, W

SVG = "{http://www.w3.org/2000/svg}"

#: Option sets: every board size, and the other options (a coin for the first player, a
#: roll before every placement).
OPTION_SETS: list[dict[str, object]] = [{"size": n} for n in range(2, 13)]
OPTION_SETS += [
    {"size": 5, "first": "random", "roll": "each"},
    {"size": 7, "first": "WE"},
]


@cache
def positions(key: int, games: int = 3) -> list[TracksState]:
    """Every state along a few random games of option set ``key``."""
    game = Tracks(**OPTION_SETS[key])
    rng = random.Random(500 + key)
    out: list[TracksState] = []
    for _ in range(games):
        state: TracksState = game.new_initial_state()
        out.append(state)
        while not state.is_terminal():
            nxt = state.apply(state.random_joint(rng))
            assert isinstance(nxt, TracksState)
            state = nxt
            out.append(state)
    return out


def legal_strings(state: TracksState, seat: int | None) -> list[str]:
    if seat is None:
        return []
    return [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


def buttons(svg: str) -> dict[str, str]:
    """``data-move`` -> aria-label of every clickable element (each checked to be a
    focusable button; the board has no parts to compose)."""
    root = ET.fromstring(svg)
    assert root.get("data-compose") is None
    out: dict[str, str] = {}
    for el in root.iter():
        assert el.get("data-part") is None
        move = el.get("data-move")
        if move is None:
            assert el.get("role") != "button" and el.get("tabindex") is None
            continue
        assert el.get("role") == "button" and el.get("tabindex") == "0"
        assert move not in out
        out[move] = el.get("aria-label") or ""
    return out


@pytest.mark.parametrize("key", range(len(OPTION_SETS)))
def test_every_empty_cell_is_a_move_for_the_player_to_move_only(key: int) -> None:
    decisions = 0
    for state in positions(key):
        size = state.game.size
        for seat in (None, 0, 1):
            view = state.view(seat)
            assert isinstance(view, TracksState)
            svg = plugin.svg(view, seat, legal_strings(view, seat))
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and root.get("viewBox")
            assert root.get("role") == "group" and root.get("aria-label")
            found = buttons(svg)
            if seat is None or seat not in state.acting_seats():
                assert not found
                continue
            decisions += 1
            legal = set(state.legal_actions(seat))
            assert {state.string_to_action(seat, m) for m in found} == legal
            kind = state.kinds[seat]
            for move, label in found.items():
                assert move == cell_name(size, state.string_to_action(seat, move))
                assert label == f"place kind {kind} on {move}"
    assert decisions


def test_the_other_seat_gets_nothing_to_click_even_with_the_movers_moves() -> None:
    for state in positions(4):
        if state.kind is not NodeKind.DECISION:
            continue
        mover = state.to_move()
        assert mover is not None
        legal = legal_strings(state, mover)
        assert not buttons(plugin.svg(state, 1 - mover, legal))
        assert not buttons(plugin.svg(state, None, legal))


def _texts(svg: str) -> list[str]:
    return [t.strip() for t in ET.fromstring(svg).itertext() if t.strip()]


@pytest.mark.parametrize("size", [2, 6, 12])
def test_coordinates_hands_and_the_last_tile(size: int) -> None:
    state = next(
        s for s in positions(size - 2) if s.kind is NodeKind.DECISION and s.last is not None
    )
    mover = state.to_move()
    svg = plugin.svg(state, mover, legal_strings(state, mover))
    texts = _texts(svg)
    for i in range(size):
        assert texts.count(column_letter(i)) == 2  # above and below
        assert texts.count(str(i + 1)) >= 2  # left and right
    # Each hand says its seat and its sides, a line each (short enough for a phone).
    assert {"NS", "top and bottom", "WE", "left and right"} <= set(texts)
    assert f"kind {state.kinds[0]}" in texts and f"kind {state.kinds[1]}" in texts
    assert "▶ to place" in texts
    last = cell_name(size, state.last) if state.last is not None else ""
    labels = [el.get("aria-label", "") for el in ET.fromstring(svg).iter()]
    assert f"{last}: kind {state.board[state.last or 0]}, the last tile placed" in labels
    assert f"(last tile on {last})" in " ".join(texts)


def test_the_end_says_the_result_and_draws_the_winning_track() -> None:
    wins = 0
    for key in range(len(OPTION_SETS)):
        state = positions(key)[-1]
        assert state.outcome is not None
        svg = plugin.svg(state, None, [])
        said = f"{SEATS[state.outcome.winners[0]]} won:" if state.outcome.winners else "Draw:"
        assert any(text.startswith(said) for text in _texts(svg))
        outlined = re.findall(rf'stroke="{INK}" stroke-width="([\d.]+)"', svg)
        if state.outcome.winners:
            wins += 1
            assert outlined  # the dark outline under the winner's track
        else:
            assert not outlined
    assert wins


def test_pieces_take_the_colour_of_the_sides_their_path_reaches() -> None:
    # A 2x2 board of crossings: every upright piece runs top to bottom, every flat one
    # left to right.
    reach = reached_sides((3, 3, 3, 3), 2)
    for cell in range(4):
        assert reach[(cell, 0)] == {N, S}
        assert reach[(cell, 1)] == {E, W}
    # Kind 1 at a1 alone: its top-left curve joins the top to the left side; the other
    # curve leads to empty cells.
    reach = reached_sides((1, 0, 0, 0), 2)
    assert reach[(0, 0)] == {N, W}
    assert (0, 1) not in reach
    game = Tracks(size=2)
    state = TracksState(game, (1, 0, 0, 0), 0, (2, 3), 0)
    svg = plugin.svg(state, None, [])
    # Two-tone for the piece reaching one side of each, grey for the one reaching none.
    assert f'stroke="{VERMILLION}"' in svg and "stroke-dasharray" in svg
    assert f'stroke="{BLUE}" stroke-width' in svg and f'stroke="{GREY}"' in svg


def test_pieces_of_track_join_the_middles_of_their_sides() -> None:
    assert strand_path(0, 0, 10, (N, S)) == "M5 0L5 10"
    assert strand_path(0, 0, 10, (E, W)) == "M10 5L0 5"
    # Quarter circles round the shared corner, turning the short way (sweep 1: clockwise
    # on the screen, where y grows downwards).
    assert strand_path(0, 0, 10, (N, W)) == "M5 0A5 5 0 0 1 0 5"
    assert strand_path(0, 0, 10, (E, S)) == "M10 5A5 5 0 0 0 5 10"
    assert strand_path(0, 0, 10, (N, E)) == "M5 0A5 5 0 0 0 10 5"
    assert strand_path(0, 0, 10, (S, W)) == "M5 10A5 5 0 0 0 0 5"


def test_draws_say_why() -> None:
    state = positions(4)[3].end_by_agreement()
    assert "Drawn by agreement." in _texts(plugin.svg(state, None, []))
    ends = [positions(k)[-1] for k in range(len(OPTION_SETS))]
    full = [s for s in ends if s.outcome is not None and not s.outcome.winners]
    assert full
    assert "Draw: the board is full." in _texts(plugin.svg(full[0], None, []))


def test_before_the_rolls_the_tiles_are_to_roll() -> None:
    game = Tracks(size=3, first="random")
    state = game.new_initial_state()
    svg = plugin.svg(state, 0, [])
    assert "A coin decides who places first." in _texts(svg)
    assert _texts(svg).count("rolls before placing") == 2
    after = state.apply({CHANCE_SEAT: 1})
    # With roll=once both players roll before the first placement, NS first.
    assert "NS rolls the die." in _texts(plugin.svg(after, None, []))


def test_the_words_grow_on_a_phone() -> None:
    # Drawn at about two thirds of its units on a phone, the picture's words were 8-9 px:
    # every word carries the class a narrow screen sets at 19.5 units (12 px or more), and
    # that grows it wherever the picture is drawn small (the page's --unit).
    state = Tracks(size=6).new_initial_state()
    drawn = board_svg(state, None, [])
    texts = re.findall(r"<text ([^>]*)>", drawn)
    assert texts
    for attrs in texts:
        size = float(re.search(r'font-size="([\d.]+)"', attrs).group(1))  # type: ignore[union-attr]
        small = re.search(r'class="tt-small[" ]', attrs) is not None
        assert small or size >= 19.5, attrs
        if small:
            rule = (
                f'.tt-small[font-size="{size:g}"]{{font-size:max({size:g}px,calc(12.2px*var(--unit'
            )
            assert rule in drawn, attrs
    assert "@media (max-width:520px){.tt-board text.tt-small[font-size]{font-size:19.5px}}" in drawn


def test_the_tile_to_place_is_drawn_once_and_used_by_every_free_cell() -> None:
    """A board offering its moves defines the tile to place once (at the origin) and every
    free cell uses it where it stands: the board is not twice as long for its moves."""
    state = Tracks(size=6).new_initial_state()
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    mover = state.to_move()
    assert mover is not None
    legal = [state.action_to_string(mover, a) for a in state.legal_actions(mover)]
    drawn = board_svg(state, mover, legal)
    kind = state.kinds[mover]
    defined = re.findall(r'<g id="(tt-ghost-[\d.]+-\d)">', drawn)
    assert defined == [f"tt-ghost-80-{kind}"]
    uses = re.findall(r'<use class="tt-ghost" href="#([^"]+)" x="([\d.]+)" y="([\d.]+)"/>', drawn)
    assert len(uses) == len(legal) and {u[0] for u in uses} == set(defined)
    # Drawn with no moves offered, every free cell is an offer whose ghost is the tile to
    # place now, under one id whatever its kind: the same markup for every seat and turn.
    idle = board_svg(state, None, [])
    assert '<g id="tt-ghost' not in idle
    assert re.findall(r'<use id="(tt-offer-[\d.]+)" href="#([^"]+)"/>', idle) == [
        ("tt-offer-80", f"tt-kind-80-{kind}")
    ]
    assert re.findall(r'<g id="(tt-kind-[\d.]+-\d)">', idle) == [f"tt-kind-80-{k}" for k in KINDS]
    offers = re.findall(r'<g data-offer="([^"]+)">', idle)
    assert sorted(offers) == sorted(legal)
    assert set(re.findall(r'<use class="tt-ghost" href="#([^"]+)"', idle)) == {"tt-offer-80"}
    assert f'data-offer-words="place kind {kind} on {{move}}"' in idle
    assert board_svg(state, 1 - mover, []) == idle


def test_free_cells_are_drawn_alike_from_turn_to_turn() -> None:
    """A free cell's markup does not change with the turn or the kind to place (a move's
    patch then carries the placed tile, not every free cell)."""
    state = Tracks(size=6).new_initial_state()
    seen: dict[str, set[str]] = {}
    for _ in range(12):
        while state.is_chance():
            state = state.apply(state.chance_outcomes()[-1][0])
        if state.is_terminal():
            break
        for cell in re.findall(r'<g data-offer="[^"]+">.*?</g>', board_svg(state, None, [])):
            seen.setdefault(cell.split('"')[1], set()).add(cell)
        mover = state.to_move()
        assert mover is not None
        state = state.apply(state.legal_actions(mover)[0])
    assert seen and all(len(looks) == 1 for looks in seen.values()), seen


def test_a_move_changes_neither_the_root_nor_the_art_of_a_kind() -> None:
    """The root's tag is the same from move to move (the position is said in its
    ``<desc>``), and a tile in hand or on hover shows its kind by a ``<use>`` of the
    kind's one picture: a move's patch names the kind, it does not carry its art."""
    state = Tracks(size=6).new_initial_state()
    roots, kinds, descs = set(), set(), set()
    rng = random.Random(5)
    for _ in range(14):
        while state.is_chance():
            state = state.apply(rng.choice(state.chance_outcomes())[0])
        if state.is_terminal():
            break
        drawn = board_svg(state, None, [])
        root = ET.fromstring(drawn)
        roots.add(drawn[: drawn.index(">")])
        kinds.add(re.search(r"<defs><g id=\"tt-kind.*?</defs>", drawn).group(0))  # type: ignore[union-attr]
        desc = root.find("{http://www.w3.org/2000/svg}desc")
        assert desc is not None and desc.text and "Track Tiles, 6 by 6" in desc.text
        descs.add(desc.text)
        for seat, kind in enumerate(state.kinds):
            if kind:
                assert f'href="#tt-kind-80-{kind}" transform="translate(' in drawn, seat
        mover = state.to_move()
        assert mover is not None
        state = state.apply(rng.choice(state.legal_actions(mover)))
    assert len(roots) == 1 and len(kinds) == 1 and len(descs) > 5
    assert 'aria-label="Track Tiles, 6 by 6"' in roots.pop()


def test_the_sides_reached_are_those_of_every_path_traced_from_every_edge() -> None:
    # The picture traces each path once, from one end; the reference traces every edge
    # unit's path and joins the sides each piece of track is found to reach.
    from taut.games.tracks.paths import trace
    from taut.games.tracks.render import strand_index
    from taut.games.tracks.tiles import unit_side

    rng = random.Random(11)
    for _ in range(300):
        size = rng.choice((2, 3, 4, 6))
        board = tuple(rng.choice((0, 0, *KINDS)) for _ in range(size * size))
        expected: dict[tuple[int, int], set[int]] = {}
        for unit in range(4 * size):
            path = trace(board, size, unit)
            sides = {unit_side(size, unit)}
            if path.end_unit is not None:
                sides.add(unit_side(size, path.end_unit))
            for cell, side_in, _ in path.segments:
                key = (cell, strand_index(board[cell], side_in))
                expected.setdefault(key, set()).update(sides)
        assert reached_sides(board, size) == expected, board
