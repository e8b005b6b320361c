"""One SM-MCTS search: descents from the root, expansion, leaf scoring and backups.

(Longer than 400 lines: the steps of one search share the tree's arrays and run in the hot
loop; the descent, expansion and backup read in one place.)

A descent selects at every node with the seats' selection rule (or a full-width node's
regret matching+), applies the joint action and goes on until it reaches a new position,
a finished game, a position it already passed (a cycle: that node's value stands in for
the rest of the game) or :data:`MAX_DEPTH`. A new position is scored by ``rollout`` random
nodes and then the evaluator; the rewards, scaled to [0, 1], are backed up along the path.
Positions with the same ``transposition_key`` share one node when ``transpose`` is on.

Per-node numbers live in flat arrays (:mod:`taut.agents.smmcts.flat`). Where a descent
passes expanded full-width nodes, the kernels (:mod:`taut.agents.smmcts.kernels`, compiled
with Numba when it is installed) select and back up; from a full-width root, whole descents
run inside them until one reaches a node only Python can handle (a new position, a
one-seat node, chance), which the search then finishes here.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from typing import NamedTuple

import numpy as np

from taut.agents.base import Evaluator
from taut.agents.budget import Deadline
from taut.agents.smmcts.flat import FlatTree
from taut.agents.smmcts.kernels import STOP_CYCLE, STOP_DEPTH, Kernels, load_kernels
from taut.agents.smmcts.matrix import MatrixNode
from taut.agents.smmcts.selection import SelectionRule
from taut.agents.smmcts.tree import Node
from taut.core.game import State
from taut.core.terms import CHANCE_SEAT, NodeKind

#: Nodes one descent may pass before the node's mean value stands in for the rest.
MAX_DEPTH = 400
#: Random choices of the other seats behind each root action's prior estimate.
PRIOR_PROFILES = 24
#: The most successors an agent remembers between searches (see :class:`SuccessorMemo`).
MEMO_MAX = 400_000
#: Descents between two reads of the clock.
CLOCK_EVERY = 16

Successors = tuple[list[tuple[State, Hashable]], np.ndarray]


class Step(NamedTuple):
    """A node of a descent handled in Python, with the selection made there (None where
    nothing was selected: chance nodes and the last node) and its probabilities."""

    node: Node
    picks: tuple[int, ...] | None
    probs: tuple[float, ...]


class Segment(NamedTuple):
    """Expanded full-width nodes of a descent: ``path[lo:hi]`` of the flat arrays."""

    lo: int
    hi: int


class SuccessorMemo:
    """The distinct positions the joint actions of two-seat nodes lead to, by the node's
    position key, kept between searches: a position's key fixes its future, so they cannot
    change, and later searches from nearby positions skip applying them again. Cleared
    when it holds more than ``limit`` successors, so memory stays bounded over a long game.
    """

    __slots__ = ("limit", "size", "table")

    def __init__(self, limit: int = MEMO_MAX) -> None:
        self.limit = limit
        self.size = 0
        self.table: dict[Hashable, Successors] = {}

    def get(self, key: Hashable) -> Successors | None:
        """The successors remembered for ``key``, if any."""
        return self.table.get(key)

    def put(self, key: Hashable, found: Successors) -> None:
        """Remember the successors of ``key``."""
        self.size += len(found[0])
        if self.size > self.limit:
            self.table.clear()
            self.size = len(found[0])
        self.table[key] = found

    def __len__(self) -> int:
        return len(self.table)


class TreeSearch:
    """The tree of one search, its flat arrays and the nodes and positions by number."""

    def __init__(
        self,
        rule: SelectionRule,
        *,
        gamma: float,
        rollout: int,
        evaluator: Evaluator | None,
        transpose: bool,
        prior: float,
        full_width: bool,
        memo: SuccessorMemo,
    ) -> None:
        self.rule = rule
        self.gamma = gamma
        self.rollout = rollout
        self.evaluator = evaluator
        self.transpose = transpose
        self.prior = prior
        self.full_width = full_width
        self.memo = memo
        self.lo = 0.0
        self.span = 1.0
        self._table: dict[Hashable, Node] | None = None
        self._flat = FlatTree(1, 1, 0)
        self._nodes: list[Node] = []
        self._states: list[State] = []
        self._stamp = 0  # the number of the current descent (for cycle checks)
        # Loaded here, before any clock starts: the first load may compile.
        self.kernels: Kernels | None = load_kernels() if full_width else None

    @property
    def nodes(self) -> int:
        """Nodes made so far."""
        return self._flat.nodes

    @property
    def flat(self) -> FlatTree:
        """The search's flat arrays."""
        return self._flat

    def value(self, node: Node) -> list[float]:
        """``node``'s current value per seat, in the game's utility units."""
        return [self.lo + v * self.span for v in self._flat.value(node.id)]

    def run(
        self, state: State, rng: random.Random, iterations: int | None, think: float
    ) -> tuple[Node, int]:
        """Descend from ``state`` until the budget is spent; the root and the descents."""
        info = state.game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        self.lo, self.span = lo, span
        seed = rng.getrandbits(64) if self.kernels is not None else 0
        self._flat = FlatTree(info.num_seats, MAX_DEPTH + 2, seed)
        self._nodes, self._states, self._stamp = [], [], 0
        root = self._node(state, None)
        if self.full_width:
            # A full-width node may reach the root again before the root's first backup.
            self._flat.values[:, root.id] = self._leaf(state, rng, lo, span)
        started = time.perf_counter()
        if self.prior > 0:
            if iterations is None:  # on the clock: the look-ahead gets half the time at most
                self._seed_root_for(root, state, rng, lo, span, think / 2)
            else:
                self._seed_root(root, state, rng, lo, span)
            think = max(0.0, think - (time.perf_counter() - started))
        self._table = {state.transposition_key(): root} if self.transpose else None
        count = self._spend(root, state, rng, iterations, think)
        self._table = None
        return root, count

    def _spend(
        self, root: Node, state: State, rng: random.Random, iterations: int | None, think: float
    ) -> int:
        """Descend until the budget is spent (exactly ``iterations`` descents, at least
        one, or until ``think`` seconds have passed, the clock read every
        :data:`CLOCK_EVERY` descents); the number of descents."""
        goal = None if iterations is None else max(1, iterations)
        deadline = Deadline(None if goal is not None else think)
        count = 0
        while True:
            batch = CLOCK_EVERY if goal is None else min(CLOCK_EVERY, goal - count)
            if root.matrix is not None and self.kernels is not None:
                count += self._kernel_descents(root, rng, batch)
            else:
                for _ in range(batch):
                    self._stamp += 1
                    self._flat.mark[root.id] = self._stamp
                    self._descend(root, state, rng, [], 0, 0)
                count += batch
            if goal is not None:
                if count >= goal:
                    return count
            elif deadline.passed():
                return count

    def _kernel_descents(self, root: Node, rng: random.Random, batch: int) -> int:
        """Up to ``batch`` descents from an expanded root in the kernels; one that stops
        at a node they cannot handle is finished here. The number of descents."""
        assert self.kernels is not None
        f = self._flat
        done, end, stop, _ = self.kernels.descents(
            root.id,
            batch,
            self._stamp + 1,
            MAX_DEPTH,
            f.meta,
            f.vec,
            f.grid,
            f.values,
            f.mark,
            f.path,
            f.rng,
            self.gamma,
        )
        self._stamp += done
        if done == batch:
            return done
        self._stamp += 1  # the descent the kernels left open
        self._descend(self._nodes[stop], self._states[stop], rng, [Segment(0, end)], end, end)
        return done + 1

    def _node(self, state: State, value: list[float] | None) -> Node:
        """A new node for ``state`` with its row in the flat arrays (``value``, if given)."""
        ident = self._flat.add_node(state.is_terminal(), value)
        node = Node(state, ident, self.full_width)
        self._nodes.append(node)
        self._states.append(state)
        return node

    def _descend(
        self,
        node: Node,
        state: State,
        rng: random.Random,
        steps: list[Step | Segment],
        pos: int,
        depth: int,
    ) -> None:
        """Go on with the current descent from ``node`` (already marked), after ``steps``
        (``depth`` nodes, ``path[:pos]`` of them in segments), and back it up."""
        lo, span = self.lo, self.span
        choose = self.rule.choose
        flat = self._flat
        stamp = self._stamp
        rewards: list[float] = []
        while True:
            if state.kind is NodeKind.TERMINAL:
                rewards = [(r - lo) / span for r in state.returns()]
                steps.append(Step(node, None, ()))
                break
            if depth >= MAX_DEPTH:
                rewards = self._estimate(node, state, rng)
                steps.append(self._segment(node, pos) if node.matrix else Step(node, None, ()))
                break
            if node.full and node.matrix is None:
                # First descent to reach it: expand it whole; its first backup scores it
                # from its children's evaluations.
                self._expand(node, state)
                steps.append(self._segment(node, pos))
                break
            if node.matrix is not None:
                assert self.kernels is not None
                end, stop, why = self.kernels.descend(
                    node.id,
                    depth,
                    stamp,
                    MAX_DEPTH,
                    flat.meta,
                    flat.vec,
                    flat.grid,
                    flat.mark,
                    flat.path,
                    pos,
                    flat.rng,
                )
                steps.append(Segment(pos, end))
                depth += end - pos
                pos = end
                node, state = self._nodes[stop], self._states[stop]
                if why in (STOP_CYCLE, STOP_DEPTH):
                    # Back at a position of this descent, or deep enough: the node's value
                    # so far stands in for the rest of the game.
                    rewards = self._estimate(node, state, rng)
                    break
                continue  # a finished game or a node handled here
            depth += 1
            if state.kind is NodeKind.CHANCE:
                key: tuple[int, ...] = (state.sample_chance(rng),)
                steps.append(Step(node, None, ()))
            else:
                picks = []
                probs = []
                for stats in node.stats:
                    i, p = choose(stats, rng)
                    picks.append(i)
                    probs.append(p)
                key = tuple(picks)
                steps.append(Step(node, key, tuple(probs)))
            child = node.children.get(key)
            if child is None:
                nxt = state.apply_unchecked(self._joint(node, key, state))
                known = self._lookup(nxt)
                if known is None:
                    value = self._leaf(nxt, rng, lo, span)
                    fresh = self._node(nxt, value)
                    self._remember(nxt, fresh)
                    node.children[key] = (fresh.id, nxt)
                    if fresh.full and not nxt.is_terminal():
                        node, state = fresh, nxt
                        flat.mark[node.id] = stamp
                        continue  # expanded at the top of the loop
                    # A fresh node ends the descent: no cycle check.
                    steps.append(Step(fresh, None, ()))
                    rewards = value
                    break
                # Another joint action (or path) already reached this position: share
                # its statistics and keep descending.
                node.children[key] = child = (known.id, nxt)
            node, state = self._nodes[child[0]], child[1]
            if flat.mark[node.id] == stamp:
                # Back at a position of this descent (a cycle): its value so far stands in
                # for the rest of the game, as in value iteration.
                rewards = self._estimate(node, state, rng)
                break
            flat.mark[node.id] = stamp
        self._backup(steps, rewards)

    def _segment(self, node: Node, pos: int) -> Segment:
        """A one-node segment for the expanded node ``node`` at ``path[pos]``."""
        self._flat.path[pos] = node.id
        return Segment(pos, pos + 1)

    def _backup(self, steps: list[Step | Segment], rewards: list[float]) -> None:
        """Back ``rewards`` up the descent ``steps``: an expanded node updates from its
        children's values, and its new value is what goes further up."""
        update = self.rule.update
        flat = self._flat
        for step in reversed(steps):
            if isinstance(step, Segment):
                assert self.kernels is not None
                self.kernels.backup(
                    flat.path,
                    step.lo,
                    step.hi,
                    flat.meta,
                    flat.vec,
                    flat.grid,
                    flat.values,
                    self.gamma,
                )
                rewards = flat.value(int(flat.path[step.lo]))
                continue
            n = step.node
            n.record(rewards)
            flat.values[:, n.id] = n.mean()
            if step.picks is not None:
                for j, (stats, i, p) in enumerate(
                    zip(n.stats, step.picks, step.probs, strict=True)
                ):
                    update(stats, i, p, rewards[n.seats[j]])

    @staticmethod
    def _joint(node: Node, key: tuple[int, ...], state: State) -> dict[int, int]:
        """The joint action a selection ``key`` (indices per acting seat) stands for."""
        if state.kind is NodeKind.CHANCE:
            return {CHANCE_SEAT: key[0]}
        return {s: node.actions[j][i] for j, (s, i) in enumerate(zip(node.seats, key, strict=True))}

    def _lookup(self, state: State) -> Node | None:
        """The node already made for ``state``'s position, if positions are shared."""
        return None if self._table is None else self._table.get(state.transposition_key())

    def _remember(self, state: State, node: Node) -> None:
        if self._table is not None:
            self._table[state.transposition_key()] = node

    def _estimate(self, node: Node, state: State, rng: random.Random) -> list[float]:
        """The value a node has so far (its evaluation if it has none)."""
        if node.matrix is not None:
            return self._flat.value(node.id)
        return node.mean() or self._leaf(state, rng, self.lo, self.span)

    def _expand(self, node: Node, state: State) -> None:
        """Apply every joint action of a full-width node. New children are scored by the
        evaluator without rollouts: their values enter the node's matrix directly, where
        one random playout's result would weigh as much as a searched value."""
        successors, cells = self._successors(node, state)
        table = self._table
        ids = []
        for nxt, key in successors:
            child = None if table is None else table.get(key)
            if child is None:
                value = self._score(nxt, self.lo, self.span)
                child = self._node(nxt, value)
                child.record(value)
                if table is not None:
                    table[key] = child
            ids.append(child.id)
        s0, s1 = node.seats
        self._flat.expand(node.id, (s0, s1), np.array(ids, dtype=np.int64)[cells])
        node.matrix = MatrixNode(self._flat, node.id)

    def _successors(self, node: Node, state: State) -> Successors:
        """The distinct positions the joint actions of a two-seat node lead to (with their
        keys), and which of them each joint action reaches; remembered across searches
        when positions are shared."""
        key = state.transposition_key() if self.transpose else None
        if key is not None:
            known = self.memo.get(key)
            if known is not None:
                return known
        s0, s1 = node.seats
        acts0, acts1 = node.actions
        cells = np.zeros((len(acts0), len(acts1)), dtype=np.intp)
        successors: list[tuple[State, Hashable]] = []
        index: dict[Hashable, int] = {}
        for i, a in enumerate(acts0):
            for j, b in enumerate(acts1):
                nxt = state.apply_unchecked({s0: a, s1: b})
                if not self.transpose:  # every joint action gets its own child
                    cells[i, j] = len(successors)
                    successors.append((nxt, None))
                    continue
                child_key = nxt.transposition_key()
                at = index.get(child_key)
                if at is None:
                    at = index[child_key] = len(successors)
                    successors.append((nxt, child_key))
                cells[i, j] = at
        if key is not None:
            self.memo.put(key, (successors, cells))
        return successors, cells

    def _seed_root(
        self, root: Node, state: State, rng: random.Random, lo: float, span: float
    ) -> None:
        """Start each root action with ``prior`` virtual visits at a one-turn estimate: the
        evaluation after it, against ``PRIOR_PROFILES`` random choices of the other seats.
        The search then begins where a one-turn look-ahead ends instead of trying every
        move."""
        evaluate = self.evaluator or state.game.heuristic
        for j, (seat, stats) in enumerate(zip(root.seats, root.stats, strict=True)):
            estimates = []
            for action in root.actions[j]:
                total = 0.0
                for _ in range(PRIOR_PROFILES):
                    joint = {
                        s: rng.choice(acts)
                        for s, acts in zip(root.seats, root.actions, strict=True)
                        if s != seat
                    }
                    joint[seat] = action
                    after = state.apply_unchecked(joint)
                    value = after.returns() if after.is_terminal() else evaluate(after)
                    total += (value[seat] - lo) / span
                estimates.append(total / PRIOR_PROFILES)
            self.rule.seed(stats, estimates, int(self.prior))

    def _seed_root_for(
        self, root: Node, state: State, rng: random.Random, lo: float, span: float, seconds: float
    ) -> None:
        """:meth:`_seed_root` within ``seconds`` (each seat an equal share): the profiles are
        drawn in rounds, one per action a round, each round visiting the actions in a
        spread order from a random start, until ``PRIOR_PROFILES`` rounds are done or the
        time is up. An action no round reached starts at the mean of those that were. (Two
        teams with shifts offer 15,625 moves a seat: every profile of every move would take
        many seconds, whatever the think time.)"""
        evaluate = self.evaluator or state.game.heuristic
        share = seconds / max(1, len(root.seats))
        for j, (seat, stats) in enumerate(zip(root.seats, root.stats, strict=True)):
            actions = root.actions[j]
            n = len(actions)
            totals, counts = [0.0] * n, [0] * n
            deadline = Deadline(share)
            stride = _stride(n)
            start = rng.randrange(n)
            done = False
            for _ in range(PRIOR_PROFILES):
                for t in range(n):
                    if t % 64 == 0 and deadline.passed():
                        done = True
                        break
                    i = (start + t * stride) % n
                    joint = {
                        s: rng.choice(acts)
                        for s, acts in zip(root.seats, root.actions, strict=True)
                        if s != seat
                    }
                    joint[seat] = actions[i]
                    after = state.apply_unchecked(joint)
                    value = after.returns() if after.is_terminal() else evaluate(after)
                    totals[i] += (value[seat] - lo) / span
                    counts[i] += 1
                if done:
                    break
            reached = [totals[i] / counts[i] for i in range(n) if counts[i]]
            mean = sum(reached) / len(reached) if reached else 0.5
            estimates = [totals[i] / counts[i] if counts[i] else mean for i in range(n)]
            self.rule.seed(stats, estimates, int(self.prior))

    def _leaf(self, state: State, rng: random.Random, lo: float, span: float) -> list[float]:
        """A new leaf's rewards: ``rollout`` random nodes, then the evaluator."""
        if self.rollout > 0 and not state.is_terminal():
            state = state.game.rollout(state, rng, self.rollout)
        return self._score(state, lo, span)

    def _score(self, state: State, lo: float, span: float) -> list[float]:
        """The evaluator's rewards for ``state`` (its returns if it is terminal)."""
        values = (
            state.returns()
            if state.is_terminal()
            else (self.evaluator or state.game.heuristic)(state)
        )
        return [(v - lo) / span for v in values]


def _stride(n: int) -> int:
    """A step coprime with ``n`` near the golden section of ``n``: ``start + t * step``
    modulo ``n`` visits every index once, spread over the whole range."""
    step = max(1, int(n * 0.6180339887))
    while math.gcd(step, n) != 1:
        step += 1
    return step
