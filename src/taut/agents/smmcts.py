"""Simultaneous-move Monte Carlo tree search (SM-MCTS) with decoupled selection.

At every node each acting seat keeps its own statistics over its own actions and selects
independently; the joint action of the selections leads to the child. Three selection rules:

* ``rm`` - regret matching with exploration (Lanctot, Lisý and Winands 2014): the mix is
  proportional to positive cumulative regret, mixed with ``gamma`` uniform exploration;
  rewards are importance-weighted by the probability of the sampled action.
* ``exp3`` - Exp3 (Auer et al.; used for SM-MCTS by Teytaud and Flory 2011, and Tak,
  Lanctot and Winands 2014): exponential weights of importance-weighted reward sums.
* ``uct`` - decoupled UCT: UCB1 per seat, for comparison.

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

from taut.agents.base import Agent, sample
from taut.core.errors import InvalidOptionError
from taut.core.game import CHANCE_SEAT, NodeKind, State

Evaluator = Callable[[State], tuple[float, ...]]

#: Nodes one descent may pass before the node's mean value stands in for the rest.
MAX_DEPTH = 400
#: Random choices of the other seats behind each root action's prior estimate.
PRIOR_PROFILES = 24


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


class _Node:
    __slots__ = ("actions", "children", "seats", "stats", "visits", "vsum")

    def __init__(self, state: State) -> None:
        self.seats = state.acting_seats()
        kind = state.kind
        if kind is NodeKind.CHANCE or kind is NodeKind.TERMINAL:
            self.actions: tuple[tuple[int, ...], ...] = ()
            self.stats: tuple[_Seat, ...] = ()
        else:
            self.actions = tuple(tuple(state.legal_actions(s)) for s in self.seats)
            self.stats = tuple(_Seat(len(a)) for a in self.actions)
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
    action starts with this many virtual visits at a one-turn estimate).
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
        self._table: dict[Hashable, _Node] | None = None
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
            index = root.seats.index(seat)
            mix = self._final(root.stats[index])
            out[seat] = {a: p for a, p in zip(root.actions[index], mix, strict=True) if p > 0}
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
        mix = self._final(root.stats[index])
        self.last_policy = {a: p for a, p in zip(root.actions[index], mix, strict=True) if p > 0}
        return self.last_policy

    # -- search ---------------------------------------------------------------------------

    def _search(self, state: State, rng: random.Random) -> _Node:
        """Iterate from ``state`` until the budget is spent; the root of the tree."""
        info = state.game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        root = _Node(state)
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

    def _iterate(
        self, node: _Node, state: State, rng: random.Random, lo: float, span: float
    ) -> list[float]:
        """One descent from ``node``; returns rewards per seat scaled to [0, 1]."""
        path: list[tuple[_Node, tuple[int, ...], tuple[float, ...]]] = []
        seen: list[_Node] = [node]  # the nodes of this descent, in order
        on_path = {id(node)}  # the same, for constant-time cycle checks
        rewards: list[float] | None = None
        while True:
            if state.kind is NodeKind.TERMINAL:
                rewards = [(r - lo) / span for r in state.returns()]
                break
            if len(seen) > MAX_DEPTH:
                rewards = node.mean() or self._leaf(state, rng, lo, span)
                break
            if state.kind is NodeKind.CHANCE:
                key: tuple[int, ...] = (state.sample_chance(rng),)
            else:
                picks = []
                probs = []
                for stats in node.stats:
                    i, p = self._choose(stats, rng)
                    picks.append(i)
                    probs.append(p)
                key = tuple(picks)
                path.append((node, key, tuple(probs)))
            child = node.children.get(key)
            if child is None:
                if state.kind is NodeKind.CHANCE:
                    joint = {CHANCE_SEAT: key[0]}
                else:
                    joint = {
                        s: node.actions[j][i]
                        for j, (s, i) in enumerate(zip(node.seats, key, strict=True))
                    }
                nxt = state.apply_unchecked(joint)
                tkey = nxt.transposition_key() if self._table is not None else None
                known = self._table.get(tkey) if self._table is not None else None
                if known is None:
                    fresh = _Node(nxt)
                    if self._table is not None:
                        self._table[tkey] = fresh
                    node.children[key] = (fresh, nxt)
                    node, state = fresh, nxt
                    seen.append(node)  # a fresh node ends the descent: no cycle check
                    rewards = self._leaf(state, rng, lo, span)
                    break
                # Another joint action (or path) already reached this position: share
                # its statistics and keep descending.
                node.children[key] = child = (known, nxt)
            node, state = child
            if id(node) in on_path:
                # Back at a position of this descent (a cycle): its mean so far stands in
                # for the rest of the game, as in value iteration.
                rewards = node.mean() or self._leaf(state, rng, lo, span)
                break
            seen.append(node)
            on_path.add(id(node))
        for n in seen:
            n.record(rewards)
        for n, picks_, probs_ in path:
            for j, (stats, i, p) in enumerate(zip(n.stats, picks_, probs_, strict=True)):
                self._update(stats, i, p, rewards[n.seats[j]])
        return rewards

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
        if self.rollout > 0 and not state.is_terminal():
            state = state.game.rollout(state, rng, self.rollout)
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
