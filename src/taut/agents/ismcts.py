"""Information-set Monte Carlo tree search (single observer; Cowling, Powley and
Whitehouse 2012) for games with hidden information and sequential moves.

Each iteration samples a full state consistent with the searching seat's view
(``game.determinize``), then descends one shared tree whose nodes are the searcher's
information sets: children are keyed by the actions taken (every seat's moves are public)
and, at chance nodes, by what the searcher observes of the outcome
(``state.chance_observation``) - a tile dealt to another hand leaves no trace. Selection
is UCB1 with *availability* counts, since an action exists only in the determinizations
where it is legal. The searcher never reads a hidden tile: it only ever sees its view and
its own samples.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from taut.agents.base import Agent
from taut.core.errors import InvalidOptionError
from taut.core.game import CHANCE_SEAT, NodeKind, State

Evaluator = Callable[[State], tuple[float, ...]]


class _Node:
    __slots__ = ("avail", "children", "n", "w")  # w: summed reward of the seat that chose

    def __init__(self) -> None:
        self.children: dict[tuple[object, ...], _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS.

    Parameters: ``think`` (seconds per move, default 1.0), ``iterations`` (overrides
    ``think``), ``c`` (UCB constant, default 0.7), ``rollout`` (random nodes after the tree
    before the evaluator scores the position, default 300), ``evaluator`` (defaults to the
    game's heuristic). The action played is the root's most visited.
    """

    name = "ismcts"

    def __init__(
        self,
        think: float | str = 1.0,
        iterations: int | str | None = None,
        c: float | str = 0.7,
        rollout: int | str = 300,
        evaluator: Evaluator | None = None,
    ) -> None:
        try:
            self.think = float(think)
            self.iterations = None if iterations is None else int(iterations)
            self.c = float(c)
            self.rollout = int(rollout)
        except ValueError as exc:
            raise InvalidOptionError(f"bad ISMCTS parameter: {exc}") from None
        self.evaluator = evaluator
        self.last_iterations = 0
        self.last_visits: dict[int, int] = {}

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Search from the view ``state`` and play the most visited action."""
        best = self._search(state, seat, rng)
        return best[0] if len(best) == 1 else rng.choice(best)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """Uniform over the most visited actions of one search (ties are broken at random)."""
        best = self._search(state, seat, rng)
        return {a: 1.0 / len(best) for a in best}

    def _search(self, state: State, seat: int, rng: random.Random) -> list[int]:
        """Search from the view ``state``; the most visited actions of ``seat``."""
        legal = list(state.legal_actions(seat))
        if len(legal) == 1:
            return legal
        game = state.game
        info = game.info
        lo, span = info.min_utility, (info.max_utility - info.min_utility) or 1.0
        root = _Node()
        deadline = time.perf_counter() + self.think
        count = 0
        while True:
            self._iterate(root, game.determinize(state, seat, rng), seat, rng, lo, span)
            count += 1
            if self.iterations is not None:
                if count >= self.iterations:
                    break
            elif count % 8 == 0 and time.perf_counter() >= deadline:
                break
        self.last_iterations = count
        visits = {
            a: root.children[("a", seat, a)].n for a in legal if ("a", seat, a) in root.children
        }
        self.last_visits = visits
        top = max(visits.values())
        return [a for a in legal if visits.get(a, -1) == top]

    def _iterate(
        self, root: _Node, state: State, me: int, rng: random.Random, lo: float, span: float
    ) -> None:
        node = root
        path: list[tuple[_Node, int]] = []
        expanded = False
        while not state.is_terminal() and not expanded:
            kind = state.kind
            if kind is NodeKind.CHANCE:
                outcome = state.sample_chance(rng)
                key: tuple[object, ...] = ("c", state.chance_observation(me, outcome))
                node = node.children.setdefault(key, _Node())
                state = state.apply_unchecked({CHANCE_SEAT: outcome})
                continue
            if kind is NodeKind.SIMULTANEOUS:
                raise InvalidOptionError(
                    "ISMCTS plays sequential games; use smmcts for simultaneous moves"
                )
            (actor,) = state.acting_seats()
            legal = state.legal_actions(actor)
            children = node.children
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
                expanded = True
            else:
                c = self.c
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
        if not state.is_terminal() and self.rollout > 0:
            state = state.game.rollout(state, rng, self.rollout)
        values = (
            state.returns()
            if state.is_terminal()
            else (self.evaluator or state.game.heuristic)(state)
        )
        for child, actor in path:
            child.n += 1
            child.w += (values[actor] - lo) / span
