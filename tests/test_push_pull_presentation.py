"""What a Push-Pull player is shown: the coloured board, the rules, seat titles, the
position help, and what left and right mean for each side."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from rich.text import Text

import taut
from taut.games.push_pull import PushPull, PushPullState
from taut.games.push_pull.arrows import SIDE_NAMES, SIDE_TITLES
from taut.games.push_pull.board import OFF
from taut.games.push_pull.diagram import PIECE_COLOURS, unit_colour
from taut.games.push_pull.plugin import plugin

OKABE_ITO = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442"}
OPTION_SETS: list[dict[str, Any]] = [
    {"variant": "duel"},
    {"variant": "four"},
    {"variant": "four-teams"},
    {"variant": "four-teams", "teams": "NW-SE"},
    {"variant": "two-teams"},
    {"variant": "two-teams", "teams": "NW-SE", "shifts": True},
]


def make(**options: Any) -> PushPull:
    game = taut.make("push-pull", **options)
    assert isinstance(game, PushPull)
    return game


def painted(markup: str) -> list[tuple[str, str]]:
    """Each coloured stretch of one line of markup and its colour, in order."""
    text = Text.from_markup(markup)
    return [
        (text.plain[span.start : span.end], str(span.style).split()[-1].upper())
        for span in text.spans
    ]


def states_along_games(game: PushPull, seed: int) -> list[PushPullState]:
    rng = random.Random(seed)
    state: PushPullState = game.new_initial_state()
    out = [state]
    while not state.is_terminal() and len(out) < 60:
        after = state.apply(state.random_joint(rng))
        assert isinstance(after, PushPullState)
        state = after
        out.append(state)
    return out


@pytest.mark.parametrize("options", OPTION_SETS)
def test_colour_changes_no_text(options: dict[str, Any]) -> None:
    game = make(**options)
    for state in states_along_games(game, 3):
        plain = plugin.render(state)
        assert plain == str(state) and "[" not in plain
        assert Text.from_markup(plugin.render(state, markup=True)).plain == plain


@pytest.mark.parametrize("options", OPTION_SETS)
def test_pieces_and_units_have_distinct_palette_colours(options: dict[str, Any]) -> None:
    game = make(**options)
    lay = game.layout
    units = [unit_colour(lay, u)[0] for u in range(len(lay.units))]
    assert len(set(units)) == len(units)
    assert set(PIECE_COLOURS).isdisjoint(units) and len(set(PIECE_COLOURS)) == 3
    assert set(units) | set(PIECE_COLOURS) <= OKABE_ITO
    exits = {"duel": "W", "four": "N", "four-teams": "S", "two-teams": "S"}
    data: dict[str, Any] = {"pieces": {"L": [0, 0], "M": exits[lay.variant], "S": [2, 3]}}
    if lay.variant == "duel":
        data = {"pieces": {"L": 0, "M": "W", "S": 3}}
    state = game.state_from_json(data)
    *board, scores = plugin.render(state, markup=True).splitlines()
    piece = dict(zip("LMS", PIECE_COLOURS, strict=True))
    side = {SIDE_NAMES[s]: unit_colour(lay, u)[0] for s, u in lay.side_unit.items()}
    on_board = [stretch for line in board for stretch in painted(line)]
    if lay.rows == 1:
        expected = [("West", side["W"]), ("L", piece["L"])]
        expected += [("S", piece["S"]), ("East", side["E"])]
    else:
        expected = [("North", side["N"]), ("L", piece["L"]), ("W", side["W"]), ("S", piece["S"])]
        expected += [("E", side["E"]), ("South", side["S"])]
    assert on_board == expected
    # The score line: each unit's name in its colour, the scored M in its own.
    scorer = lay.exit_unit(state.locs[1] - OFF)
    expected = []
    for u, unit in enumerate(lay.units):
        expected.append((lay.seat_titles[u] if lay.rows == 1 else unit, unit_colour(lay, u)[0]))
        if u == scorer:
            expected.append(("M", piece["M"]))
    assert painted(scores) == expected


def test_team_sides_share_the_team_colour() -> None:
    lay = make(variant="four-teams").layout  # N+E against S+W
    assert unit_colour(lay, 0) == ("#D55E00", "vermillion")
    assert unit_colour(lay, 1) == ("#0072B2", "blue")
    duel = make().layout
    assert [unit_colour(duel, u)[1] for u in (0, 1)] == ["blue", "vermillion"]


SEAT_TITLES = [
    ({}, ["W (West; blue)", "E (East; vermillion)"]),
    (
        {"variant": "four"},
        ["N (North; orange)", "E (East; vermillion)", "S (South; bluish green)", "W (West; blue)"],
    ),
    (
        {"variant": "four-teams", "teams": "NW-SE"},
        [
            "N (North, team N+W; blue)",
            "E (East, team S+E; vermillion)",
            "S (South, team S+E; vermillion)",
            "W (West, team N+W; blue)",
        ],
    ),
    ({"variant": "two-teams"}, ["NE (North and East; vermillion)", "SW (South and West; blue)"]),
    (
        {"variant": "two-teams", "teams": "NW-SE"},
        ["NW (North and West; blue)", "SE (South and East; vermillion)"],
    ),
]


@pytest.mark.parametrize(("options", "titles"), SEAT_TITLES)
def test_seat_titles(options: dict[str, Any], titles: list[str]) -> None:
    game = make(**options)
    assert [plugin.seat_title(game, s) for s in range(game.info.num_seats)] == titles


def test_position_help_example_is_a_position() -> None:
    example = plugin.position_help.split(": each piece")[0]
    assert "\n" not in plugin.position_help
    state = make().state_from_json(json.loads(example))
    assert state.to_json()["pieces"] == {"L": 1, "M": "W", "S": 3}
    assert state.scored_on == (0, 2, 0) and state.turn == 4


def test_rules_text_covers_every_variant_and_option() -> None:
    text = plugin.rules_text()
    paragraphs = text.split("\n\n")
    assert len(paragraphs) >= 6 and all(p.strip() for p in paragraphs)
    for word in ("variant=duel", "variant=four", "four-teams", "two-teams", "teams=NW-SE"):
        assert word in text
    for word in ("shifts=on", "max_turns", "cancel in pairs", "odd", "even", "corner"):
        assert word in text
    assert "[" not in text  # plain text


# -- left and right -------------------------------------------------------------------------

TURN_OF = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}


def stated_directions(text: str, names: dict[str, int]) -> dict[int, tuple[str, str]]:
    """``side: (left, right)`` read from sentences like ``N's left is east and right is
    west``."""
    found = {}
    for name, left, right in re.findall(r"(\w+)'s left is (\w+) and right is (\w+)", text):
        found[names[name]] = (left, right)
    return found


def moved(game: PushPull, seat: int, choice: str) -> tuple[int, int]:
    """Where one shift by ``seat`` alone takes L from the centre (row, col change)."""
    state = game.new_initial_state()
    joint = {s: state.string_to_action(s, "pass") for s in range(game.info.num_seats)}
    joint[seat] = state.string_to_action(seat, f"L={choice}")
    after = state.apply(joint)
    assert isinstance(after, PushPullState)
    row, col = after.to_json()["pieces"]["L"]
    return row - 2, col - 2


def test_left_and_right_as_stated_are_how_pieces_move() -> None:
    game = make(variant="four", shifts=True)
    short = {name: side for side, name in enumerate(SIDE_NAMES)}
    long = {name: side for side, name in enumerate(SIDE_TITLES)}
    in_rules = stated_directions(plugin.rules_text(), long)
    in_legend = stated_directions(" ".join(plugin.legend(game)), short)
    assert in_rules == in_legend and set(in_rules) == {0, 1, 2, 3}
    for side, (left, right) in in_rules.items():
        seat = game.info.seats.index(SIDE_NAMES[side])
        assert moved(game, seat, "left") == TURN_OF[left]
        assert moved(game, seat, "right") == TURN_OF[right]
        help_text = plugin.move_help(game.new_initial_state(), seat)
        assert help_text is not None
        assert stated_directions(help_text, short) == {side: (left, right)}
    # North faces south: their left is east.
    assert in_rules[0] == ("east", "west")


def test_two_teams_help_explains_both_sides() -> None:
    game = make(variant="two-teams", shifts=True)
    help_text = plugin.move_help(game.new_initial_state(), 0)
    assert help_text is not None
    short = {name: side for side, name in enumerate(SIDE_NAMES)}
    assert stated_directions(help_text, short) == {0: ("east", "west"), 1: ("south", "north")}


@pytest.mark.parametrize("options", [{}, {"variant": "four-teams"}])
def test_no_left_or_right_without_shifts(options: dict[str, Any]) -> None:
    game = make(**options)
    assert "left is" not in " ".join(plugin.legend(game)) and len(plugin.legend(game)) == 1
    assert "left is" not in (plugin.move_help(game.new_initial_state(), 0) or "")
