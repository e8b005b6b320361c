"""Computer seats: their moves are chosen off the event loop, in a process pool.

The pool gets only text: the game's name and options, the full position's JSON, the seat,
the agent spec and a seed; a worker rebuilds the game and hands the agent the seat's view,
as every agent is handed. With no worker processes (``workers=0``) the choice runs in a
thread instead, which also reaches games registered at run time.
"""

from __future__ import annotations

import asyncio
import inspect
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from taut.agents import AGENTS, make_agent, takes_think
from taut.agents.levels import DEFAULT_THINK
from taut.core.registry import make

T = TypeVar("T")

#: On a live clock the computer gives a move this share of the time it has left, plus
#: :data:`INCREMENT_SHARE` of its increment: a game of a few dozen choices never runs out.
TIME_SHARE = 1 / 30
INCREMENT_SHARE = 0.8
#: Seconds kept in hand near the flag, for handing the move back (and starting a worker).
MARGIN = 0.5
#: The least a thinking agent is given, in seconds.
MIN_THINK = 0.02


def think_on_clock(left: float, increment: float) -> float:
    """Seconds the computer may think for one choice with ``left`` seconds on its clock and
    ``increment`` seconds gained per choice: a share of what is left and most of the
    increment, and never more than a quarter of what is left past :data:`MARGIN`."""
    budget = left * TIME_SHARE + increment * INCREMENT_SHARE
    budget = min(budget, max(0.0, left - MARGIN) / 4)
    return max(MIN_THINK, budget)


def within(spec: str, cap: float) -> str:
    """The agent ``spec`` thinking at most ``cap`` seconds a move: its ``think`` (its own,
    or its default) lowered to ``cap`` where it is more; agents that do not think, and
    specs that name no known agent, are returned as they are."""
    name, *params = spec.split(":")
    if not takes_think(name):
        return spec
    own = [p for p in params if p.partition("=")[0] == "think"]
    rest = [p for p in params if p.partition("=")[0] != "think"]
    if own:
        try:
            current = float(own[-1].partition("=")[2])
        except ValueError:
            return spec  # the agent refuses it with its own message
    else:
        default = inspect.signature(AGENTS[name].factory).parameters["think"].default
        current = float(default) if isinstance(default, (int, float)) else DEFAULT_THINK
    cap = round(cap, 3)  # as written in the spec
    if not current > cap:
        return spec
    return ":".join([name, *rest, f"think={cap:.3f}"])


def choose(
    game: str, options: dict[str, Any], position: Any, seat: int, spec: str, seed: int
) -> int:
    """The action id the agent ``spec`` plays for ``seat`` at the position (in a worker)."""
    built = make(game, **options)
    state = built.state_from_json(position)
    agent = make_agent(spec, game=built)
    return agent.act(state.view(seat), seat, random.Random(seed))


class Computer:
    """Where computer moves are chosen: a process pool, or threads."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Executor | None = None
        if workers > 0:
            # Spawned workers start clean (no copy of the server's event loop or sockets).
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    async def choose(
        self, game: str, options: dict[str, Any], position: Any, seat: int, spec: str, seed: int
    ) -> int:
        """Choose without blocking the event loop."""
        if self._pool is None:
            return await asyncio.to_thread(choose, game, options, position, seat, spec, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, choose, game, options, position, seat, spec, seed
        )

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Run ``work(*args)`` (a module-level function taking and returning plain data)
        off the event loop: in the pool, or in a thread without one."""
        if self._pool is None:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
