"""The duel solver, checked independently: best responses built on the game engine, symmetry,
uniqueness of the fixed point, and the one-piece races the values decompose into."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import taut
from taut.agents.perfect import PerfectAgent
from taut.arena.match import play_match
from taut.core.errors import InvalidOptionError
from taut.games.push_pull import PushPullState
from taut.games.push_pull.solve.duel_baselines import iterate_values
from taut.games.push_pull.solve.duel_newton import solve_duel
from taut.games.push_pull.solve.duel_positions import duel_position_key
from taut.games.push_pull.solve.duel_solution import DuelSolution
from taut.games.push_pull.solve.duel_summary import majority_value, race_odds
from taut.solve.matrix import solve_matrix_game

W, E = 0, 1


@pytest.fixture(scope="module")
def solution() -> DuelSolution:
    return solve_duel()


def parse_key(key: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in key.split(",")]


class EngineModel:
    """Every duel position's one-turn transitions, computed with the game engine itself."""

    def __init__(self, solution: DuelSolution) -> None:
        game = taut.make("push-pull")
        self.keys = list(solution.values)
        index = {k: i for i, k in enumerate(self.keys)}
        n = len(self.keys)
        self.win, self.loss = n, n + 1
        # Padded to 27 x 27: missing actions repeat the first one with probability 0.
        self.next = np.zeros((n, 27, 27), dtype=np.int64)
        self.west = np.zeros((n, 27))
        self.east = np.zeros((n, 27))
        for i, key in enumerate(self.keys):
            state = game.state_from_json({"pieces": dict(zip("LMS", parse_key(key), strict=True))})
            assert isinstance(state, PushPullState)
            wa = list(state.legal_actions(W))
            ea = list(state.legal_actions(E))
            for seat, mix, out, actions in (
                ("W", solution.strategy(key, "W"), self.west, wa),
                ("E", solution.strategy(key, "E"), self.east, ea),
            ):
                for text, p in mix.items():
                    action = state.string_to_action(W if seat == "W" else E, text)
                    assert action in actions, (key, seat, text)
                    out[i, actions.index(action)] = p
            for ai in range(27):
                for bi in range(27):
                    a = wa[ai if ai < len(wa) else 0]
                    b = ea[bi if bi < len(ea) else 0]
                    after = state.apply({W: a, E: b})
                    assert isinstance(after, PushPullState)
                    if after.outcome is not None:
                        self.next[i, ai, bi] = (
                            self.win if after.outcome.winners == (W,) else self.loss
                        )
                    else:
                        self.next[i, ai, bi] = index[duel_position_key(after)]

    def best_response(self, seat: str, sweeps: int = 20_000, worst: bool = False) -> np.ndarray:
        """Value for West when ``seat`` best-responds to the other seat's solved mix.

        Value iteration from 0 (a game that never ends scores 0), to convergence. With
        ``worst`` the replying seat plays its worst reply instead.
        """
        u = np.zeros(len(self.keys) + 2)
        u[self.win], u[self.loss] = 1.0, -1.0
        for _ in range(sweeps):
            after = u[self.next]
            if seat == "E":  # East replies to West's mix: best = lowest for West
                q = np.einsum("ka,kab->kb", self.west, after)
                new = q.max(axis=1) if worst else q.min(axis=1)
            else:  # West replies to East's mix
                q = np.einsum("kb,kab->ka", self.east, after)
                new = q.min(axis=1) if worst else q.max(axis=1)
            change = float(np.abs(new - u[: len(self.keys)]).max())
            u[: len(self.keys)] = new
            if change < 1e-15:
                break
        return u[: len(self.keys)]


@pytest.fixture(scope="module")
def engine(solution: DuelSolution) -> EngineModel:
    return EngineModel(solution)


def test_shape(solution: DuelSolution) -> None:
    data = solution.to_json()
    assert set(data) == {"values", "strategies"}
    assert len(data["values"]) == 305 and set(data["strategies"]) == set(data["values"])
    assert "2,2,2" in data["values"] and "W,3,3" in data["values"]
    assert "W,W,2" not in data["values"]  # terminal
    for key, seats in data["strategies"].items():
        live = [p for p, s in zip("LMS", key.split(","), strict=True) if s.isdigit()]
        assert set(seats) == {"W", "E"}
        for mix in seats.values():
            assert abs(sum(mix.values()) - 1) < 1e-12 and min(mix.values()) > 0
            for action in mix:
                assert [part.split("=")[0] for part in action.split(",")] == live
    assert abs(solution.values["2,2,2"]) < 1e-12


def test_unexploitable_by_engine_best_responses(
    solution: DuelSolution, engine: EngineModel
) -> None:
    v = np.array([solution.values[k] for k in engine.keys])
    west_guarantee = engine.best_response("E")  # East's best reply to West's mix
    east_guarantee = engine.best_response("W")
    assert float((v - west_guarantee).max()) < 1e-9
    assert float((east_guarantee - v).max()) < 1e-9
    # So the value is pinned between the two guarantees: exact to 1e-9.
    assert float((east_guarantee - west_guarantee).max()) < 2e-9


def test_optimal_mix_is_equalising(solution: DuelSolution, engine: EngineModel) -> None:
    # Even East's worst replies to West's mix give exactly the value: against the perfect
    # strategy every opponent, good or bad, gets the value of the position.
    v = np.array([solution.values[k] for k in engine.keys])
    assert float(np.abs(engine.best_response("E", worst=True) - v).max()) < 1e-9


def test_symmetries(solution: DuelSolution) -> None:
    swap = {"W": "E", "E": "W"}
    for key, value in solution.values.items():
        parts = key.split(",")
        mirror = ",".join(swap.get(p, str(4 - int(p)) if p.isdigit() else p) for p in parts)
        assert abs(value + solution.values[mirror]) < 1e-12, key
        rotated = ",".join(parts[1:] + parts[:1])  # relabel the pieces
        assert abs(value - solution.values[rotated]) < 1e-12, key
    # East's mix at a position is West's mix at the mirror image.
    assert solution.strategy("1,2,W", "E") == pytest.approx(solution.strategy("3,2,E", "W"))


def test_fixed_point_is_unique(solution: DuelSolution) -> None:
    # Value iteration from the largest and the smallest candidate reaches the same point,
    # so by monotonicity no other fixed point lies in [-1, 1].
    high = iterate_values(1.0)
    low = iterate_values(-1.0)
    for c, value in solution.class_values.items():
        assert abs(high[c] - value) < 1e-9 and abs(low[c] - value) < 1e-9


def test_one_piece_races(solution: DuelSolution) -> None:
    # The one-piece race solved separately: plain value iteration on the engine's moves,
    # each matrix game by the generic LP function solve_matrix_game.
    game = taut.make("push-pull")
    succ: dict[int, list[list[Any]]] = {}
    for square in range(5):
        state = game.state_from_json({"pieces": {"L": "W", "M": "E", "S": square}})
        rows = []
        for a in state.legal_actions(W):
            row = []
            for b in state.legal_actions(E):
                after = state.apply({W: a, E: b})
                assert isinstance(after, PushPullState)
                row.append(after.to_json()["pieces"]["S"])
            rows.append(row)
        succ[square] = rows
    v = {s: 0.0 for s in range(5)}
    worth = {"W": 1.0, "E": -1.0}
    for _ in range(150):  # Gauss-Seidel sweeps: the error is below 1e-9 after about 110
        for s in range(5):
            matrix = [[worth[t] if isinstance(t, str) else v[t] for t in row] for row in succ[s]]
            v[s] = solve_matrix_game(matrix)[0]
    for s in range(5):
        assert abs(v[s] - solution.values[f"W,E,{s}"]) < 1e-9
    # Every value is that of winning two of three independent races.
    odds = race_odds(solution)
    for key, value in solution.values.items():
        assert abs(value - majority_value(odds, key)) < 1e-12


def test_mixes_depend_only_on_the_square(solution: DuelSolution) -> None:
    race = {str(s): solution.strategy(f"W,E,{s}", "W") for s in range(5)}
    for key in ("2,2,2", "0,1,4", "W,3,3"):
        mix = solution.strategy(key, "W")
        for action, p in mix.items():
            expected = 1.0
            for part, square in zip(
                action.split(","), [s for s in key.split(",") if s.isdigit()], strict=True
            ):
                expected *= race[square]["S=" + part.split("=")[1]]
            assert abs(p - expected) < 1e-12


def test_speed(solution: DuelSolution) -> None:
    assert solution.stats.max_gap < 1e-11 and solution.stats.residual < 1e-11
    assert solution.stats.seconds < 5  # under a second on an idle core; slack for CI


def test_perfect_agent_plays_legal_moves() -> None:
    game = taut.make("push-pull", max_turns=60)
    result = play_match(game, [PerfectAgent(), PerfectAgent()], seed=3)
    assert result.state.is_terminal()
    again = play_match(game, [PerfectAgent(), PerfectAgent()], seed=3)
    assert again.record.moves == result.record.moves
    with pytest.raises(InvalidOptionError, match="no exact policy"):
        four = taut.make("push-pull", variant="four")
        PerfectAgent().act(four.new_initial_state(), 0, random.Random(0))
