"""Tug of War with seven and eight players: a double-twelve set and hands of seven, and
everything that follows the set's size (ids, chance, notation, pictures, observations,
records, the fast playout and the nominal game length)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from rich.text import Text

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.core.game import Game
from taut.core.observation import build_layout, header_fields
from taut.core.record import GameRecord
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war import TugOfWar, TugState, position
from taut.games.tug_of_war.plugin import NOMINAL_ROUNDS, plugin
from taut.games.tug_of_war.record import replay_record
from taut.games.tug_of_war.state import TURN
from tests.conformance import check_conformance

#: Tiles, oriented chance outcomes and total pips of each set.
SETS = {6: (28, 49, 168), 9: (55, 100, 495), 12: (91, 169, 1092)}


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _dealt(game: TugOfWar, seed: int) -> TugState:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance():
        state = state.apply(state.random_joint(rng))
    assert isinstance(state, TugState)
    return state


@pytest.mark.parametrize(("players", "top"), [(2, 6), (3, 12), (5, 9), (7, 12), (8, 12)])
def test_ids_and_chance_follow_the_set(players: int, top: int) -> None:
    game = _game(players=players, set=top)
    tiles, oriented, pips = SETS[top]
    ds = game.dominoes
    assert (ds.size, ds.num_oriented, ds.total_pips) == (tiles, oriented, pips)
    info = game.info
    assert info.num_chance_outcomes == oriented
    # Plays, draw, pass, a share of 0..P, keep.
    assert info.num_distinct_actions == 2 * players * tiles + 2 + (pips + 1) + 1
    assert info.num_distinct_actions - 1 == game.KEEP
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == (top + 1) ** 2  # every orientation of every starter
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(0 <= o < oriented for o, _ in outcomes)


@pytest.mark.parametrize("players", [7, 8])
def test_seven_and_eight_players_get_hands_of_seven(players: int) -> None:
    game = _game(players=players)
    assert game.options["set"] == 12 and game.options["hand"] == 7
    state = _dealt(game, players)
    assert state.phase == TURN
    assert state.sizes == (7,) * players
    assert state.stock_size == 91 - 8 * players
    assert "double-twelve, hands of 7" in plugin.render(state)
    assert "hands of 7" in plugin.legend(game)[0]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 7, "end": "rounds", "rounds": 1},
        {"players": 8, "end": "rounds", "rounds": 1},
        {"players": 3, "set": 12, "end": "rounds", "rounds": 1},
    ],
)
def test_conformance_with_the_double_twelve_set(options: dict[str, object]) -> None:
    game = _game(**options)
    assert game.options["set"] == 12
    check_conformance(game, games=2)
    for seed in range(6):
        assert game.random_playout(random.Random(seed)) == Game.random_playout(
            game, random.Random(seed)
        )


def test_notation_and_pictures_with_two_digit_halves() -> None:
    game = _game(players=7)
    ds = game.dominoes
    hands = [[(12, 11), (10, 3)], [(9, 9)], [(0, 1)], [(2, 2)], [(4, 4)], [(5, 5)], [(6, 6)]]
    starters = [(12, 7), (8, 12), (3, 3), (0, 0), (1, 1), (2, 3), (4, 5)]
    state = position(game, starters=starters, hands=hands, current=0)
    play = state.string_to_action(0, "11-12@0.0")
    assert play == game.play_id(ds.index(11, 12), 0, 0)
    assert state.action_to_string(0, play) == "12-11@0.0"
    assert state.string_to_action(0, "12-11@P1.1") == game.play_id(ds.index(11, 12), 1, 1)
    assert state.action_to_json(0, play) == {"type": "play", "tile": [12, 11], "train": 0, "end": 0}
    assert state.string_to_action(CHANCE_SEAT, "12-12") == ds.oriented(12, 12)
    with pytest.raises(ValueError, match=r"halves 0\.\.12"):
        state.string_to_action(0, "13-2")
    after = state.apply(play)
    assert isinstance(after, TugState) and after.scores[0] == 11 + 7
    text = plugin.render(after.view(0))
    assert "(11) [11|12]{12|7} (7)  = 18" in text
    assert "Your hand (P0): 3-10   [13 pips]" in text
    assert Text.from_markup(plugin.render(after.view(0), markup=True)).plain == text


def test_observation_sizes_follow_the_set() -> None:
    game = _game(players=8)
    observer = plugin.observer()
    layout = build_layout([*header_fields(game), *observer.fields(game)])
    sizes = {f.name: f.size for f in layout.fields}
    assert sizes["hand"] == sizes["drawn"] == 91
    assert sizes["open_ends"] == 8 * 2 * 13
    assert sizes["train_tiles"] == 8 * 91
    state = _dealt(game, 2)
    out = np.zeros(layout.size, dtype=np.float32)
    observer.fill(game, state.view(3), 3, out, layout)
    hand = state.hands[3]
    assert hand is not None
    assert set(np.flatnonzero(out[layout.slice("hand")])) == set(hand)
    ends = out[layout.slice("open_ends")].reshape(8, 2, 13)
    assert ends.sum() == 16  # one number showing at each end of each train


def test_the_nominal_game_length_follows_the_set() -> None:
    # 91 tiles, 8 players: 91 plays + 2 * 91 draws and passes + 8 * 92 passes + 8 bonus steps.
    assert plugin.max_game_length(_game(players=8)) == 1017 * NOMINAL_ROUNDS
    assert plugin.max_game_length(_game(players=3, set=12)) > plugin.max_game_length(
        _game(players=3)
    )


@pytest.mark.parametrize("players", [7, 8])
def test_records_of_seven_and_eight_players_round_trip(players: int) -> None:
    game = _game(players=players, end="rounds", rounds=2)
    agents = [GreedyAgent(), *[RandomAgent() for _ in range(players - 1)]]
    result = play_match(game, agents, seed=players)
    data = json.loads(json.dumps(result.record.to_json()))
    assert data["options"]["set"] == 12 and data["options"]["hand"] == 7
    first = data["rounds"][0]
    assert all(len(hand) == 7 for hand in first["hands"])
    assert players + 7 * players + len(first["boneyard"]) == 91
    final = result.state
    assert GameRecord.from_json(data).replay().to_json() == final.to_json()
    legacy = {k: data[k] for k in ("game", "options", "players", "seed", "rounds")}
    legacy.update(final_scores=data["final_scores"], winner=data["winner"])
    assert replay_record(legacy).to_json() == final.to_json()


def test_heuristic_and_determinize_with_the_double_twelve_set() -> None:
    game = _game(players=8, end="rounds", rounds=1)
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        for seat in range(8):
            view = state.view(seat)
            assert all(-1.0 <= v <= 1.0 for v in game.heuristic(view))
            if seat == 5 and state.kind.name == "DECISION":
                guess = game.determinize(view, seat, rng)
                assert guess.view(seat).to_json() == view.to_json()
        state = state.apply(state.random_joint(rng))
    assert game.heuristic(state) == state.returns()
