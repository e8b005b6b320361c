"""Messages written at once: a connection whose client can take a message without a
coroutine (``taut serve``'s WebSocket protocol gives it the means) writes its outbox in a
callback, not a task, with the same order, acknowledgements and closing as before."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from taut.server.play.clients import Connection
from taut.server.play.session import WRITE_NOW, WebClient
from taut.server.web.deflate import LargeMessagesProtocol

HANDSHAKE = (
    b"GET /ws/g1 HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class AtOnce:
    """A client that takes messages at once, except those ``refuse`` says it cannot take
    now (those it is sent through ``send_text``), and breaks on ``break_on``."""

    def __init__(self, refuse: frozenset[str] = frozenset(), break_on: str = "") -> None:
        self.refuse = refuse
        self.break_on = break_on
        self.written: list[tuple[str, str]] = []  # (how, message)

    def write_now(self, text: str) -> bool:
        kind = json.loads(text)["type"]
        if kind == self.break_on:
            raise ConnectionError("gone")
        if kind in self.refuse:
            return False
        self.written.append(("at once", text))
        return True

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.written.append(("awaited", text))

    async def close(self, code: int) -> None:
        """Nothing to close."""


def _types(client: AtOnce) -> list[tuple[str, str]]:
    return [(how, json.loads(text)["type"]) for how, text in client.written]


def test_the_outbox_is_written_by_a_callback_in_order_with_acks_riding() -> None:
    async def run() -> tuple[AtOnce, Connection, bool, bool]:
        client = AtOnce()
        conn = Connection(client, "g1", 0, acks_in_frames=True)
        conn.send({"type": "hello-back"})
        conn.send_text(json.dumps({"type": "state", "seq": 1}), frame=True)
        conn.acknowledge({"type": "ack", "ref": 7})
        handle = isinstance(conn._writer, asyncio.Handle)
        nothing_yet = not client.written
        await asyncio.sleep(0)  # the loop's next turn
        return client, conn, handle, nothing_yet

    client, conn, handle, nothing_yet = asyncio.run(run())
    assert handle and nothing_yet  # a callback, at the next turn: no task
    assert _types(client) == [("at once", "hello-back"), ("at once", "state")]
    assert json.loads(client.written[1][1])["acks"] == [{"ref": 7}]
    assert conn._writer is None and not conn.waiting


def test_a_message_the_socket_cannot_take_now_goes_through_a_task_in_order() -> None:
    async def run() -> tuple[AtOnce, Connection]:
        client = AtOnce(refuse=frozenset({"two"}))
        conn = Connection(client, "g1", 0)
        for kind in ("one", "two", "three"):
            conn.send({"type": kind})
        await asyncio.sleep(0)
        assert isinstance(conn._writer, asyncio.Task)  # waiting for the socket
        conn.send({"type": "four"})
        await conn.drained()
        return client, conn

    client, conn = asyncio.run(run())
    assert _types(client) == [
        ("at once", "one"),
        ("awaited", "two"),
        ("awaited", "three"),
        ("awaited", "four"),
    ]
    assert conn._writer is None


def test_a_broken_socket_closes_the_connection() -> None:
    async def run() -> Connection:
        conn = Connection(AtOnce(break_on="two"), "g1", 0)
        for kind in ("one", "two", "three"):
            conn.send({"type": kind})
        await conn.drained()
        conn.send({"type": "four"})  # nothing more is queued
        return conn

    conn = asyncio.run(run())
    assert conn.gone and not conn.waiting and conn._writer is None


class _Transport:
    def __init__(self) -> None:
        self.data = b""
        self.closing = False

    def write(self, data: bytes) -> None:
        self.data += data

    def is_closing(self) -> bool:
        return self.closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name, default)

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        """Not needed here."""

    def resume_reading(self) -> None:
        """Not needed here."""


def test_taut_serves_protocol_writes_a_text_message_at_once_only_when_it_can() -> None:
    async def run() -> None:
        config = Config(app=None, ws_per_message_deflate=True, ws_ping_interval=None)
        protocol = LargeMessagesProtocol(config, ServerState(), {})
        transport = _Transport()
        protocol.connection_made(transport)  # type: ignore[arg-type]

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await asyncio.sleep(3600)

        protocol.app = app
        protocol.data_received(HANDSHAKE)
        write_now = protocol.scope["extensions"][WRITE_NOW]
        assert write_now == protocol.write_text
        assert write_now('{"a":1}') is False  # not accepted yet: nothing written
        assert transport.data == b""
        await protocol.send({"type": "websocket.accept"})
        transport.data = b""
        # Written at once, byte for byte as uvicorn's send writes it.
        assert write_now('{"type":"state"}') is True
        at_once = transport.data
        transport.data = b""
        await protocol.send({"type": "websocket.send", "text": '{"type":"state"}'})
        assert at_once == transport.data
        assert at_once == Frame(Opcode.TEXT, b'{"type":"state"}').serialize(mask=False)
        transport.data = b""
        protocol.pause_writing()  # the socket's buffer is full: the caller must wait
        assert write_now("{}") is False and transport.data == b""
        protocol.resume_writing()
        await protocol.send({"type": "websocket.close", "code": 1000})
        transport.data = b""
        assert write_now("{}") is False and transport.data == b""
        for task in protocol.tasks:
            task.cancel()

    asyncio.run(run())


def test_the_web_client_takes_the_means_from_the_scope_only_where_given() -> None:
    class Socket:
        def __init__(self, scope: dict[str, Any]) -> None:
            self.scope = scope

    given = WebClient(Socket({"extensions": {WRITE_NOW: len}}))  # type: ignore[arg-type]
    assert given.write_now is len
    plain = WebClient(Socket({"extensions": {}}))  # type: ignore[arg-type]
    assert not hasattr(plain, "write_now")
    assert Connection(plain, "g1", 0)._write_now is None
