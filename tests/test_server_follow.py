"""Going on to a rematch on the same socket: ``follow`` moves a client to the finished
game's rematch, as the seat its token opens there, and the rematch's first frame is the one
a new socket would get; nothing of the game left comes after ``followed``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from taut.server.play.clients import Connection
from tests.test_server_kit import (
    Recorder,
    app_client,
    new_game,
    socket_of,
    token_of,
    two_people,
)


def _without_time(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame less what depends on when it was built."""
    return {k: v for k, v in frame.items() if k not in ("acks", "reveal_since")}


def test_both_players_and_a_spectator_follow_the_rematch_on_their_sockets(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["invite", "invite"], {"size": 3})
        old_id = made["id"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with (
            two_people(client, made) as (a, b),
            socket_of(client, old_id, token_of(made["spectator"])) as watcher,
        ):
            # Before the game has a rematch there is nothing to follow; the game goes on.
            early = a.send(type="follow")
            assert early["type"] == "error" and "no rematch" in early["message"]
            assert a.send(type="resign")["type"] == "ack"
            assert a.send(type="rematch")["type"] == "ack"
            new_id = a.ws.state(lambda f: bool(f.get("rematch")))["rematch"]
            firsts = []
            seats = [ws.frame["you"] if ws.frame else "?" for ws in (a.ws, b.ws, watcher)]
            for ws in (a.ws, b.ws, watcher):
                ws.state(lambda f: bool(f.get("rematch")))
                ws.send(type="follow", ref=99)
                told = ws.until(lambda m: m["type"] in ("followed", "error"))
                assert told == {"type": "followed", "game": new_id}
                first = ws.recv()
                # Whole: the client holds nothing of the new game.
                assert first["type"] == "state" and "kept" not in first, first
                assert first["phase"] != "over" and not first["rematch"]
                ws.frame = first
                firsts.append(first)
            # Each at the seat it held (the spectators watching).
            assert [f["you"] for f in firsts] == seats and seats[2] is None
            # The same frame as a new socket with the same link gets.
            tokens = [*(token_of(link) for link in made["links"].values()), None]
            tokens[2] = token_of(made["spectator"])
            for first, token in zip(firsts, tokens, strict=True):
                with socket_of(client, new_id, token) as fresh:
                    assert fresh.frame is not None
                    assert _without_time(fresh.frame) == _without_time(first)
            # They play the rematch on those sockets; the game they left has no clients.
            assert old_id not in hub.audience.clients
            assert len(hub.audience.clients[new_id]) == 3
            a.game_id = b.game_id = new_id
            mover = a if a.frame()["you"] in a.frame()["acting"] else b
            answer = mover.turn()
            assert answer is not None and answer["type"] == "ack", answer
            start = firsts[0]["move"]
            for ws in (a.ws, b.ws, watcher):
                assert ws.state(lambda f: f["move"] > start)["seq"] > firsts[0]["seq"]


def test_following_drops_what_still_waits_of_the_game_left() -> None:
    async def run() -> list[dict[str, Any]]:
        recorder = Recorder()
        conn = Connection(recorder, "old", 0)
        conn.send({"type": "state", "seq": 1, "game": "old"})
        conn.send({"type": "error", "message": "of the old game"})
        conn.close()  # as the audience it leaves does
        conn.move_to("new", 1)
        conn.send({"type": "followed", "game": "new"})
        conn.send({"type": "state", "seq": 0, "game": "new"})
        await conn.drained()
        return [json.loads(t) for t in recorder.texts]

    written = asyncio.run(run())
    assert written == [
        {"type": "followed", "game": "new"},
        {"type": "state", "seq": 0, "game": "new"},
    ]
