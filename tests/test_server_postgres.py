"""Past one machine: two ``taut serve`` processes on one PostgreSQL database serve the same
games. A move made through one reaches the clients of the other (LISTEN/NOTIFY), and moves
racing through both for one place resolve to one.

The test makes a database of its own on the PostgreSQL at 127.0.0.1 and drops it after; it
skips, saying so, when that server cannot be reached.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taut.server.play.commit import commitment, new_salt
from taut.server.store.games import Store
from tests.test_server_kit import Remote, Served, play_remote, run, start_server, token_of

ADMIN = "postgresql://postgres@127.0.0.1/postgres"


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A database of its own (dropped after), as a SQLAlchemy URL."""
    pytest.importorskip("asyncpg")
    name = f"taut_test_{secrets.token_hex(4)}"
    try:
        run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError) as exc:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 cannot be reached ({exc})")
    except Exception as exc:  # asyncpg's own errors: refused, no such role, ...
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 cannot be used ({exc})")
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1/{name}"
    finally:
        run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def servers(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Served]]:
    """Two ``taut serve`` processes on the one database."""
    log = tmp_path_factory.mktemp("postgres") / "serve.log"
    started: list[Served] = []
    try:
        for _ in range(2):
            started.append(start_server(database, log))
        yield started
    finally:
        for served in started:
            served.stop()


async def events(database: str, game_id: str) -> list[Any]:
    """Every event of a game, read from the database."""
    store = Store(database)
    try:
        return await store.events_after(game_id, -1)
    finally:
        await store.close()


def test_a_move_through_one_process_reaches_a_client_of_the_other(
    servers: list[Served],
) -> None:
    one, other = servers
    made = one.post("/api/games", {
        "game": "pulling-strings", "options": {"max_turns": 8},
        "seats": [{"kind": "me"}, {"kind": "invite"}],
    })  # fmt: skip
    tokens = [token_of(link) for link in made["links"].values()]

    async def play() -> None:
        alice = Remote(one, made["id"], tokens[0], random.Random(1))
        bob = Remote(other, made["id"], tokens[1], random.Random(2))
        watcher = Remote(other, made["id"], token_of(made["spectator"]), random.Random(3))
        for person in (alice, bob, watcher):
            await person.connect()
        assert (await alice.commit(alice.frame["legal"][0]))["type"] == "ack"
        seen = await bob.state(lambda f: f["committed"] == [alice.frame["you"]], wait=10)
        assert seen["move"] == 0 and not seen["to_reveal"]
        await play_remote([alice, bob])
        final = await watcher.state(lambda f: f["phase"] == "over", wait=10)
        assert final["seq"] == alice.frame["seq"] == bob.frame["seq"]
        for person in (alice, bob, watcher):
            await person.close()

    run(play())


def test_moves_racing_through_both_processes_resolve_to_one(
    servers: list[Served], database: str
) -> None:
    one, other = servers
    made = one.post("/api/games", {
        "game": "tracks", "options": {"size": 4}, "seats": [{"kind": "me"}, {"kind": "invite"}],
    })  # fmt: skip
    tokens = [token_of(link) for link in made["links"].values()]

    async def race() -> None:
        tabs = {
            seat: [Remote(s, made["id"], token, random.Random(seat)) for s in (one, other)]
            for seat, token in enumerate(tokens)
        }
        for pair in tabs.values():
            for tab in pair:
                await tab.connect()
        rounds = 0
        while rounds < 8:
            for pair in tabs.values():
                for tab in pair:
                    await tab.state(lambda f: True)
            frame = tabs[0][0].frame
            if frame["phase"] == "over":
                break
            seat = 0 if frame["you"] in frame["acting"] else 1
            pair = tabs[seat]
            seq = max(tab.frame["seq"] for tab in pair)
            for tab in pair:
                await tab.state(lambda f, seq=seq: f["seq"] >= seq)
            legal = pair[0].frame["legal"]
            move = pair[0].frame["move"]
            picks = [legal[0], legal[-1]] if len(legal) > 1 else [legal[0], legal[0]]
            answers = await asyncio.gather(
                *(
                    tab.send(type="move", move=move, action=pick)
                    for tab, pick in zip(pair, picks, strict=True)
                )
            )
            kinds = sorted(a["type"] for a in answers)
            if picks[0] != picks[1]:
                assert kinds == ["ack", "error"], answers
            else:
                assert kinds == ["ack", "ack"] and sorted(a["repeat"] for a in answers) == [
                    False,
                    True,
                ]
            stored = await events(database, made["id"])
            assert sum(1 for e in stored if e.kind == "move" and e.payload["move"] == move) == 1
            last = max(a.get("seq", 0) for a in answers)
            for tabs_of_seat in tabs.values():
                for tab in tabs_of_seat:
                    await tab.state(lambda f, last=last: f["seq"] >= last, wait=10)
            rounds += 1
        assert rounds >= 4
        stored = await events(database, made["id"])
        moves = [e.payload["move"] for e in stored if e.kind == "move"]
        assert moves == list(range(len(moves)))
        for pair in tabs.values():
            for tab in pair:
                await tab.close()

    run(race())


def test_commitments_racing_through_both_processes_resolve_to_one(
    servers: list[Served], database: str
) -> None:
    one, other = servers
    made = other.post("/api/games", {
        "game": "pulling-strings", "seats": [{"kind": "me"}, {"kind": "invite"}],
    })  # fmt: skip
    token = token_of(made["mine"])

    async def race() -> None:
        tabs = [Remote(s, made["id"], token, random.Random(4)) for s in (one, other)]
        for tab in tabs:
            await tab.connect()
        seat = tabs[0].frame["you"]
        digests = [
            commitment(made["id"], 0, seat, action, new_salt())
            for action in tabs[0].frame["legal"][:2]
        ]
        answers = await asyncio.gather(
            *(
                tab.send(type="commit", move=0, hash=digest)
                for tab, digest in zip(tabs, digests, strict=True)
            )
        )
        assert sorted(a["type"] for a in answers) == ["ack", "error"], answers
        stored = [e for e in await events(database, made["id"]) if e.kind == "commit"]
        assert len(stored) == 1 and stored[0].payload["hash"] in digests
        for tab in tabs:
            await tab.close()

    run(race())


def test_a_lost_listening_connection_is_opened_again(database: str) -> None:
    from taut.server.play.clients import Connection
    from taut.server.play.computer import Computer
    from taut.server.play.hub import Hub
    from taut.server.play.making import NewGame, SeatChoice, make_game
    from taut.server.store.notify import Listener
    from tests.test_server_kit import Recorder

    name = database.rsplit("/", 1)[1]

    async def until(test: Any) -> None:
        for _ in range(200):
            if test():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("not within 10 s")

    async def go() -> None:
        stores = [Store(database) for _ in range(2)]
        await stores[0].create_tables()
        hubs = [Hub(store, Computer(0)) for store in stores]
        listener = Listener(database, hubs[1].notified, hubs[1].catch_up_all)
        await listener.start()
        try:
            seats = [SeatChoice(kind="me"), SeatChoice(kind="invite")]
            request = NewGame(game="tracks", options={"size": 3}, seats=seats)
            made = await make_game(stores[0], request)
            here, there = await hubs[0].table(made.id), await hubs[1].table(made.id)
            assert here is not None and there is not None
            watching = Recorder()
            hubs[1].join(Connection(watching, made.id, None))

            async def move() -> None:
                assert here is not None
                seat = here.state.acting_seats()[0]
                action = here.state.action_to_string(seat, here.state.legal_actions(seat)[0])
                await hubs[0].command(made.id, lambda t: t.move(seat, t.node, action))

            await _admin(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND query LIKE 'LISTEN%'"
            )
            await move()  # while the listening connection is down, or coming back
            await until(lambda: there.seq == here.seq)
            await move()  # heard on the listening connection opened again
            await until(lambda: there.seq == here.seq)
            await until(lambda: bool(watching.texts) and watching.last()["seq"] == here.seq)
        finally:
            await listener.stop()
            for hub, store in zip(hubs, stores, strict=True):
                await hub.close()
                await store.close()

    run(go())


def test_the_computer_chooses_in_one_process_and_is_revealed_through_the_other(
    database: str,
) -> None:
    from taut.server.play.clients import Connection
    from taut.server.play.computer import Computer
    from taut.server.play.hub import Hub
    from taut.server.play.making import NewGame, SeatChoice, make_game
    from taut.server.store.notify import Listener
    from tests.test_server_kit import Recorder

    class Thoughtful(Computer):
        """A computer that never makes up its mind (this process leaves it to the other)."""

        async def choose(self, *args: Any) -> int:
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

    async def until(test: Any) -> None:
        for _ in range(200):
            if test():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("not within 10 s")

    async def go() -> None:
        stores = [Store(database) for _ in range(2)]
        await stores[0].create_tables()
        chooser, other = Hub(stores[0], Computer(0)), Hub(stores[1], Thoughtful(0))
        listener = Listener(database, other.notified, other.catch_up_all)
        await listener.start()
        try:
            seats = [SeatChoice(kind="me"), SeatChoice(kind="easy")]
            request = NewGame(game="pulling-strings", options={"max_turns": 3}, seats=seats)
            made = await make_game(stores[0], request)
            there = await other.table(made.id)  # loaded before the computer chooses
            person = Recorder()
            conn = Connection(person, made.id, 0)
            other.join(conn)
            assert there is not None
            await chooser.table(made.id)  # the computer chooses in this process
            await until(lambda: 1 in there.commits)
            # Read back from the store when heard of (a moment after the commitment).
            await until(lambda: 1 in there.secrets)
            state = there.state
            action = state.action_to_string(0, state.legal_actions(0)[0])
            salt = new_salt()
            digest = commitment(made.id, 0, "X", action, salt)
            await other.command(made.id, lambda t: t.commit(0, 0, digest))
            assert 1 in there.reveals  # revealed here, with the commitment that completed
            await other.command(made.id, lambda t: t.reveal(0, 0, action, salt))
            assert there.node == 1
            await until(lambda: bool(person.texts) and person.last()["move"] == 1)
        finally:
            await listener.stop()
            for hub, store in ((chooser, stores[0]), (other, stores[1])):
                await hub.close()
                await store.close()

    run(go())


def test_a_batch_is_written_whole_or_not_at_all(database: str) -> None:
    from tests.test_server_restart import half_taken

    run(half_taken(database))


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def test_processes_on_one_address_play_one_game(database: str, tmp_path: Path) -> None:
    served = start_server(database, tmp_path / "serve.log", processes=2)
    try:
        # The listening process hands the connections to its worker processes.
        assert len(_children(served.process.pid)) >= 2
        made = served.post("/api/games", {
            "game": "pulling-strings", "options": {"max_turns": 6},
            "seats": [{"kind": "me"}, {"kind": "invite"}],
        })  # fmt: skip
        tokens = [token_of(link) for link in made["links"].values()]
        watching = token_of(made["spectator"])

        async def play() -> None:
            alice = Remote(served, made["id"], tokens[0], random.Random(1))
            bob = Remote(served, made["id"], tokens[1], random.Random(2))
            # Several watchers: the connections land on either process.
            watchers = [Remote(served, made["id"], watching, random.Random(3)) for _ in range(4)]
            for person in (alice, bob, *watchers):
                await person.connect()
            await play_remote([alice, bob])
            for watcher in watchers:
                final = await watcher.state(lambda f: f["phase"] == "over", wait=10)
                assert final["seq"] == alice.frame["seq"] == bob.frame["seq"]
            for person in (alice, bob, *watchers):
                await person.close()

        run(play())
        stored = run(events(database, made["id"]))
        assert [e.seq for e in stored] == list(range(len(stored)))
    finally:
        served.stop()
