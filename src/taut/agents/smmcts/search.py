"""One SM-MCTS search: descents from the root, expansion, leaf scoring and backups.

A descent selects at every node with the seats' selection rule (or a full-width node's
regret matching+), applies the joint action and goes on until it reaches a new position,
a finished game, a position it already passed (a cycle: that node's value stands in for
the rest of the game) or :data:`MAX_DEPTH`. A new position is scored by ``rollout`` random
nodes and then the evaluator; the rewards, scaled to [0, 1], are backed up along the path.
Positions with the same ``transposition_key`` share one node when ``transpose`` is on.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np

from taut.agents.base import Evaluator
from taut.agents.budget import spend
from taut.agents.smmcts.matrix import MatrixNode
from taut.agents.smmcts.selection import SelectionRule
from taut.agents.smmcts.tree import Node
from taut.core.game import CHANCE_SEAT, NodeKind, State

#: Nodes one descent may pass before the node's mean value stands in for the rest.
MAX_DEPTH = 400
#: Random choices of the other seats behind each root action's prior estimate.
PRIOR_PROFILES = 24
#: The most successors an agent remembers between searches (see :class:`SuccessorMemo`).
MEMO_MAX = 400_000
#: Descents between two reads of the clock.
CLOCK_EVERY = 16

Successors = tuple[list[tuple[State, Hashable]], np.ndarray]


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
    """The tree of one search and its value table (one row per seat, a column per node)."""

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
        self._values = np.zeros((0, 0))  # (seats, nodes): each node's current value per seat
        self._count = 0  # nodes made in this search

    @property
    def nodes(self) -> int:
        """Nodes made so far."""
        return self._count

    def value(self, node: Node) -> list[float]:
        """``node``'s current value per seat, in the game's utility units."""
        return [self.lo + float(v) * self.span for v in self._values[:, node.id]]

    def run(
        self, state: State, rng: random.Random, iterations: int | None, think: float
    ) -> tuple[Node, int]:
        """Descend from ``state`` until the budget is spent; the root and the descents."""
        info = state.game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        self.lo, self.span = lo, span
        self._values = np.zeros((info.num_seats, 64))
        self._count = 0
        root = self._node(state, None)
        if self.full_width:
            # A full-width node may reach the root again before the root's first backup.
            self._values[:, root.id] = self._leaf(state, rng, lo, span)
        if self.prior > 0:
            self._seed_root(root, state, rng, lo, span)
        self._table = {state.transposition_key(): root} if self.transpose else None
        iterate = self._iterate
        count = spend(lambda: iterate(root, state, rng, lo, span), iterations, think, CLOCK_EVERY)
        self._table = None
        return root, count

    def _node(self, state: State, value: list[float] | None) -> Node:
        """A new node for ``state`` with its row in the value table (``value``, if given)."""
        ident = self._count
        self._count += 1
        if ident == self._values.shape[1]:
            self._values = np.concatenate([self._values, np.zeros_like(self._values)], axis=1)
        if value is not None:
            self._values[:, ident] = value
        return Node(state, ident, self.full_width)

    def _iterate(
        self, node: Node, state: State, rng: random.Random, lo: float, span: float
    ) -> list[float]:
        """One descent from ``node``; returns rewards per seat scaled to [0, 1]."""
        choose = self.rule.choose
        # Every node of the descent, in order, with the selection made there (None where
        # nothing was selected: chance nodes and the last node).
        steps: list[tuple[Node, tuple[int, ...] | None, tuple[float, ...]]] = []
        on_path = {id(node)}  # the same nodes, for constant-time cycle checks
        rewards: list[float] = []
        while True:
            if state.kind is NodeKind.TERMINAL:
                rewards = [(r - lo) / span for r in state.returns()]
                steps.append((node, None, ()))
                break
            if len(steps) >= MAX_DEPTH:
                rewards = self._estimate(node, state, rng, lo, span)
                steps.append((node, None, ()))
                break
            if node.full and node.matrix is None:
                # First descent to reach it: expand it whole; its first backup scores it
                # from its children's evaluations.
                self._expand(node, state, lo, span)
                steps.append((node, None, ()))
                rewards = []
                break
            if state.kind is NodeKind.CHANCE:
                key: tuple[int, ...] = (state.sample_chance(rng),)
                steps.append((node, None, ()))
            elif node.matrix is not None:
                key = node.matrix.choose(rng)
                steps.append((node, key, ()))
                kids, cells = node.matrix.kids, node.matrix.cells
                node, state = kids[cells[key]]
                if id(node) in on_path:
                    rewards = self._estimate(node, state, rng, lo, span)
                    break
                on_path.add(id(node))
                continue
            else:
                picks = []
                probs = []
                for stats in node.stats:
                    i, p = choose(stats, rng)
                    picks.append(i)
                    probs.append(p)
                key = tuple(picks)
                steps.append((node, key, tuple(probs)))
            child = node.children.get(key)
            if child is None:
                nxt = state.apply_unchecked(self._joint(node, key, state))
                known = self._lookup(nxt)
                if known is None:
                    value = self._leaf(nxt, rng, lo, span)
                    fresh = self._node(nxt, value)
                    self._remember(nxt, fresh)
                    node.children[key] = (fresh, nxt)
                    if fresh.full and not nxt.is_terminal():
                        node, state = fresh, nxt
                        continue  # expanded at the top of the loop
                    # A fresh node ends the descent: no cycle check.
                    steps.append((fresh, None, ()))
                    rewards = value
                    break
                # Another joint action (or path) already reached this position: share
                # its statistics and keep descending.
                node.children[key] = child = (known, nxt)
            node, state = child
            if id(node) in on_path:
                # Back at a position of this descent (a cycle): its value so far stands in
                # for the rest of the game, as in value iteration.
                rewards = self._estimate(node, state, rng, lo, span)
                break
            on_path.add(id(node))
        update = self.rule.update
        for n, picks_, probs_ in reversed(steps):
            if n.matrix is not None:
                rewards = self._full_update(n)
                n.visits += 1
                continue
            n.record(rewards)
            self._values[:, n.id] = n.mean()
            if picks_ is not None:
                for j, (stats, i, p) in enumerate(zip(n.stats, picks_, probs_, strict=True)):
                    update(stats, i, p, rewards[n.seats[j]])
        return rewards

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

    def _estimate(
        self, node: Node, state: State, rng: random.Random, lo: float, span: float
    ) -> list[float]:
        """The value a node has so far (its evaluation if it has none)."""
        if node.matrix is not None:
            return [float(v) for v in self._values[:, node.id]]
        return node.mean() or self._leaf(state, rng, lo, span)

    def _expand(self, node: Node, state: State, lo: float, span: float) -> None:
        """Apply every joint action of a full-width node. New children are scored by the
        evaluator without rollouts: their values enter the node's matrix directly, where
        one random playout's result would weigh as much as a searched value."""
        successors, cells = self._successors(node, state)
        table = self._table
        kids = []
        for nxt, key in successors:
            child = None if table is None else table.get(key)
            if child is None:
                value = self._score(nxt, lo, span)
                child = self._node(nxt, value)
                child.record(value)
                if table is not None:
                    table[key] = child
            kids.append((child, nxt))
        node.matrix = MatrixNode(kids, cells, self.gamma)

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

    def _full_update(self, node: Node) -> list[float]:
        """Update a full-width node from its children's values; its new value per seat."""
        assert node.matrix is not None
        s0, s1 = node.seats
        v0, v1 = node.matrix.update(self._values[s0], self._values[s1])
        self._values[s0, node.id] = v0
        self._values[s1, node.id] = v1
        return [float(v) for v in self._values[:, node.id]]

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
