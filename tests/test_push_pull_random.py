"""The best reply to random play in every Push-Pull variant: its model against the engine,
and its values against independent computations."""

from __future__ import annotations

import random

import numpy as np
import pytest

import taut
from taut.core.errors import InvalidOptionError
from taut.games.push_pull.board import OFF
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.solve.random_reply import piece_model, reply_to_random

CASES = [
    ("duel", (0,)),
    ("four", (0, 2)),
    ("four", (1,)),
    ("four-teams", (0, 1)),
    ("two-teams", (1,)),
]


def _game(variant: str, **options: object) -> PushPull:
    game = taut.make("push-pull", variant=variant, **options)
    assert isinstance(game, PushPull)
    return game


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_piece_model_matches_the_engine(variant: str, seats: tuple[int, ...]) -> None:
    """Random positions and joint actions: every piece lands where the model says."""
    game = _game(variant)
    lay = game.layout
    model = piece_model(game, seats)
    squares = model.squares
    ours = {u for u, members in enumerate(lay.unit_seats) if set(members) <= set(seats)}
    others = [s for s in range(lay.num_seats) if s not in seats]
    sums = sorted(_other_sums(game, seats))
    rng = random.Random(7)
    for _ in range(200):
        where = [rng.randrange(squares) for _ in range(3)]
        pieces = {
            p: (w if lay.rows == 1 else [w // 5, w % 5]) for p, w in zip("LMS", where, strict=True)
        }
        state = game.state_from_json({"pieces": pieces})
        joint = state.random_joint(rng)
        after = state.apply(joint)
        assert isinstance(after, PushPullState)
        for p in range(3):
            mine = sum(lay.contrib[s][joint[s]][p] for s in seats)
            theirs = sum(lay.contrib[s][joint[s]][p] for s in others)
            landed = model.landing[where[p], model.choices.index(mine), sums.index(theirs)]
            loc = after.locs[p]
            expected = loc if loc < OFF else squares + (lay.exit_unit(loc - OFF) not in ours)
            assert landed == expected


def _other_sums(game: PushPull, seats: tuple[int, ...]) -> set[int]:
    """Every sum of the other seats' per-piece contributions."""
    lay = game.layout
    every = lay.legal[7]
    sums = {0}
    for s in range(lay.num_seats):
        if s not in seats:
            codes = {lay.contrib[s][a][0] for a in every}
            sums = {x + c for x in sums for c in codes}
    return sums


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_transitions_are_distributions(variant: str, seats: tuple[int, ...]) -> None:
    model = piece_model(_game(variant), seats)
    assert np.allclose(model.transition.sum(axis=2), 1.0)
    assert sum(model.weights) == pytest.approx(1.0)


def test_duel_value_matches_the_exploitability_of_random_play() -> None:
    """Two independent computations: this module's, and the exact best reply to the uniform
    strategy table in ``taut.games.push_pull.solve.exploitability`` (which uses the engine's
    states)."""
    from taut.games.push_pull.solve.exploitability import (
        START,
        best_response_values,
        transitions,
    )

    table = transitions()
    uniform = np.zeros((len(table.keys), 27))
    for i, (west, _) in enumerate(table.actions):
        uniform[i, : len(west)] = 1.0 / len(west)
    east_reply = -best_response_values(table, uniform, 0)[table.keys.index(START)]
    assert reply_to_random("duel").value == pytest.approx(east_reply, abs=1e-8)


def test_a_team_is_a_two_teams_player() -> None:
    """A perfectly coordinated four-teams team and a two-teams player face the same
    problem (with the same teaming)."""
    a = reply_to_random("four-teams", tol=1e-6)
    b = reply_to_random("two-teams", tol=1e-6)
    assert a.value == pytest.approx(b.value, abs=1e-9)
    assert 0.8 < a.value < 0.9  # 92.6% of games: 95% is out of any agent's reach


def test_four_a_pair_on_one_axis_always_wins_a_single_seat_cannot() -> None:
    """N and S together own the north-south axis: they can move a piece 0, 1 or 2 squares
    either way, and pushing a piece off their side whenever it may leave east or west sends
    it back to the centre (a corner). So they can make every piece leave by N or S."""
    assert reply_to_random("four", seats=(0, 2)).value == pytest.approx(1.0)
    alone = reply_to_random("four", seats=(0,)).value
    assert -0.2 < alone < 0.0  # even the best single seat loses a little more than it wins


def test_weighted_finite_horizon_proves_the_95_percent_bound() -> None:
    """A win 1, a loss -19, a draw at turn 200: a negative best value means no agent wins
    95% of the decisive duel games against random play."""
    reply = reply_to_random("duel", loss_weight=19, turns=200)
    assert reply.sweeps == 200 and reply.value < 0
    # With an endless horizon and plain weights the same iteration gives the known value.
    assert reply_to_random("duel").win_share == pytest.approx((1 + 0.792) / 2, abs=1e-3)


def test_playing_the_reply_in_the_engine_wins_as_often_as_its_value_says() -> None:
    """Play the two-teams reply's greedy choices through the real engine against uniform
    random play: the share of games won must match the computed value."""
    game = _game("two-teams", max_turns=500)
    lay = game.layout
    model = piece_model(game, (0,))
    reply = reply_to_random("two-teams", tol=1e-7)
    t, v = model.transition, reply.values
    n = model.squares
    # A piece outcome continues as a piece state: scored earlier counts as scored.
    as_state = np.array([*range(n), n, n + 1, n, n + 1])
    after = v[np.ix_(as_state, as_state, as_state)]
    by_codes: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    rng = random.Random(11)
    wins = 0
    games = 200
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            x = [loc if loc < OFF else n + (lay.exit_unit(loc - OFF) != 0) for loc in state.locs]
            q = np.einsum(
                "ai,bj,ck,ijk->abc", t[:, x[0]], t[:, x[1]], t[:, x[2]], after, optimize=True
            )
            best = np.unravel_index(int(q.argmax()), q.shape)
            legal = tuple(state.legal_actions(0))
            table = by_codes.setdefault(legal, {lay.contrib[0][a]: a for a in legal})
            fixed = lay.contrib[0][legal[0]]  # a scored piece's code is the same in all
            want = tuple(fixed[p] if x[p] >= n else model.choices[best[p]] for p in range(3))
            state = state.apply({0: table[want], 1: rng.choice(state.legal_actions(1))})
        wins += state.returns()[0] > 0
    assert wins / games == pytest.approx(reply.win_share, abs=0.06), wins


def test_bad_seats() -> None:
    with pytest.raises(InvalidOptionError, match="all of N\\+E or none"):
        piece_model(_game("four-teams"), (0, 2))
    with pytest.raises(InvalidOptionError, match="distinct seats"):
        piece_model(_game("duel"), (0, 0))
    with pytest.raises(InvalidOptionError, match="distinct seats"):
        piece_model(_game("duel"), (2,))


def test_cli_prints_the_value_and_rejects_bad_input() -> None:
    import json

    from click.testing import CliRunner

    from taut.games.push_pull.commands import random_reply_command

    runner = CliRunner()
    r = runner.invoke(random_reply_command, ["push-pull", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["seats"] == ["W"] and data["value"] == pytest.approx(0.792, abs=1e-6)
    r = runner.invoke(random_reply_command, ["push-pull", "--loss-weight", "19", "--turns", "200"])
    assert r.exit_code == 0 and "value -1.08" in r.output, r.output
    for bad, message in (
        (["tug-of-war"], "push-pull only"),
        (["push-pull", "--variant", "four", "--seats", "Q"], "unknown seat"),
        (["push-pull", "--variant", "four-teams", "--seats", "N,S"], "all of N+E or none"),
        (["push-pull", "--variant", "five"], "variant"),
    ):
        r = runner.invoke(random_reply_command, bad)
        assert r.exit_code == 2 and message in r.output, (bad, r.output)
