"""The best reply to random play in Push-Pull's team games: its model against the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

import taut
from taut.core.errors import InvalidOptionError
from taut.games.push_pull.board import OFF
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.solve.push_pull_teams import (
    PIECE_STATES,
    SQUARES,
    piece_model,
    team_reply_to_random,
    terminal_values,
)


def _piece_state(game: PushPull, loc: int) -> int:
    return loc if loc < OFF else SQUARES + game.layout.exit_unit(loc - OFF)


@pytest.mark.parametrize("teams", ["NE-SW", "NW-SE"])
def test_piece_model_matches_the_engine(teams: str) -> None:
    """Random positions and joint actions: every piece lands where the model says."""
    game = taut.make("push-pull", variant="two-teams", teams=teams)
    assert isinstance(game, PushPull)
    lay = game.layout
    model = piece_model(game)
    rng = random.Random(7)
    for _ in range(300):
        squares = [rng.randrange(SQUARES) for _ in range(3)]
        state = game.state_from_json(
            {"pieces": {p: [s // 5, s % 5] for p, s in zip("LMS", squares, strict=True)}}
        )
        joint = state.random_joint(rng)
        after = state.apply(joint)
        assert isinstance(after, PushPullState)
        for p in range(3):
            i = model.codes.index(lay.contrib[0][joint[0]][p])
            other = sorted({lay.contrib[1][a][p] for a in state.legal_actions(1)})
            j = other.index(lay.contrib[1][joint[1]][p])
            assert model.next_state[squares[p], i, j] == _piece_state(game, after.locs[p])


def test_transitions_are_distributions_and_scoring_is_absorbing() -> None:
    game = taut.make("push-pull", variant="two-teams")
    assert isinstance(game, PushPull)
    t = piece_model(game).transition
    assert np.allclose(t.sum(axis=2), 1.0)
    for x in (SQUARES, SQUARES + 1):
        assert np.allclose(t[:, x, x], 1.0)
    # From the centre nothing can be scored in one turn (it is two squares from any side).
    centre = game.layout.start
    assert t[:, centre, SQUARES:].sum() == 0


def test_terminal_values() -> None:
    result, done = terminal_values()
    s0, s1 = SQUARES, SQUARES + 1
    assert done[s0, s0, 3] and result[s0, s0, 3] == 1.0
    assert done[s1, 7, s1] and result[s1, 7, s1] == -1.0
    assert not done[s0, s1, 12] and result[s0, s1, 12] == 0.0
    assert done.sum() == 2 * (
        3 * 26 + 1
    )  # per team: two scored (the third anywhere else), or three
    assert result.shape == (PIECE_STATES,) * 3


def test_reply_beats_random_but_is_bounded() -> None:
    reply = team_reply_to_random(tol=1e-6)
    assert 0.0 < reply.value < 1.0
    assert reply.win_share == pytest.approx((1 + reply.value) / 2)
    # A piece already scored is worth having, and worth denying.
    centre = 12
    ahead, behind = reply.values[SQUARES, centre, centre], reply.values[SQUARES + 1, centre, centre]
    assert ahead > reply.value > behind


def test_playing_the_reply_in_the_engine_wins_as_often_as_its_value_says() -> None:
    """Play the reply's greedy choices through the real engine against uniform random play:
    the share of games won must match the computed value."""
    game = taut.make("push-pull", variant="two-teams", max_turns=500)
    assert isinstance(game, PushPull)
    lay = game.layout
    model = piece_model(game)
    reply = team_reply_to_random(tol=1e-7)
    t, v = model.transition, reply.values
    by_codes: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}  # per legal set
    rng = random.Random(11)
    wins = 0
    games = 200
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            x = [_piece_state(game, loc) for loc in state.locs]
            q = np.einsum("ai,bj,ck,ijk->abc", t[:, x[0]], t[:, x[1]], t[:, x[2]], v, optimize=True)
            best = np.unravel_index(int(q.argmax()), q.shape)
            legal = tuple(state.legal_actions(0))
            table = by_codes.setdefault(legal, {lay.contrib[0][a]: a for a in legal})
            fixed = lay.contrib[0][legal[0]]  # a scored piece's code is the same in all
            want = tuple(fixed[p] if x[p] >= SQUARES else model.codes[best[p]] for p in range(3))
            state = state.apply({0: table[want], 1: rng.choice(state.legal_actions(1))})
        wins += state.returns()[0] > 0
    assert wins / games == pytest.approx(reply.win_share, abs=0.06), wins


def test_only_two_teams_without_shifts() -> None:
    with pytest.raises(InvalidOptionError, match="two-teams"):
        piece_model(taut.make("push-pull", variant="four-teams"))  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="two-teams"):
        piece_model(taut.make("push-pull", variant="two-teams", shifts=True))  # type: ignore[arg-type]
