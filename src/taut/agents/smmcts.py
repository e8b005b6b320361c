"""Simultaneous-move Monte Carlo tree search (SM-MCTS) with decoupled selection.

At every node each acting seat keeps its own statistics over its own actions and selects
independently; the joint action of the selections leads to the child. Three selection rules:

* ``rm`` - regret matching with exploration (Lanctot, Lisý and Winands 2014): the mix is
  proportional to positive cumulative regret, mixed with ``gamma`` uniform exploration;
  rewards are importance-weighted by the probability of the sampled action.
* ``exp3`` - Exp3 (Auer et al.; used for SM-MCTS by Teytaud and Flory 2011, and Tak,
  Lanctot and Winands 2014): exponential weights of importance-weighted reward sums.
* ``uct`` - decoupled UCT: UCB1 per seat, for comparison.

Regret matching has two backups. ``width=sampled`` is the bandit form above. With
``width=full`` (the default), a node where exactly two seats act and the joint actions are
few (at most :data:`FULL_WIDTH_MAX`) is expanded whole on its first visit, and every backup
through it updates both seats' regrets against the *matrix* of its children's current values,
in expectation over the other seat's current mix (the mean-value form of Lanctot, Lisý and
Winands 2013, without the sampling noise of the other seat's action). It uses regret
matching+ (regrets floored at 0) with linearly weighted averages, and the node's value is
the matrix's value under the two average mixes, so values propagate as in value iteration.
Nodes shared by transposition make the children's values good estimates quickly; other
nodes use the bandit form. The children of an expanded node are scored by the evaluator
(no rollouts), and the positions a node leads to are remembered between searches.

At a simultaneous root the move played is *sampled* from the root's mixed strategy (the
average strategy for ``rm`` and ``exp3``, with Exp3's exploration noise removed; visit
frequencies for ``uct``): in a simultaneous game a deterministic choice can be exploited.
Where only one seat acts, the most visited action is played. One-seat nodes use the same
machinery with one seat, and chance nodes sample an outcome, so the agent plays any game of
the protocol with perfect information.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable

import numpy as np

from taut.agents.base import Agent, sample
from taut.core.errors import InvalidOptionError
from taut.core.game import CHANCE_SEAT, NodeKind, State

Evaluator = Callable[[State], tuple[float, ...]]

#: Nodes one descent may pass before the node's mean value stands in for the rest.
MAX_DEPTH = 400
#: Random choices of the other seats behind each root action's prior estimate.
PRIOR_PROFILES = 24
#: The most joint actions a node may have for full-width regret matching; it applies them
#: all when it is expanded, so larger nodes use the bandit form.
FULL_WIDTH_MAX = 1024
#: The most successors an agent remembers between searches (see ``_successors``).
MEMO_MAX = 400_000


class _Seat:
    """Selection statistics of one seat at one node."""

    __slots__ = ("cum", "k", "mean", "n", "regret", "total")

    def __init__(self, k: int) -> None:
        self.k = k
        self.regret = [0.0] * k  # rm: cumulative regret; exp3: reward sums
        self.cum = [0.0] * k  # cumulative strategy (rm, exp3)
        self.n = [0] * k  # visits per action (uct, and for reporting)
        self.mean = [0.0] * k  # mean reward per action (uct)
        self.total = 0


class _Matrix:
    """Full-width statistics of a node where two seats act: its distinct children, which
    of them each joint action leads to, and each seat's regrets, current mix and weighted
    strategy sum as arrays."""

    __slots__ = ("cdf", "cells", "cum", "gamma", "grid", "kids", "mix", "regret", "updates")

    def __init__(self, kids: list[tuple[_Node, State]], cells: np.ndarray, gamma: float) -> None:
        k0, k1 = cells.shape
        self.kids = kids
        self.cells = cells  # (k0, k1) index into kids of each joint action's child
        ids = np.array([kid.id for kid, _ in kids], dtype=np.intp)
        self.grid = ids[cells]  # (k0, k1) child ids, rows in the search's value table
        self.gamma = gamma
        self.regret = (np.zeros(k0), np.zeros(k1))
        self.cum = (np.zeros(k0), np.zeros(k1))
        self.updates = 0
        self.mix = (np.full(k0, 1.0 / k0), np.full(k1, 1.0 / k1))
        self.cdf = (np.cumsum(self.mix[0]), np.cumsum(self.mix[1]))

    def choose(self, rng: random.Random) -> tuple[int, int]:
        """Both seats' selections: each current mix with ``gamma`` uniform exploration."""
        c0, c1 = self.cdf
        i = int(c0.searchsorted(rng.random(), side="right"))
        j = int(c1.searchsorted(rng.random(), side="right"))
        return min(i, len(c0) - 1), min(j, len(c1) - 1)

    def update(self, values0: np.ndarray, values1: np.ndarray) -> tuple[float, float]:
        """Regret matching+ against the children's values to the two seats (rows of the
        value table), in expectation over the other seat's current mix; the node's new
        value to each seat, under the average mixes."""
        x0, x1 = values0[self.grid], values1[self.grid]  # (k0, k1)
        p0, p1 = self.mix
        u0 = x0 @ p1  # seat s0's value of each of its actions
        u1 = p0 @ x1
        r0, r1 = self.regret
        r0 += u0 - float(p0 @ u0)
        r1 += u1 - float(u1 @ p1)
        np.maximum(r0, 0.0, out=r0)
        np.maximum(r1, 0.0, out=r1)
        self.updates += 1
        c0, c1 = self.cum  # linear averaging: later, better mixes weigh more
        c0 += self.updates * p0
        c1 += self.updates * p1
        self.mix = (_proportional(r0), _proportional(r1))
        g = self.gamma
        self.cdf = (
            np.cumsum((1 - g) * self.mix[0] + g / len(r0)),
            np.cumsum((1 - g) * self.mix[1] + g / len(r1)),
        )
        a0, a1 = self.average(0), self.average(1)
        return float(a0 @ x0 @ a1), float(a0 @ x1 @ a1)

    def average(self, j: int) -> np.ndarray:
        """Seat ``j``'s average mix (uniform before any update)."""
        return _proportional(self.cum[j])


def _proportional(weights: np.ndarray) -> np.ndarray:
    """``weights`` (non-negative) scaled to sum to 1; uniform if they are all 0."""
    total = float(weights.sum())
    return weights / total if total > 0 else np.full(len(weights), 1.0 / len(weights))


class _Node:
    __slots__ = (
        "actions",
        "children",
        "full",
        "id",
        "matrix",
        "seats",
        "stats",
        "visits",
        "vsum",
    )

    def __init__(self, state: State, ident: int, full_width: bool) -> None:
        self.id = ident  # row in the search's value table
        self.seats = state.acting_seats()
        kind = state.kind
        if kind is NodeKind.CHANCE or kind is NodeKind.TERMINAL:
            self.actions: tuple[tuple[int, ...], ...] = ()
        else:
            self.actions = tuple(tuple(state.legal_actions(s)) for s in self.seats)
        self.full = (
            full_width
            and len(self.actions) == 2
            and len(self.actions[0]) * len(self.actions[1]) <= FULL_WIDTH_MAX
        )
        self.stats: tuple[_Seat, ...] = (
            () if self.full else tuple(_Seat(len(a)) for a in self.actions)
        )
        self.matrix: _Matrix | None = None  # full-width nodes, once expanded
        self.children: dict[tuple[int, ...], tuple[_Node, State]] = {}
        self.visits = 0  # descents that passed through (or ended at) this node
        self.vsum: list[float] | None = None  # their summed rewards per seat

    def mean(self) -> list[float] | None:
        """The mean reward per seat of the descents through this node (None if none)."""
        if self.vsum is None:
            return None
        return [v / self.visits for v in self.vsum]

    def record(self, rewards: list[float]) -> None:
        """Count one descent through this node."""
        self.visits += 1
        if self.vsum is None:
            self.vsum = list(rewards)
        else:
            for k, r in enumerate(rewards):
                self.vsum[k] += r


class SMMCTSAgent(Agent):
    """SM-MCTS with a selection rule (``rm``, ``exp3`` or ``uct``).

    Parameters (strings are accepted, as from ``NAME:key=value`` specs): ``select``,
    ``think`` (seconds per move, default 1.0), ``iterations`` (overrides ``think``),
    ``gamma`` (exploration of rm/exp3, default 0.1), ``c`` (UCT constant, default 1.4),
    ``rollout`` (nodes of random play after a new leaf before the evaluator scores it;
    default 200, 0 scores the leaf directly), ``transpose`` (default on: positions with the
    same ``transposition_key`` share one node, whatever the path; a descent that comes back
    to a position it passed stops there and backs up that node's mean value), ``evaluator``
    (defaults to the game's heuristic), ``prior`` (``uct`` only; default 0: each root
    action starts with this many virtual visits at a one-turn estimate), ``width`` (``rm``
    only: ``full``, the default, or ``sampled``; see the module notes), ``final`` (``mix``,
    the default: a simultaneous root's move is sampled from its mix; ``best``: its most
    likely move, always, which suits games of more than two sides against weak play).
    """

    name = "smmcts"

    def __init__(
        self,
        select: str = "rm",
        think: float | str = 1.0,
        iterations: int | str | None = None,
        gamma: float | str = 0.1,
        c: float | str = 1.4,
        rollout: int | str = 200,
        evaluator: Evaluator | None = None,
        transpose: bool | str = True,
        prior: float | str = 0.0,
        width: str = "full",
        final: str = "mix",
    ) -> None:
        if select not in ("rm", "exp3", "uct"):
            raise InvalidOptionError(f"select must be rm, exp3 or uct, got {select!r}")
        try:
            self.think = float(think)
            self.iterations = None if iterations is None else int(iterations)
            self.gamma = float(gamma)
            self.c = float(c)
            self.rollout = int(rollout)
        except ValueError as exc:
            raise InvalidOptionError(f"bad SM-MCTS parameter: {exc}") from None
        if not 0.0 < self.gamma <= 1.0:
            raise InvalidOptionError(f"gamma must be in (0, 1], got {self.gamma}")
        if isinstance(transpose, str):
            if transpose.lower() not in ("1", "0", "true", "false", "on", "off", "yes", "no"):
                raise InvalidOptionError(f"transpose must be on or off, got {transpose!r}")
            transpose = transpose.lower() in ("1", "true", "on", "yes")
        self.transpose = transpose
        try:
            self.prior = float(prior)
        except ValueError:
            raise InvalidOptionError(f"prior must be a number of visits, got {prior!r}") from None
        if self.prior < 0 or (self.prior > 0 and select != "uct"):
            raise InvalidOptionError("prior takes a non-negative number of visits, with select=uct")
        if width not in ("full", "sampled"):
            raise InvalidOptionError(f"width must be full or sampled, got {width!r}")
        self.width = width
        if final not in ("mix", "best"):
            raise InvalidOptionError(f"final must be mix or best, got {final!r}")
        self.final = final
        self._table: dict[Hashable, _Node] | None = None
        self._successor_memo: dict[Hashable, tuple[list[tuple[State, Hashable]], np.ndarray]] = {}
        self._memo_size = 0
        self._values = np.zeros((0, 0))  # (seats, nodes): each node's current value per seat
        self._count = 0  # nodes made in this search
        self.select = select
        self.evaluator = evaluator
        self.last_iterations = 0
        self.last_policy: dict[int, float] = {}

    # -- public --------------------------------------------------------------------------

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Search from ``state`` and sample an action from ``seat``'s root strategy."""
        return sample(self.policy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The root mix a search from ``state`` ends with (see :meth:`policy`)."""
        return self.policy(state, seat, rng)

    def strategies(
        self, state: State, seats: tuple[int, ...], rng: random.Random
    ) -> dict[int, dict[int, float]]:
        """Every seat's root mix from a single search (all seats search the same tree)."""
        if len(state.acting_seats()) < 2 or any(len(state.legal_actions(s)) == 1 for s in seats):
            return super().strategies(state, seats, rng)
        root = self._search(state, rng)
        out = {}
        for seat in seats:
            out[seat] = self._answer(root, root.seats.index(seat))
        return out

    def policy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """Run the search and return ``seat``'s mixed strategy at the root."""
        legal = list(state.legal_actions(seat))
        if len(legal) == 1:
            self.last_policy = {legal[0]: 1.0}
            return self.last_policy
        root = self._search(state, rng)
        index = root.seats.index(seat)
        if len(root.seats) == 1:
            # Nobody moves at the same time: a pure choice cannot be exploited, and the
            # most visited action is the standard, far less noisy, MCTS answer.
            stats = root.stats[index]
            best = max(range(stats.k), key=lambda i: (stats.n[i], stats.mean[i]))
            self.last_policy = {root.actions[index][best]: 1.0}
            return self.last_policy
        self.last_policy = self._answer(root, index)
        return self.last_policy

    def _answer(self, root: _Node, index: int) -> dict[int, float]:
        """The root's answer for its ``index``-th acting seat: the mix, or with
        ``final=best`` its most likely action alone."""
        mix = self._root_mix(root, index)
        if self.final == "best":
            best = max(range(len(mix)), key=mix.__getitem__)
            return {root.actions[index][best]: 1.0}
        return {a: p for a, p in zip(root.actions[index], mix, strict=True) if p > 0}

    def _root_mix(self, root: _Node, index: int) -> list[float]:
        """The mix the root ends with for its ``index``-th acting seat."""
        if root.matrix is not None:
            return [float(p) for p in root.matrix.average(index)]
        if root.full:  # never expanded: no search happened below it
            return [1.0 / len(root.actions[index])] * len(root.actions[index])
        return self._final(root.stats[index])

    # -- search ---------------------------------------------------------------------------

    def _search(self, state: State, rng: random.Random) -> _Node:
        """Iterate from ``state`` until the budget is spent; the root of the tree."""
        info = state.game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        self._values = np.zeros((info.num_seats, 64))
        self._count = 0
        root = self._node(state, None)
        if self.select == "rm" and self.width == "full":
            # A full-width node may reach the root again before the root's first backup.
            self._values[:, root.id] = self._leaf(state, rng, lo, span)
        if self.prior > 0:
            self._seed_root(root, state, rng, lo, span)
        self._table = {state.transposition_key(): root} if self.transpose else None
        deadline = time.perf_counter() + self.think
        count = 0
        while True:
            self._iterate(root, state, rng, lo, span)
            count += 1
            if self.iterations is not None:
                if count >= self.iterations:
                    break
            elif count % 16 == 0 and time.perf_counter() >= deadline:
                break
        self.last_iterations = count
        self._table = None
        return root

    def _node(self, state: State, value: list[float] | None) -> _Node:
        """A new node for ``state`` with its row in the value table (``value``, if given)."""
        ident = self._count
        self._count += 1
        if ident == self._values.shape[1]:
            self._values = np.concatenate([self._values, np.zeros_like(self._values)], axis=1)
        if value is not None:
            self._values[:, ident] = value
        full = self.select == "rm" and self.width == "full"
        return _Node(state, ident, full)

    def _iterate(
        self, node: _Node, state: State, rng: random.Random, lo: float, span: float
    ) -> list[float]:
        """One descent from ``node``; returns rewards per seat scaled to [0, 1]."""
        # Every node of the descent, in order, with the selection made there (None where
        # nothing was selected: chance nodes and the last node).
        steps: list[tuple[_Node, tuple[int, ...] | None, tuple[float, ...]]] = []
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
                    i, p = self._choose(stats, rng)
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
        for n, picks_, probs_ in reversed(steps):
            if n.matrix is not None:
                rewards = self._full_update(n)
                n.visits += 1
                continue
            n.record(rewards)
            self._values[:, n.id] = n.mean()
            if picks_ is not None:
                for j, (stats, i, p) in enumerate(zip(n.stats, picks_, probs_, strict=True)):
                    self._update(stats, i, p, rewards[n.seats[j]])
        return rewards

    @staticmethod
    def _joint(node: _Node, key: tuple[int, ...], state: State) -> dict[int, int]:
        """The joint action a selection ``key`` (indices per acting seat) stands for."""
        if state.kind is NodeKind.CHANCE:
            return {CHANCE_SEAT: key[0]}
        return {s: node.actions[j][i] for j, (s, i) in enumerate(zip(node.seats, key, strict=True))}

    def _lookup(self, state: State) -> _Node | None:
        """The node already made for ``state``'s position, if positions are shared."""
        return None if self._table is None else self._table.get(state.transposition_key())

    def _remember(self, state: State, node: _Node) -> None:
        if self._table is not None:
            self._table[state.transposition_key()] = node

    def _estimate(
        self, node: _Node, state: State, rng: random.Random, lo: float, span: float
    ) -> list[float]:
        """The value a node has so far (its evaluation if it has none)."""
        if node.matrix is not None:
            return [float(v) for v in self._values[:, node.id]]
        return node.mean() or self._leaf(state, rng, lo, span)

    def _expand(self, node: _Node, state: State, lo: float, span: float) -> None:
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
        node.matrix = _Matrix(kids, cells, self.gamma)

    def _successors(
        self, node: _Node, state: State
    ) -> tuple[list[tuple[State, Hashable]], np.ndarray]:
        """The distinct positions the joint actions of a two-seat node lead to (with their
        keys), and which of them each joint action reaches. With shared positions they are
        remembered across searches (a position's key fixes its future, so they cannot
        change): later searches from nearby positions skip applying them again."""
        key = state.transposition_key() if self.transpose else None
        if key is not None:
            known = self._successor_memo.get(key)
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
            self._memo_size += len(successors)
            if self._memo_size > MEMO_MAX:  # bounded memory over a long game
                self._successor_memo.clear()
                self._memo_size = len(successors)
            self._successor_memo[key] = (successors, cells)
        return successors, cells

    def _full_update(self, node: _Node) -> list[float]:
        """Update a full-width node from its children's values; its new value per seat."""
        assert node.matrix is not None
        s0, s1 = node.seats
        v0, v1 = node.matrix.update(self._values[s0], self._values[s1])
        self._values[s0, node.id] = v0
        self._values[s1, node.id] = v1
        return [float(v) for v in self._values[:, node.id]]

    def _seed_root(
        self, root: _Node, state: State, rng: random.Random, lo: float, span: float
    ) -> None:
        """Start each root action with ``prior`` virtual visits at a one-turn estimate: the
        evaluation after it, against ``PRIOR_PROFILES`` random choices of the other seats.
        UCT then begins where a one-turn look-ahead ends instead of trying every move."""
        evaluate = self.evaluator or state.game.heuristic
        for j, (seat, stats) in enumerate(zip(root.seats, root.stats, strict=True)):
            for i, action in enumerate(root.actions[j]):
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
                stats.mean[i] = total / PRIOR_PROFILES
                stats.n[i] = int(self.prior)
            stats.total = sum(stats.n)

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

    def _strategy(self, stats: _Seat) -> list[float]:
        k = stats.k
        g = self.gamma
        if self.select == "rm":
            pos = [r if r > 0 else 0.0 for r in stats.regret]
            total = sum(pos)
            if total <= 0:
                return [1.0 / k] * k
            return [(1 - g) * x / total + g / k for x in pos]
        # exp3: shift by the maximum for numerical stability
        eta = g / k
        top = max(stats.regret)
        w = [math.exp(eta * (x - top)) for x in stats.regret]
        total = sum(w)
        return [(1 - g) * x / total + g / k for x in w]

    def _choose(self, stats: _Seat, rng: random.Random) -> tuple[int, float]:
        if self.select == "uct":
            n = stats.n
            for i in range(stats.k):
                if n[i] == 0:
                    return i, 1.0
            log_total = math.log(stats.total)
            c = self.c
            best = max(
                range(stats.k), key=lambda i: stats.mean[i] + c * math.sqrt(log_total / n[i])
            )
            return best, 1.0
        sigma = self._strategy(stats)
        r = rng.random()
        acc = 0.0
        choice = stats.k - 1
        for i, p in enumerate(sigma):
            acc += p
            if r < acc:
                choice = i
                break
        cum = stats.cum
        for i, p in enumerate(sigma):
            cum[i] += p
        return choice, sigma[choice]

    def _update(self, stats: _Seat, i: int, p: float, reward: float) -> None:
        stats.total += 1
        stats.n[i] += 1
        if self.select == "uct":
            stats.mean[i] += (reward - stats.mean[i]) / stats.n[i]
        elif self.select == "rm":
            regret = stats.regret
            estimate = reward / p
            for b in range(stats.k):
                regret[b] -= reward
            regret[i] += estimate
        else:
            stats.regret[i] += reward / p

    def _final(self, stats: _Seat) -> list[float]:
        k = stats.k
        if self.select == "uct":
            real = [max(0, x - int(self.prior)) for x in stats.n]  # without virtual visits
            visits = sum(real)
            return [x / visits for x in real] if visits else [1.0 / k] * k
        total = float(sum(stats.cum))
        if total <= 0:
            return [1.0 / k] * k
        avg = [x / total for x in stats.cum]
        if self.select == "exp3":
            # Remove the exploration floor and tiny weights (noise of exploration).
            floor = self.gamma / k
            cleaned = [p - floor if p - floor > 1.0 / (total**0.5) else 0.0 for p in avg]
            s = sum(cleaned)
            if s > 0:
                return [p / s for p in cleaned]
        return avg
