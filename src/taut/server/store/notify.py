"""Between server processes on one PostgreSQL: a new event is announced to the others.

The store announces every batch it writes on the channel ``taut_events``
(``pg_notify``, sent when the transaction commits). Each process listens on its own
connection and, for a game it serves, loads the new events and sends its clients their
frames, so a move made through one process reaches the clients of every other. With
SQLite there is one process and nothing to listen to.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from taut.core.numbers import whole
from taut.server.store.statements import CHANNEL

log = logging.getLogger("taut.server")


def asyncpg_dsn(url: str) -> str:
    """The plain PostgreSQL address of a SQLAlchemy URL (``postgresql+asyncpg://...``)."""
    _, sep, rest = url.partition("://")
    return "postgresql://" + rest if sep else url


class Listener:
    """Listens for new events on PostgreSQL and hands ``on_event`` each game's id and the
    ``seq`` of the last event written. A lost listening connection is opened again; as
    announcements may have been missed meanwhile, ``on_event`` then hears of every game
    (with ``seq`` None) through ``on_reconnect``."""

    def __init__(
        self,
        url: str,
        on_event: Callable[[str, int | None], Awaitable[None]],
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.dsn = asyncpg_dsn(url)
        self.on_event = on_event
        self.on_reconnect = on_reconnect
        self._conn: Any = None
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Open the listening connection."""
        import asyncpg

        self._conn = await asyncpg.connect(self.dsn)
        self._conn.add_termination_listener(self._lost)
        await self._conn.add_listener(CHANNEL, self._heard)

    def _heard(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        game_id, _, seq = payload.partition(":")
        self._spawn(self._deliver(game_id, whole(seq)))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, game_id: str, seq: int | None) -> None:
        try:
            await self.on_event(game_id, seq)
        except Exception:  # one game's trouble must not stop the listening
            log.exception("while catching up with game %s", game_id)

    def _lost(self, connection: Any) -> None:
        if not self._stopping:
            log.warning("the PostgreSQL listening connection was lost; opening it again")
            self._spawn(self._reopen())

    async def _reopen(self) -> None:
        wait = 0.5
        while not self._stopping:
            try:
                await self.start()
            except Exception as exc:  # the database may be restarting
                log.warning("cannot listen on PostgreSQL yet (%s); trying again", exc)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 10.0)
                continue
            if self.on_reconnect is not None:
                await self.on_reconnect()
            return

    async def stop(self) -> None:
        """Close the listening connection."""
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
