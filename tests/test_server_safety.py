"""Untrusted clients: the origin of a socket, its hello, messages that are too big, not JSON,
of the wrong type or shape, floods, clients that stop reading, tokens that must stay with
their holders, and faults of the server's own that must not show their insides."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import taut.server.play.session as session
from taut.server.play.clients import MAX_BEHIND, TOO_SLOW, Connection
from taut.server.play.hub import Hub
from tests.test_server_kit import (
    Closed,
    Person,
    Recorder,
    Socket,
    app_client,
    bench,
    new_game,
    play_out,
    run,
    socket_of,
    token_of,
)


@pytest.fixture
def client(tmp_path: Path) -> Any:
    """The application, listing one more origin."""
    with app_client(tmp_path, origins=("https://friend.example",)) as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """A game of two people (no computer, so that nothing moves by itself)."""
    return new_game(client, "tracks", ["me", "invite"], {"size": 3})


def hello_answer(client: TestClient, game_id: str, first: Any, **headers: str) -> dict[str, Any]:
    """Open a socket, send ``first`` as the first message; the error it gets (the socket
    must then be closed by the server)."""
    with client.websocket_connect(f"/ws/{game_id}", headers=headers) as session_:
        ws = Socket(session_)
        ws.send_raw(first if isinstance(first, str | bytes) else json.dumps(first))
        answer = ws.recv()
        with pytest.raises(Closed) as closed:
            ws.recv()
        assert closed.value.code == 1008
        return answer


# -- where a socket comes from and what it says first --------------------------------------


def test_a_socket_from_another_site_is_refused(client: TestClient, game: dict[str, Any]) -> None:
    path = f"/ws/{game['id']}"
    evil = {"origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(path, headers=evil),
    ):
        pass
    assert refused.value.code == 1008
    token = token_of(game["mine"])
    for origin in ("http://testserver", "https://friend.example", "https://friend.example/"):
        with socket_of(client, game["id"], token, origin=origin) as ws:
            assert ws.frame is not None and ws.frame["you"] == "NS"
    with socket_of(client, game["id"], token) as ws:  # not a browser: no Origin at all
        assert ws.frame is not None


@pytest.mark.parametrize(
    ("first", "says"),
    [
        ({"type": "hello", "token": "A" * 22}, "opens no seat"),
        ({"type": "hello", "token": None}, "opens no seat"),
        ({"type": "hello", "token": "short"}, "token"),
        ({"type": "hello", "token": "no spaces allowed here"}, "token"),
        ({"type": "ping"}, "first message must be hello"),
        ({"type": "move", "move": 0, "action": "a1"}, "first message must be hello"),
        ("not json", "bad message"),
        (b"\x00\x01binary", "bad message"),
        ("x" * 5000, "at most 4096 bytes"),
    ],
)
def test_a_bad_hello_is_answered_and_the_socket_closed(
    client: TestClient, game: dict[str, Any], first: Any, says: str
) -> None:
    answer = hello_answer(client, game["id"], first)
    assert answer["type"] == "error" and says in answer["message"]


def test_a_token_of_another_game_opens_nothing(client: TestClient, game: dict[str, Any]) -> None:
    other = new_game(client, "tracks", ["me", "invite"], {"size": 3})
    hello = {"type": "hello", "token": token_of(other["mine"])}
    assert "opens no seat" in hello_answer(client, game["id"], hello)["message"]
    assert "no such game" in hello_answer(client, "nope", hello)["message"]


def test_a_silent_socket_is_closed(
    client: TestClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "HELLO_WAIT", 0.2)
    with client.websocket_connect(f"/ws/{game['id']}") as session_:
        ws = Socket(session_)
        answer = ws.recv()
        assert answer == {"type": "error", "message": "say hello first"}
        with pytest.raises(Closed):
            ws.recv()


# -- messages after the hello ---------------------------------------------------------------


BAD = [
    ("x" * 5000, "at most 4096 bytes"),
    ("é" * 2100, "at most 4096 bytes"),
    ("", "bad message"),
    ("{", "bad message"),
    ("[1, 2]", "bad message"),
    ("null", "bad message"),
    ('"move"', "bad message"),
    ("{}", "bad message"),
    ('{"type": "dance"}', "bad message"),
    ('{"type": "move"}', "move.move"),
    ('{"type": "move", "move": "0", "action": "a1", "ref": 1}', "move.move"),
    ('{"type": "move", "move": -1, "action": "a1", "ref": 1}', "move.move"),
    ('{"type": "move", "move": 1e400, "action": "a1", "ref": 1}', "bad message"),
    ('{"type": "move", "move": 0, "action": "", "ref": 1}', "move.action: must not be empty"),
    (
        '{"type": "move", "move": 0, "action": "' + "a" * 201 + '", "ref": 1}',
        "move.action: at most 200 characters",
    ),
    ('{"type": "move", "move": 0, "action": ["a1"], "ref": 1}', "move.action"),
    ('{"type": "move", "move": 0, "action": "a1", "ref": -3}', "move.ref"),
    ('{"type": "move", "move": 0, "action": "a1", "ref": 1, "extra": 1}', "extra"),
    ('{"type": "commit", "move": 0, "hash": "XYZ", "ref": 1}', "commit.hash"),
    ('{"type": "reveal", "move": 0, "action": "a", "salt": "00", "ref": 1}', "reveal.salt"),
    ('{"type": "name", "name": "", "ref": 1}', "name.name"),
    ('{"type": "name", "name": "   ", "ref": 1}', "name.name"),
    ('{"type": "name", "name": "a\\u0000b", "ref": 1}', "not allowed"),
    ('{"type": "name", "name": 7, "ref": 1}', "name.name"),
    ('{"type": "hello", "token": null}', "hello is said once"),
    ("[" * 3000 + "]" * 3000, "at most 4096 bytes"),
    ("[" * 2000 + "]" * 2000, "bad message"),
]


def test_bad_messages_get_an_error_and_change_nothing(
    client: TestClient, game: dict[str, Any]
) -> None:
    store = client.app.state.store
    before = len(client.portal.call(store.events_after, game["id"], -1))
    with socket_of(client, game["id"], token_of(game["mine"])) as ws:
        for raw, says in BAD:
            ws.send_raw(raw)
            answer = ws.until(lambda m: m["type"] != "state")
            assert answer["type"] == "error", raw[:80]
            assert says in answer["message"], (raw[:80], answer)
            assert "Traceback" not in answer["message"]
        ws.send_raw(b'{"type": "ping"}')  # bytes that hold a good message are read
        assert ws.until(lambda m: m["type"] != "state") == {"type": "pong"}
        ws.send(type="ping")
        assert ws.recv() == {"type": "pong"}
    assert len(client.portal.call(store.events_after, game["id"], -1)) == before


def test_an_error_names_the_ref_of_the_message_refused(
    client: TestClient, game: dict[str, Any]
) -> None:
    with socket_of(client, game["id"], token_of(game["mine"])) as ws:
        ws.send_raw('{"type": "move", "move": "x", "action": "a1", "ref": 41}')
        assert ws.answer(41)["type"] == "error"
        ws.send_raw('{"type": "dance", "ref": 42}')
        assert ws.answer(42)["type"] == "error"


def test_a_flood_is_slowed_down_and_the_server_goes_on(
    client: TestClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket_of(client, game["id"], token_of(game["mine"])) as ws:
        for _ in range(int(session.BURST) + 40):
            ws.send(type="ping")
        answers = [ws.recv() for _ in range(int(session.BURST) + 40)]
        slowed = [a for a in answers if a["type"] == "error"]
        assert slowed and all("too many messages" in a["message"] for a in slowed)
        assert answers[0] == {"type": "pong"}
        # The bucket fills again as time passes.
        monkeypatch.setattr(session.time, "monotonic", lambda: 10.0**9)
        ws.send(type="ping")
        assert ws.recv() == {"type": "pong"}
    with socket_of(client, game["id"], token_of(game["mine"])) as again:
        again.send(type="ping")
        assert again.recv() == {"type": "pong"}


def test_a_client_that_stops_reading_holds_nothing_up_and_is_closed(tmp_path: Path) -> None:
    class Stuck(Recorder):
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()  # never returns: the socket's buffer is full

    async def play() -> None:
        async with bench(tmp_path) as b:
            made = await b.make("tracks", ["me", "invite"], {"size": 3})
            await b.hub.table(made.id)
            watching, playing = Stuck(), Stuck()
            watcher = Connection(watching, made.id, None)
            player = Connection(playing, made.id, 0)
            b.hub.join(watcher)
            b.hub.join(player)
            people = [await b.join(made.id, 0), await b.join(made.id, 1)]
            await b.play(people)  # the others play to the end meanwhile
            await asyncio.sleep(0)
            # A frame waiting is replaced by the newer one: the watcher holds one at most.
            assert watcher.waiting <= 1 and not watcher.gone
            for _ in range(MAX_BEHIND - player.waiting):
                await session.handle(b.hub, player, '{"type": "ping"}')
            assert not player.gone and player.waiting == MAX_BEHIND
            await session.handle(b.hub, player, '{"type": "ping"}')
            await asyncio.sleep(0)
            assert player.gone and playing.closed == TOO_SLOW

    run(asyncio.wait_for(play(), 60))


# -- tokens stay with their holders ---------------------------------------------------------


def test_no_token_is_sent_to_anyone_but_its_holder(client: TestClient) -> None:
    made = new_game(client, "pulling-strings", ["me", "invite"], {"max_turns": 4})
    opened = new_game(client, "tracks", ["me", "open"], {"size": 3})
    claimed = client.post(f"/api/games/{opened['id']}/claim/WE").json()["link"]
    tokens = [token_of(link) for link in made["links"].values()]
    tokens += [token_of(made["spectator"]), token_of(opened["mine"]), token_of(opened["spectator"])]
    tokens.append(token_of(claimed))
    seen: list[str] = []
    with (
        socket_of(client, made["id"], tokens[0]) as a,
        socket_of(client, made["id"], tokens[1]) as b,
        socket_of(client, made["id"], tokens[2]) as watcher,
    ):
        people = [Person(a, made["id"], random.Random(1)), Person(b, made["id"], random.Random(2))]
        play_out(people)
        assert people[0].send(type="rematch")["type"] == "ack"
        watcher.state(lambda f: f["rematch"])
        seen += a.seen + b.seen + watcher.seen
    with socket_of(client, opened["id"], token_of(claimed)) as c:
        seen += c.seen
    for game_id in (made["id"], opened["id"]):
        for path in (
            f"/g/{game_id}",
            f"/replay/{game_id}",
            f"/api/games/{game_id}/record",
            f"/api/games/{game_id}/positions",
            f"/api/games/{game_id}/open-seats",
        ):
            seen.append(client.get(path).text)
    seen += [client.get(p).text for p in ("/", "/lobby", "/api/lobby", "/api/games")]
    for text in seen:
        for token in tokens:
            assert token not in text


# -- faults of the server's own -------------------------------------------------------------


def test_a_fault_in_a_command_is_logged_not_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Hub, game_id: str, make: Any) -> Any:
        raise RuntimeError("an inner detail")

    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            monkeypatch.setattr(Hub, "command", broken)
            ws.send(type="name", name="Zoe", ref=5)
            answer = ws.answer(5)
            assert answer == {
                "type": "error",
                "ref": 5,
                "message": "something went wrong on the server",
            }
            ws.send(type="ping")
            assert ws.recv() == {"type": "pong"}
    assert "an inner detail" in caplog.text


def test_a_fault_in_a_request_is_clean_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import taut.server.web.game_routes as app

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("an inner detail")

    monkeypatch.setattr(app, "make_game", broken)
    with app_client(tmp_path, raise_errors=False) as client:
        response = client.post("/api/games", json={"game": "tracks", "seats": [{"kind": "me"}]})
        assert response.status_code == 500
        assert response.json() == {"error": "something went wrong on the server"}
        assert "inner detail" not in response.text and "Traceback" not in response.text


def test_a_board_that_cannot_be_drawn_does_not_lose_the_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taut.core.registry import plugin

    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        tokens = [token_of(link) for link in made["links"].values()]
        with (
            socket_of(client, made["id"], tokens[0]) as a,
            socket_of(client, made["id"], tokens[1]) as b,
        ):
            mover = a if a.frame and a.frame["legal"] else b
            frame = mover.state(lambda f: f["legal"])

            def broken(*args: Any) -> str:
                raise RuntimeError("no picture")

            monkeypatch.setattr(type(plugin("tracks")), "svg", broken)
            mover.send(type="move", move=frame["move"], action=frame["legal"][0], ref=1)
            answer = mover.answer(1)
            assert answer["type"] == "ack"
            monkeypatch.undo()
            mover.send(type="move", move=frame["move"], action=frame["legal"][0], ref=2)
            assert mover.answer(2)["repeat"] is True
        with socket_of(client, made["id"], tokens[0]) as again:
            assert again.frame is not None and again.frame["move"] > frame["move"]
