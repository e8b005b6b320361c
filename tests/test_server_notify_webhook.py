"""Webhooks: a local receiver is POSTed "your move" once; redirects are not followed; bad
URLs are refused."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from taut.server.players.webhooks import BadWebhook, parse_url
from tests.test_server_kit import app_client, socket_of, token_of

H = "X-Taut-Player"


class Receiver(ThreadingHTTPServer):
    """A webhook receiver on a free loopback port: keeps every request (path, body)."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.got: list[tuple[str, Any]] = []

    @property
    def url(self) -> str:
        """The receiver's address."""
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    """Answers ``/redirect`` with a redirect to ``/elsewhere``, anything else with 204."""

    server: Receiver

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length", "0"))
        self.server.got.append((self.path, json.loads(self.rfile.read(size) or b"null")))
        if self.path == "/redirect":
            self.send_response(307)
            self.send_header("Location", "/elsewhere")
        else:
            self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextlib.contextmanager
def receiver() -> Iterator[Receiver]:
    """A :class:`Receiver` serving in a thread."""
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def player_key(client: Any) -> str:
    """A new player's key."""
    answer = client.post("/api/players", json={"device": "test"})
    assert answer.status_code == 201, answer.text
    key: str = answer.json()["key"]
    return key


def webhooks_of(client: Any) -> Any:
    """The application's webhooks."""
    return client.app.state.webhooks


def settle(client: Any) -> None:
    """Wait until the hub's background work (computer seats, webhooks) is done."""
    client.portal.call(client.app.state.hub.settle)


def wait_for(test: Any, seconds: float = 10.0) -> None:
    """Wait until ``test()`` holds."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def my_game(client: Any, key: str) -> tuple[str, str, str]:
    """A game of tracks the player makes against an invited person: id, the player's seat
    token, the other seat's."""
    body = {"game": "tracks", "options": {"size": 3}, "seats": [{"kind": "me"}, {"kind": "invite"}]}
    made = client.post("/api/games", json=body, headers={H: key}).json()
    mine = token_of(made["mine"])
    other = next(token_of(link) for link in made["links"].values() if token_of(link) != mine)
    return made["id"], mine, other


def test_the_receiver_gets_one_post_per_game_and_minute(tmp_path: Path) -> None:
    with receiver() as hook, app_client(tmp_path, webhook_loopback=True) as client:
        key = player_key(client)
        put = client.put("/api/me/webhook", json={"url": hook.url + "/turn"}, headers={H: key})
        assert put.status_code == 200, put.text
        assert client.get("/api/me/webhook", headers={H: key}).json()["url"] == hook.url + "/turn"
        game_id, mine, other = my_game(client, key)
        with socket_of(client, game_id, mine) as me, socket_of(client, game_id, other) as you:
            frame = me.state(lambda f: f["phase"] == "play")
            if frame["you"] not in frame["acting"]:  # the other seat opens: it moves first
                theirs = you.state(lambda f: f["you"] in f["acting"])
                you.send(type="move", move=theirs["move"], action=theirs["legal"][0], ref=1)
                assert you.answer(1)["type"] == "ack"
                frame = me.state(lambda f: f["you"] in f["acting"])
            wait_for(lambda: len(hook.got) == 1)
            path, body = hook.got[0]
            assert path == "/turn"
            assert body == {"game": game_id, "seat": frame["you"], "url": f"/g/{game_id}",
                            "event": "your-move"}  # fmt: skip
            me.send(type="chat", text="thinking", ref=2)
            assert me.answer(2)["type"] == "ack"
            # Played and answered: the player's move again, but within the minute.
            me.send(type="move", move=frame["move"], action=frame["legal"][0], ref=3)
            assert me.answer(3)["type"] == "ack"
            back = you.state(lambda f: f["you"] in f["acting"] or f["phase"] == "over")
            if back["phase"] != "over":
                you.send(type="move", move=back["move"], action=back["legal"][0], ref=4)
                assert you.answer(4)["type"] == "ack"
            settle(client)
        assert len(hook.got) == 1
        gone = client.delete("/api/me/webhook", headers={H: key})
        assert gone.json() == {"url": None}


def test_a_redirect_is_not_followed(tmp_path: Path) -> None:
    with receiver() as hook, app_client(tmp_path, webhook_loopback=True) as client:
        key = player_key(client)
        url = hook.url + "/redirect"
        assert client.put("/api/me/webhook", json={"url": url}, headers={H: key}).status_code == 200
        game_id, mine, other = my_game(client, key)
        with socket_of(client, game_id, mine) as me, socket_of(client, game_id, other) as you:
            frame = me.state(lambda f: f["phase"] == "play")
            if frame["you"] not in frame["acting"]:
                theirs = you.state(lambda f: f["you"] in f["acting"])
                you.send(type="move", move=theirs["move"], action=theirs["legal"][0], ref=1)
                assert you.answer(1)["type"] == "ack"
            wait_for(lambda: any(u == url for u, _, _ in webhooks_of(client).sent))
            settle(client)
        assert [path for path, _ in hook.got] == ["/redirect"]
        assert webhooks_of(client).sent[-1][2] == 307


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/hook",
        "javascript:alert(1)",
        "http://127.0.0.1:9/hook",  # loopback, not allowed by default
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://user:secret@example.com/hook",
        "http:///nohost",
        "http://example.com/" + "x" * 600,
    ],
)
def test_a_bad_url_is_refused(tmp_path: Path, url: str) -> None:
    with pytest.raises(BadWebhook):
        parse_url(url)


def test_the_api_refuses_a_bad_url_with_400(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        key = player_key(client)
        for url in ("ftp://example.com/", "http://127.0.0.1:8000/", "http://192.168.1.1/"):
            answer = client.put("/api/me/webhook", json={"url": url}, headers={H: key})
            assert answer.status_code == 400, (url, answer.text)
        assert client.get("/api/me/webhook", headers={H: key}).json() == {"url": None}
        assert client.put("/api/me/webhook", json={"url": "http://x.org/"}).status_code == 401
        ok = client.put("/api/me/webhook", json={"url": "https://example.com/h"}, headers={H: key})
        assert ok.status_code == 200


@contextlib.contextmanager
def hooks_at_a_game(tmp_path: Path) -> Iterator[tuple[Any, Any, Any]]:
    """A server with a player's game open at its socket: the test client, the webhooks
    and the game's table."""
    with app_client(tmp_path) as client:
        key = player_key(client)
        game_id, mine, _ = my_game(client, key)
        with socket_of(client, game_id, mine):
            yield client, webhooks_of(client), client.app.state.hub.tables[game_id]


def test_a_change_on_a_server_without_webhooks_costs_no_task(tmp_path: Path) -> None:
    """Once the store has said that no player has a webhook, a change is looked at on the
    spot: nothing is returned to run (no task per move); a new turn on a server that has
    not asked yet, or asked long ago, still asks."""
    with hooks_at_a_game(tmp_path) as (client, hooks, table):
        hooks._known = None
        job = hooks.changed(table)
        assert job is not None  # not asked yet: the work is to ask
        client.portal.call(lambda: job)
        assert hooks._known is not None and hooks._known[1] is False
        hooks._told.clear()
        assert hooks.changed(table) is None
        hooks._known = (hooks._known[0] - 3600, False)  # asked long ago: ask again
        stale = hooks.changed(table)
        assert stale is not None
        client.portal.call(lambda: stale)


def test_changes_while_the_store_is_asked_wait_for_one_question(tmp_path: Path) -> None:
    """Every game's move on a server that has not asked yet (as when it starts busy) waits
    for the same question to the store, not one question each."""
    with hooks_at_a_game(tmp_path) as (client, hooks, table):
        asked = []
        ask = hooks._ask

        async def counted() -> bool:
            asked.append(1)
            await asyncio.sleep(0.05)  # a store that takes a while to answer
            return await ask()

        hooks._ask = counted
        hooks._known = None

        async def many() -> None:
            jobs = []
            for _ in range(8):
                hooks._told.clear()
                job = hooks.changed(table)
                assert job is not None
                jobs.append(job)
            await asyncio.gather(*jobs)

        client.portal.call(many)
        assert asked == [1]
        assert hooks._known is not None and hooks._known[1] is False
        assert hooks._asking is None
        hooks._known = (hooks._known[0] - 3600, False)  # asked long ago: ask again
        hooks._told.clear()
        again = hooks.changed(table)
        assert again is not None
        client.portal.call(lambda: again)
        assert asked == [1, 1]
