"""Agents: one protocol for every player, from uniform random to search.

:data:`AGENTS` names every agent a spec may ask for, with the games it can play;
:func:`make_agent` builds one from a spec (``NAME`` or ``NAME:key=value[:key=value...]``),
:func:`agents_for` lists the agents that can play a game and :func:`agent_refusal` says
why one cannot.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from taut.agents.base import Agent, Evaluator, RandomAgent
from taut.agents.greedy import GreedyAgent
from taut.agents.ismcts import ISMCTSAgent
from taut.agents.levels import LEVELS, BlunderingAgent, LevelAgent, level_agent
from taut.agents.nash import NashSearchAgent
from taut.agents.perfect import PerfectAgent
from taut.agents.result import SearchResult
from taut.agents.smmcts import SelectionRule, SMMCTSAgent
from taut.core.errors import InvalidOptionError
from taut.core.game import Game
from taut.solve.matrix import solve_matrix_game


@dataclass(frozen=True)
class AgentSpec:
    """One name of the agent registry: how to build the agent, and which games it plays.

    ``factory`` takes the keyword parameters of a ``NAME:key=value`` spec; ``refuses(game)``
    is None when the agent can play ``game``, else the reason it cannot (completing "the
    agent ...", as ``needs perfect information``).
    """

    factory: Callable[..., Agent]
    refuses: Callable[[Game], str | None] = Agent.refuses


#: Agents by name.
AGENTS: dict[str, AgentSpec] = {
    "random": AgentSpec(RandomAgent),
    "greedy": AgentSpec(GreedyAgent),
    "smmcts": AgentSpec(SMMCTSAgent, SMMCTSAgent.refuses),
    "mcts": AgentSpec(partial(SMMCTSAgent, "uct"), SMMCTSAgent.refuses),
    "ismcts": AgentSpec(ISMCTSAgent, ISMCTSAgent.refuses),
    "nash": AgentSpec(NashSearchAgent, NashSearchAgent.refuses),
    "perfect": AgentSpec(PerfectAgent, PerfectAgent.refuses),
    "easy": AgentSpec(partial(LevelAgent, "easy")),
    "medium": AgentSpec(partial(LevelAgent, "medium")),
    "hard": AgentSpec(partial(LevelAgent, "hard")),
}


def _spec(name: str) -> AgentSpec:
    """The registry entry called ``name``; InvalidOptionError listing the agents."""
    found = AGENTS.get(name)
    if found is None:
        raise InvalidOptionError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    return found


def takes_think(name: str) -> bool:
    """Whether the agent called ``name`` has a ``think`` (seconds per move) parameter."""
    found = AGENTS.get(name)
    if found is None:
        return False
    try:
        return "think" in inspect.signature(found.factory).parameters
    except (TypeError, ValueError):
        return False


def agent_refusal(name: str, game: Game) -> str | None:
    """Why the agent called ``name`` cannot play ``game`` (None: it can)."""
    return _spec(name).refuses(game)


def agents_for(game: Game) -> list[str]:
    """The names of the agents that can play ``game``, sorted."""
    return sorted(name for name, spec in AGENTS.items() if spec.refuses(game) is None)


def make_agent(
    spec: str, think: float | None = None, game: Game | None = None, **extra: Any
) -> Agent:
    """Build an agent from a spec ``NAME`` or ``NAME:key=value[:key=value...]``.

    ``think`` (seconds per move) goes to agents that take it, unless the spec sets its own;
    agents that do not think (``random``, ``greedy``, ``perfect``...) ignore it. With
    ``game``, an agent that cannot play it is refused: the error names the agent, the
    game, the reason and the agents that can.
    """
    name, *params = spec.split(":")
    entry = _spec(name)
    if game is not None:
        reason = entry.refuses(game)
        if reason is not None:
            raise InvalidOptionError(
                f"agent {name!r} cannot play {game.title}: it {reason}; "
                f"agents that can: {', '.join(agents_for(game))}"
            )
    kwargs: dict[str, Any] = dict(extra)
    if think is not None and takes_think(name):
        kwargs["think"] = think
    for param in params:
        key, sep, value = param.partition("=")
        if not sep:
            raise InvalidOptionError(f"agent parameter {param!r} is not key=value")
        kwargs[key] = value
    try:
        return entry.factory(**kwargs)
    except TypeError as exc:
        raise InvalidOptionError(f"agent {name!r} does not take those parameters: {exc}") from None


__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpec",
    "BlunderingAgent",
    "Evaluator",
    "GreedyAgent",
    "ISMCTSAgent",
    "LevelAgent",
    "NashSearchAgent",
    "PerfectAgent",
    "RandomAgent",
    "SMMCTSAgent",
    "SearchResult",
    "SelectionRule",
    "agent_refusal",
    "agents_for",
    "level_agent",
    "make_agent",
    "solve_matrix_game",
    "takes_think",
]
