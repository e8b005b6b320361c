"""What draws and passes reveal about a hand (the state's ``voids``), and determinizations
that respect it."""

from __future__ import annotations

import random

import pytest

import taut
from taut.core.game import State
from taut.games.tug_of_war.model import TugModel


def positions(seed: int, players: int, games: int = 2) -> list[State]:
    """Every position of a few uniform-random games."""
    game = taut.make("tug-of-war", players=players)
    rng = random.Random(seed)
    out: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(state)
            state = state.apply(state.random_joint(rng))
    return out


def touches(state: TugModel, seat: int) -> list[int]:
    """Tiles in ``seat``'s hand showing a number its voids rule out (a tile just drawn,
    about to be played or kept, is not yet covered)."""
    hand = state.hands[seat]
    assert hand is not None
    numbers = state.game.dominoes.numbers
    just_drawn = state.drawn if state.phase == "drawn" and state.current == seat else -1
    return [t for t in hand if numbers[t] & state.voids[seat] and t != just_drawn]


def hidden_tiles(state: TugModel, seat: int) -> set[int]:
    """The boneyard and every hand but ``seat``'s, together."""
    assert state.stock is not None
    out = set(state.stock)
    for s, hand in enumerate(state.hands):
        if s != seat and hand is not None:
            out |= hand
    return out


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_voids_never_contradict_the_hands(seed: int, players: int) -> None:
    learnt = 0
    for state in positions(seed, players):
        assert isinstance(state, TugModel)
        for seat in range(players):
            if state.hands[seat] is not None:
                assert touches(state, seat) == [], (state, seat)
            learnt += state.voids[seat] != 0
            # Public: every view and the spectator's know it too.
            for viewer in (seat, None):
                view = state.view(viewer)
                assert isinstance(view, TugModel)
                assert view.voids == state.voids
    assert learnt > 0  # the games did reveal something


def test_a_draw_rules_out_the_open_numbers_and_a_kept_tile_resets_them() -> None:
    seen_draw = seen_keep = False
    for state in positions(5, 2, games=4):
        assert isinstance(state, TugModel)
        if state.phase == "turn":
            seat = state.current
            if list(state.legal_actions(seat)) == [state.game.DRAW]:
                after = state.apply({seat: state.game.DRAW})
                assert isinstance(after, TugModel)
                assert after.voids[seat] == state.voids[seat] | state.open_numbers()
                seen_draw = True
        if state.phase == "drawn" and list(state.legal_actions(state.current)) == [state.game.PASS]:
            seat = state.current
            after = state.apply({seat: state.game.PASS})
            assert isinstance(after, TugModel)
            if after.phase != "bonus" and after.round == state.round:
                assert after.voids[seat] == state.open_numbers()
                seen_keep = True
    assert seen_draw and seen_keep


def test_a_new_round_forgets_the_voids() -> None:
    for before in positions(6, 2, games=3):
        assert isinstance(before, TugModel)
        if before.phase == "bonus" and before.bonus is not None and before.bonus.target is None:
            after = before.apply({before.bonus.winner: before.game.KEEP})
            assert isinstance(after, TugModel)
            if not after.is_terminal():
                assert after.voids == (0,) * before.game.num_players
                return
    pytest.fail("no round ended in these games")


@pytest.mark.parametrize(("seed", "players"), [(7, 2), (8, 3), (9, 4)])
def test_determinizations_respect_the_voids(seed: int, players: int) -> None:
    game = taut.make("tug-of-war", players=players)
    checked = 0
    for state in positions(seed, players):
        assert isinstance(state, TugModel)
        if state.phase != "turn" or not any(state.voids):
            continue
        seat = state.current
        view = state.view(seat)
        for k in range(3):
            full = game.determinize(view, seat, random.Random(k))
            assert isinstance(full, TugModel)
            assert hidden_tiles(full, seat) == hidden_tiles(state, seat)
            assert [full.sizes[s] for s in range(players)] == list(state.sizes)
            for s in range(players):
                if s != seat and state.playing[s]:
                    assert touches(full, s) == []
            checked += 1
    assert checked > 0


def test_a_position_read_from_json_knows_nothing_yet() -> None:
    for state in positions(10, 2):
        assert isinstance(state, TugModel)
        if any(state.voids):
            again = state.game.state_from_json(state.to_json())
            assert isinstance(again, TugModel)
            assert again.voids == (0, 0)
            assert again.to_json() == state.to_json()
            return
    pytest.fail("no draw or pass in these games")
