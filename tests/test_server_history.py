"""A player's games as the player page lists them: finished games read from their kept
ends a page at a time, never loaded into memory; ends kept once and back-filled when
missing; finished games nobody watches leave the hub's memory and come back on demand.

On SQLite and, where it can be reached, PostgreSQL (the ``url`` fixture of the ratings
tests)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import delete, func, select

import taut.server.players.profile as profile
from taut.server.play.computer import Computer
from taut.server.play.frames import result_line
from taut.server.play.hub import IDLE_RELEASE, Hub
from taut.server.play.table import GameTable
from taut.server.players.history import History
from taut.server.players.profile import player_json
from taut.server.store.schema import game_ends
from tests.test_server_kit import app_client, run
from tests.test_server_postgres import database  # noqa: F401 (a fixture)
from tests.test_server_ratings import new_players, play_rated, rated_bench, url  # noqa: F401

FAR = time.monotonic() + 10 * IDLE_RELEASE


def expected_result(table: GameTable, seat: int) -> str:
    """How the game went for ``seat``, from its returns (two seats)."""
    mine, other = table.state.returns()[seat], table.state.returns()[1 - seat]
    return "won" if mine > other else "lost" if mine < other else "drew"


async def ends_kept(history: History, ids: list[str]) -> int:
    async with history.store.engine.connect() as conn:
        query = select(func.count()).where(game_ends.c.game_id.in_(ids))
        return int((await conn.execute(query)).scalar_one())


def test_finished_games_are_listed_from_rows_a_page_at_a_time(
    url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(profile, "PER_PAGE", 2)

    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            history = History(bench.store)
            bench.hub.when_over.append(history.record_end)
            a, b = await new_players(ratings, 2)
            tables = [
                await play_rated(bench, ratings, "tracks", [a, b], {"size": 2}) for _ in range(3)
            ]
            await bench.quiet()
            ids = [t.id for t in tables]
            assert await ends_kept(history, ids) == 3
            known = await ratings.players.names([a, b])
            name = known[a]

            async def pages(hub: Hub) -> list[dict[str, Any]]:
                return [await player_json(hub, ratings.players, ratings, history, name, p)
                        for p in (1, 2, 3)]  # fmt: skip

            first, second, third = await pages(bench.hub)
            assert [len(p["finished"]) for p in (first, second, third)] == [2, 1, 0]
            assert [p["finished_more"] for p in (first, second, third)] == [True, False, False]
            assert first["finished_count"] == 3 and first["playing"] == []
            listed = first["finished"] + second["finished"]
            assert {g["id"] for g in listed} == set(ids)
            for g in listed:
                table = next(t for t in tables if t.id == g["id"])
                assert g["result"] == expected_result(table, 0)
                assert g["outcome"] == result_line(table.state)
                assert g["rating"]["rated"] is True and g["rating"]["change"]["subject"] == a
                assert [s["player"] for s in g["seats"]] == [name, known[b]]

            # Nobody watches the finished games: they leave memory, and listing them
            # again loads none of them.
            for player in bench.players:
                bench.hub.leave(player.conn)
            assert bench.hub.release_idle(FAR) == 3
            assert not set(ids) & set(bench.hub.tables)
            assert await pages(bench.hub) == [first, second, third]
            assert not set(ids) & set(bench.hub.tables)

            # Ends that were never kept (games from before, or a failed write) are read
            # from the store once, kept, and the page is the same.
            async with bench.store.transaction() as conn:
                await conn.execute(delete(game_ends))
            fresh = Hub(bench.store, Computer(0))
            try:
                assert await pages(fresh) == [first, second, third]
                assert not set(ids) & set(fresh.tables)
            finally:
                await fresh.close()
            assert await ends_kept(history, ids) == 3

    run(go())


def test_finished_games_nobody_watches_leave_memory_and_come_back(url: str) -> None:  # noqa: F811
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            a, b = await new_players(ratings, 2)
            table = await play_rated(bench, ratings, "tracks", [a, b], {"size": 2})
            going = await bench.make("tracks", ["me", "invite"], {"size": 3})
            watcher = await bench.join(going.id, 0)
            hub = bench.hub
            watched = [p for p in bench.players if p.conn.game_id == table.id]
            assert watched
            # Watched: kept however long ago it was looked up.
            assert hub.release_idle(FAR) == 0 and table.id in hub.tables
            for player in watched:
                hub.leave(player.conn)
            # Looked up a moment ago: kept.
            await hub.table(table.id)
            assert hub.release_idle(time.monotonic()) == 0 and table.id in hub.tables
            # Long unused: released; a game in progress never is (even unwatched).
            hub.leave(watcher.conn)
            assert hub.release_idle(FAR) == 1
            assert table.id not in hub.tables and table.id not in hub.rows
            assert going.id in hub.tables
            again = await hub.table(table.id)
            assert again is not None and again is not table
            assert again.seq == table.seq and again.state.returns() == table.state.returns()

    run(go())


def test_an_end_told_again_or_by_another_process_is_kept_once_and_quietly(
    url: str,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            history = History(bench.store)
            bench.hub.when_over.append(history.record_end)
            a, b = await new_players(ratings, 2)
            table = await play_rated(bench, ratings, "tracks", [a, b], {"size": 2})
            await bench.quiet()
            kept = select(game_ends).where(game_ends.c.game_id == table.id)
            async with bench.store.engine.connect() as conn:
                first = (await conn.execute(kept)).all()
            # Told again here, and by a process that serves the same game.
            await history.record_end(table)
            await History(bench.store).record_end(table)
            async with bench.store.engine.connect() as conn:
                assert (await conn.execute(kept)).all() == first
            assert len(first) == 1 and first[0].outcome == result_line(table.state)

    with caplog.at_level("ERROR", logger="taut"):
        run(go())
    assert not [r for r in caplog.records if "keeping the end" in r.getMessage()]


def test_the_page_of_finished_games_is_checked(tmp_path: Any) -> None:
    with app_client(tmp_path) as client:
        made = client.post("/api/players", json={"name": "Pager"}).json()
        assert made["name"] == "Pager"
        ok = client.get("/api/players/Pager?page=2").json()
        assert ok["finished"] == [] and ok["finished_page"] == 2 and ok["finished_more"] is False
        for bad in ("0", "-1", "two", "100001"):
            answer = client.get(f"/api/players/Pager?page={bad}")
            assert answer.status_code == 422 and "page" in answer.json()["error"], bad
        page = client.get("/players/Pager?page=2")
        assert page.status_code == 200 and "The newest games" in page.text
