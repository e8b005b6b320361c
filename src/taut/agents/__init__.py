"""Agents: one protocol for every player, from uniform random to search."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from typing import Any

from taut.agents.base import Agent, RandomAgent
from taut.agents.greedy import GreedyAgent
from taut.agents.ismcts import ISMCTSAgent
from taut.agents.levels import LEVELS, BlunderingAgent, LevelAgent, level_agent
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
    "easy": partial(LevelAgent, "easy"),
    "medium": partial(LevelAgent, "medium"),
    "hard": partial(LevelAgent, "hard"),
}


def takes_think(name: str) -> bool:
    """Whether the agent called ``name`` has a ``think`` (seconds per move) parameter."""
    factory = AGENTS.get(name)
    if factory is None:
        return False
    try:
        return "think" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def make_agent(spec: str, think: float | None = None, **extra: Any) -> Agent:
    """Build an agent from a spec ``NAME`` or ``NAME:key=value[:key=value...]``.

    ``think`` (seconds per move) goes to agents that take it, unless the spec sets its own;
    agents that do not think (``random``, ``greedy``, ``perfect``...) ignore it.
    """
    name, *params = spec.split(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise InvalidOptionError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    kwargs: dict[str, Any] = dict(extra)
    if think is not None and takes_think(name):
        kwargs["think"] = think
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
    "LEVELS",
    "Agent",
    "BlunderingAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "LevelAgent",
    "NashSearchAgent",
    "PerfectAgent",
    "RandomAgent",
    "SMMCTSAgent",
    "level_agent",
    "make_agent",
    "solve_matrix_game",
    "takes_think",
]
