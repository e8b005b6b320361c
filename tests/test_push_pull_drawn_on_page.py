"""The Push-Pull board the page draws from plain data (``taut/games/push_pull/table.js``,
from :func:`taut.games.push_pull.table_data.table_data`) is the server's picture
(:func:`taut.games.push_pull.svg.board_svg`), byte for byte, at every node of random games
of every variant and option that changes the picture (the duel's strip, the four-sided
board free for all, in teams of either pairing or two players of two sides, shifts, a
turn limit), some begun from positions near the corners a team scores off: for the full
state, a spectator's view and every seat's, with its legal moves while it chooses and
without them once it has chosen, as the server draws them. All the drawing runs in one
``node`` process; without ``node`` those tests are skipped, saying so. The data is plain
JSON, holds no markup, says nothing a seat may not know, and stays small."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taut.core.forfeit import drawable
from taut.core.game import State
from taut.core.registry import make, plugin
from taut.games.push_pull import table_data as table_data_module
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.table_data import table_data
from tests.page_drawing import THROWN, assert_drawn_alike, draw_on_page
from tests.played_tables import (
    Case,
    assert_a_seat_is_sent_what_it_may_know,
    assert_plain_and_the_same_again,
    assert_small,
    played_cases,
)

MODULE = Path(__file__).resolve().parents[1] / "src/taut/games/push_pull/table.js"
#: What goes unchecked without ``node``.
WHAT = "the page's Push-Pull drawing"

#: A position near the corners: a team may score off one, rivals' corners send a piece
#: back to the centre.
CORNERS = {"pieces": {"L": [0, 4], "M": [4, 0], "S": [4, 4]}}
#: A corner already scored off (North and East are one team by default), the rest near it.
CORNER_SCORED = {"turn": 3, "pieces": {"L": "NE", "M": [0, 3], "S": [1, 4]}}
#: A southern corner scored off (its name drawn above its pieces), another piece near it.
SOUTH_CORNER = {"turn": 2, "pieces": {"L": [4, 1], "M": "SW", "S": [2, 2]}}
#: A corner of the other pairing (North and West one team).
NW_CORNER = {"turn": 4, "pieces": {"L": [1, 0], "M": [0, 1], "S": "NW"}}

#: The games played: options, how many games, and the position they start from (None: the
#: start). Short turn limits end some games in a draw.
GAMES: tuple[tuple[dict[str, Any], int, dict[str, Any] | None], ...] = (
    ({"variant": "duel"}, 5, None),
    ({"variant": "duel", "max_turns": 3}, 2, None),
    ({"variant": "four"}, 3, None),
    ({"variant": "four", "shifts": True}, 2, None),
    ({"variant": "four", "max_turns": 2}, 1, CORNERS),
    ({"variant": "four-teams"}, 3, None),
    ({"variant": "four-teams"}, 2, CORNERS),
    ({"variant": "four-teams"}, 2, SOUTH_CORNER),
    ({"variant": "four-teams", "teams": "NW-SE", "shifts": True}, 2, None),
    ({"variant": "four-teams", "teams": "NW-SE"}, 2, CORNERS),
    ({"variant": "two-teams"}, 3, None),
    ({"variant": "two-teams"}, 3, CORNER_SCORED),
    ({"variant": "two-teams", "teams": "NW-SE"}, 2, CORNERS),
    ({"variant": "two-teams", "teams": "NW-SE"}, 1, NW_CORNER),
    ({"variant": "two-teams", "shifts": True}, 2, None),
)
#: The seed of the random games.
SEED = 7
#: The longest game played (random games end within some ten turns as a rule).
MOST_TURNS = 60


#: Every legal move written out, by layout, seat and the pieces on the board (the moves
#: depend on nothing else; a two-teams player with shifts has 15,625 of them).
_LEGAL: dict[tuple[int, int, int], list[str]] = {}


def _legal(state: State, seat: int) -> list[str]:
    """``seat``'s legal moves in notation, as the server lists them."""
    assert isinstance(state, PushPullState)
    key = (id(state.game.layout), seat, state.mask)
    found = _LEGAL.get(key)
    if found is None:
        found = [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
        _LEGAL[key] = found
    return found


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """Every picture of the random games, with its data."""
    return played_cases("push-pull", GAMES, SEED, MOST_TURNS, table_data, _legal)


def test_the_page_draws_every_position_as_the_server_does(cases: list[Case]) -> None:
    assert_drawn_alike(MODULE, [c.drawn() for c in cases], WHAT)


def test_the_games_reach_every_part_of_the_picture(cases: list[Case]) -> None:
    # The comparison above holds only for what the games drew: each part is drawn.
    pictures = " ".join(c.picture for c in cases)
    for shown in (
        ">scored</text>",  # the duel's scored pieces
        "draw (max_turns)",  # a draw at the turn limit
        "won (two pieces)",
        "won (last piece)",
        "off the NE corner",  # a team's corner, named in words and on the board
        ">NE</text>",
        ">SW</text>",
        "\u00b7 N+W",  # the teams of each pairing
        "\u00b7 S+W",
        'data-compose="L={LN}/{LE}',  # a two-teams player's panel
        'data-part="S=right"',  # shifts
        "North (you)",
        'class="pp-coord"',
        "Small S, West: pass (no arrow)",
    ):
        assert shown in pictures, shown
    # Two and three pieces sharing a square, and two or more scored off one side.
    shared = {max(map(c.data["p"].count, c.data["p"])) for c in cases}
    assert shared == {1, 2, 3}, shared
    assert len(cases) > 1000


def test_a_changed_position_draws_differently() -> None:
    """The comparison can fail: data changed in a piece, a score, a unit's name, the
    viewer's sides or the panel draw a picture that is not the server's."""
    state = make("push-pull", variant="two-teams").state_from_json(CORNER_SCORED)
    assert isinstance(state, PushPullState)
    legal = _legal(state, 0)
    data = table_data(state, 0, legal)
    picture = plugin("push-pull").svg(state, 0, legal)
    changed = [
        {**data, "p": [data["p"][0], 8, data["p"][2]]},
        {**data, "sc": [data["sc"][1], data["sc"][0] + 1]},
        {**data, "u": [data["u"][0] + " <&>", data["u"][1]]},
        {**data, "y": data["y"][::-1]},
        {**data, "ar": [a[::-1] for a in data["ar"]]},
        {key: value for key, value in data.items() if key != "c"},
    ]
    drawn = draw_on_page(MODULE, [data, *changed], WHAT)
    assert drawn[0][0] == picture
    # Drawn otherwise, not thrown: an error would differ from any picture too.
    assert not any(wide is None or wide.startswith(THROWN) for wide, _ in drawn), drawn
    assert all(wide != picture for wide, _ in drawn[1:])
    assert "&lt;&amp;&gt;" in (drawn[3][0] or "")


def test_the_data_is_plain_json_without_markup(cases: list[Case]) -> None:
    def again(case: Case) -> dict[str, Any] | None:
        # The same bytes, the caches full or not.
        table_data_module._fixed.cache_clear()
        table_data_module._arrows.cache_clear()
        view = drawable(case.state if case.seat is None else case.state.view(case.seat))
        assert isinstance(view, PushPullState)
        return table_data(view, case.seat, case.legal)

    assert_plain_and_the_same_again(cases, again)


def test_a_seat_is_sent_nothing_of_another_seats_choice() -> None:
    """The other seats' pending choices are kept apart from the position until all are
    revealed: beyond what a spectator is sent, a seat gets only its own sides and its own
    panel, every piece at pass."""
    sent = assert_a_seat_is_sent_what_it_may_know(
        "push-pull", GAMES, SEED + 1, MOST_TURNS, table_data, ("y", "c", "ar"), _legal
    )
    for what, data in sent:
        # The seat's panel starts every piece at pass, whatever it or anyone chose.
        assert "=" not in data.get("c", "").replace("={", ""), what
    assert any("c" in data for _, data in sent)


def test_the_data_of_a_position_is_small(cases: list[Case]) -> None:
    # A typical position: a seat's data as it chooses, its panel included.
    assert_small(cases, median=400, most=1024)
