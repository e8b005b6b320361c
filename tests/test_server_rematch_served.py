"""A rematch made here is served at once: the hub holds the new game as it stored it, so
the players' connections, which come straight after, read nothing back from the store;
and what it holds is exactly what a process loading the game from the store would
build (the same row, events and frames for every seat)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sqlalchemy import delete

from taut.server.play.clients import Connection
from taut.server.play.computer import Computer
from taut.server.play.frames import Pictures, frame_text
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, SeatChoice, make_game, rematch_of
from taut.server.play.session import handle
from taut.server.players.accounts import Players
from taut.server.store.games import Store
from taut.server.store.schema import game_players
from tests.test_server_kit import Recorder
from tests.test_server_postgres import database  # noqa: F401 (a fixture)
from tests.test_server_ratings import url  # noqa: F401 (a fixture)


class _Counted(Store):
    """A store that counts the reads of a game's row and events."""

    reads = 0

    async def load_game(self, game_id: str) -> Any:
        self.reads += 1
        return await super().load_game(game_id)

    async def events_after(self, game_id: str, seq: int) -> Any:
        self.reads += 1
        return await super().events_after(game_id, seq)


async def _finished(hub: Hub, store: Store, game: str, options: dict[str, Any]) -> Connection:
    """A game of two people, resigned by the first: a connection of its first seat."""
    made = await make_game(
        store, NewGame(game=game, options=options, seats=[{"kind": "me"}, {"kind": "invite"}])
    )
    await hub.table(made.id)
    conn = Connection(Recorder(), made.id, 0)
    hub.join(conn)
    await handle(hub, conn, json.dumps({"type": "resign", "ref": 1}))
    assert hub.tables[made.id].state.is_terminal()
    return conn


def _frames(hub: Hub, game_id: str, seats: int) -> list[str]:
    table = hub.tables[game_id]
    return [frame_text(table, seat, Pictures(), 0.0) for seat in [None, *range(seats)]]


def test_a_rematch_is_served_without_reading_it_back_and_as_a_load_builds_it(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        file = f"sqlite+aiosqlite:///{tmp_path}/rematch.db"
        store = _Counted(file)
        await store.create_tables()
        hub = Hub(store, Computer(0))
        for game, options in [
            ("pulling-strings", {}),
            ("tracks", {"size": 6}),
            ("tug-of-war", {"players": 2}),
            ("push-pull", {}),
        ]:
            conn = await _finished(hub, store, game, options)
            store.reads = 0
            await handle(hub, conn, json.dumps({"type": "rematch", "ref": 2}))
            new_id = hub.tables[conn.game_id].rematch
            assert new_id is not None and new_id in hub.tables
            # The players come to it: nothing is read back.
            table = await hub.table(new_id)
            assert table is hub.tables[new_id] and store.reads == 0, game
            # Another process loads it from the store: the same game.
            other = Hub(Store(file), Computer(0))
            loaded = await other.table(new_id)
            assert loaded is not None
            assert other.rows[new_id] == hub.rows[new_id], game
            assert loaded.seq == table.seq and loaded.node == table.node, game
            seats = len(table.seats)
            assert _frames(other, new_id, seats) == _frames(hub, new_id, seats), game
            await other.store.close()
        await hub.close()
        await store.close()

    asyncio.run(run())


def test_a_rematch_made_first_by_the_other_request_is_read_from_the_store(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path}/twice.db")
        await store.create_tables()
        hub = Hub(store, Computer(0))
        conn = await _finished(hub, store, "pulling-strings", {})
        first = await rematch_of(store, conn.game_id)
        second = await rematch_of(store, conn.game_id, hub.rows[conn.game_id])
        # One game: the second request made nothing, so it has nothing to serve from.
        assert first.id == second.id and first.made is not None and second.made is None
        row, events = first.made
        assert row == await store.load_game(first.id)
        assert events == await store.events_after(first.id, -1)
        await hub.close()
        await store.close()

    asyncio.run(run())


def test_a_rematch_keeps_its_players_at_their_seats_once_whoever_made_it(
    url: str,  # noqa: F811
) -> None:
    """The players holding the finished game's seats hold the rematch's, copied as it is
    stored; asked for again, nothing changes; and a rematch stored without them (its maker
    stopped before the copy, or made it before it was copied with the game) gets them from
    the next request."""

    async def run() -> None:
        store = Store(url)
        await store.create_tables()
        players = Players(store)
        try:
            (a, _), (b, _) = await players.create(), await players.create()
            seats = [SeatChoice(kind="me"), SeatChoice(kind="invite")]
            request = NewGame(game="tracks", options={"size": 3}, seats=seats)
            made = await make_game(store, request, player=a.id)
            await store.seat_holders.attach(made.id, 1, b.id)
            first = await rematch_of(store, made.id)
            assert await store.seat_holders.of_game(first.id) == {0: a.id, 1: b.id}
            again = await rematch_of(store, made.id)
            assert first.id == again.id and first.made is not None and again.made is None
            assert await store.seat_holders.of_game(first.id) == {0: a.id, 1: b.id}

            other = await make_game(store, request, player=b.id)
            await store.seat_holders.attach(other.id, 1, a.id)
            bare = await rematch_of(store, other.id)
            async with store.transaction() as conn:
                await conn.execute(delete(game_players).where(game_players.c.game_id == bare.id))
            assert await store.seat_holders.of_game(bare.id) == {}
            assert (await rematch_of(store, other.id)).made is None
            assert await store.seat_holders.of_game(bare.id) == {0: b.id, 1: a.id}
        finally:
            await store.close()

    asyncio.run(run())


def test_a_game_adopted_while_a_connection_loads_it_is_the_one_served(tmp_path: Path) -> None:
    """A connection that finds a game not yet served starts to load it; if its maker, in
    the same process, adopts it meanwhile, the adopted table stays the one served."""

    async def run() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path}/race.db")
        await store.create_tables()
        hub = Hub(store, Computer(0))
        made = await make_game(
            store,
            NewGame(game="tracks", options={"size": 3}, seats=[{"kind": "me"}, {"kind": "invite"}]),
        )
        row = await store.load_game(made.id)
        events = await store.events_after(made.id, -1)
        assert row is not None
        adopted: list[object] = []
        reading = store.events_after

        async def read_then_adopt(game_id: str, seq: int) -> Any:
            found = await reading(game_id, seq)
            adopted.append(hub.adopt(row, events))  # the maker, while the read was away
            return found

        store.events_after = read_then_adopt  # type: ignore[method-assign]
        table = await hub.table(made.id)
        assert adopted and table is adopted[0] is hub.tables[made.id]
        await hub.close()
        await store.close()

    asyncio.run(run())
