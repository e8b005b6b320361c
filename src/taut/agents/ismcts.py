"""Information-set Monte Carlo tree search (single observer; Cowling, Powley and
Whitehouse 2012) for games with hidden information and sequential moves.

Each iteration samples a full state consistent with the searching seat's view
(``game.determinize``), then descends one shared tree whose nodes are the searcher's
information sets: children are keyed by the actions taken (every seat's moves are public)
and, at chance nodes, by what the searcher observes of the outcome
(``state.chance_observation``) - a private draw by another seat leaves no trace. Selection
is UCB1 with *availability* counts, since an action exists only in the determinizations
where it is legal. The searcher never reads what is hidden: it only ever sees its view and
its own samples.

Three refinements help a short search, starting it from the evaluator's judgement
rather than from scratch:

* *Heuristic priors* (``bias`` > 0): when an action is first seen at a node, the successor
  is scored by the evaluator for the seat that chooses, and the child starts with ``bias``
  virtual visits of that value. The first descents therefore follow a one-move look-ahead
  (what the greedy agent plays, for every seat in the tree), and real visits take over as
  they accumulate. Every action gets a value at once, so no iteration is spent trying
  hopeless moves one by one.
* *Wide nodes* (``wide``): below the root, a node with more legal actions than ``wide``
  (a choice among many amounts, one action per point) branches only on ``wide`` of them,
  evenly spread over the legal list, its first and last included. The root always
  considers every legal action.
* *Look-ahead playouts* (``playout``): a leaf is played on for a few decisions, each seat
  taking the move its evaluator scores best, before it is scored; a lone evaluation is
  blind to the reply that the next seat has ready.

A chance outcome the tree has not seen yet ends the descent like an expansion, so a new
deal (dozens of chance nodes) is scored where it begins instead of growing a chain of
nodes that are never visited again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from taut.agents import params
from taut.agents.base import Agent, Evaluator
from taut.agents.budget import spend
from taut.agents.result import SearchResult
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.terms import CHANCE_SEAT, NodeKind

#: Descents between two reads of the clock.
CLOCK_EVERY = 8


class _Node:
    # w: summed reward of the seat that chose this child; prior: its evaluator score.
    __slots__ = ("avail", "children", "n", "prior", "w")

    def __init__(self, prior: float = 0.0) -> None:
        self.children: dict[tuple[object, ...], _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.prior = prior


def spread(actions: Sequence[int], k: int) -> Sequence[int]:
    """At most ``k`` of ``actions``, evenly spaced, the first and the last included."""
    size = len(actions)
    if size <= k:
        return actions
    if k <= 1:
        return [actions[0]]
    picks = sorted({round(i * (size - 1) / (k - 1)) for i in range(k)})
    return [actions[i] for i in picks]


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS.

    Parameters: ``think`` (seconds per move, default 1.0), ``iterations`` (overrides
    ``think``), ``c`` (UCB constant on rewards in [0, 1], default 0.7), ``rollout`` (random
    nodes after the tree before the evaluator scores the position, default 300), ``bias``
    (virtual visits given to each child's evaluator score when it is first seen; 0, the
    default, expands untried actions at random instead), ``wide`` (the most children a
    node below the root branches on, default 24), ``playout`` (decisions played after the
    tree by one-move look-ahead with the evaluator before it scores the position, default
    0; used when ``rollout`` is 0), ``evaluator`` (defaults to the game's heuristic). The
    action played is the root's most visited; ties go to the better evaluator score, so a
    search too short to tell the moves apart falls back on the evaluator's choice.
    """

    name = "ismcts"

    def __init__(
        self,
        think: float | str = 1.0,
        iterations: int | str | None = None,
        c: float | str = 0.7,
        rollout: int | str = 300,
        evaluator: Evaluator | None = None,
        bias: float | str = 0.0,
        wide: int | str = 24,
        playout: int | str = 0,
    ) -> None:
        self.think = params.positive("think", think, "seconds")
        self.iterations = None if iterations is None else params.count("iterations", iterations, 1)
        self.c = params.at_least("c", c, 0.0)
        self.rollout = params.count("rollout", rollout, 0)
        self.bias = params.at_least("bias", bias, 0.0)
        self.wide = params.count("wide", wide, 2)
        self.playout = params.count("playout", playout, 0)
        self.evaluator = evaluator

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """ISMCTS searches one seat's decisions in turn: no simultaneous moves."""
        if game.info.simultaneous:
            return "needs a game without simultaneous moves"
        return None

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Search from the view ``state`` and play the most visited action."""
        best = list(self.search(state, seat, rng).policy[seat])
        return best[0] if len(best) == 1 else rng.choice(best)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """Uniform over the most visited actions of one search (ties are broken at random)."""
        return self.search(state, seat, rng).mix(seat)

    def search(self, state: State, seat: int, rng: random.Random) -> SearchResult:
        """Search from the view ``state`` for ``seat``: its policy (uniform over the most
        visited actions, ties going to the better evaluator score), the best action's mean
        reward for ``seat`` in utility units, the root visits, the descents, and each
        root action's mean reward (its evaluator prior's virtual visits included)."""
        legal = list(state.legal_actions(seat))
        if len(legal) == 1:
            return SearchResult({seat: {legal[0]: 1.0}})
        game = state.game
        info = game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        root = _Node()

        def descend() -> None:
            self._iterate(root, game.determinize(state, seat, rng), seat, rng, lo, span)

        count = spend(descend, self.iterations, self.think, CLOCK_EVERY)
        children = {a: root.children.get(("a", seat, a)) for a in legal}
        visits = {a: child.n for a, child in children.items() if child is not None}
        # Ties (all the more likely in a short search) go to the better evaluator score.
        top = max(visits.values())
        tied = [a for a in legal if visits.get(a, -1) == top]
        if self.bias > 0 and len(tied) > 1:
            best_prior = max(root.children[("a", seat, a)].prior for a in tied)
            tied = [a for a in tied if root.children[("a", seat, a)].prior >= best_prior - 1e-12]
        best = root.children[("a", seat, tied[0])]
        value = lo + span * best.w / best.n if best.n else None
        return SearchResult(
            {seat: {a: 1.0 / len(tied) for a in tied}},
            value={} if value is None else {seat: value},
            iterations=count,
            nodes=_size(root),
            visits={seat: visits},
            action_values={seat: _means(children, self.bias, lo, span)},
        )

    def _iterate(
        self, root: _Node, state: State, me: int, rng: random.Random, lo: float, span: float
    ) -> None:
        evaluate = self.evaluator or state.game.heuristic
        bias = self.bias
        c = self.c
        node = root
        path: list[tuple[_Node, int]] = []
        values: tuple[float, ...] | None = None  # the leaf's evaluation, when already known
        while not state.is_terminal():
            kind = state.kind
            if kind is NodeKind.CHANCE:
                outcome = state.sample_chance(rng)
                key: tuple[object, ...] = ("c", state.chance_observation(me, outcome))
                child = node.children.get(key)
                state = state.apply_unchecked({CHANCE_SEAT: outcome})
                if child is None:
                    # A new outcome is a new leaf: score it here rather than grow a chain
                    # of single-visit nodes through a whole deal.
                    node.children[key] = _Node()
                    break
                node = child
                continue
            if kind is NodeKind.SIMULTANEOUS:
                raise InvalidOptionError(
                    "ISMCTS plays sequential games; use smmcts for simultaneous moves"
                )
            (actor,) = state.acting_seats()
            legal = state.legal_actions(actor)
            if node is not root:
                legal = spread(legal, self.wide)
            children = node.children
            if bias > 0:
                action, child, after, values = self._select_biased(
                    state, actor, legal, children, evaluate, lo, span
                )
                path.append((child, actor))
                state = after
                node = child
                if child.n == 0:
                    break  # first real visit: a leaf
                continue
            untried = []
            for a in legal:
                existing = children.get(("a", actor, a))
                if existing is None:
                    untried.append(a)
                else:
                    existing.avail += 1  # available in this determinization
            if untried:
                action = rng.choice(untried)
                child = children[("a", actor, action)] = _Node()
                child.avail = 1
                path.append((child, actor))
                state = state.apply_unchecked({actor: action})
                break
            best_score = -math.inf
            action = legal[0]
            for a in legal:
                ch = children[("a", actor, a)]
                score = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if score > best_score:
                    best_score, action = score, a
            child = children[("a", actor, action)]
            path.append((child, actor))
            state = state.apply_unchecked({actor: action})
            node = child
        if state.is_terminal():
            values = state.returns()
        elif self.rollout > 0:
            state = state.game.rollout(state, rng, self.rollout)
            values = state.returns() if state.is_terminal() else evaluate(state)
        elif self.playout > 0:
            state = self._playout(state, rng, evaluate)
            values = state.returns() if state.is_terminal() else evaluate(state)
        elif values is None:
            values = evaluate(state)
        for child, actor in path:
            child.n += 1
            child.w += (values[actor] - lo) / span

    def _select_biased(
        self,
        state: State,
        actor: int,
        legal: Sequence[int],
        children: dict[tuple[object, ...], _Node],
        evaluate: Evaluator,
        lo: float,
        span: float,
    ) -> tuple[int, _Node, State, tuple[float, ...] | None]:
        """UCB over ``legal`` with evaluator priors as virtual visits; actions seen here
        for the first time are scored on the way. Returns the action, its child, the
        successor and the successor's evaluation when it was computed."""
        bias = self.bias
        fresh: dict[int, tuple[State, tuple[float, ...]]] = {}
        nodes: list[_Node] = []
        for a in legal:
            key = ("a", actor, a)
            ch = children.get(key)
            if ch is None:
                after = state.apply_unchecked({actor: a})
                scored = after.returns() if after.is_terminal() else evaluate(after)
                fresh[a] = (after, scored)
                ch = children[key] = _Node((scored[actor] - lo) / span)
            ch.avail += 1
            nodes.append(ch)
        c = self.c
        best_score = -math.inf
        pick = 0
        for i, ch in enumerate(nodes):
            weight = ch.n + bias
            score = (ch.w + bias * ch.prior) / weight + c * math.sqrt(
                math.log(ch.avail + bias) / weight
            )
            if score > best_score:
                best_score, pick = score, i
        action = legal[pick]
        child = nodes[pick]
        if action in fresh:
            after, scored = fresh[action]
            return action, child, after, scored
        return action, child, state.apply_unchecked({actor: action}), None

    def _playout(self, state: State, rng: random.Random, evaluate: Evaluator) -> State:
        """Up to ``playout`` decisions by one-move look-ahead with the evaluator (every
        seat for itself; chance sampled); returns the last state."""
        moves = 0
        while moves < self.playout and not state.is_terminal():
            if state.kind is NodeKind.CHANCE:
                state = state.apply_unchecked({CHANCE_SEAT: state.sample_chance(rng)})
                continue
            (actor,) = state.acting_seats()
            legal = spread(state.legal_actions(actor), self.wide)
            best: State | None = None
            best_value = -math.inf
            for a in legal:
                after = state.apply_unchecked({actor: a})
                value = (after.returns() if after.is_terminal() else evaluate(after))[actor]
                if value > best_value:
                    best, best_value = after, value
            assert best is not None
            state = best
            moves += 1
        return state


def _means(
    children: dict[int, _Node | None], bias: float, lo: float, span: float
) -> dict[int, float]:
    """Each root action's mean reward in utility units, the ``bias`` virtual visits at its
    evaluator prior counted (actions never tried are left out)."""
    out = {}
    for action, child in children.items():
        if child is not None and child.n + bias > 0:
            out[action] = lo + span * (child.w + bias * child.prior) / (child.n + bias)
    return out


def _size(node: _Node) -> int:
    """The nodes of the tree under ``node``, itself included."""
    size = 0
    stack = [node]
    while stack:
        top = stack.pop()
        size += 1
        stack.extend(top.children.values())
    return size
