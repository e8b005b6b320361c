"""The searches behind :mod:`taut.agents.analysis` where a game is not solved.

Each returns, per seat, a :class:`~taut.agents.analysis.SeatEstimate`: the seat's value of
every action it could take, its value of the position, the engine's action. See the
analysis module's docstring for which search serves which kind of node.
"""

from __future__ import annotations

import math
import random

import numpy as np

from taut.agents.analysis_model import (
    GAMMA,
    HIDDEN_BIAS,
    HIDDEN_C,
    HIDDEN_PLAYOUT,
    SEARCH,
    TURN_C,
    WIDE_C,
    WIDE_PRIOR,
    SeatEstimate,
)
from taut.agents.ismcts import ISMCTSAgent
from taut.agents.smmcts import FULL_WIDTH_MAX, Node, TreeSearch, make_rule
from taut.agents.smmcts.flat import GOFF, K0, K1
from taut.agents.smmcts.search import SuccessorMemo
from taut.core.game import State


def _tree(select: str, c: float, prior: float, full_width: bool) -> TreeSearch:
    """A fresh SM-MCTS search, leaves scored by the game's evaluation (no rollouts)."""
    return TreeSearch(
        make_rule(select, GAMMA, c),
        gamma=GAMMA,
        rollout=0,
        evaluator=None,
        transpose=True,
        prior=prior,
        full_width=full_width,
        memo=SuccessorMemo(),
    )


def simultaneous_search(
    state: State, think: float, iterations: int | None, rng: random.Random
) -> dict[int, SeatEstimate]:
    """Every acting seat's estimate at a node where seats choose at once, from one search:
    the root's payoff matrix solved by LP where two seats act and the joint moves are few
    enough for a full-width root, else the decoupled root statistics."""
    info = state.game.info
    lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
    acting = state.acting_seats()
    sizes = [len(state.legal_actions(s)) for s in acting]
    if len(acting) == 2 and sizes[0] * sizes[1] <= FULL_WIDTH_MAX:
        tree = _tree("rm", 0.0, 0.0, True)
        root, _ = tree.run(state, rng, iterations, think)
        if root.matrix is not None:
            return _matrix_estimates(tree, root, lo, span, info.zero_sum)
    tree = _tree("uct", WIDE_C, WIDE_PRIOR, False)
    root, _ = tree.run(state, rng, iterations, think)
    out = {}
    for j, seat in enumerate(root.seats):
        stats = root.stats[j]
        actions = root.actions[j]
        mix = tree.rule.final(stats)
        q = {a: lo + span * stats.mean[i] for i, a in enumerate(actions) if stats.n[i] > 0}
        for a in actions:  # never tried: the evaluation against a random reply
            if a not in q:
                q[a] = _evaluate(state, {seat: a}, seat, rng)
        value = sum(p * q[a] for a, p in zip(actions, mix, strict=True))
        top = max(range(len(actions)), key=lambda i: (mix[i], -i))
        out[seat] = SeatEstimate(q, value, actions[top], SEARCH)
    return out


def _matrix_estimates(
    tree: TreeSearch, root: Node, lo: float, span: float, zero_sum: bool
) -> dict[int, SeatEstimate]:
    """Both seats' estimates from the full-width root's matrix of children's values."""
    from taut.solve.matrix import solve_matrix_game

    assert root.matrix is not None
    flat = tree.flat
    k0, k1, goff = (int(v) for v in flat.meta[root.id, [K0, K1, GOFF]])
    children = flat.grid[goff : goff + k0 * k1].reshape(k0, k1)
    s0, s1 = root.seats
    m0 = lo + span * flat.values[s0][children]
    m1 = lo + span * flat.values[s1][children]
    if zero_sum:
        # One seat's values are the other's negated (an evaluation's rounding aside): one
        # LP on their antisymmetric part gives both mixes and both seats' values.
        m0 = (m0 - m1) / 2
        m1 = -m0
        _, x, y = solve_matrix_game(m0)
    else:  # pragma: no cover - every game analysed so far is zero-sum
        x, y = root.matrix.average(0), root.matrix.average(1)
    out = {}
    for seat, mine, q_all in ((s0, x, m0 @ y), (s1, y, x @ m1)):
        actions = root.actions[0 if seat == s0 else 1]
        q = {a: float(v) for a, v in zip(actions, q_all, strict=True)}
        value = float(np.asarray(mine) @ q_all)
        top = max(range(len(actions)), key=lambda i: (float(mine[i]), -i))
        out[seat] = SeatEstimate(q, value, actions[top], SEARCH)
    return out


def turn_search(
    state: State, seat: int, think: float, iterations: int | None, rng: random.Random
) -> SeatEstimate:
    """``seat``'s estimate where it alone chooses, with perfect information: each move's
    mean value at the root of a UCT search; a move that ends the game counts its result
    exactly, and is the engine's move where it beats the search's most visited one."""
    info = state.game.info
    lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
    tree = _tree("uct", TURN_C, 0.0, False)
    root, _ = tree.run(state, rng, iterations, think)
    stats, actions = root.stats[0], root.actions[0]
    q: dict[int, float] = {}
    final: set[int] = set()
    for i, a in enumerate(actions):
        after = state.apply_unchecked({seat: a})
        if after.is_terminal():
            q[a] = after.returns()[seat]
            final.add(a)
        elif stats.n[i] > 0:
            q[a] = lo + span * stats.mean[i]
        else:
            q[a] = state.game.heuristic(after)[seat]
    searched = actions[max(range(len(actions)), key=lambda i: (stats.n[i], stats.mean[i]))]
    best = max(
        (a for a in actions if a in final or a == searched),
        key=lambda a: (q[a], a == searched),
    )
    return SeatEstimate(q, q[best], best, SEARCH)


def hidden_search(
    state: State, seat: int, think: float, iterations: int | None, rng: random.Random
) -> SeatEstimate:
    """``seat``'s estimate where it alone chooses with hidden information: ISMCTS from
    ``state.view(seat)``, each move's mean value at the root (its evaluator prior
    counted); the engine's move is the search's most visited, the better valued of ties."""
    view = state.view(seat)
    agent = ISMCTSAgent(
        think=think,
        iterations=iterations,
        rollout=0,
        bias=HIDDEN_BIAS,
        c=HIDDEN_C,
        playout=HIDDEN_PLAYOUT,
    )
    result = agent.search(view, seat, rng)
    q = dict(result.action_values.get(seat, {}))
    for a in view.legal_actions(seat):
        if a not in q:  # never reached: the evaluation after it, in a sampled deal
            sample = view.game.determinize(view, seat, rng)
            q[a] = _evaluate(sample, {seat: a}, seat, rng)
    best = max(result.policy[seat], key=lambda a: (q.get(a, -math.inf), -a))
    return SeatEstimate(q, q[best], best, SEARCH)


def _evaluate(state: State, partial: dict[int, int], seat: int, rng: random.Random) -> float:
    """``seat``'s evaluation after its move in ``partial``, the other acting seats
    choosing at random (the result where the game ends)."""
    joint = {
        s: partial[s] if s in partial else rng.choice(state.legal_actions(s))
        for s in state.acting_seats()
    }
    after = state.apply_unchecked(joint)
    values = after.returns() if after.is_terminal() else state.game.heuristic(after)
    return float(values[seat])
