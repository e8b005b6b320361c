"""Moves said in words (:meth:`GamePlugin.describe_move`): every legal move of every game, at
a few random positions, gets the game's own words; a game without words keeps its notation;
the server's frames and analysis carry them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from taut.core.game import Game, State
from taut.core.registry import games, plugin
from taut.core.terms import CHANCE_SEAT
from taut.server.play.table import GameTable
from tests.toygame.plugin import plugin as rope

#: Options of each game worth walking besides its defaults (variants that change the moves).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "pulling-strings": [{}, {"edition": "published", "learning": "strict", "seed": 3}],
    "push-pull": [{}, {"variant": "four", "shifts": True}, {"variant": "two-teams"}],
    "tracks": [{"size": 4}, {"size": 4, "roll": "each", "first": "random"}],
    "tug-of-war": [{"players": 2}, {"players": 3}],
}


def positions(game: Game, seed: int, count: int = 4, steps: int = 40) -> list[State]:
    """Up to ``count`` positions where seats choose, along one random game of ``game``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[State] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        acting = state.acting_seats()
        if CHANCE_SEAT in acting:
            state = state.apply({CHANCE_SEAT: state.sample_chance(rng)})
            continue
        if rng.random() < 0.3 or not out:
            out.append(state)
        state = state.apply({s: rng.choice(state.legal_actions(s)) for s in acting})
    return out[:count]


def test_every_game_has_variants_listed() -> None:
    assert set(VARIANTS) == set(games())


@pytest.mark.parametrize(("name", "options"), [(n, o) for n, os in VARIANTS.items() for o in os])
def test_every_legal_move_has_words(name: str, options: dict[str, Any]) -> None:
    found = plugin(name)
    game = found.game_class(**options)
    seen = 0
    for k, state in enumerate(positions(game, seed=len(options) * 7 + 1)):
        for seat in state.acting_seats():
            view = state.view(seat)
            for action in view.legal_actions(seat):
                text = view.action_to_string(seat, action)
                words = found.describe_move(view, seat, text)
                assert words.strip(), f"{name} {options}: no words for {text!r} at {k}"
                assert words != text, f"{name} {options}: {text!r} is said as its notation"
                assert " " in words, f"{name}: {words!r} is not said in words"
                seen += 1
    assert seen > 0


@pytest.mark.parametrize(("name", "options"), [(n, o) for n, os in VARIANTS.items() for o in os])
def test_the_words_of_all_moves_at_once_are_each_moves_words(
    name: str, options: dict[str, Any]
) -> None:
    """What a frame lists (:meth:`GamePlugin.describe_moves`, kept by some games) says each
    move as :meth:`GamePlugin.describe_move` does, asked once or again, whole or in part,
    and a list changed by its caller changes no later answer."""
    found = plugin(name)
    game = found.game_class(**options)
    seen = 0
    for state in positions(game, seed=len(options) * 5 + 2):
        for seat in state.acting_seats():
            view = state.view(seat)
            legal = [view.action_to_string(seat, a) for a in view.legal_actions(seat)]
            each = [found.describe_move(view, seat, m) for m in legal]
            first = found.describe_moves(view, seat, legal)
            assert first == each, f"{name} {options}"
            first.clear()
            assert found.describe_moves(view, seat, legal) == each
            assert found.describe_moves(view, seat, legal[1:]) == each[1:]
            seen += len(each)
    assert seen > 0


def test_the_words_are_the_narrations() -> None:
    tracks = plugin("tracks")
    state = tracks.game_class(size=4, first="NS").new_initial_state()
    rng = random.Random(2)
    while CHANCE_SEAT in state.acting_seats():
        state = state.apply({CHANCE_SEAT: state.sample_chance(rng)})
    (seat,) = state.acting_seats()
    action = state.legal_actions(seat)[0]
    text = state.action_to_string(seat, action)
    after = state.apply({seat: action})
    narrated = tracks.narrate(state, {seat: action}, after)
    assert narrated == [tracks.describe_move(state, seat, text) + "."]

    ps = plugin("pulling-strings")
    start = ps.game_class().new_initial_state()
    said = ps.describe_move(start, 0, "c")
    assert said == "Eks (X) pulls c (top)"
    line = ps.narrate(start, {0: 2, 1: 2}, start.apply({0: 2, 1: 2}))[0]
    assert "Eks (X) pulled c (top)" in line


def test_tug_of_war_words_tell_the_score() -> None:
    tug = plugin("tug-of-war")
    game = tug.game_class(players=2)
    for state in positions(game, seed=5, count=3):
        (seat,) = state.acting_seats()
        view = state.view(seat)
        for action in view.legal_actions(seat):
            text = view.action_to_string(seat, action)
            words = tug.describe_move(view, seat, text)
            if "@" in text:
                after = state.apply({seat: action})
                line = tug.narrate(state, {seat: action}, after)[0]
                # The narration after the move tells the same points the words promised.
                assert words.split(": ")[-1] in line, (words, line)


def test_a_game_without_words_keeps_its_notation() -> None:
    state: State = rope.game_class().new_initial_state()
    rng = random.Random(0)
    while CHANCE_SEAT in state.acting_seats():
        state = state.apply({CHANCE_SEAT: state.sample_chance(rng)})
    for seat in state.acting_seats():
        for action in state.legal_actions(seat):
            text = state.action_to_string(seat, action)
            assert rope.describe_move(state, seat, text) == text


def test_text_that_is_no_move_is_left_as_typed() -> None:
    for name in games():
        found = plugin(name)
        state = found.game_class().new_initial_state()
        assert found.describe_move(state, 0, "no such move!") == "no such move!"


def table_of(client: Any, game_id: str) -> GameTable:
    """The server's table of game ``game_id`` (loaded from the store if need be)."""
    table: GameTable | None = client.portal.call(client.app.state.hub.table, game_id)
    assert table is not None
    return table


def test_frames_carry_each_legal_move_with_its_words(tmp_path: Path) -> None:
    from taut.server.play.frames import state_frame
    from tests.test_server_kit import app_client, new_game

    with app_client(tmp_path) as client:
        made = new_game(client, "tug-of-war", ["me", "invite"], {"players": 2})
        table = table_of(client, made["id"])
        found = plugin("tug-of-war")
        acting = [s for s in table.state.acting_seats() if s != CHANCE_SEAT]
        assert acting, "the deal is done when the game is made"
        frame = state_frame(table, acting[0])
        view = table.state.view(acting[0])
        assert [m["notation"] for m in frame["moves"]] == frame["legal"] != []
        for m in frame["moves"]:
            assert m["words"] == found.describe_move(view, acting[0], m["notation"])
            assert " plays " in m["words"] or m["words"].endswith(("draws a tile", "passes"))
        # Nothing to choose, nothing listed: a spectator and the seat that waits.
        assert state_frame(table, None)["moves"] == []
        assert state_frame(table, 1 - acting[0])["moves"] == []


def test_a_learning_game_lists_no_words_either(tmp_path: Path) -> None:
    from taut.server.play.frames import state_frame
    from tests.test_server_kit import app_client, new_game

    options = {"edition": "published", "learning": "strict", "seed": 8}
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"], options)
        table = table_of(client, made["id"])
        frame = state_frame(table, 0)
        assert frame["legal"] == frame["moves"] == [] and frame["legal_count"] > 0
