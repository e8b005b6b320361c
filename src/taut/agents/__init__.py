"""Agents: one protocol for every player, from uniform random to search.

:data:`AGENTS` names every agent a spec may ask for, with the games it can play;
:func:`make_agent` builds one from a spec (``NAME`` or ``NAME:key=value[:key=value...]``),
:func:`agents_for` lists the agents that can play a game and :func:`agent_refusal` says
why one cannot.

An agent's module is imported when the agent is first built or asked about, and so are
the names this package re-exports from the searching agents' modules: a command that
seats ``random`` players never loads the search code or NumPy.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from taut.agents.base import Agent, Evaluator, RandomAgent
from taut.agents.proxied import ProxiedAgent
from taut.agents.result import SearchResult
from taut.core.errors import InvalidOptionError
from taut.core.game import Game
from taut.core.lazy import lazy_exports

if TYPE_CHECKING:
    from taut.agents.counter import CounterAgent
    from taut.agents.greedy import GreedyAgent
    from taut.agents.ismcts import ISMCTSAgent
    from taut.agents.levels import LEVELS, BlunderingAgent, LevelAgent, level_agent
    from taut.agents.nash import NashSearchAgent
    from taut.agents.perfect import PerfectAgent
    from taut.agents.reply import ReplyAgent
    from taut.agents.smmcts import SelectionRule, SMMCTSAgent
    from taut.solve.matrix import solve_matrix_game

#: The names re-exported from modules that are imported on first use, by module.
_LAZY: dict[str, str] = {
    "CounterAgent": "taut.agents.counter",
    "GreedyAgent": "taut.agents.greedy",
    "ISMCTSAgent": "taut.agents.ismcts",
    "LEVELS": "taut.agents.levels",
    "BlunderingAgent": "taut.agents.levels",
    "LevelAgent": "taut.agents.levels",
    "level_agent": "taut.agents.levels",
    "NashSearchAgent": "taut.agents.nash",
    "PerfectAgent": "taut.agents.perfect",
    "ReplyAgent": "taut.agents.reply",
    "SelectionRule": "taut.agents.smmcts",
    "SMMCTSAgent": "taut.agents.smmcts",
    "solve_matrix_game": "taut.solve.matrix",
}


#: The re-exported names of :data:`_LAZY`, imported when first asked for.
__getattr__ = lazy_exports(__name__, globals(), _LAZY)


@dataclass(frozen=True)
class AgentSpec:
    """One name of the agent registry: the agent class it builds, and with what.

    ``target`` is the class, or ``"module:Class"`` to import it only when the agent is first
    built or asked about; ``args`` go first to its constructor (the level of a
    :class:`LevelAgent`). Whether the agent can play a game is its class's
    :meth:`Agent.refuses`.
    """

    target: str | type[Agent]
    args: tuple[Any, ...] = ()

    def agent_class(self) -> type[Agent]:
        """The agent's class (imported on first use)."""
        if not isinstance(self.target, str):
            return self.target
        module, _, name = self.target.partition(":")
        found: type[Agent] = getattr(importlib.import_module(module), name)
        return found

    @property
    def factory(self) -> Callable[..., Agent]:
        """Builds the agent from the keyword parameters of a ``NAME:key=value`` spec."""
        cls = self.agent_class()
        return partial(cls, *self.args) if self.args else cls

    def refuses(self, game: Game) -> str | None:
        """None when the agent can play ``game``, else the reason it cannot (completing
        "the agent ...", as ``needs perfect information``)."""
        return self.agent_class().refuses(game)


#: Agents by name.
AGENTS: dict[str, AgentSpec] = {
    "random": AgentSpec(RandomAgent),
    "greedy": AgentSpec("taut.agents.greedy:GreedyAgent"),
    "smmcts": AgentSpec("taut.agents.smmcts:SMMCTSAgent"),
    "mcts": AgentSpec("taut.agents.smmcts:SMMCTSAgent", ("uct",)),
    "ismcts": AgentSpec("taut.agents.ismcts:ISMCTSAgent"),
    "nash": AgentSpec("taut.agents.nash:NashSearchAgent"),
    "perfect": AgentSpec("taut.agents.perfect:PerfectAgent"),
    "reply": AgentSpec("taut.agents.reply:ReplyAgent"),
    "counter": AgentSpec("taut.agents.counter:CounterAgent"),
    "easy": AgentSpec("taut.agents.levels:LevelAgent", ("easy",)),
    "medium": AgentSpec("taut.agents.levels:LevelAgent", ("medium",)),
    "hard": AgentSpec("taut.agents.levels:LevelAgent", ("hard",)),
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


def _played(game: Game) -> Game:
    """The game agents actually search for ``game``: its proxy's, where it has one."""
    proxy = game.proxy()
    return game if proxy is None else proxy.game


def agent_refusal(name: str, game: Game) -> str | None:
    """Why the agent called ``name`` cannot play ``game`` (None: it can)."""
    return _spec(name).refuses(_played(game))


def agents_for(game: Game) -> list[str]:
    """The names of the agents that can play ``game``, sorted."""
    played = _played(game)
    return sorted(name for name, spec in AGENTS.items() if spec.refuses(played) is None)


def make_agent(
    spec: str, think: float | None = None, game: Game | None = None, **extra: Any
) -> Agent:
    """Build an agent from a spec ``NAME`` or ``NAME:key=value[:key=value...]``.

    ``think`` (seconds per move) goes to agents that take it, unless the spec sets its own;
    agents that do not think (``random``, ``greedy``, ``perfect``...) ignore it. With
    ``game``, an agent that cannot play it is refused: the error names the agent, the
    game, the reason and the agents that can; where the game has a proxy (a learning
    game), the agent plays through it (:class:`~taut.agents.proxied.ProxiedAgent`).
    """
    name, *params = spec.split(":")
    entry = _spec(name)
    if game is not None:
        reason = entry.refuses(_played(game))
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
        agent = entry.factory(**kwargs)
    except TypeError as exc:
        raise InvalidOptionError(f"agent {name!r} does not take those parameters: {exc}") from None
    proxy = game.proxy() if game is not None else None
    return agent if proxy is None else ProxiedAgent(agent, proxy)


__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpec",
    "BlunderingAgent",
    "CounterAgent",
    "Evaluator",
    "GreedyAgent",
    "ISMCTSAgent",
    "LevelAgent",
    "NashSearchAgent",
    "PerfectAgent",
    "ProxiedAgent",
    "RandomAgent",
    "ReplyAgent",
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
