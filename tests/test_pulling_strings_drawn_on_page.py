"""The Pulling Strings board the page draws from plain data
(``taut/games/pulling_strings/table.js``, from
:func:`taut.games.pulling_strings.table_data.table_data`) is the server's picture
(:func:`taut.games.pulling_strings.svg.board_svg`), byte for byte, at every node of random
games of both editions and every option that changes the picture (the published edition's
tile sets, broken strings, a kept corner, a turn limit, repeated positions), some begun
from positions with stacks on the homes: for the full state, a spectator's view and each
seat's, with its legal moves while it chooses and without them once it has chosen, as the
server draws them. A learning game has no data: the server draws it. All the drawing runs
in one ``node`` process; without ``node`` those tests are skipped, saying so. The data is
plain JSON, holds no markup, says nothing a seat may not know, and stays small."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taut.core.forfeit import drawable
from taut.core.registry import make, plugin
from taut.games.pulling_strings.rules import PullingStringsState
from taut.games.pulling_strings.table_data import table_data
from tests.page_drawing import THROWN, assert_drawn_alike, draw_on_page
from tests.played_tables import (
    Case,
    assert_a_seat_is_sent_what_it_may_know,
    assert_plain_and_the_same_again,
    assert_small,
    legal_moves,
    played_cases,
)

MODULE = Path(__file__).resolve().parents[1] / "src/taut/games/pulling_strings/table.js"
#: What goes unchecked without ``node``.
WHAT = "the page's Pulling Strings drawing"

#: Stacks on and next to both sides' homes, a broken end (named by its place, which every
#: edition's letters share): a few turns from a result.
NEAR_HOME = {
    "stacks": [[0, 1, 3], [0, 2, 1], [1, 4, 1], [3, 4, 2], [4, 1, 1]],
    "broken": ["N2"],
    "turn": 9,
}
#: Many broken ends and a tall stack in a corner.
WORN = {
    "stacks": [[0, 0, 7], [2, 2, 2]],
    "broken": ["N0", "N4", "S0", "S4", "W0", "W4"],
    "turn": 30,
}

#: The games played: options, how many games, and the position they start from (None: the
#: start). Short turn limits end some games in a draw.
GAMES: tuple[tuple[dict[str, Any], int, dict[str, Any] | None], ...] = (
    ({}, 4, None),
    ({"max_turns": 12}, 2, None),
    ({}, 3, NEAR_HOME),
    ({"break": "string"}, 2, None),
    ({"corner": "keep"}, 2, WORN),
    ({"repeat": 2}, 2, NEAR_HOME),
    ({"edition": "published", "seed": 3}, 3, None),
    ({"edition": "published", "seed": 5}, 2, NEAR_HOME),
    ({"edition": "published", "tiles": "roman", "seed": 1}, 2, None),
    ({"edition": "published", "tiles": "kana", "seed": 2}, 2, NEAR_HOME),
    ({"edition": "published", "tiles": "elements", "seed": 4, "max_turns": 8}, 2, None),
)
#: The seed of the random games.
SEED = 11
#: The longest game played (random games wander: most end at the limit).
MOST_TURNS = 40


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """Every picture of the random games, with its data."""
    return played_cases("pulling-strings", GAMES, SEED, MOST_TURNS, table_data)


def test_the_page_draws_every_position_as_the_server_does(cases: list[Case]) -> None:
    assert_drawn_alike(MODULE, [c.drawn() for c in cases], WHAT)


def test_the_games_reach_every_part_of_the_picture(cases: list[Case]) -> None:
    # The comparison above holds only for what the games drew: each part is drawn.
    pictures = " ".join(c.picture for c in cases)
    for shown in (
        'class="end broken"',  # a broken end and its stub
        'data-id="cut-',
        'data-move="',  # ends offered
        "the left end of the",
        "the bottom of the",
        "game over:",  # a result, in words and under the board
        "(square home of X)",  # the published edition's marks, in words and drawn
        "(O home of O)",  # the 2003 edition's
        '<rect class="home"',
        'rx="5" fill="#f3e2bf"',  # a published end's tile
        "Circles",
        "Oh)",
        'font-size="16" font-weight="700" fill="#D55E00"',  # a small mark beside a stack
    ):
        assert shown in pictures, shown
    # Stacks on both sides' homes and elsewhere; ends of several characters (the elements,
    # the Roman numerals).
    assert any(len(letter) > 1 for c in cases for letter in c.data["l"])
    assert len(cases) > 1000


def test_a_changed_position_draws_differently() -> None:
    """The comparison can fail: data changed in a stack, a broken end, the disks home, the
    turn, the result, a letter, the edition or the ends offered draws a picture that is
    not the server's."""
    state = make("pulling-strings").state_from_json(NEAR_HOME)
    assert isinstance(state, PullingStringsState)
    legal = legal_moves(state, 0)
    data = table_data(state, 0, legal)
    assert data is not None
    picture = plugin("pulling-strings").svg(state, 0, legal)
    changed = [
        {**data, "s": [*data["s"][:-1], [24, 2]]},
        {**data, "b": data["b"] | 1},
        {**data, "h": [data["h"][0] + 1, data["h"][1]]},
        {**data, "t": data["t"] + 1},
        {**data, "o": "X won"},
        {**data, "l": [*data["l"][:-1], "<&>"]},
        {**data, "p": True},
        {**data, "m": data["m"][1:]},
        {**data, "mt": [[data["m"][0], "N0"]]},
    ]
    drawn = draw_on_page(MODULE, [data, *changed], WHAT)
    assert drawn[0][0] == picture
    # Drawn otherwise, not thrown: an error would differ from any picture too.
    assert not any(wide is None or wide.startswith(THROWN) for wide, _ in drawn), drawn
    assert all(wide != picture for wide, _ in drawn[1:])
    assert "&lt;&amp;&gt;" in (drawn[6][0] or "")
    assert 'data-move="N0"' in (drawn[9][0] or "")


def test_the_data_is_plain_json_without_markup(cases: list[Case]) -> None:
    def again(case: Case) -> dict[str, Any] | None:
        view = drawable(case.state if case.seat is None else case.state.view(case.seat))
        assert isinstance(view, PullingStringsState)
        return table_data(view, case.seat, case.legal)

    assert_plain_and_the_same_again(cases, again)


def test_a_seat_is_sent_only_the_position_and_its_own_ends() -> None:
    """Beyond what a spectator is sent, a seat gets only the ends it may pull (the other
    seat's choice is kept apart until both are revealed)."""
    sent = assert_a_seat_is_sent_what_it_may_know(
        "pulling-strings", GAMES, SEED + 1, MOST_TURNS, table_data, ("m", "mt")
    )
    # Seats that choose are among them: their ends are sent.
    assert any("m" in data for _, data in sent)


def test_a_learning_game_has_no_data_and_keeps_its_pictures() -> None:
    game = make("pulling-strings", edition="published", learning="strict", seed=1)
    state = game.new_initial_state()
    found = plugin("pulling-strings")
    assert found.table(state.view(0), 0, legal_moves(state, 0)) is None
    assert 'data-palette=""' in found.svg(state.view(0), 0, legal_moves(state, 0))


def test_the_data_of_a_position_is_small(cases: list[Case]) -> None:
    # A typical position: a seat's data as it chooses, its ends included.
    assert_small(cases, median=400, most=1024)
