"""The SM-MCTS agent: its parameters, and what it plays from a search's root."""

from __future__ import annotations

import random

from taut.agents import params
from taut.agents.base import Agent, Evaluator
from taut.agents.result import SearchResult
from taut.agents.smmcts.search import SuccessorMemo, TreeSearch
from taut.agents.smmcts.selection import SelectionRule, make_rule
from taut.agents.smmcts.tree import Node
from taut.core.chance import sample_mix
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.terms import NodeKind


class SMMCTSAgent(Agent):
    """SM-MCTS with a selection rule (``rm``, ``exp3``, ``uct`` or a
    :class:`~taut.agents.smmcts.selection.SelectionRule` object).

    Parameters (strings are accepted, as from ``NAME:key=value`` specs): ``select``,
    ``think`` (seconds per move, default 1.0), ``iterations`` (overrides ``think``),
    ``gamma`` (exploration of rm/exp3, default 0.1), ``c`` (UCT constant, default 1.4),
    ``rollout`` (nodes of random play after a new leaf before the evaluator scores it;
    default 200, 0 scores the leaf directly), ``transpose`` (default on: positions with the
    same ``transposition_key`` share one node, whatever the path; a descent that comes back
    to a position it passed stops there and backs up that node's mean value), ``evaluator``
    (defaults to the game's heuristic), ``prior`` (rules that take priors, as ``uct``;
    default 0: each root action starts with this many virtual visits at a one-turn
    estimate), ``width`` (``rm`` only: ``full``, the default, or ``sampled``; see
    :mod:`taut.agents.smmcts.matrix`), ``final`` (``mix``, the default: a simultaneous
    root's move is sampled from its mix; ``best``: its most likely move, always, which
    suits games of more than two sides against weak play).
    """

    name = "smmcts"

    def __init__(
        self,
        select: str | SelectionRule = "rm",
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
        self.think = params.positive("think", think, "seconds")
        self.iterations = None if iterations is None else params.count("iterations", iterations, 1)
        self.gamma = params.share("gamma", gamma, open_below=True)
        self.c = params.at_least("c", c, 0.0)
        self.rollout = params.count("rollout", rollout, 0)
        self.transpose = params.switch("transpose", transpose)
        self.prior = params.at_least("prior", prior, 0.0)
        self.width = params.choice("width", width, ("full", "sampled"))
        self.final = params.choice("final", final, ("mix", "best"))
        self.rule = (
            select if isinstance(select, SelectionRule) else make_rule(select, self.gamma, self.c)
        )
        self.select = self.rule.name
        if self.prior > 0 and not self.rule.takes_prior:
            raise InvalidOptionError(
                f"prior takes a non-negative number of visits, with a rule that takes priors "
                f"(select=uct); select={self.select} takes none"
            )
        self.evaluator = evaluator
        self._memo = SuccessorMemo()

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """SM-MCTS searches full positions: it needs perfect information."""
        if not game.info.perfect_information:
            return "needs perfect information"
        return None

    # -- public --------------------------------------------------------------------------

    def search(self, state: State, rng: random.Random) -> SearchResult:
        """Search from ``state``: every acting seat's root answer (its mix, its most likely
        action with ``final=best``, or the most visited action where it acts alone), the
        root's value per seat, the descents and the nodes made. Where no seat has a choice
        nothing is searched."""
        seats = state.acting_seats()
        if state.kind is NodeKind.CHANCE or not seats:
            raise InvalidOptionError("SM-MCTS searches from a position where seats act")
        if all(len(state.legal_actions(s)) == 1 for s in seats):
            return SearchResult({s: {state.legal_actions(s)[0]: 1.0} for s in seats})
        root, tree, count = self._grow(state, rng)
        return SearchResult(
            policy={seat: self._answer(root, j) for j, seat in enumerate(root.seats)},
            value=dict(enumerate(tree.value(root))),
            iterations=count,
            nodes=tree.nodes,
            visits=self._visits(root),
        )

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Search from ``state`` and sample an action from ``seat``'s root answer."""
        return sample_mix(self.strategy(state, seat, rng), rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """``seat``'s root answer from a search (no search where it has one legal action)."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return {legal[0]: 1.0}
        return self.search(state, rng).mix(seat)

    def strategies(
        self, state: State, seats: tuple[int, ...], rng: random.Random
    ) -> dict[int, dict[int, float]]:
        """Every seat's root answer from a single search (all seats search the same tree)."""
        if all(len(state.legal_actions(s)) == 1 for s in seats):
            return {s: {state.legal_actions(s)[0]: 1.0} for s in seats}
        result = self.search(state, rng)
        return {seat: result.mix(seat) for seat in seats}

    def __repr__(self) -> str:
        return f"SMMCTSAgent({self.rule!r}, think={self.think}, iterations={self.iterations})"

    # -- the tree and its root -----------------------------------------------------------

    def _grow(self, state: State, rng: random.Random) -> tuple[Node, TreeSearch, int]:
        """Search from ``state``: the root, the search and its number of descents."""
        tree = TreeSearch(
            self.rule,
            gamma=self.gamma,
            rollout=self.rollout,
            evaluator=self.evaluator,
            transpose=self.transpose,
            prior=self.prior,
            full_width=self.rule.full_width and self.width == "full",
            memo=self._memo,
        )
        root, count = tree.run(state, rng, self.iterations, self.think)
        return root, tree, count

    def _answer(self, root: Node, index: int) -> dict[int, float]:
        """The root's answer for its ``index``-th acting seat."""
        actions = root.actions[index]
        if len(root.seats) == 1:
            # Nobody moves at the same time: a pure choice cannot be exploited, and the
            # most visited action is the standard, far less noisy, MCTS answer.
            stats = root.stats[index]
            best = max(range(stats.k), key=lambda i: (stats.n[i], stats.mean[i]))
            return {actions[best]: 1.0}
        mix = self._root_mix(root, index)
        if self.final == "best":
            best = max(range(len(mix)), key=mix.__getitem__)
            return {actions[best]: 1.0}
        return {a: p for a, p in zip(actions, mix, strict=True) if p > 0}

    def _root_mix(self, root: Node, index: int) -> list[float]:
        """The mix the root ends with for its ``index``-th acting seat."""
        if root.matrix is not None:
            return [float(p) for p in root.matrix.average(index)]
        if root.full:  # never expanded: no search happened below it
            return [1.0 / len(root.actions[index])] * len(root.actions[index])
        return self.rule.final(root.stats[index])

    @staticmethod
    def _visits(root: Node) -> dict[int, dict[int, int]]:
        """The root's real visits per seat and action, where it counts them by seat."""
        return {
            seat: {a: max(0, n - stats.virtual) for a, n in zip(actions, stats.n, strict=True)}
            for seat, actions, stats in zip(root.seats, root.actions, root.stats, strict=False)
        }
