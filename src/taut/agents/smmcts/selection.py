"""Selection rules of SM-MCTS: how one seat picks its action at a node, learns from the
reward that comes back, and what it plays at the root.

A rule is an object built once (:func:`make_rule` builds the standard ones from the
``select`` parameter) and called by the search for every seat at every node, on that
seat's :class:`SeatStats`. The standard rules:

* :class:`RegretMatching` (``rm``) - regret matching with exploration (Lanctot, Lisý and
  Winands 2014): the mix is proportional to positive cumulative regret, mixed with
  ``gamma`` uniform exploration; rewards are importance-weighted by the probability of the
  sampled action. Its nodes where two seats act may use the full-width backup instead
  (:mod:`taut.agents.smmcts.matrix`).
* :class:`Exp3` (``exp3``; Auer et al., used for SM-MCTS by Teytaud and Flory 2011, and
  Tak, Lanctot and Winands 2014): exponential weights of importance-weighted reward sums.
* :class:`UCT` (``uct``) - decoupled UCB1 per seat, with root priors as virtual visits.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence

from taut.agents import params
from taut.core.chance import sample_index
from taut.core.errors import InvalidOptionError


class SeatStats:
    """Selection statistics of one seat at one node, over its ``k`` actions.

    ``regret`` holds cumulative regrets (``rm``) or reward sums (``exp3``); ``cum`` the
    cumulative strategy; ``n`` the visits per action (virtual ones included) and ``total``
    their sum; ``mean`` the mean reward per action; ``virtual`` the virtual visits each
    action was given as a prior. A rule uses the fields it needs.
    """

    __slots__ = ("cum", "k", "mean", "n", "regret", "total", "virtual")

    def __init__(self, k: int) -> None:
        self.k = k
        self.regret = [0.0] * k
        self.cum = [0.0] * k
        self.n = [0] * k
        self.mean = [0.0] * k
        self.total = 0
        self.virtual = 0


class SelectionRule(ABC):
    """How one seat selects at a node of SM-MCTS (subclass it to bring a new rule)."""

    #: The rule's name (the ``select`` value that builds it).
    name: str = "rule"
    #: Whether nodes where two seats act may use the full-width backup (regret matching+
    #: against the matrix of the children's values) in place of this rule.
    full_width: bool = False
    #: Whether root actions may start from virtual visits at an estimate (:meth:`seed`).
    takes_prior: bool = False

    @abstractmethod
    def choose(self, stats: SeatStats, rng: random.Random) -> tuple[int, float]:
        """The index of the action selected and the probability it was selected with."""

    @abstractmethod
    def update(self, stats: SeatStats, index: int, probability: float, reward: float) -> None:
        """Learn ``reward`` (in [0, 1]) for the action selected at ``index``."""

    @abstractmethod
    def final(self, stats: SeatStats) -> list[float]:
        """The mix played at the root once the search is over, one weight per action."""

    def seed(self, stats: SeatStats, estimates: Sequence[float], visits: int) -> None:
        """Start every action with ``visits`` virtual visits at its estimate (in [0, 1])."""
        raise InvalidOptionError(f"selection rule {self.name} takes no priors")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _average(stats: SeatStats) -> list[float]:
    """The average strategy of ``cum`` (uniform before any selection)."""
    total = float(sum(stats.cum))
    if total <= 0:
        return [1.0 / stats.k] * stats.k
    return [x / total for x in stats.cum]


class _Mixing(SelectionRule):
    """A rule that samples from a current mix and plays the average mix at the root."""

    def __init__(self, gamma: float) -> None:
        self.gamma = gamma

    @abstractmethod
    def current(self, stats: SeatStats) -> list[float]:
        """The current mix, exploration included."""

    def choose(self, stats: SeatStats, rng: random.Random) -> tuple[int, float]:
        """Sample the current mix and add it to the cumulative strategy."""
        sigma = self.current(stats)
        choice = sample_index(sigma, rng)
        cum = stats.cum
        for i, p in enumerate(sigma):
            cum[i] += p
        return choice, sigma[choice]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(gamma={self.gamma})"


class RegretMatching(_Mixing):
    """Regret matching with ``gamma`` uniform exploration (``select=rm``)."""

    name = "rm"
    full_width = True

    def current(self, stats: SeatStats) -> list[float]:
        """Positive regrets, normalised, with ``gamma`` of uniform exploration."""
        k = stats.k
        g = self.gamma
        pos = [r if r > 0 else 0.0 for r in stats.regret]
        total = sum(pos)
        if total <= 0:
            return [1.0 / k] * k
        return [(1 - g) * x / total + g / k for x in pos]

    def update(self, stats: SeatStats, index: int, probability: float, reward: float) -> None:
        """Every action's regret against the importance-weighted reward of the one chosen."""
        stats.total += 1
        stats.n[index] += 1
        regret = stats.regret
        for b in range(stats.k):
            regret[b] -= reward
        regret[index] += reward / probability

    def final(self, stats: SeatStats) -> list[float]:
        """The average strategy."""
        return _average(stats)


class Exp3(_Mixing):
    """Exp3: exponential weights with ``gamma`` uniform exploration (``select=exp3``)."""

    name = "exp3"

    def current(self, stats: SeatStats) -> list[float]:
        """Exponential weights of the reward sums, with ``gamma`` of uniform exploration."""
        k = stats.k
        g = self.gamma
        eta = g / k
        top = max(stats.regret)  # shifted by the maximum for numerical stability
        w = [math.exp(eta * (x - top)) for x in stats.regret]
        total = sum(w)
        return [(1 - g) * x / total + g / k for x in w]

    def update(self, stats: SeatStats, index: int, probability: float, reward: float) -> None:
        """Add the importance-weighted reward to the chosen action's sum."""
        stats.total += 1
        stats.n[index] += 1
        stats.regret[index] += reward / probability

    def final(self, stats: SeatStats) -> list[float]:
        """The average strategy without the exploration floor and its noise."""
        avg = _average(stats)
        total = float(sum(stats.cum))
        if total <= 0:
            return avg
        floor = self.gamma / stats.k
        cleaned = [p - floor if p - floor > 1.0 / (total**0.5) else 0.0 for p in avg]
        s = sum(cleaned)
        return [p / s for p in cleaned] if s > 0 else avg


class UCT(SelectionRule):
    """Decoupled UCB1 with exploration constant ``c`` (``select=uct``)."""

    name = "uct"
    takes_prior = True

    def __init__(self, c: float) -> None:
        self.c = c

    def choose(self, stats: SeatStats, rng: random.Random) -> tuple[int, float]:
        """An untried action first, drawn at random, else the best upper confidence bound
        (the first of equals).

        Untried actions are drawn, not taken in order: seats that select at once with the
        same statistics would otherwise pick the same index, and in a symmetric game keep
        doing so (where equal moves cancel, every descent came back to the root and the
        tree never grew)."""
        n = stats.n
        if 0 in n:
            return rng.choice([i for i, x in enumerate(n) if x == 0]), 1.0
        bonus = self.c * math.sqrt(math.log(stats.total))
        sqrt = math.sqrt
        scores = [m + bonus / sqrt(x) for m, x in zip(stats.mean, n, strict=True)]
        return scores.index(max(scores)), 1.0

    def update(self, stats: SeatStats, index: int, probability: float, reward: float) -> None:
        """Move the chosen action's mean towards ``reward``."""
        stats.total += 1
        n = stats.n[index] = stats.n[index] + 1
        stats.mean[index] += (reward - stats.mean[index]) / n

    def final(self, stats: SeatStats) -> list[float]:
        """Real visit frequencies (virtual visits left out)."""
        real = [max(0, x - stats.virtual) for x in stats.n]
        visits = sum(real)
        return [x / visits for x in real] if visits else [1.0 / stats.k] * stats.k

    def seed(self, stats: SeatStats, estimates: Sequence[float], visits: int) -> None:
        """Each action starts with ``visits`` visits at its estimate."""
        for i, estimate in enumerate(estimates):
            stats.mean[i] = estimate
            stats.n[i] = visits
        stats.virtual = visits
        stats.total = sum(stats.n)

    def __repr__(self) -> str:
        return f"UCT(c={self.c})"


#: The ``select`` values :func:`make_rule` knows.
RULES = ("rm", "exp3", "uct")


def make_rule(select: str, gamma: float, c: float) -> SelectionRule:
    """The standard rule called ``select`` (one of :data:`RULES`): ``gamma`` is the
    exploration of ``rm`` and ``exp3``, ``c`` the constant of ``uct``."""
    select = params.choice("select", select, RULES)
    if select == "rm":
        return RegretMatching(gamma)
    if select == "exp3":
        return Exp3(gamma)
    return UCT(c)
