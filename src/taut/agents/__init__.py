"""Agents: one protocol for every player, from uniform random to search."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from taut.agents.base import Agent, RandomAgent
from taut.agents.greedy import GreedyAgent
from taut.agents.ismcts import ISMCTSAgent
from taut.agents.matrix import solve_matrix_game
from taut.agents.nash import NashSearchAgent
from taut.agents.perfect import PerfectAgent
from taut.agents.smmcts import SMMCTSAgent
from taut.core.errors import InvalidOptionError

#: Agent factories by name. Each takes keyword parameters from ``NAME:key=value`` specs.
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "smmcts": SMMCTSAgent,
    "mcts": partial(SMMCTSAgent, "uct"),
    "ismcts": ISMCTSAgent,
    "nash": NashSearchAgent,
    "perfect": PerfectAgent,
}


def make_agent(spec: str, **extra: Any) -> Agent:
    """Build an agent from a spec ``NAME`` or ``NAME:key=value[:key=value...]``."""
    name, *params = spec.split(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise InvalidOptionError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    kwargs: dict[str, Any] = dict(extra)
    for param in params:
        key, sep, value = param.partition("=")
        if not sep:
            raise InvalidOptionError(f"agent parameter {param!r} is not key=value")
        kwargs[key] = value
    try:
        return factory(**kwargs)
    except TypeError as exc:
        raise InvalidOptionError(f"agent {name!r} does not take those parameters: {exc}") from None


__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "ISMCTSAgent",
    "NashSearchAgent",
    "PerfectAgent",
    "RandomAgent",
    "SMMCTSAgent",
    "make_agent",
    "solve_matrix_game",
]
