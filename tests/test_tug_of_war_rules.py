"""Tug of War rules on hand-built positions: scoring, doubles, draws, passes, blocks, bonuses."""

from __future__ import annotations

import pytest

import taut
from taut.core import CHANCE_SEAT
from taut.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from taut.games.tug_of_war import TugOfWar, TugState, position
from taut.games.tug_of_war.state import BONUS, DEAL, DRAWING, DRAWN, TURN


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _do(state: TugState, *moves: str) -> TugState:
    """Apply moves in notation, each by the seat (or chance) to act."""
    for text in moves:
        seat = state.acting_seats()[0]
        after = state.apply({seat: state.string_to_action(seat, text)})
        assert isinstance(after, TugState)
        state = after
    return state


def _three() -> TugState:
    game = _game(players=3)
    return position(
        game,
        starters=[(3, 5), (2, 6), (1, 4)],
        hands=[[(5, 1), (0, 2), (4, 4)], [(6, 6), (3, 3)], [(4, 2), (0, 0)]],
        boneyard=[(0, 1), (5, 6)],
        current=0,
    )


def test_play_on_own_train_adds_the_sum_of_the_open_ends() -> None:
    state = _do(_three(), "5-1@0.1")
    assert state.ends[0] == (3, 1)
    assert state.scores == (4, 0, 0)
    assert state.current == 1 and state.phase == TURN


def test_play_on_an_opponents_train_takes_the_sum_from_that_opponent() -> None:
    # P0 lays 0-2 on end 0 of P1's train (2 | 6): the ends become 0 | 6, P1 loses 6.
    state = _do(_three(), "2-0@1.0")
    assert state.ends[1] == (0, 6)
    assert state.scores == (0, -6, 0)
    # P1 lays its double 6-6 on end 1 of its own train: 6 stays open, 0 + 6 = 6 for P1.
    state = _do(state, "6-6@1.1")
    assert state.ends[1] == (0, 6)
    assert state.scores == (0, 0, 0)
    # P2 lays 4-2 on end 1 of its own train (1 | 4): ends 1 | 2, P2 +3.
    state = _do(state, "4-2@2.1")
    assert state.scores == (0, 0, 3)
    # No 4 is open any more, so P0's double 4-4 fits nowhere; 5-1 fits two places.
    legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    assert legal == ["5-1@0.1", "1-5@2.0"]


def test_a_double_leaves_its_number_open_on_either_end() -> None:
    game = _game(players=2)
    # P0's train: 2-5 and 5-4 laid on end 1 of the starter 4-2, so both ends show 4.
    state = position(
        game,
        starters=[(4, 2), (1, 2)],
        hands=[[(4, 4)], [(0, 1), (5, 6)]],
        laid=[((), ((2, 5), (5, 4))), ((), ())],
        current=0,
    )
    assert state.ends[0] == (4, 4)
    # 4-4 fits both ends and leaves 4 | 4 open: 8 points.
    assert [state.action_to_string(0, a) for a in state.legal_actions(0)] == [
        "4-4@0.0",
        "4-4@0.1",
    ]
    state = _do(state, "4-4@0.1")
    assert state.ends[0] == (4, 4)
    assert state.scores[0] == 8


def test_cannot_play_must_draw_and_play_a_drawn_tile_that_fits() -> None:
    game = _game(players=2)
    state = position(
        game,
        starters=[(3, 5), (2, 6)],
        hands=[[(0, 0), (1, 1)], [(6, 6)]],
        boneyard=[(0, 1), (5, 6)],
        current=0,
    )
    assert list(state.legal_actions(0)) == [game.DRAW]
    assert "must draw" in state.illegal_reason(0, game.PASS)
    state = _do(state, "draw")
    assert state.phase == DRAWING and state.is_chance()
    assert {o for o, _ in state.chance_outcomes()} == {
        game.dominoes.oriented(0, 1),
        game.dominoes.oriented(5, 6),
    }
    state = _do(state, "5-6")
    assert state.phase == DRAWN and state.current == 0
    # 5-6 fits P0's end 1 (5) and P1's end 1 (6): P0 must play it and chooses where.
    legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    assert legal == ["5-6@0.1", "6-5@1.1"]
    assert not state.is_legal(0, game.PASS)
    with pytest.raises(IllegalActionError, match="must play"):
        state.apply(game.PASS)
    # Another tile in hand is not allowed either, even if it fitted.
    state = _do(state, "6-5@1.1")
    assert state.scores == (0, -7)
    assert state.current == 1


def test_a_drawn_tile_that_does_not_fit_stays_in_hand_and_the_turn_passes() -> None:
    game = _game(players=2)
    state = position(
        game,
        starters=[(3, 5), (2, 6)],
        hands=[[(0, 0)], [(6, 6)]],
        boneyard=[(0, 1), (4, 4)],
        current=0,
    )
    state = _do(state, "draw", "0-1")
    assert list(state.legal_actions(0)) == [game.PASS]
    state = _do(state, "pass")
    assert state.current == 1 and state.sizes == (2, 1) and state.passes == 0
    assert state.hands[0] == frozenset({game.dominoes.index(0, 0), game.dominoes.index(0, 1)})


def test_pass_only_when_the_boneyard_is_empty_and_nothing_fits() -> None:
    game = _game(players=2)
    state = position(game, starters=[(3, 5), (2, 6)], hands=[[(0, 0)], [(6, 6)]], current=0)
    assert list(state.legal_actions(0)) == [game.PASS]
    assert "boneyard is empty" in state.illegal_reason(0, game.DRAW)


def _blocked(hands: list[list[tuple[int, int]]], boneyard: list[tuple[int, int]]) -> TugState:
    game = _game(players=3)
    # Every open end shows 6 and no tile in a hand or the boneyard has a 6.
    return position(
        game,
        starters=[(6, 6), (6, 2), (6, 4)],
        hands=hands,
        boneyard=boneyard,
        current=0,
        laid=[((), ()), ((), ((2, 5), (5, 6))), ((), ((4, 1), (1, 6)))],
        scores=[10, 0, -5],
    )


def test_blocked_round_fewest_pips_wins_the_others_pips() -> None:
    state = _blocked([[(0, 1)], [(2, 3), (0, 0)], [(4, 4)]], [])
    state = _do(state, "pass", "pass")
    assert state.phase == TURN
    state = _do(state, "pass")
    assert state.phase == BONUS and state.bonus is not None
    assert state.bonus.blocked and state.bonus.winner == 0
    assert state.bonus.total == 5 + 8  # P1 holds 2-3 and 0-0, P2 holds 4-4
    assert state.bonus.targets == (1, 2)
    state = _do(state, "-3@1", "-10@2", "+0@0")
    assert state.scores == (10, -3, -15)
    assert state.phase == DEAL and state.round == 2


def test_blocked_round_with_a_tie_on_pips_gives_no_bonus() -> None:
    state = _blocked([[(0, 3)], [(1, 2)], [(4, 4)]], [])
    state = _do(state, "pass", "pass", "pass")
    assert state.phase == DEAL and state.round == 2
    assert state.scores == (10, 0, -5)


def test_a_block_counts_only_passes_with_an_empty_boneyard() -> None:
    # P0 draws the last tile, which fits nowhere, and passes: that pass already counts.
    state = _blocked([[(0, 1)], [(2, 3)], [(4, 4)]], [(1, 1)])
    state = _do(state, "draw", "1-1", "pass")
    assert state.passes == 1
    state = _do(state, "pass", "pass")
    assert state.phase == BONUS and state.bonus is not None
    # P0 holds 0-1 and 1-1 (3 pips), P1 2-3 (5), P2 4-4 (8): P0 has the fewest.
    assert state.bonus.winner == 0 and state.bonus.total == 13


def test_going_out_and_allocating_the_leftover_in_any_split() -> None:
    game = _game(players=3)
    state = position(
        game,
        starters=[(3, 5), (2, 6), (1, 4)],
        hands=[[(5, 1)], [(6, 6), (3, 3)], [(4, 2), (0, 0)]],
        current=0,
        scores=[1, 2, 3],
    )
    state = _do(state, "5-1@0.1")
    assert state.scores == (5, 2, 3)
    bonus = state.bonus
    assert state.phase == BONUS and bonus is not None and not bonus.blocked
    assert bonus.total == 12 + 6 + 6 + 0
    assert state.acting_seats() == (0,)
    legal = list(state.legal_actions(0))
    assert legal == [game.give_id(k) for k in range(25)]
    state = _do(state, "-10@1")
    assert state.scores == (5, -8, 3)
    state = _do(state, "4")  # a bare number: P2 loses 4
    assert state.bonus is not None and state.bonus.target is None
    assert list(state.legal_actions(0)) == [game.KEEP]
    assert state.action_to_string(0, game.KEEP) == "+10@0"
    state = _do(state, "keep")
    assert state.scores == (15, -8, -1)
    assert state.phase == DEAL and state.round == 2


def test_allocation_stops_asking_once_nothing_is_left() -> None:
    game = _game(players=3)
    state = position(
        game,
        starters=[(3, 5), (2, 6), (1, 4)],
        hands=[[(5, 1)], [(3, 3)], [(4, 2)]],
        current=0,
    )
    state = _do(state, "5-1@0.1", "-12@1")
    assert state.bonus is not None and state.bonus.target is None
    state = _do(state, "+0@0")
    assert state.scores == (4, -12, 0)


def test_first_player_has_the_highest_half_then_the_other_half() -> None:
    game = _game(players=3, hand=1)
    state = game.new_initial_state()
    assert isinstance(state, TugState)
    # Starters as laid: P0 5-4, P1 0-6, P2 6-1: P1 and P2 both show a 6; 1 beats 0.
    state = _do(state, "5-4", "0-6", "6-1", "0-0", "1-1", "2-2")
    assert state.phase == TURN and state.first == 2 and state.current == 2
    assert state.ends[1] == (0, 6)  # end 0 is the starter's first half


def test_starter_outcomes_carry_the_orientation_and_hands_do_not() -> None:
    game = _game(players=2, hand=1)
    state = game.new_initial_state()
    assert isinstance(state, TugState)
    outcomes = dict(state.chance_outcomes())
    ds = game.dominoes
    assert outcomes[ds.oriented(6, 6)] == pytest.approx(1 / 28)
    assert outcomes[ds.oriented(2, 5)] == outcomes[ds.oriented(5, 2)] == pytest.approx(1 / 56)
    state = _do(state, "5-2", "3-1")
    assert all(ds.unorient(o)[0] <= ds.unorient(o)[1] for o, _ in state.chance_outcomes())
    assert state.string_to_action(CHANCE_SEAT, "6-0") == ds.oriented(0, 6)


@pytest.mark.parametrize(
    ("players", "top", "tiles"),
    [(2, 6, 28), (3, 6, 28), (4, 9, 55), (5, 9, 55), (6, 9, 55), (7, 12, 91), (8, 12, 91)],
)
def test_every_player_count_gets_hands_of_seven_from_its_default_set(
    players: int, top: int, tiles: int
) -> None:
    game = _game(players=players)
    assert game.options["set"] == top and game.dominoes.size == tiles
    assert game.options["hand"] == game.hand_size == 7
    assert players * 8 <= tiles


def test_option_defaults_and_limits() -> None:
    assert _game(players=4, set=6, hand=6).options["hand"] == 6
    assert _game(players=7, set=9).options["hand"] == 6  # a chosen set too small: fewer
    assert _game(players=8, set=9).options["hand"] == 5
    assert _game(players=3, set=12).options["hand"] == 7
    assert _game(players=4, set=6).options["hand"] == 6  # the default shrinks to fit
    with pytest.raises(InvalidOptionError, match="hand=6 or less or set=9"):
        _game(players=4, set=6, hand=7)
    with pytest.raises(InvalidOptionError, match="hand=5 or less or set=12"):
        _game(players=8, set=9, hand=7)
    with pytest.raises(InvalidOptionError, match=r"hand=10 or less$"):
        _game(players=8, set=12, hand=11)
    with pytest.raises(InvalidOptionError, match="6 \\| 9 \\| 12"):
        _game(set=7)
    with pytest.raises(InvalidOptionError):
        _game(players=9)
    with pytest.raises(InvalidOptionError):
        _game(end="forever")


def test_notation_forms_and_errors() -> None:
    state = _three()
    game = state.game
    play = game.play_id(game.dominoes.index(1, 5), 0, 1)
    for text in ("5-1@0.1", "1-5@0.1", "5|1@P0.1", "5-1@0", " 5 - 1 @ 0 . 1 "):
        assert state.string_to_action(0, text) == play
    assert state.action_to_json(0, play) == {"type": "play", "tile": [5, 1], "train": 0, "end": 1}
    assert state.action_from_json(0, {"type": "play", "tile": [1, 5], "train": 0, "end": 1}) == play
    with pytest.raises(MalformedActionError, match="several places"):
        state.string_to_action(0, "5-1")  # fits P0's end 1 and P2's end 0
    assert state.string_to_action(0, "0-2") == game.play_id(game.dominoes.index(0, 2), 1, 0)
    with pytest.raises(MalformedActionError, match="not a tile"):
        state.string_to_action(0, "7-7@0.0")
    with pytest.raises(MalformedActionError):
        state.string_to_action(0, "hello")
    with pytest.raises(MalformedActionError):
        state.string_to_action(0, "12")  # a bare number means a bonus share only
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply(state.string_to_action(0, "6-6@1.1"))
    with pytest.raises(IllegalActionError, match="does not fit"):
        state.apply(game.play_id(game.dominoes.index(1, 5), 1, 0))
    with pytest.raises(IllegalActionError, match="can play, so may not draw"):
        state.apply(game.DRAW)


def test_short_form_for_a_tile_not_in_hand_says_so() -> None:
    import random as _random

    import taut
    from taut.core import NodeKind
    from taut.core.errors import IllegalActionError

    game = taut.make("tug-of-war", players=3)
    state = game.new_initial_state()
    rng = _random.Random(2)
    while state.kind is not NodeKind.DECISION:
        state = state.apply(state.random_joint(rng))
    (seat,) = state.acting_seats()
    view = state.view(seat)
    hand = view.hands[seat]
    assert hand is not None
    missing = next(t for t in range(game.dominoes.size) if t not in hand)
    a, b = game.dominoes.tiles[missing]
    with pytest.raises(IllegalActionError, match="not in"):
        view.string_to_action(seat, f"{a}-{b}")


def test_a_copy_with_changes_keeps_every_other_field() -> None:
    import random

    from taut.core.registry import make
    from taut.games.tug_of_war.model import FIELDS

    rng = random.Random(4)
    state = make("tug-of-war", players=3).new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        for changes in ({}, {"current": 2}, {"scores": (1, 2, 3)}):
            copy = state._with(**changes)
            assert copy is not state and type(copy) is type(state)
            for name in FIELDS:
                want = changes.get(name, getattr(state, name))
                assert getattr(copy, name) is want, name
        if state.kind.name == "CHANCE":
            state = state.apply({-1: rng.choice(state.chance_outcomes())[0]})
        else:
            state = state.apply(rng.choice(state.legal_actions(state.acting_seats()[0])))
