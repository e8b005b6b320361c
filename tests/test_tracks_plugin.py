"""The Track Tiles plugin: narration, the terminal presenter, the observer and other hooks."""

from __future__ import annotations

import numpy as np
import pytest

from taut.core.observation import build_layout, fill_header, header_fields
from taut.core.presenter import Rule
from taut.core.registry import plugin as plugin_named
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.games.tracks.commands import solve_tracks_command, tracks_group
from taut.games.tracks.plugin import LEGEND, plugin
from taut.games.tracks.presenter import TracksPresenter
from taut.games.tracks.render import render_state
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.screen import render_screen


def opening(game: Tracks) -> list[TracksState]:
    """The states from the start through the opening chance nodes (NS rolls 4, WE rolls 1)."""
    states = [game.new_initial_state()]
    for outcome in ([0] if game.first is None else []) + [3, 0]:
        nxt = states[-1].apply({CHANCE_SEAT: outcome})
        assert isinstance(nxt, TracksState)
        states.append(nxt)
    return states


def test_the_registry_finds_the_plugin() -> None:
    assert plugin_named("tracks") is plugin
    assert plugin.verb == "places" and plugin.draw_by_agreement
    assert plugin.summary and plugin.legend(Tracks()) == list(LEGEND)
    assert all(len(line) <= 80 for line in LEGEND)


def test_narrate_the_coin_a_roll_and_a_placement() -> None:
    game = Tracks(size=4, first="random")
    coin, ns_roll, we_roll, ready = opening(game)
    assert plugin.narrate(coin, {CHANCE_SEAT: 0}, ns_roll) == ["The coin says NS places first."]
    assert plugin.narrate(coin, {CHANCE_SEAT: 1}, ns_roll) == ["The coin says WE places first."]
    # A die face f gives kind f mod 3 + 1 in the two-player game.
    assert plugin.narrate(ns_roll, {CHANCE_SEAT: 3}, we_roll) == ["NS rolls 4: kind 2."]
    assert plugin.narrate(we_roll, {CHANCE_SEAT: 2}, ready) == ["WE rolls 3: kind 1."]
    assert ready.kind is NodeKind.DECISION and ready.to_move() == 0
    cell = 2 * 4 + 2  # c3
    after = ready.apply(cell)
    assert plugin.narrate(ready, {0: cell}, after) == ["NS places kind 2 on c3."]


def test_the_board_comes_before_the_persons_first_placement() -> None:
    game = Tracks(size=3)
    start, after_ns, ready = opening(game)
    presenter = plugin.presenter(game)
    intro = presenter.intro(["human", "greedy"])
    # The legend and the seats; no empty board (the rolls come first, then the board).
    assert intro[: len(LEGEND)] == list(LEGEND)
    assert intro[len(LEGEND)] == "Seats: NS human, WE greedy."
    assert not any("┏" in block for block in intro if isinstance(block, str))
    assert presenter.after(start, {CHANCE_SEAT: 3}, after_ns, None) == ["NS rolls 4: kind 2."]
    assert presenter.after(after_ns, {CHANCE_SEAT: 0}, ready, None) == [
        "WE rolls 1: kind 2.",
        render_screen(ready),
    ]
    assert presenter.turns == 0


def test_the_board_waits_for_the_computers_reply() -> None:
    game = Tracks(size=3)
    ready = opening(game)[-1]
    presenter = plugin.presenter(game)
    presenter.intro(["human", "greedy"])
    placed = ready.apply(1)  # b1: WE, the computer, replies next
    assert presenter.after(ready, {0: 1}, placed, None) == [Rule("NS places kind 2 on b1")]
    reply = placed.apply(4)  # b2: NS, the person, places next
    assert presenter.after(placed, {1: 4}, reply, None) == [
        Rule("WE places kind 2 on b2"),
        render_screen(reply),
    ]
    assert presenter.turns == 2


def test_a_person_playing_we_sees_the_board_after_ns_places() -> None:
    game = Tracks(size=3)
    _, after_ns, ready = opening(game)
    presenter = plugin.presenter(game)
    presenter.intro(["greedy", "human"])
    assert presenter.after(after_ns, {CHANCE_SEAT: 0}, ready, None) == ["WE rolls 1: kind 2."]
    placed = ready.apply(1)
    assert presenter.after(ready, {0: 1}, placed, None) == [
        Rule("NS places kind 2 on b1"),
        render_screen(placed),
    ]


def test_without_a_person_every_placement_shows_the_board() -> None:
    game = Tracks(size=3)
    ready = opening(game)[-1]
    presenter = plugin.presenter(game)
    after = ready.apply(1)  # b1
    blocks = presenter.after(ready, {0: 1}, after, None)
    assert blocks == [Rule("NS places kind 2 on b1"), render_screen(after)]
    assert presenter.turns == 1


def test_roll_each_tells_a_computers_roll_with_its_placement() -> None:
    game = Tracks(size=3, roll="each")
    start = game.new_initial_state()
    presenter = plugin.presenter(game)
    presenter.intro(["human", "greedy"])
    rolled = start.apply({CHANCE_SEAT: 5})
    # The person's roll has its own line, and the board follows it.
    assert presenter.after(start, {CHANCE_SEAT: 5}, rolled, None) == [
        "NS rolls 6: kind 1.",
        render_screen(rolled),
    ]
    placed = rolled.apply(4)
    assert presenter.after(rolled, {0: 4}, placed, None) == [Rule("NS places kind 1 on b2")]
    we_rolled = placed.apply({CHANCE_SEAT: 1})
    assert presenter.after(placed, {CHANCE_SEAT: 1}, we_rolled, None) == []
    replied = we_rolled.apply(0)
    assert presenter.after(we_rolled, {1: 0}, replied, None) == [
        Rule("WE rolls 2 and places kind 3 on a1")
    ]


def test_two_people_see_the_board_on_their_own_screen() -> None:
    game = Tracks(size=3)
    _, after_ns, ready = opening(game)
    presenter = plugin.presenter(game)
    presenter.intro(["human", "human"])
    assert presenter.after(after_ns, {CHANCE_SEAT: 0}, ready, None) == ["WE rolls 1: kind 2."]
    assert presenter.screen(ready, 0) == [render_screen(ready)]
    placed = ready.apply(1)
    assert presenter.after(ready, {0: 1}, placed, None) == [Rule("NS places kind 2 on b1")]
    assert presenter.screen(placed, 1) == [render_screen(placed)]


def test_large_boards_are_drawn_compact() -> None:
    for size, roll, compact in [(6, "once", False), (6, "each", False), (7, "once", True)]:
        game = Tracks(size=size, roll=roll)
        presenter = plugin.presenter(game)
        assert isinstance(presenter, TracksPresenter) and presenter.compact is compact
        board = presenter.board(game.new_initial_state())
        assert board == render_screen(game.new_initial_state(), compact=compact)


def test_move_help_lists_the_empty_cells() -> None:
    game = Tracks(size=2)
    ready = opening(game)[-1].apply(0)
    text = plugin.move_help(ready, 1)
    assert text is not None
    assert text.startswith("WE places kind 2 ╰╮ on an empty cell")
    assert text.endswith("Legal: b1 a2 b2")


def test_render_and_str_use_the_board_picture() -> None:
    game = Tracks(size=3)
    ready = opening(game)[-1]
    assert "__str__" not in TracksState.__dict__
    assert str(ready) == render_state(ready) == plugin.render(ready)
    assert plugin.render(ready, markup=True) == render_state(ready, markup=True)


#: The fields of the observation vector after the common header, as the adapters have
#: always reported them for a board of side ``s``.
def old_fields(s: int) -> list[tuple[str, int, float, float, str]]:
    cells = s * s
    return [
        ("board", cells * 4, 0.0, 1.0, "per cell (row * size + col): empty, kind 1, 2, 3"),
        ("kinds", 2 * 4, 0.0, 1.0, "per seat NS, WE: one-hot not rolled, kind 1, 2, 3"),
        ("first", 2, 0.0, 1.0, "one-hot: the seat that placed first"),
        ("last", cells, 0.0, 1.0, "one-hot: the cell of the last placement"),
        ("placed", 1, 0.0, float(cells), "tiles on the board"),
    ]


@pytest.mark.parametrize("size", [2, 3, 6, 12])
def test_observer_fields_are_the_old_ones(size: int) -> None:
    game = Tracks(size=size)
    assert list(plugin.observer().fields(game)) == old_fields(size)


def test_observer_fills_the_position() -> None:
    game = Tracks(size=3, first="random", roll="each")
    state = game.state_from_json(
        {
            "board": ["1..", ".3.", "..2"],
            "first": "WE",
            "tiles": {"NS": 2, "WE": None},
            "last": "c3",
        },
    )
    observer = plugin.observer()
    layout = build_layout([*header_fields(game), *observer.fields(game)])
    out = np.zeros(layout.size, dtype=np.float32)
    fill_header(state, 1, out, layout)
    observer.fill(game, state.view(1), 1, out, layout)
    expected = np.zeros(layout.size, dtype=np.float32)
    expected[layout.start("seat") + 1] = 1.0
    # WE placed first and three tiles are down, so NS places now.
    expected[layout.start("acting") + 0] = 1.0
    board = layout.start("board")
    for cell, kind in enumerate([1, 0, 0, 0, 3, 0, 0, 0, 2]):
        expected[board + cell * 4 + kind] = 1.0
    kinds = layout.start("kinds")
    expected[kinds + 0 * 4 + 2] = 1.0
    expected[kinds + 1 * 4 + 0] = 1.0
    expected[layout.start("first") + 1] = 1.0
    expected[layout.start("last") + 8] = 1.0
    expected[layout.start("placed")] = 3.0
    assert out.tolist() == expected.tolist()
    assert layout.size == 2 + 2 + 1 + 36 + 8 + 2 + 9 + 1
    assert layout.high[layout.start("placed")] == 9.0


@pytest.mark.parametrize("size", [2, 5])
def test_max_game_length_counts_placements(size: int) -> None:
    assert plugin.max_game_length(Tracks(size=size, first="random", roll="each")) == size * size


def test_commands_offer_the_solitaire_group() -> None:
    commands = plugin.commands()
    assert commands == {"": [tracks_group], "solve": [solve_tracks_command]}
    assert solve_tracks_command.name == "tracks"
    assert tracks_group.name == "tracks"
    assert set(tracks_group.commands) == {"puzzle", "solve", "check", "solitaire"}
