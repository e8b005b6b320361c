"""Push-Pull rules: the original outcome table, scoring edge cases of every variant, notation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taut
from taut.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from taut.core.game import State
from taut.games.push_pull import PushPull, PushPullState, axis_step, move, render
from taut.games.push_pull.arrows import LEFT, PULL, PUSH, RIGHT, arrow
from taut.games.push_pull.narrate import describe_turn

W, E = 0, 1


def make(**options: Any) -> PushPull:
    game = taut.make("push-pull", **options)
    assert isinstance(game, PushPull)
    return game


def position(game: PushPull, turn: int = 0, **pieces: Any) -> PushPullState:
    """A position from piece locations (``L=2``, ``M="W"``, ``S=[0, 4]``)."""
    return game.state_from_json({"turn": turn, "pieces": pieces})


def play(state: PushPullState, **moves: str) -> PushPullState:
    """Apply one turn given each seat's move as notation (seats not named pass)."""
    joint = {}
    for seat in state.acting_seats():
        text = moves.get(state.seat_name(seat), "pass")
        joint[seat] = state.string_to_action(seat, text)
    after = state.apply(joint)
    assert isinstance(after, PushPullState)
    return after


# -- the nine-row table of the original rules -----------------------------------------------

# West's choice, East's choice, where the piece goes from the middle square (+ is east).
NINE_ROWS = [
    ("pass", "pass", 0),
    ("pass", "pull", +1),
    ("pass", "push", -1),
    ("pull", "pass", -1),
    ("pull", "pull", 0),
    ("pull", "push", +2),
    ("push", "pass", +1),
    ("push", "pull", -2),
    ("push", "push", 0),
]


@pytest.mark.parametrize(("west", "east", "shift"), NINE_ROWS)
def test_nine_row_table(west: str, east: str, shift: int) -> None:
    game = make()
    state = play(game.new_initial_state(), W=f"L={west}", E=f"L={east}")
    assert state.to_json()["pieces"] == {"L": 2 + shift, "M": 2, "S": 2}


def test_pieces_move_independently_in_one_turn() -> None:
    game = make()
    state = play(game.new_initial_state(), W="L=pull,M=push,S=pass", E="L=push,M=pull,S=pull")
    assert state.to_json()["pieces"] == {"L": 4, "M": 0, "S": 3}


# -- the arrow rule ------------------------------------------------------------------------


def test_axis_step() -> None:
    assert [axis_step(n) for n in range(-4, 5)] == [2, -1, 2, -1, 0, 1, -2, 1, -2]


def test_shift_directions_from_each_seat() -> None:
    # A player's left: north -> east, east -> south, south -> west, west -> north.
    north, east, south, west = (-1, 0), (0, 1), (1, 0), (0, -1)
    assert [arrow(side, LEFT) for side in range(4)] == [east, south, west, north]
    assert [arrow(side, RIGHT) for side in range(4)] == [west, north, east, south]
    assert [arrow(side, PULL) for side in range(4)] == [north, east, south, west]
    assert [arrow(side, PUSH) for side in range(4)] == [south, west, north, east]


arrows_lists = st.lists(
    st.sampled_from([(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]), min_size=0, max_size=8
)


@given(arrows_lists, st.randoms(use_true_random=False))
def test_move_ignores_order(arrows: list[tuple[int, int]], rnd: random.Random) -> None:
    shuffled = list(arrows)
    rnd.shuffle(shuffled)
    assert move(arrows) == move(shuffled)


@given(arrows_lists)
def test_reversed_arrows_reverse_the_move(arrows: list[tuple[int, int]]) -> None:
    d_row, d_col = move(arrows)
    assert move([(-r, -c) for r, c in arrows]) == (-d_row, -d_col)


@given(arrows_lists, st.sampled_from([(1, 0), (0, 1)]))
def test_opposite_pairs_cancel(arrows: list[tuple[int, int]], unit: tuple[int, int]) -> None:
    pair = [unit, (-unit[0], -unit[1])]
    assert move(arrows + pair) == move(arrows)


# -- duel scoring -------------------------------------------------------------------------


def test_duel_scoring_at_each_edge() -> None:
    game = make()
    s = play(position(game, L=0, M=2, S=2), W="L=pull")
    assert s.to_json()["pieces"]["L"] == "W" and s.scores() == [1, 0]
    s = play(position(game, L=1, M=2, S=2), W="L=push", E="L=pull")  # two steps west
    assert s.to_json()["pieces"]["L"] == "W"
    s = play(position(game, L=3, M=2, S=2), W="L=pull", E="L=push")  # two steps east
    assert s.to_json()["pieces"]["L"] == "E" and s.scores() == [0, 1]
    s = play(position(game, L=4, M=2, S=2), W="L=pull", E="L=pull")  # cancel at the edge
    assert s.to_json()["pieces"]["L"] == 4


def test_duel_first_to_two() -> None:
    game = make()
    s = play(position(game, turn=5, L="W", M=0, S=4), W="M=pull,S=push")
    assert s.outcome is not None and s.outcome.winners == (W,)
    assert s.outcome.reason.name == "two pieces" and s.returns() == (1.0, -1.0)
    assert s.is_terminal() and s.legal_actions(W) == ()
    # Two pieces in one turn from nothing also wins.
    s = play(position(game, L=0, M=0, S=2), W="L=pull,M=pull")
    assert s.outcome is not None and s.outcome.winners == (W,)


def test_scored_piece_has_no_choices() -> None:
    game = make()
    s = position(game, L="E", M=1, S=3)
    assert len(s.legal_actions(W)) == 9
    assert s.action_to_string(W, s.legal_actions(W)[-1]) == "M=push,S=push"
    with pytest.raises(IllegalActionError, match="off the board"):
        s.string_to_action(W, "L=pull,M=pass")
    assert s.string_to_action(W, "L=pass,M=pull") == s.string_to_action(W, "M=pull")
    bad = 2 * 9  # L's digit set: a choice for the scored piece
    assert not s.is_legal(W, bad)
    with pytest.raises(IllegalActionError, match="off the board"):
        s.apply({W: bad, E: 0})


def test_max_turns_draw() -> None:
    game = make(max_turns=2)
    s = play(play(game.new_initial_state()))
    assert s.outcome is not None and s.outcome.is_draw and s.outcome.reason.name == "max_turns"
    assert s.returns() == (0.0, 0.0)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptionError, match="four-sided"):
        make(shifts=True)
    with pytest.raises(InvalidOptionError, match="team"):
        make(variant="four", teams="NE-SW")
    with pytest.raises(InvalidOptionError, match="variant"):
        make(variant="three")


# -- four-sided games ---------------------------------------------------------------------


def test_four_axes_are_separate() -> None:
    game = make(variant="four")
    # North pushes (south), South pulls (south): two arrows south -> two steps north.
    # West pulls (west): one arrow -> one step west.
    s = play(game.new_initial_state(), N="L=push", S="L=pull", W="L=pull")
    assert s.to_json()["pieces"]["L"] == [0, 1]


def test_four_scoring_and_corner_return() -> None:
    game = make(variant="four")
    s = play(position(game, L=[0, 2], M=[2, 2], S=[2, 2]), N="L=pull")
    assert s.to_json()["pieces"]["L"] == "N" and s.scorer(0) == "N"
    # Off the north-west corner: two sides at once -> back to the centre, not scored.
    s = play(position(game, L=[0, 0], M=[2, 2], S=[2, 2]), N="L=pull", W="L=pull")
    assert s.to_json()["pieces"]["L"] == [2, 2]
    # A two-step move across one side plus a sideways step still scores once.
    s = play(position(game, L=[1, 3], M=[2, 2], S=[2, 2]), N="L=push", S="L=pull", E="L=pull")
    assert s.to_json()["pieces"]["L"] == "N"


def test_four_last_piece_wins() -> None:
    game = make(variant="four")
    s = position(game, turn=9, L="S", M="S", S=[4, 2])
    s = play(s, N="S=pull")  # north's pull: one step north, the piece stays on the board
    assert s.outcome is None and s.to_json()["pieces"]["S"] == [3, 2]
    s = play(position(game, turn=9, L="S", M="S", S=[0, 2]), N="S=pull")
    assert s.outcome is not None and s.outcome.winners == (0,)  # N, despite S's two pieces
    assert s.outcome.reason.name == "last piece" and s.returns() == (1.0, -1.0, -1.0, -1.0)
    assert not game.info.zero_sum


def test_four_last_two_pieces_at_once_share_the_win() -> None:
    game = make(variant="four")
    s = play(position(game, L="E", M=[0, 2], S=[4, 2]), N="M=pull", S="S=pull")
    assert s.outcome is not None and s.outcome.winners == (0, 2)


def test_four_last_piece_off_a_corner_comes_back() -> None:
    game = make(variant="four")
    s = play(position(game, L="E", M="W", S=[4, 4]), S="S=pull", E="S=pull")
    assert s.outcome is None and s.to_json()["pieces"]["S"] == [2, 2]


def test_four_teams_corners() -> None:
    game = make(variant="four-teams")
    assert game.layout.units == ("N+E", "S+W")
    # Off the north-east corner: both sides on team N+E -> scored for it.
    s = play(position(game, L=[0, 4], M=[2, 2], S=[2, 2]), N="L=pull", E="L=pull")
    assert s.to_json()["pieces"]["L"] == "NE" and s.scores() == [1, 0]
    # Off the north-west corner: rivals -> back to the centre.
    s = play(position(game, L=[0, 0], M=[2, 2], S=[2, 2]), N="L=pull", W="L=pull")
    assert s.to_json()["pieces"]["L"] == [2, 2]
    # Off the south-west corner: team S+W.
    s = play(position(game, L=[4, 0], M=[2, 2], S=[2, 2]), S="L=pull", W="L=pull")
    assert s.to_json()["pieces"]["L"] == "SW" and s.scores() == [0, 1]
    s = play(position(game, L="NE", M=[0, 2], S=[2, 2]), N="M=pull")
    assert s.outcome is not None and s.outcome.winners == (0, 1)
    assert s.returns() == (1.0, 1.0, -1.0, -1.0) and game.info.zero_sum


def test_other_teaming() -> None:
    game = make(variant="four-teams", teams="NW-SE")
    assert game.layout.units == ("N+W", "S+E")
    s = play(position(game, L=[0, 0], M=[2, 2], S=[2, 2]), N="L=pull", W="L=pull")
    assert s.to_json()["pieces"]["L"] == "NW"
    two = make(variant="two-teams", teams="NW-SE")
    assert two.info.seats == ("NW", "SE")


def test_two_teams_one_player_two_sides() -> None:
    game = make(variant="two-teams")
    assert game.info.seats == ("NE", "SW") and game.info.num_distinct_actions == 729
    s = game.new_initial_state()
    assert len(s.legal_actions(0)) == 729
    # NE pulls L with both sides: north and east at once.
    s = play(s, NE="L=pull/pull")
    assert s.to_json()["pieces"]["L"] == [1, 3]
    s = play(position(game, L=[0, 4], M=[2, 2], S=[2, 2]), NE="L=pull/pull")
    assert s.to_json()["pieces"]["L"] == "NE"
    s = play(position(game, L=[4, 4], M=[2, 2], S=[2, 2]), NE="L=pass/pull", SW="L=pull/pass")
    assert s.to_json()["pieces"]["L"] == [2, 2]  # south and east are rivals


@pytest.mark.parametrize(
    ("seat", "expected"),
    [("N", [2, 3]), ("E", [3, 2]), ("S", [2, 1]), ("W", [1, 2])],
)
def test_shift_left_from_each_seat(seat: str, expected: list[int]) -> None:
    game = make(variant="four", shifts=True)
    s = play(game.new_initial_state(), **{seat: "L=left"})
    assert s.to_json()["pieces"]["L"] == expected
    s = play(game.new_initial_state(), **{seat: "L=right"})
    assert s.to_json()["pieces"]["L"] == [4 - expected[0], 4 - expected[1]]


def test_shifts_mix_with_pushes() -> None:
    game = make(variant="four", shifts=True)
    # N shifts left (east), E pulls (east): two arrows east -> two steps west.
    s = play(game.new_initial_state(), N="L=left", E="L=pull")
    assert s.to_json()["pieces"]["L"] == [2, 0]
    # N left (east) and S left (west) cancel; W left (north) moves one north.
    s = play(game.new_initial_state(), N="L=left", S="L=left", W="L=left")
    assert s.to_json()["pieces"]["L"] == [1, 2]


def test_two_teams_shifts() -> None:
    game = make(variant="two-teams", shifts=True)
    assert game.info.num_distinct_actions == 25**3
    s = play(game.new_initial_state(), NE="L=left/right")  # N left = east, E right = north
    assert s.to_json()["pieces"]["L"] == [1, 3]


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "L=pull,M=push,S=pass",
        "l=pull m=push",
        "L: pull; M: push; S: pass",
        "pull push pass",
        "+-0",
        "L=+,M=-",
        "L=pul,M=pus,S=pas",
        "  L = PULL , M = PUSH ",
        "L=in,M=out,S=x",
    ],
)
def test_forgiving_notation(text: str) -> None:
    s = make().new_initial_state()
    assert s.action_to_string(W, s.string_to_action(W, text)) == "L=pull,M=push,S=pass"


def test_single_word_applies_to_every_piece() -> None:
    s = make().new_initial_state()
    assert s.action_to_string(W, s.string_to_action(W, "pass")) == "L=pass,M=pass,S=pass"
    assert s.action_to_string(E, s.string_to_action(E, "pull")) == "L=pull,M=pull,S=pull"


def test_two_sided_notation() -> None:
    s = make(variant="two-teams").new_initial_state()
    a = s.string_to_action(0, "L=pull/push,M=pass/pass,S=push/pull")
    assert s.action_to_string(0, a) == "L=pull/push,M=pass/pass,S=push/pull"
    assert s.string_to_action(0, "+--+..") == s.string_to_action(0, "L=+-,M=-+")
    assert s.action_to_json(0, a)["L"] == {"N": "pull", "E": "push"}
    assert s.action_from_json(0, json.loads(json.dumps(s.action_to_json(0, a)))) == a
    with pytest.raises(MalformedActionError, match="one per side"):
        s.string_to_action(0, "L=pull/push/pass")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("L=pish", "choices: pull, push, pass"),
        ("L=left", "shifts=on"),
        ("pull push", "gives 2 choices"),
        ("L=pull,L=push", "twice"),
        ("Q=pull", "cannot read"),
    ],
)
def test_notation_errors_name_what_is_allowed(text: str, message: str) -> None:
    s = make().new_initial_state()
    with pytest.raises(MalformedActionError, match=message):
        s.string_to_action(W, text)


def test_json_action_form() -> None:
    s = make().new_initial_state()
    a = s.string_to_action(W, "L=pull,M=push,S=pass")
    assert s.action_to_json(W, a) == {"L": "pull", "M": "push", "S": "pass"}
    assert s.action_from_json(W, {"L": "pull", "M": "push"}) == a
    with pytest.raises(MalformedActionError):
        s.action_from_json(W, 7)


# -- positions, playouts, text ------------------------------------------------------------


def test_state_json_round_trip_and_errors() -> None:
    game = make(variant="four-teams")
    s = position(game, turn=4, L="NE", M=[1, 3], S=[2, 2])
    again = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_json() == s.to_json()
    from taut.core.errors import PositionError

    with pytest.raises(PositionError, match="exit"):
        position(game, L="NW", M=[1, 3], S=[2, 2])  # N and W are rivals
    with pytest.raises(PositionError, match=r"0\.\.4"):
        position(make(), L=5, M=1, S=1)
    with pytest.raises(PositionError, match="unknown"):
        game.state_from_json({"pieces": {"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "x": 1})


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "four"},
        {"variant": "two-teams", "shifts": True},
        # A short limit: the compact loop judges only when a piece leaves or at the limit.
        {"variant": "four-teams", "max_turns": 3},
        {"max_turns": 2},
    ],
)
def test_random_playout_matches_protocol(options: dict[str, Any]) -> None:
    game = make(**{"max_turns": 80, **options})
    for seed in range(10):
        rng = random.Random(seed)
        state: State = game.new_initial_state()
        nodes = 0
        while not state.is_terminal():
            state = state.apply(state.random_joint(rng))
            nodes += 1
        assert game.random_playout(random.Random(seed)) == (nodes, state.outcome)


duel_locations = st.sampled_from([0, 1, 2, 3, 4, "W", "E"])


@settings(max_examples=60, deadline=None)
@given(duel_locations, duel_locations, duel_locations, st.data())
def test_duel_mirror_symmetry(l: Any, m: Any, s: Any, data: st.DataObject) -> None:
    pieces = [l, m, s]
    if pieces.count("W") >= 2 or pieces.count("E") >= 2:
        return
    game = make()

    def mirror(loc: Any) -> Any:
        return {"W": "E", "E": "W"}.get(loc, loc) if isinstance(loc, str) else 4 - loc

    state = position(game, **dict(zip("LMS", pieces, strict=True)))
    mirrored = position(game, **dict(zip("LMS", map(mirror, pieces), strict=True)))
    a = data.draw(st.sampled_from(list(state.legal_actions(W))))
    b = data.draw(st.sampled_from(list(state.legal_actions(E))))
    after = state.apply({W: a, E: b})
    # West's move on the mirror image is East's move here, and the other way round.
    after_m = mirrored.apply({W: b, E: a})
    expect = {k: mirror(v) for k, v in after.to_json()["pieces"].items()}
    assert after_m.to_json()["pieces"] == expect


def test_render_and_narration() -> None:
    game = make(variant="four-teams")
    before = position(game, L=[0, 4], M=[0, 0], S=[2, 2])
    joint = {
        0: before.string_to_action(0, "L=pull,M=pull"),
        1: before.string_to_action(1, "L=pull"),
        2: before.string_to_action(2, "pass"),
        3: before.string_to_action(3, "M=pull,S=pull"),
    }
    after = before.apply(joint)
    assert isinstance(after, PushPullState)
    text = "\n".join(describe_turn(before, joint, after))
    assert "NE corner: scored by N+E" in text
    assert "NW corner between rivals" in text and "back to the centre" in text
    assert "(2,2) -> (2,1)" in text
    picture = render(after)
    assert picture.splitlines()[-1] == "Scored: N+E L(NE), S+W -"
    assert picture.splitlines()[4].split() == ["W", "2", ".", "S", "M", ".", ".", "E"]
    duel = render(make().new_initial_state())
    assert duel.splitlines()[0].split() == ["West", ".", ".", "LMS", ".", ".", "East"]


def test_heuristic() -> None:
    duel = make()
    assert duel.heuristic(duel.new_initial_state()) == (0.0, 0.0)
    near_west = position(duel, L=0, M=1, S=2)
    west, east = duel.heuristic(near_west)
    assert 0 < west < 0.9 and east == -west
    over = play(position(duel, L="W", M=0, S=2), W="M=pull")
    assert duel.heuristic(over) == (1.0, -1.0)
    teams = make(variant="four-teams")
    h = teams.heuristic(position(teams, L=[0, 3], M=[1, 4], S=[2, 2]))
    assert h[0] == h[1] > h[2] == h[3]  # each team's value against random play
    four = make(variant="four")
    h = four.heuristic(position(four, L="N", M="N", S=[4, 2]))
    assert h[2] == max(h) > 0
