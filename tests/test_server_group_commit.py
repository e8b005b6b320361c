"""Appends written together: one transaction for every append waiting, each append still
answered on its own (written, taken, or refused), and nothing half-written."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path

import pytest

from taut.server.play.making import NewGame, SeatChoice, make_game
from taut.server.store.database import Conflict, StoreFailure
from taut.server.store.games import Store
from taut.server.store.group_commit import GroupWriter, SeqTaken

INSERT = "INSERT INTO rows (game, seq) VALUES (?, ?)"


def _writer(path: Path) -> GroupWriter:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rows (game TEXT, seq INTEGER, PRIMARY KEY (game, seq))")
    file = sqlite3.connect(path)
    return GroupWriter(lambda: file, asyncio.Lock())


def _rows(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT game, seq FROM rows").fetchall())


async def _tracks_game(store: Store) -> tuple[str, int]:
    """A Track Tiles game of two people made in ``store``: its id, and its last event's seq."""
    seats = [SeatChoice(kind="me"), SeatChoice(kind="invite")]
    made = await make_game(store, NewGame(game="tracks", options={"size": 3}, seats=seats))
    return made.id, (await store.events_after(made.id, -1))[-1].seq


def test_appends_waiting_together_are_committed_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"

    async def main() -> GroupWriter:
        writer = _writer(path)
        await asyncio.gather(
            *(writer.write([(INSERT, [(f"g{i}", 1), (f"g{i}", 2)])]) for i in range(5))
        )
        await writer.write([(INSERT, [("g9", 1)])])  # alone: a group of its own
        return writer

    writer = asyncio.run(main())
    assert (writer.groups, writer.appends) == (2, 6)
    assert _rows(path) == sorted([(f"g{i}", s) for i in range(5) for s in (1, 2)] + [("g9", 1)])


def test_a_taken_row_refuses_only_its_own_append(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"

    async def main() -> list[BaseException | None]:
        writer = _writer(path)
        await writer.write([(INSERT, [("b", 1)])])
        return await asyncio.gather(
            writer.write([(INSERT, [("a", 1)])]),
            writer.write([(INSERT, [("b", 2), ("b", 1)])]),  # its second row is taken
            writer.write([(INSERT, [("c", 1)])]),
            return_exceptions=True,
        )

    answers = asyncio.run(main())
    assert answers[0] is None and answers[2] is None
    assert isinstance(answers[1], SeqTaken)
    # The refused append left nothing behind, not even its first row.
    assert _rows(path) == [("a", 1), ("b", 1), ("c", 1)]


def test_a_refused_group_writes_nothing_and_says_why_to_each(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"

    async def main() -> list[BaseException | None]:
        writer = _writer(path)
        return await asyncio.gather(
            writer.write([(INSERT, [("a", 1)])]),
            writer.write([("INSERT INTO nowhere VALUES (?)", [(1,)])]),
            return_exceptions=True,
        )

    answers = asyncio.run(main())
    assert all(isinstance(a, sqlite3.OperationalError) for a in answers)
    assert _rows(path) == []


def test_a_cancelled_append_that_has_not_been_written_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"

    async def main() -> None:
        writer = _writer(path)
        async with writer.lock:  # the write lock is held: appends wait
            gone = asyncio.create_task(writer.write([(INSERT, [("gone", 1)])]))
            kept = asyncio.create_task(writer.write([(INSERT, [("kept", 1)])]))
            await asyncio.sleep(0)
            gone.cancel()
            await asyncio.sleep(0)
        await kept
        with pytest.raises(asyncio.CancelledError):
            await gone

    asyncio.run(main())
    assert _rows(path) == [("kept", 1)]


def test_concurrent_moves_of_many_games_through_the_store(tmp_path: Path) -> None:
    """Through :meth:`Store.append`: appends of many games at once are grouped, each game
    gets its own events in order, and a stale append is a Conflict as before."""

    async def main() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'taut.db'}")
        try:
            await store.create_tables()
            seats = [SeatChoice(kind="me"), SeatChoice(kind="invite")]
            made = [
                await make_game(store, NewGame(game="tracks", options={"size": 3}, seats=seats))
                for _ in range(6)
            ]
            last = {m.id: (await store.events_after(m.id, -1))[-1].seq for m in made}
            before = store._group.groups
            await asyncio.gather(
                *(
                    store.append(m.id, last[m.id], [("name", {"seat": "NS", "name": f"p{i}"})])
                    for i, m in enumerate(made)
                )
            )
            assert store._group.groups - before < len(made)  # some were written together
            for i, m in enumerate(made):
                after = await store.events_after(m.id, last[m.id])
                assert [(e.seq, e.payload["name"]) for e in after] == [(last[m.id] + 1, f"p{i}")]
            with pytest.raises(Conflict):
                await store.append(made[0].id, last[made[0].id], [("name", {"seat": "WE"})])
        finally:
            await store.close()

    asyncio.run(main())


def test_new_games_are_written_with_the_appends_waiting_each_answered_on_its_own(
    tmp_path: Path,
) -> None:
    """A new game joins the group of appends waiting, after them (its events come after
    its row, which they refer to, even where an append of the group inserted events
    first); a game made twice is a Conflict for the second maker only."""

    async def main() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'taut.db'}")
        try:
            await store.create_tables()
            made, last = await _tracks_game(store)
            before = store._group.groups
            first = [("created", {"game": "tracks"}), ("name", {"seat": "NS", "name": "n"})]
            config = {"options": {"size": 3}, "seats": [{}, {}]}

            def new(game_id: str) -> object:
                return store.create_game(
                    game_id, "tracks", config, ["me", "invite"], ["h1", "h2"], first
                )

            answers = await asyncio.gather(
                store.append(made, last, [("name", {"seat": "NS", "name": "p"})]),
                new("fresh-game"),
                new("other-game"),
            )
            assert store._group.groups - before == 1  # written together
            for game_id, answer in [("fresh-game", answers[1]), ("other-game", answers[2])]:
                row, events = answer  # type: ignore[misc]
                assert row == await store.load_game(game_id)
                assert events == await store.events_after(game_id, -1)
                assert [e.kind for e in events] == ["created", "name"]
            again = await asyncio.gather(
                new("fresh-game"),  # made already
                store.append(made, last + 1, [("name", {"seat": "NS", "name": "q"})]),
                return_exceptions=True,
            )
            assert isinstance(again[0], Conflict) and again[1] is not None
            added = await store.events_after(made, last)
            assert [e.payload["name"] for e in added] == ["p", "q"]
        finally:
            await store.close()

    asyncio.run(main())


def test_a_refused_group_is_a_store_failure_for_the_player(tmp_path: Path) -> None:
    """A database that refuses the write (here: read-only) answers every append of the
    group with the store's failure, which a player is shown."""

    async def main() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'taut.db'}")
        try:
            await store.create_tables()
            made, last = await _tracks_game(store)
            store._sqlite_file().execute("PRAGMA query_only = ON")
            with pytest.raises(StoreFailure):
                await store.append(made, last, [("name", {"seat": "NS", "name": "x"})])
            store._sqlite_file().execute("PRAGMA query_only = OFF")
            assert (await store.events_after(made, last)) == []
        finally:
            await store.close()

    asyncio.run(main())


def test_checkpoints_run_on_their_own_thread_and_reach_the_file(tmp_path: Path) -> None:
    """The connection that commits moves never checkpoints; a thread of its own does, and
    a last time when the store closes, so that the database file itself holds every move."""
    path = tmp_path / "taut.db"

    async def main() -> int:
        store = Store(f"sqlite+aiosqlite:///{path}")
        await store.create_tables()
        made, last = await _tracks_game(store)
        await store.append(made, last, [("name", {"seat": "NS", "name": "kept"})])
        assert store._sqlite_file().execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        assert "taut-checkpoints" in [t.name for t in threading.enumerate()]
        checkpoints = store._checkpoints
        assert checkpoints is not None
        await store.close()
        assert "taut-checkpoints" not in [t.name for t in threading.enumerate()]
        assert checkpoints.done >= 1
        return last

    last = asyncio.run(main())
    # Read without the log (immutable): the moves are in the database file itself.
    with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as db:
        rows = db.execute("SELECT seq, payload FROM taut_events WHERE seq > ?", (last,)).fetchall()
    assert [(seq, json.loads(payload)["name"]) for seq, payload in rows] == [(last + 1, "kept")]


def test_no_connection_of_the_store_checkpoints_on_the_loop(tmp_path: Path) -> None:
    """The pool's connections (reads, ratings, histories) commit on the loop's thread too:
    they leave the checkpoints to the thread as well."""

    async def main() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'taut.db'}")
        try:
            await store.create_tables()
            async with store.engine.connect() as conn:
                raw = await conn.get_raw_connection()
                cursor = await raw.driver_connection.execute("PRAGMA wal_autocheckpoint")
                assert await cursor.fetchone() == (0,)
            assert store._checkpoints is not None
        finally:
            await store.close()

    asyncio.run(main())
