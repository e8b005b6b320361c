"""Announcements of new events (PostgreSQL's notifications, delivered to
:meth:`Hub.notified`): one for a write made here costs no query, even when it arrives
before the writer has applied its events; one for another process's write is caught up
with."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from taut.server.store.games import Event
from tests.test_server_kit import bench, run


def test_an_announcement_of_a_write_made_here_costs_no_query(tmp_path: Path) -> None:
    async def go() -> None:
        async with bench(tmp_path) as b:
            made = await b.make("tracks", ["me", "invite"], {"size": 3})
            hub = b.hub
            table = await hub.table(made.id)
            assert table is not None
            asked: list[int] = []
            events_after = hub.store.events_after

            async def counted(game_id: str, seq: int) -> list[Event]:
                asked.append(seq)
                return await events_after(game_id, seq)

            hub.store.events_after = counted  # type: ignore[method-assign]
            lock = hub.locks.setdefault(made.id, asyncio.Lock())
            before = table.seq
            # A command of this process holds the lock; its announcement comes first.
            async with lock:
                notice = asyncio.create_task(hub.notified(made.id, before + 1))
                await asyncio.sleep(0)  # the announcement now waits for the lock
                await hub._carry_out(table, lambda t: t.name(0, "Ann"))
            await notice
            assert table.seq == before + 1
            assert asked == []

            # Another process's write: caught up with, once.
            other: Any = hub.store
            await other.append(made.id, table.seq, [("name", {"seat": "WE", "name": "Bo"})])
            await hub.notified(made.id, before + 2)
            assert asked == [before + 1]
            assert table.seq == before + 2 and table.seats[1].name == "Bo"

    run(go())
