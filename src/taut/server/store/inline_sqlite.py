"""SQLite connections for SQLAlchemy's asynchronous engine that run on the event loop's
thread.

The ``aiosqlite`` driver gives each connection a thread and hands every call to it and
back. For a file on a local disk a query takes microseconds, and the hand-over costs more
than the query: two thread switches, and a thread that must take the interpreter's lock
back from the busy event loop. Measured under load (1,000 clients), these hand-overs took
a noticeable share of the loop's time. :func:`connect_inline` makes the same driver's
connections carry out each call at once, on the calling thread, so that SQLAlchemy, the
dialect and the pool work as before. The loop waits for each query, as it already does for
the moves it writes (see :mod:`taut.server.store.group_commit`); SQLite's write-ahead log keeps
readers from ever waiting on a writer.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

import aiosqlite


class _AtOnce:
    """Stands for the driver's queue of calls: each call is carried out as it is put."""

    def put_nowait(self, item: tuple[asyncio.Future[Any] | None, Callable[[], Any]]) -> None:
        """Carry out ``function`` now and settle ``future`` with its result or error."""
        future, function = item
        try:
            result = function()
        except BaseException as exc:
            if future is None:
                raise
            future.set_exception(exc)
        else:
            if future is not None:
                future.set_result(result)


class InlineConnection(aiosqlite.Connection):
    """An ``aiosqlite`` connection whose calls run on the caller's thread, at once."""

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._tx = _AtOnce()  # type: ignore[assignment]

    def __await__(self) -> Generator[Any, None, aiosqlite.Connection]:
        # No thread to start: the connection is opened by the first call, here.
        return self._connect().__await__()


def connect_inline(path: str, timeout: float) -> Callable[[], Any]:
    """The ``async_creator`` for ``create_async_engine``: connections to the SQLite file
    ``path`` that run on the caller's thread."""

    async def connect() -> InlineConnection:
        connection = InlineConnection(partial(sqlite3.connect, path, timeout=timeout))
        await connection
        return connection

    return connect
