"""SM-MCTS kernels: the Numba kernels and the Python/NumPy ones give the same results."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections.abc import Hashable, Sequence

import numpy as np
import pytest

import taut
from taut.agents.smmcts import SMMCTSAgent
from taut.agents.smmcts import kernels as py
from taut.agents.smmcts.flat import (
    CDF,
    CUM,
    EXPANDED,
    KIND,
    MIX,
    OTHER,
    REGRET,
    TERMINAL,
    UPDATES,
    FlatTree,
)
from taut.agents.smmcts.kernels import (
    MASK64,
    NOISE,
    STOP_CYCLE,
    STOP_DEPTH,
    STOP_END,
    STOP_OPEN,
    Kernels,
    load_kernels,
)
from taut.core.game import Game, State
from taut.core.terms import CHANCE_SEAT, JSON, GameInfo, NodeKind, Outcome, Termination


@pytest.fixture(scope="module")
def compiled() -> Kernels:
    pytest.importorskip("numba")
    kernels = py.compiled_kernels()
    assert kernels is not None and kernels.name == "numba"
    return kernels


def random_tree(seed: int, nodes: int = 60, expanded: float = 0.7) -> FlatTree:
    """A flat tree of random nodes (cycles included) with random statistics: most nodes
    expanded, some finished games, some left to Python."""
    gen = np.random.default_rng(seed)
    flat = FlatTree(3, 64, seed)
    rest = (1.0 - expanded) / 2
    kinds = gen.choice([EXPANDED, TERMINAL, OTHER], size=nodes, p=[expanded, rest, rest])
    kinds[0] = EXPANDED
    for kind in kinds:
        flat.add_node(bool(kind == TERMINAL), list(gen.random(3)))
    for ident in np.flatnonzero(kinds == EXPANDED):
        k0, k1 = (int(k) for k in gen.integers(1, 28, size=2))
        seats = (0, 2) if gen.random() < 0.5 else (2, 1)
        flat.expand(int(ident), seats, gen.integers(0, nodes, size=(k0, k1)))
        run = slice(int(flat.meta[ident, 5]), int(flat.meta[ident, 5]) + k0 + k1)
        # Regrets with exact zeros (the floor), sums and mixes as after some updates.
        flat.vec[REGRET, run] = np.maximum(gen.normal(0.0, 1.0, k0 + k1), 0.0)
        flat.vec[CUM, run] = gen.random(k0 + k1) * 50
        flat.meta[ident, UPDATES] = int(gen.integers(0, 10))
        for lo, k in ((run.start, k0), (run.start + k0, k1)):
            mix = gen.random(k)
            flat.vec[MIX, lo : lo + k] = mix / mix.sum()
            flat.vec[CDF, lo : lo + k] = np.cumsum(flat.vec[MIX, lo : lo + k])
    return flat


def assert_same_trees(a: FlatTree, b: FlatTree) -> None:
    np.testing.assert_array_equal(a.meta, b.meta)
    np.testing.assert_array_equal(a.mark, b.mark)
    np.testing.assert_array_equal(a.rng, b.rng)
    np.testing.assert_allclose(a.vec, b.vec, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.values, b.values, rtol=1e-12, atol=1e-12)


def test_the_generators_give_the_same_numbers(compiled: Kernels) -> None:
    for seed in (0, 1, MASK64, 0x9E3779B97F4A7C15):
        a = np.array([seed], dtype=np.uint64)
        b = a.copy()
        ours = [py.next_double(a) for _ in range(1000)]
        theirs = [compiled.next_double(b) for _ in range(1000)]
        assert ours == theirs and a[0] == b[0]
        assert all(0.0 <= u < 1.0 for u in ours)
        assert len(set(ours)) == 1000


def test_the_generator_is_splitmix64() -> None:
    """The first output of SplitMix64 from state 0 is 0xE220A8397B1DCDAF."""
    rng = np.zeros(1, dtype=np.uint64)
    assert py.next_double(rng) == (0xE220A8397B1DCDAF >> 11) / 2.0**53


@pytest.mark.parametrize("seed", range(8))
def test_update_matches(compiled: Kernels, seed: int) -> None:
    a = random_tree(seed)
    b = copy.deepcopy(a)
    expanded = np.flatnonzero(a.meta[: a.nodes, KIND] == EXPANDED)
    for node in list(expanded) * 3:  # a few rounds, so later updates read earlier ones
        py.update(int(node), a.meta, a.vec, a.grid, a.values, 0.1)
        compiled.update(int(node), b.meta, b.vec, b.grid, b.values, 0.1)
    assert_same_trees(a, b)
    regrets = a.vec[REGRET, : a.vec_used]
    assert np.all((regrets == 0) | (regrets >= NOISE))
    assert np.any(a.values != random_tree(seed).values)  # the updates wrote values


@pytest.mark.parametrize("seed", range(8))
def test_choose_matches(compiled: Kernels, seed: int) -> None:
    a = random_tree(seed)
    b = copy.deepcopy(a)
    expanded = [int(n) for n in np.flatnonzero(a.meta[: a.nodes, KIND] == EXPANDED)]
    picks = [py.choose(n, a.meta, a.vec, a.rng) for n in expanded * 20]
    assert picks == [compiled.choose(n, b.meta, b.vec, b.rng) for n in expanded * 20]
    assert len(set(picks)) > 1


def test_choose_follows_the_mix() -> None:
    flat = FlatTree(2, 4, 7)
    leaf = flat.add_node(True, [0.0, 0.0])
    node = flat.add_node(False, None)
    flat.expand(node, (0, 1), np.full((3, 2), leaf, dtype=np.int64))
    flat.vec[CDF, :5] = [0.2, 0.2, 1.0, 0.9, 1.0]  # seat 0: 0.2, 0, 0.8; seat 1: 0.9, 0.1
    counts = np.zeros((3, 2))
    for _ in range(20000):
        counts[py.choose(node, flat.meta, flat.vec, flat.rng)] += 1
    np.testing.assert_allclose(counts.sum(axis=1) / 20000, [0.2, 0.0, 0.8], atol=0.02)
    np.testing.assert_allclose(counts.sum(axis=0) / 20000, [0.9, 0.1], atol=0.02)


@pytest.mark.parametrize("seed", range(12))
def test_descents_match(compiled: Kernels, seed: int) -> None:
    a = random_tree(seed, expanded=0.85)
    b = copy.deepcopy(a)
    stops = completed = 0
    stamp = 1
    for _ in range(30):
        ours = py.descents(
            0, 25, stamp, 6, a.meta, a.vec, a.grid, a.values, a.mark, a.path, a.rng, 0.1
        )
        theirs = compiled.descents(
            0, 25, stamp, 6, b.meta, b.vec, b.grid, b.values, b.mark, b.path, b.rng, 0.1
        )
        assert ours == theirs
        done, end, stop, why = ours
        np.testing.assert_array_equal(a.path[:end], b.path[:end])
        if why == STOP_OPEN:
            stops += 1
            assert a.meta[stop, KIND] == OTHER
        completed += done
        stamp += done + 1
    assert_same_trees(a, b)
    assert stops > 0 and completed > 0  # descents ended both inside the kernels and outside
    assert np.any(a.meta[:, UPDATES] != random_tree(seed, expanded=0.85).meta[:, UPDATES])


@pytest.mark.parametrize("seed", range(12))
def test_descend_matches_and_says_why_it_stopped(compiled: Kernels, seed: int) -> None:
    a = random_tree(seed, expanded=0.8)
    b = copy.deepcopy(a)
    seen = set()
    for stamp in range(1, 200):
        a.mark[0] = b.mark[0] = stamp
        ours = py.descend(0, 2, stamp, 8, a.meta, a.vec, a.grid, a.mark, a.path, 1, a.rng)
        theirs = compiled.descend(0, 2, stamp, 8, b.meta, b.vec, b.grid, b.mark, b.path, 1, b.rng)
        assert ours == theirs
        end, stop, why = ours
        path = [int(n) for n in a.path[1:end]]
        assert path[0] == 0 and all(a.meta[n, KIND] == EXPANDED for n in path)
        assert len(path) == len(set(path)) <= 7  # no node twice; depth 2 of 8 already
        if why == STOP_CYCLE:
            assert stop in path
        elif why == STOP_DEPTH:
            assert len(path) == 7 and stop == path[-1]
        else:
            assert a.meta[stop, KIND] == (TERMINAL if why == STOP_END else OTHER)
        seen.add(why)
    assert seen >= {STOP_CYCLE, STOP_END, STOP_OPEN}


def _duel_mixes(iterations: int, seed: int) -> dict[int, dict[int, float]]:
    game = taut.make("push-pull")
    state = game.new_initial_state()
    agent = SMMCTSAgent("rm", iterations=iterations, rollout=0)
    return agent.strategies(state, (0, 1), random.Random(seed))


def test_a_search_gives_the_same_policy_through_both_paths(
    compiled: Kernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAUT_NO_NUMBA", raising=False)
    assert load_kernels() is compiled
    fast = _duel_mixes(3000, 4)
    monkeypatch.setenv("TAUT_NO_NUMBA", "1")
    assert load_kernels().name == "python"
    slow = _duel_mixes(3000, 4)
    for seat in (0, 1):
        assert fast[seat].keys() == slow[seat].keys()
        np.testing.assert_allclose(
            [fast[seat][a] for a in fast[seat]], [slow[seat][a] for a in fast[seat]], rtol=1e-9
        )
    assert slow != _duel_mixes(3000, 5)  # the seed matters


def test_the_fallback_plays_a_duel_position_reproducibly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUT_NO_NUMBA", "1")
    assert _duel_mixes(300, 1) == _duel_mixes(300, 1)


def test_importing_taut_does_not_import_numba() -> None:
    code = (
        "import sys, taut, taut.agents, taut.agents.smmcts, taut.cli\nprint('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- a game that mixes node kinds --------------------------------------------------------

LEFT_THE_STRIP = Termination("off", "the token left the strip")
BOTH, COIN, SOLO = 0, 1, 2  # who acts: both seats at once, chance, one seat


class Strip(Game):
    """A token on a strip; it leaves at -3 (seat 1 wins) or +3 (seat 0 wins). Turns cycle:
    both seats pick 0..3 at once (the token moves by the difference, clipped to one step),
    a coin moves it by -1, 0 or +1, then the seat whose parity matches the square steps it
    by -1 or +1. Positions repeat, so the search meets cycles and all three node kinds."""

    name = "strip"

    def __init__(self) -> None:
        super().__init__()
        self._info = GameInfo(
            name="strip",
            title="Strip",
            version="1",
            seats=("A", "B"),
            simultaneous=True,
            chance=True,
            perfect_information=True,
            num_distinct_actions=4,
            num_chance_outcomes=3,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=1000,
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    def new_initial_state(self) -> StripState:
        return StripState(self, 0, BOTH)

    def state_from_json(self, data: JSON) -> StripState:
        return StripState(self, data["pos"], data["phase"])


class StripState(State):
    game: Strip

    def __init__(self, game: Strip, pos: int, phase: int) -> None:
        self.game = game
        self.pos = pos
        self.phase = phase

    @property
    def kind(self) -> NodeKind:
        if abs(self.pos) >= 3:
            return NodeKind.TERMINAL
        return (NodeKind.SIMULTANEOUS, NodeKind.CHANCE, NodeKind.DECISION)[self.phase]

    def acting_seats(self) -> tuple[int, ...]:
        kind = self.kind
        if kind is NodeKind.TERMINAL:
            return ()
        if kind is NodeKind.CHANCE:
            return (CHANCE_SEAT,)
        return (0, 1) if self.phase == BOTH else (self.pos % 2,)

    def legal_actions(self, seat: int) -> Sequence[int]:
        if seat not in self.acting_seats():
            return ()
        return range(4) if self.phase == BOTH else range(2)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.25), (1, 0.5), (2, 0.25)] if self.kind is NodeKind.CHANCE else []

    def _apply(self, joint: dict[int, int]) -> State:
        if self.phase == BOTH:
            step = max(-1, min(1, joint[0] - joint[1]))
        elif self.phase == COIN:
            step = joint[CHANCE_SEAT] - 1
        else:
            step = 2 * next(iter(joint.values())) - 1
        return StripState(self.game, self.pos + step, (self.phase + 1) % 3)

    @property
    def outcome(self) -> Outcome | None:
        if abs(self.pos) < 3:
            return None
        return Outcome((0,) if self.pos > 0 else (1,), LEFT_THE_STRIP)

    def returns(self) -> tuple[float, ...]:
        if abs(self.pos) < 3:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.pos > 0 else (-1.0, 1.0)

    def transposition_key(self) -> Hashable:
        return (self.pos, self.phase)

    def action_to_string(self, seat: int, action: int) -> str:
        return str(action)

    def string_to_action(self, seat: int, text: str) -> int:
        return int(text)

    def to_json(self) -> JSON:
        return {"pos": self.pos, "phase": self.phase}


def _strip_search(seed: int) -> tuple[dict[int, dict[int, float]], FlatTree, int]:
    agent = SMMCTSAgent("rm", iterations=1500, rollout=0)
    root, tree, _ = agent._grow(Strip().new_initial_state(), random.Random(seed))
    mixes = {seat: agent._answer(root, j) for j, seat in enumerate(root.seats)}
    stats = sum(1 for node in tree._nodes if node.stats)  # nodes handled in Python
    return mixes, tree.flat, stats


def test_descents_through_every_kind_of_node_match(
    compiled: Kernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAUT_NO_NUMBA", raising=False)
    fast, flat, python_nodes = _strip_search(2)
    # The search went through expanded nodes (kernels) and chance and one-seat nodes.
    assert np.count_nonzero(flat.meta[: flat.nodes, KIND] == EXPANDED) >= 3
    assert python_nodes >= 3
    monkeypatch.setenv("TAUT_NO_NUMBA", "1")
    slow, slow_flat, _ = _strip_search(2)
    for seat in (0, 1):
        assert fast[seat].keys() == slow[seat].keys()
        np.testing.assert_allclose(
            [fast[seat][a] for a in fast[seat]], [slow[seat][a] for a in fast[seat]], rtol=1e-9
        )
    np.testing.assert_allclose(flat.values, slow_flat.values, rtol=1e-9, atol=1e-12)
