"""Two-player Tug of War: the round's leftover is never split (kept whole or taken whole),
in the engine, the notation, the fast playout, self-play and records; and a bonus
allocation's seat keys are written plainly, each once."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.core.errors import IllegalActionError, PositionError
from taut.core.game import Game
from taut.games.tug_of_war import TugOfWar, TugState, position
from taut.games.tug_of_war.record import ReplayError, replay_record
from taut.games.tug_of_war.state import BONUS, DEAL
from tests.test_tug_of_war_record import _tiny


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _won(**options: object) -> TugState:
    """P0 has just gone out; P1 holds 6-6 and 3-3: a leftover of 18 to hand out."""
    state = position(
        _game(players=2, **options),
        starters=[(3, 5), (2, 6)],
        hands=[[(5, 1)], [(6, 6), (3, 3)]],
        current=0,
        scores=[1, 2],
    )
    after = state.apply(state.string_to_action(0, "5-1@0.1"))
    assert isinstance(after, TugState) and after.phase == BONUS
    return after


def _do(state: TugState, seat: int, text: str) -> TugState:
    after = state.apply({seat: state.string_to_action(seat, text)})
    assert isinstance(after, TugState)
    return after


def test_the_bonus_is_kept_whole_or_taken_whole() -> None:
    state = _won()
    game = state.game
    assert not game.split_bonus and _game(players=3).split_bonus
    assert state.bonus is not None and state.bonus.total == 18
    assert list(state.legal_actions(0)) == [game.give_id(0), game.give_id(18)]
    assert [state.action_to_string(0, a) for a in state.legal_actions(0)] == ["+18@0", "-18@1"]
    # Keep it all: a share of 0 for P1, then the keep step adds the 18 to P0.
    for text in ("keep", "+18@0", "+18", "-0@1", "0"):
        assert state.string_to_action(0, text) == game.give_id(0)
    kept = _do(_do(state, 0, "keep"), 0, "keep")
    assert kept.scores == (1 + 4 + 18, 2) and kept.phase == DEAL
    # Take it all from P1.
    for text in ("give", "-18@1", "18"):
        assert state.string_to_action(0, text) == game.give_id(18)
    taken = _do(state, 0, "give")
    assert list(taken.legal_actions(0)) == [game.KEEP]
    assert taken.action_to_string(0, game.KEEP) == "+0@0"
    assert _do(taken, 0, "keep").scores == (5, 2 - 18)
    # JSON forms turn back into the same actions.
    for action in state.legal_actions(0):
        assert state.action_from_json(0, state.action_to_json(0, action)) == action
    assert state.action_from_json(0, {"type": "keep"}) == game.give_id(0)


def test_a_split_is_refused_and_says_why() -> None:
    state = _won()
    with pytest.raises(IllegalActionError, match="with two players the leftover is not split"):
        state.apply(state.string_to_action(0, "-5@1"))
    reason = state.illegal_reason(0, state.game.give_id(5))
    assert "P0 keeps all 18 (keep, or +18@0) or P1 loses all 18 (give, or -18@1)" in reason
    with pytest.raises(IllegalActionError, match="not split"):
        state.string_to_action(0, "+5@0")


def test_three_players_still_split_even_when_two_are_left() -> None:
    # The rule is the game's: a three-player game whose third player is out still splits.
    state = position(
        _game(players=3),
        starters=[(3, 5), (2, 6), None],
        hands=[[(5, 1)], [(6, 6)], None],
        current=0,
    )
    state = _do(state, 0, "5-1@0.1")
    assert state.bonus is not None and state.bonus.total == 12
    assert list(state.legal_actions(0)) == [state.game.give_id(k) for k in range(13)]


def test_a_position_with_a_split_two_player_bonus_is_refused() -> None:
    data: Any = _won().to_json()
    data["bonus"]["given"] = [5]
    with pytest.raises(PositionError, match="not split"):
        _game(players=2).state_from_json(data)
    data["bonus"]["given"] = [18]
    assert _game(players=2).state_from_json(data).to_json() == data


def _shares(game: TugOfWar, agents: list[Any], seed: int) -> list[list[int]]:
    """Every bonus allocation of a self-play game, as the record writes it."""
    data = play_match(game, agents, seed=seed).record.to_json()
    assert isinstance(data, dict)
    return [
        list(event["allocation"].values())
        for rnd in data["rounds"]
        for event in rnd["events"]
        if event["type"] == "bonus"
    ]


@pytest.mark.parametrize("options", [{}, {"end": "round-points", "rounds": 4}])
def test_two_player_self_play_never_splits(options: dict[str, Any]) -> None:
    game = _game(players=2, **options)
    bonuses = 0
    for seed in range(20):
        agents = [RandomAgent(), GreedyAgent()] if seed % 2 else [RandomAgent(), RandomAgent()]
        for shares in _shares(game, agents, seed):
            bonuses += 1
            assert min(shares) == 0, shares
    assert bonuses > 20
    # A three-player game does split (the random agent picks any share).
    three = _game(players=3)
    split = [s for seed in range(5) for s in _shares(three, [RandomAgent()] * 3, seed)]
    assert any(sorted(s)[1] > 0 for s in split)


def test_the_fast_playout_hands_out_two_player_bonuses_whole_too() -> None:
    game = _game(players=2, target=30)
    for seed in range(20):
        assert game.random_playout(random.Random(seed)) == Game.random_playout(
            game, random.Random(seed)
        )


# -- records --------------------------------------------------------------------------------


def _bonus(rec: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = rec["rounds"][0]["events"][1]
    assert event["type"] == "bonus"
    return event


def test_a_two_player_record_with_a_split_bonus_is_refused() -> None:
    rec = _tiny()  # P0 goes out; P1 holds 3-3: a leftover of 6
    _bonus(rec)["allocation"] = {"0": 4, "1": 2}
    with pytest.raises(ReplayError) as info:
        replay_record(rec, 3)
    assert (info.value.record, info.value.round, info.value.event) == (3, 1, 2)
    assert "in a two-player game the leftover is not split" in str(info.value)
    assert "gives seat 0 4 and takes 2 from seat 1" in str(info.value)
    # Taking the whole leftover from P1 is allowed.
    rec = _tiny()
    _bonus(rec)["allocation"] = {"0": 0, "1": 6}
    rec["rounds"][0]["scores_after"] = rec["final_scores"] = [7, -6]
    assert replay_record(rec).scores == (7, -6)


@pytest.mark.parametrize(
    ("allocation", "key", "why"),
    [
        ({"0": 6, "1": 0, "01": 0}, "'01'", "the seat number written plainly"),
        ({"00": 6, "1": 0}, "'00'", "the seat number written plainly"),
        ({"0": 6, "+1": 0}, "'+1'", "the seat number written plainly"),
        ({"0": 6, " 1": 0}, "' 1'", "the seat number written plainly"),
        ({"0": 6, "\u00b9": 0}, "'\u00b9'", "a seat of this round"),
        ({"0": 6, "2": 0}, "'2'", "a seat of this round"),
    ],
)
def test_bonus_keys_are_seat_numbers_written_plainly_each_once(
    allocation: dict[str, int], key: str, why: str
) -> None:
    rec = copy.deepcopy(_tiny())
    _bonus(rec)["allocation"] = allocation
    message = f"bonus: key {key} is not {why}; keys are the seat numbers 0, 1, each once"
    with pytest.raises(ReplayError, match=re.escape(message)):
        replay_record(rec)
