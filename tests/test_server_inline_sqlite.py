"""SQLite connections that run on the event loop's thread: no thread per connection, and
SQLAlchemy's transactions, errors and rollbacks behave as with the threaded driver."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from taut.server.store.games import Store


def _drivers() -> int:
    """Threads other than the checkpoints' (one a store, by design)."""
    return sum(1 for t in threading.enumerate() if t.name != "taut-checkpoints")


def test_queries_run_on_the_loop_thread_and_transactions_hold(tmp_path: Path) -> None:
    async def main() -> None:
        threads = _drivers()
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'taut.db'}")
        try:
            await store.create_tables()
            async with store.engine.begin() as conn:
                await conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
                await conn.execute(text("INSERT INTO t VALUES (1), (2)"))
            with pytest.raises(IntegrityError):
                async with store.engine.begin() as conn:
                    await conn.execute(text("INSERT INTO t VALUES (3)"))
                    await conn.execute(text("INSERT INTO t VALUES (1)"))  # taken
            async with store.reader.connect() as conn:
                rows = (await conn.execute(text("SELECT k FROM t ORDER BY k"))).all()
            assert [r.k for r in rows] == [1, 2]  # the refused transaction left nothing
            assert _drivers() == threads  # no driver thread was started
        finally:
            await store.close()

    asyncio.run(main())
