"""The Push-Pull plugin's hooks: pictures, narration, help, keys, the exact policy, the
observation fields and the commands it contributes."""

from __future__ import annotations

import math
import random
from typing import Any

import click
import numpy as np
import pytest
from rich.text import Text

import taut
from taut.core.errors import InvalidOptionError
from taut.core.observation import build_layout, fill_header, header_fields
from taut.core.registry import plugin as registered
from taut.games.push_pull.narrate import describe_turn
from taut.games.push_pull.plugin import plugin
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.solve.duel_newton import cached_solution
from taut.games.push_pull.solve.duel_positions import all_positions, position_key

INF = math.inf


def make(**options: Any) -> PushPull:
    game = taut.make("push-pull", **options)
    assert isinstance(game, PushPull)
    return game


def position(game: PushPull, data: dict[str, Any]) -> PushPullState:
    state = game.state_from_json(data)
    assert isinstance(state, PushPullState)
    return state


def test_identity() -> None:
    assert registered("push-pull") is plugin
    assert plugin.game_class is PushPull and plugin.verb == "plays"
    assert plugin.draw_by_agreement is False and plugin.seat_range == (2, 4)
    assert plugin.summary.count(".") == 1 and plugin.summary.endswith(".")


def test_render_is_the_diagram_and_str() -> None:
    duel = make().new_initial_state()
    expected = (
        "West   .    .   LMS   .    .   East\n       0    1    2    3    4\nScored: West -, East -"
    )
    assert plugin.render(duel) == expected
    assert str(duel) == expected
    assert Text.from_markup(plugin.render(duel, markup=True)).plain == expected
    four = position(make(variant="four-teams"), {"pieces": {"L": [0, 0], "M": "SW", "S": [2, 2]}})
    lines = plugin.render(four).splitlines()
    assert lines[0].strip() == "North" and lines[-2].strip() == "South"
    assert lines[2] == "    0   L    .    .    .    ."
    assert lines[4] == "W   2   .    .    S    .    .   E"
    assert lines[-1] == "Scored: N+E -, S+W M(SW)"


def test_narrate_describes_the_turn() -> None:
    game = make()
    before = game.new_initial_state()
    joint = {0: before.string_to_action(0, "L=pull"), 1: before.string_to_action(1, "L=pull")}
    after = before.apply(joint)
    assert isinstance(after, PushPullState)
    lines = plugin.narrate(before, joint, after)
    assert lines == describe_turn(before, joint, after)
    assert lines[0] == "Revealed: W pulls L, passes M and S; E pulls L, passes M and S."
    assert "W pulls, E pulls; west-east arrows cancel" in lines[1]


LEGENDS = {
    "duel": [
        "Push-Pull (duel). First to score two pieces wins. Each turn every seat secretly "
        "chooses for each piece on the board: pull, push, pass (or + - 0); e.g. "
        "L=pull,M=push,S=pass, or in short +-0 (one symbol per piece; a scored piece is left "
        "out or given 0). Type help for how to enter a move, quit to stop."
    ],
    "four": [
        "Push-Pull (four, shifts on). The player who scores the last piece wins. Each turn "
        "every seat secretly chooses for each piece on the board: pull, push, pass, left, "
        "right (or + - 0 < >); e.g. L=pull,M=left,S=pass, or in short +<0 (one symbol per "
        "piece; a scored piece is left out or given 0). Type help for how to enter a move, "
        "quit to stop.",
        "Left and right are as seen from your own side, looking across the board: N's left is "
        "east and right is west; E's left is south and right is north; S's left is west and "
        "right is east; W's left is north and right is south.",
    ],
    "four-teams": [
        "Push-Pull (four-teams). Teams N+W against S+E. First to score two pieces wins. Each "
        "turn every seat secretly chooses for each piece on the board: pull, push, pass (or + - "
        "0); e.g. L=pull,M=push,S=pass, or in short +-0 (one symbol per piece; a scored piece "
        "is left out or given 0). Type help for how to enter a move, quit to stop."
    ],
    "two-teams": [
        "Push-Pull (two-teams). NE against SW: each player chooses for both of their sides. "
        "First to score two pieces wins. Each turn every seat secretly chooses for each piece "
        "on the board: pull, push, pass (or + - 0); e.g. L=pull/pass,M=push/pull,S=pass/pass, "
        "or in short +-0/0+0 (one symbol per piece for each of your sides, in the order of your "
        "seat's name, joined by /; a scored piece is left out or given 0). Type help for how "
        "to enter a move, quit to stop."
    ],
}


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("duel", {}),
        ("four", {"shifts": True}),
        ("four-teams", {"teams": "NW-SE"}),
        ("two-teams", {}),
    ],
)
def test_legend(variant: str, options: dict[str, Any]) -> None:
    assert plugin.legend(make(variant=variant, **options)) == LEGENDS[variant]


def test_move_help() -> None:
    duel = position(make(), {"pieces": {"L": "W", "M": 2, "S": 3}})
    assert plugin.move_help(duel, 1) == (
        "Pieces on the board: M, S. Give one choice per piece: pull, push, pass (or + - 0); "
        "pieces left out pass. Examples: M=pull,S=push; or +- (one symbol per piece on the "
        "board), or 0+- (with 0 for the scored L)."
    )
    teams = make(variant="two-teams", shifts=True).new_initial_state()
    assert plugin.move_help(teams, 1) == (
        "Pieces on the board: L, M, S. Give one choice per side for each piece, S's then W's "
        "(S/W): pull, push, pass, left, right (or + - 0 < >); pieces left out pass. Examples: "
        "L=pull/right,M=left/pull,S=pass/pass; or +<0/>+0 (S's symbols for the pieces on the "
        "board, then / and W's). Left and right are as seen from your own side, looking across "
        "the board: S's left is west and right is east; W's left is north and right is south."
    )


def test_status_is_the_score_line() -> None:
    state = position(make(), {"pieces": {"L": "W", "M": 2, "S": "E"}})
    assert plugin.status(state) == "Scored: West L, East S"


#: Keys as the OpenSpiel adapter wrote them: (options, position, key).
KEYS: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    ({}, {"pieces": {"L": 2, "M": 2, "S": 2}}, "2,2,2"),
    ({}, {"pieces": {"L": "W", "M": 3, "S": "E"}}, "W,3,E"),
    ({"max_turns": 10}, {"turn": 4, "pieces": {"L": 1, "M": 2, "S": 3}}, "1,2,3 turn 4"),
    ({}, {"turn": 3, "pieces": {"L": "W", "M": "W", "S": 2}}, "W,W,2 (W won (two pieces))"),
    (
        {"max_turns": 3},
        {"turn": 3, "pieces": {"L": 0, "M": 1, "S": 2}},
        "0,1,2 turn 3 (draw (max_turns))",
    ),
    ({"variant": "four"}, {"pieces": {"L": [2, 2], "M": [0, 4], "S": "N"}}, "2:2,0:4,N"),
    (
        {"variant": "four"},
        {"turn": 9, "pieces": {"L": "W", "M": "N", "S": "N"}, "scored_on": {"L": 2, "M": 5}},
        "W,N,N (N won (last piece))",
    ),
    (
        {"variant": "four-teams", "max_turns": 8},
        {"turn": 4, "pieces": {"L": "W", "M": "W", "S": "SW"}},
        "W,W,SW turn 4 (S and W won (two pieces))",
    ),
    ({"variant": "two-teams"}, {"pieces": {"L": "N", "M": [4, 0], "S": [1, 3]}}, "N,4:0,1:3"),
]


@pytest.mark.parametrize(("options", "data", "key"), KEYS)
def test_state_key(options: dict[str, Any], data: dict[str, Any], key: str) -> None:
    assert plugin.state_key(position(make(**options), data)) == key


def test_exact_policy_is_the_duel_solution() -> None:
    game = make()
    policy = plugin.exact_policy(game)
    assert policy is not None
    solution = cached_solution()
    for pos in all_positions():
        key = position_key(pos)
        state = position(game, {"pieces": dict(zip("LMS", pos, strict=True))})
        for seat, name in ((0, "W"), (1, "E")):
            mix = policy(state, seat)
            assert set(mix) <= set(state.legal_actions(seat))
            assert sum(mix.values()) == pytest.approx(1.0, abs=1e-12)
            named = {state.action_to_string(seat, a): p for a, p in mix.items()}
            assert named == solution.strategy(key, name)
    # The turn limit does not change the solved play.
    assert plugin.exact_policy(make(max_turns=50)) is not None


@pytest.mark.parametrize("variant", ["four", "four-teams", "two-teams"])
def test_no_exact_policy_beyond_the_duel(variant: str) -> None:
    assert plugin.exact_policy(make(variant=variant)) is None
    duel_policy = plugin.exact_policy(make())
    assert duel_policy is not None
    with pytest.raises(InvalidOptionError, match="duel"):
        duel_policy(make(variant=variant).new_initial_state(), 0)


#: The fields the observation encoding gave before games declared their own.
FIELDS: list[tuple[dict[str, Any], list[tuple[str, int, float, float, str]]]] = [
    (
        {},
        [
            (
                "pieces",
                39,
                0.0,
                1.0,
                "L, M, S: one-hot over 5 squares then exits N E S W NE SE SW NW",
            ),
            ("scores", 2, 0.0, 3.0, "pieces scored by each unit: W E"),
            ("turn", 1, 0.0, INF, "turns played"),
        ],
    ),
    (
        {"variant": "four", "max_turns": 30},
        [
            (
                "pieces",
                99,
                0.0,
                1.0,
                "L, M, S: one-hot over 25 squares then exits N E S W NE SE SW NW",
            ),
            ("scores", 4, 0.0, 3.0, "pieces scored by each unit: N E S W"),
            ("turn", 1, 0.0, 30.0, "turns played"),
        ],
    ),
    (
        {"variant": "four-teams", "teams": "NW-SE"},
        [
            (
                "pieces",
                99,
                0.0,
                1.0,
                "L, M, S: one-hot over 25 squares then exits N E S W NE SE SW NW",
            ),
            ("scores", 2, 0.0, 3.0, "pieces scored by each unit: N+W S+E"),
            ("turn", 1, 0.0, INF, "turns played"),
        ],
    ),
    (
        {"variant": "two-teams", "shifts": True},
        [
            (
                "pieces",
                99,
                0.0,
                1.0,
                "L, M, S: one-hot over 25 squares then exits N E S W NE SE SW NW",
            ),
            ("scores", 2, 0.0, 3.0, "pieces scored by each unit: NE SW"),
            ("turn", 1, 0.0, INF, "turns played"),
        ],
    ),
]


@pytest.mark.parametrize(("options", "fields"), FIELDS)
def test_observer_fields(
    options: dict[str, Any], fields: list[tuple[str, int, float, float, str]]
) -> None:
    assert list(plugin.observer().fields(make(**options))) == fields


def test_observer_fill() -> None:
    game = make(variant="four-teams", max_turns=20)
    state = position(
        game, {"turn": 5, "pieces": {"L": [1, 3], "M": "SW", "S": "N"}, "scored_on": {"M": 2}}
    )
    observer = plugin.observer()
    layout = build_layout([*header_fields(game), *observer.fields(game)])
    out = np.zeros(layout.size, dtype=np.float32)
    fill_header(state.view(2), 2, out, layout)
    observer.fill(game, state.view(2), 2, out, layout)
    pieces = out[layout.slice("pieces")].reshape(3, 33)
    # L on square 1 * 5 + 3; M off the SW corner (exit 6); S off the N side (exit 0).
    assert [int(np.flatnonzero(row)[0]) for row in pieces] == [8, 25 + 6, 25 + 0]
    assert pieces.sum() == 3
    assert list(out[layout.slice("scores")]) == [1.0, 1.0]
    assert out[layout.start("turn")] == 5
    assert list(out[layout.slice("seat")]) == [0, 0, 1, 0]


def test_observer_fill_follows_a_game() -> None:
    """Every vector along random games is one-hot per piece and matches the scores."""
    game = make(variant="two-teams", max_turns=40)
    observer = plugin.observer()
    layout = build_layout([*header_fields(game), *observer.fields(game)])
    rng = random.Random(5)
    state: PushPullState = game.new_initial_state()
    while True:
        for seat in range(2):
            out = np.zeros(layout.size, dtype=np.float32)
            observer.fill(game, state.view(seat), seat, out, layout)
            assert (out[layout.slice("pieces")].reshape(3, -1).sum(axis=1) == 1).all()
            assert list(out[layout.slice("scores")]) == state.scores()
            assert (layout.low <= out).all() and (out <= layout.high).all()
        if state.is_terminal():
            break
        after = state.apply(state.random_joint(rng))
        assert isinstance(after, PushPullState)
        state = after


def test_commands() -> None:
    contributed = plugin.commands()
    assert set(contributed) == {"solve", "analyse"}
    assert [c.name for c in contributed["solve"]] == ["push-pull"]
    assert [c.name for c in contributed["analyse"]] == ["exploitability", "random-reply"]
    for commands in contributed.values():
        assert all(isinstance(c, click.Command) for c in commands)
