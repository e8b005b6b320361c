"""The database a server keeps its rows in: one engine over SQLite or PostgreSQL.

:class:`Database` holds the connections (pooled by SQLAlchemy, async), the one write lock
of SQLite, the connection moves are written through on SQLite's file and the thread that
checkpoints its write-ahead log. The rows themselves are read and written by the stores
built on it: games and their events (:mod:`taut.server.store.games`), tournaments
(:mod:`taut.server.store.tournaments`), analyses (:mod:`taut.server.store.analyses`) and
the players' and ratings' queries beside their routes (:mod:`taut.server.players`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy import Table, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from taut.core.errors import TautError
from taut.server.store.checkpoints import Checkpointer
from taut.server.store.group_commit import GroupWriter
from taut.server.store.inline_sqlite import connect_inline
from taut.server.store.schema import games
from taut.server.store.statements import insert_text

#: Connections a store keeps open (and opens at most as many more in a burst).
POOL = 20


def token_hash(token: str) -> str:
    """What the store keeps of a capability token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Conflict(Exception):
    """Another writer took the ``seq`` first: reload the events and try again."""


class StoreFailure(TautError):
    """The database refused a write (a full disk, a file-size limit, a read-only file
    system, a lost connection): the transaction was rolled back, so nothing changed, and
    the player is told to try again."""


#: What players are told when a write fails (the cause goes to the server's log).
NOT_SAVED = "the server could not save this (its storage refused the write); nothing changed"


class Database:
    """The engine behind the server's stores (one per process; connections pooled)."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.clock = clock
        """The time events are stored with (seconds since the epoch): the games' clocks are
        read from it, so tests may put a made-up clock here."""
        self.postgres = url.startswith("postgresql")
        # Connections stay open between commands: a burst beyond the pool would otherwise
        # open (and on PostgreSQL fork a server process for) a connection per command.
        kwargs: dict[str, Any] = {"pool_size": POOL, "max_overflow": POOL}
        if not self.postgres:
            kwargs["connect_args"] = {"timeout": 30}
            path = sqlite_file_path(url)
            if path is not None:  # a file: its connections run on the loop's thread
                kwargs["async_creator"] = connect_inline(path, timeout=30)
            # Every use of a SQLite connection ends its own transaction (the driver opens
            # none for reading), so the pool's rollback on return would only cost a trip.
            kwargs["pool_reset_on_return"] = None
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self.reader: AsyncEngine = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.postgres
            else self.engine
        )
        """The engine that reads (the same pool): on PostgreSQL its queries run outside any
        transaction, so that a read is one round trip, not a ``BEGIN``, the query and a
        ``ROLLBACK`` when its connection goes back to the pool. Anything that writes, or
        reads what it is about to write, uses :attr:`engine` and a transaction."""
        if not self.postgres:
            event.listen(self.engine.sync_engine, "connect", self._connected)
        # SQLite has one writer at a time and makes the others sleep and poll for the lock:
        # in one process, writers queue here instead, without sleeping.
        self._writing = asyncio.Lock() if not self.postgres else None
        # SQLite's moves are written through one connection of the driver's, kept open and
        # used on the event loop's thread (see _sqlite_file).
        self._file: sqlite3.Connection | None = None
        self._checkpoints: Checkpointer | None = None
        # Appends waiting while the loop was busy are committed together (group_commit).
        self._group = GroupWriter(self._sqlite_file, self._writing or asyncio.Lock())

    def _transaction_lock(self) -> asyncio.Lock | contextlib.nullcontext[None]:
        """The one write lock of SQLite (nothing to hold on PostgreSQL)."""
        return self._writing if self._writing is not None else contextlib.nullcontext()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite)."""
        if self._writing is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._writing, self.engine.begin() as conn:
            yield conn

    def transaction(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite), for the player and rating
        queries that live beside their routes."""
        return self._transaction()

    async def add_once(self, table: Table, row: dict[str, Any]) -> None:
        """Insert ``row`` into ``table`` unless a row with its key is there already (then
        nothing changes, and nothing is raised). On a SQLite file it is written as a
        move is, with the moves waiting, in their transaction
        (:mod:`taut.server.store.group_commit`): no statement compiled, no pooled
        connection."""
        if self._sqlite_path() is not None:
            names = list(row)
            sql = insert_text(table, names, keep_existing=True)
            await self._group.write([(sql, [tuple(row[n] for n in names)])])
            return
        dialect = postgresql if self.postgres else sqlite
        async with self._transaction() as conn:
            await conn.execute(dialect.insert(table).values(**row).on_conflict_do_nothing())

    async def probe_write(self) -> None:
        """Start a write and roll it back: raises when the database cannot be written
        (a read-only file or file system), before any player depends on it."""
        async with self.engine.connect() as conn:
            await conn.execute(
                games.update().where(games.c.id == "").values(updated_at=games.c.updated_at)
            )
            await conn.rollback()

    async def close(self) -> None:
        """Close every pooled connection."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._checkpoints is not None:
            self._checkpoints.stop()
            self._checkpoints = None
        await self.engine.dispose()

    def _sqlite_path(self) -> str | None:
        """The SQLite file's path (None for a database in memory or on PostgreSQL)."""
        return None if self.postgres else sqlite_file_path(self.url)

    def _sqlite_file(self) -> sqlite3.Connection:
        """The connection moves are written through on SQLite, on the event loop's own
        thread (a file's: a database in memory is shared only by the pool's connections).
        Writing a move takes tens of microseconds; handing it to a database thread and
        back costs more than that (the hand-over contends for the interpreter's lock), and
        the command waits for the write either way. Used holding the write lock."""
        if self._file is None:
            path = self._sqlite_path()
            if path is None:
                raise RuntimeError("no SQLite file to write moves through")
            self._file = sqlite3.connect(path, timeout=30)
            self._connected(self._file, None)
        return self._file

    def _connected(self, dbapi_connection: Any, connection_record: Any) -> None:
        """A new SQLite connection of this store: its settings. A file's connections commit
        on the loop's thread, so they leave the checkpoints to a thread of their own
        (:mod:`taut.server.store.checkpoints`), started with the first of them."""
        _sqlite_pragmas(dbapi_connection, connection_record)
        path = self._sqlite_path()
        if path is None:
            return
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()
        if self._checkpoints is None:
            self._checkpoints = Checkpointer(path)


@functools.lru_cache(maxsize=16)
def sqlite_file_path(url: str) -> str | None:
    """The file of a SQLite URL (None for a database in memory); kept per URL, since every
    append asks and parsing a URL costs more than the rest of its question."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    return None if not database or database == ":memory:" else database


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL: readers never wait for the writer; a committed move survives a killed server."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
