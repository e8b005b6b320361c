"""Computer seats: their moves are chosen off the event loop, in a process pool.

The pool gets only text: the game's name and options, the full position's JSON, the seat,
the agent spec and a seed; a worker rebuilds the game and hands the agent the seat's view,
as every agent is handed. With no worker processes (``workers=0``) the choice runs in a
thread instead, which also reaches games registered at run time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from taut.agents import make_agent
from taut.core.registry import make

T = TypeVar("T")


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
