"""Nothing lost: ``taut serve`` killed (SIGKILL) in the middle of games and started again on
the same SQLite file keeps every acknowledged move, and its clients reconnect and play on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from taut.server.store.games import Store
from tests.test_server_kit import (
    Remote,
    Served,
    play_remote,
    run,
    sqlite_url,
    start_server,
    token_of,
)


async def stored(database: str, game_id: str) -> list[Any]:
    """Every event of a game, read from the database."""
    store = Store(database)
    try:
        return await store.events_after(game_id, -1)
    finally:
        await store.close()


def holds(events: list[Any], seat: str, message: dict[str, Any]) -> int:
    """How many stored events carry ``seat``'s acknowledged ``message``."""
    kind = message["type"]
    count = 0
    for e in events:
        p = e.payload
        if kind == "move" and e.kind == "move":
            count += p["move"] == message["move"] and p["joint"].get(seat) == message["action"]
        elif kind == "commit" and e.kind == "commit":
            count += (p["move"], p["seat"], p["hash"]) == (message["move"], seat, message["hash"])
        elif kind == "reveal" and e.kind == "reveal":
            count += (p["move"], p["seat"], p["salt"]) == (message["move"], seat, message["salt"])
    return count


def test_a_killed_server_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path)
    log = tmp_path / "serve.log"

    async def before(served: Served) -> tuple[list[Remote], list[Remote]]:
        both = served.post("/api/games", {
            "game": "pulling-strings", "options": {"max_turns": 12},
            "seats": [{"kind": "me"}, {"kind": "invite"}],
        })  # fmt: skip
        solo = served.post("/api/games", {
            "game": "tracks", "options": {"size": 3}, "seats": [{"kind": "me"}, {"kind": "easy"}],
        })  # fmt: skip
        pair = [
            Remote(served, both["id"], token_of(link), random.Random(i))
            for i, link in enumerate(both["links"].values())
        ]
        alone = [Remote(served, solo["id"], token_of(solo["mine"]), random.Random(9))]
        for person in pair + alone:
            await person.connect()
        await play_remote(pair, until=3)
        await play_remote(alone, until=4)
        # Mid-node: one seat has committed, the other has not.
        first = pair[0].frame
        assert first["phase"] == "commit"
        assert (await pair[0].commit(first["legal"][0]))["type"] == "ack"
        return pair, alone

    served = start_server(database, log)
    try:
        pair, alone = run(before(served))
    finally:
        served.kill()
    assert served.process.returncode == -9

    async def after(served: Served) -> None:
        for people in (pair, alone):
            events = await stored(database, people[0].game_id)
            for person in people:
                for message in person.acked:
                    assert holds(events, person.frame["you"], message) == 1, message
        for person in pair + alone:
            person.frame = {}
            frame = await person.connect(served)
            assert frame["move"] >= 3
        assert pair[0].frame["committed"] == [pair[0].frame["you"]]
        assert pair[1].frame["phase"] == "commit" and pair[1].frame["legal"]
        await asyncio.gather(play_remote(pair), play_remote(alone))
        for person in pair + alone:
            assert person.frame["phase"] == "over"
            await person.close()
        for people in (pair, alone):
            events = await stored(database, people[0].game_id)
            moves = [e.payload["move"] for e in events if e.kind == "move"]
            assert moves == list(range(len(moves)))

    served = start_server(database, log)
    try:
        run(after(served))
    finally:
        served.stop()


async def half_taken(database: str) -> None:
    """A batch whose second event's place is taken is refused whole: its first event, its
    status and its secrets are not written either."""
    from taut.server.play.making import NewGame, SeatChoice, make_game
    from taut.server.store.database import Conflict

    store = Store(database)
    try:
        await store.create_tables()
        seats = [SeatChoice(kind="me"), SeatChoice(kind="easy")]
        made = await make_game(store, NewGame(game="tracks", options={"size": 3}, seats=seats))
        last = (await store.events_after(made.id, -1))[-1].seq
        await store.append(made.id, last + 1, [("name", {"seat": "NS", "name": "later"})])
        batch = [("name", {"seat": "NS", "name": "a"}), ("name", {"seat": "NS", "name": "b"})]
        try:
            await store.append(made.id, last, batch, "over", [(0, 1, "a1", "0" * 32)])
        except Conflict:
            pass
        else:
            raise AssertionError("a taken place was written over")
        after = await store.events_after(made.id, last)
        assert [(e.seq, e.payload["name"]) for e in after] == [(last + 2, "later")]
        assert (await store.load_game(made.id)).status == "playing"  # type: ignore[union-attr]
        assert await store.secret(made.id, 0, 1) is None
    finally:
        await store.close()


def test_a_batch_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    run(half_taken(sqlite_url(tmp_path)))
