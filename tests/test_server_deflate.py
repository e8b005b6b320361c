"""WebSocket compression: ``taut serve`` compresses large messages and sends small ones plain.

A browser asks for ``permessage-deflate``; the server grants it, compresses its large
messages (a client's first frame) and sends the small ones (most later frames) as they
are, which the extension allows. Both kinds must reach the client whole and in order.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

from taut.server.web.deflate import (
    CHOICES,
    COMPRESS_FROM,
    COMPRESS_SETTINGS,
    PROTOCOL,
    WINDOW_BITS,
    LargeMessagesDeflate,
    LargeMessagesDeflateFactory,
    LargeMessagesProtocol,
    agreed_as,
    server_end,
    uvicorn_options,
)
from tests.test_server_kit import Remote, Served, play_remote, serve, sqlite_url, token_of


def _pair() -> tuple[LargeMessagesDeflate, PerMessageDeflate]:
    """A server's extension and the client's end of it, as agreed on the server's terms."""
    server = server_end(LargeMessagesDeflate)
    client = PerMessageDeflate(False, False, WINDOW_BITS, WINDOW_BITS)
    return server, client


def _text(size: int, rng: random.Random) -> bytes:
    """JSON-like text of ``size`` bytes that compresses as a frame does."""
    words = ["move", "seat", "board", "legal", "kept", "North", "South", "a1", "b2", "c3"]
    out = []
    while sum(map(len, out)) < size:
        out.append(f'"{rng.choice(words)}":{rng.randrange(1000)},')
    return "".join(out).encode()[:size]


def test_small_messages_go_plain_and_large_ones_compressed() -> None:
    server, client = _pair()
    rng = random.Random(1)
    # Large and small in turn: the compressor's window carries across the plain ones.
    for size in [5000, 300, COMPRESS_FROM - 1, COMPRESS_FROM, 40_000, 10, 3000, 900]:
        data = _text(size, rng)
        sent = server.encode(Frame(Opcode.TEXT, data))
        assert sent.rsv1 is (size >= COMPRESS_FROM), size
        if sent.rsv1:
            assert len(sent.data) < size
        else:
            assert sent.data == data
        assert client.decode(sent).data == data


def test_control_frames_and_fragments_are_left_to_the_extension() -> None:
    server, client = _pair()
    ping = Frame(Opcode.PING, b"x" * 10)
    assert server.encode(ping) is ping
    # A fragmented message is compressed whatever its size (its RSV1 is on its first frame).
    first = server.encode(Frame(Opcode.TEXT, b'{"a":', fin=False))
    last = server.encode(Frame(Opcode.CONT, b"1}", fin=True))
    assert first.rsv1 and not last.rsv1
    assert client.decode(first).data + client.decode(last).data == b'{"a":1}'


def test_the_factory_agrees_as_websockets_does() -> None:
    factory = LargeMessagesDeflateFactory(
        server_max_window_bits=WINDOW_BITS,
        client_max_window_bits=WINDOW_BITS,
        compress_settings=dict(COMPRESS_SETTINGS),
    )
    offer = ClientPerMessageDeflateFactory(client_max_window_bits=True).get_request_params()
    response, agreed = factory.process_request_params(offer, [])
    assert isinstance(agreed, LargeMessagesDeflate)
    assert ("server_max_window_bits", "12") in response
    assert agreed.local_max_window_bits == 12 and agreed.remote_max_window_bits == 12


class _Seen(PerMessageDeflate):
    """The client's end, noting whether each message came compressed and its size."""

    seen: list[tuple[bool, int]]

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        plain = super().decode(frame, max_size=max_size)
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            self.seen.append((frame.rsv1, len(plain.data)))
        return plain


class _SeenFactory(ClientPerMessageDeflateFactory):
    def __init__(self, seen: list[tuple[bool, int]]) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen = seen

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        agreed = super().process_response_params(params, accepted_extensions)
        ext = agreed_as(agreed, _Seen)
        ext.seen = self.seen
        return ext


class _Browser(Remote):
    """A seat whose socket asks for ``permessage-deflate`` as a browser does."""

    seen: list[tuple[bool, int]]
    agreed: list[str]

    async def connect(self, served: Served | None = None) -> dict[str, Any]:
        from websockets.asyncio.client import connect

        self.served = served or self.served
        self.seen = []
        self.ws = await connect(
            f"{self.served.ws}/ws/{self.game_id}",
            max_size=2**22,
            compression=None,
            extensions=[_SeenFactory(self.seen)],
        )
        self.agreed = [e.name for e in self.ws.protocol.extensions]
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        return await self.state(lambda f: True)


def _played(tmp_path: Path, options: list[str]) -> tuple[list[str], list[tuple[bool, int]]]:
    """A short game played through ``taut serve`` with ``options`` by two browsers' sockets:
    the extensions agreed, and every message's (compressed, size)."""

    async def play(served: Served) -> tuple[list[str], list[tuple[bool, int]]]:
        made = served.post("/api/games", {
            "game": "pulling-strings", "options": {"max_turns": 6},
            "seats": [{"kind": "me"}, {"kind": "invite"}],
        })  # fmt: skip
        people = [
            _Browser(served, made["id"], token_of(link), random.Random(i))
            for i, link in enumerate(made["links"].values())
        ]
        for p in people:
            await p.connect()
        await play_remote(people)
        assert people[0].frame["phase"] == "over"
        for p in people:
            await p.close()
        agreed = sorted({name for p in people for name in p.agreed})
        return agreed, [s for p in people for s in p.seen]

    tmp_path.mkdir(exist_ok=True)
    with serve(sqlite_url(tmp_path), tmp_path / "serve.log", options) as served:
        return asyncio.run(play(served))


def test_taut_serve_sends_a_browser_small_frames_plain(tmp_path: Path) -> None:
    agreed, seen = _played(tmp_path, [])
    assert agreed == ["permessage-deflate"]
    assert all(compressed is (size >= COMPRESS_FROM) for compressed, size in seen), seen
    # Both kinds came, and the game was played through them.
    assert {compressed for compressed, _ in seen} == {True, False}, seen


def test_taut_serve_compresses_everything_or_nothing_when_told(tmp_path: Path) -> None:
    agreed, seen = _played(tmp_path / "all", ["--compress", "all"])
    assert agreed == ["permessage-deflate"]
    assert seen and all(compressed for compressed, _ in seen), seen
    agreed, seen = _played(tmp_path / "none", ["--compress", "none"])
    assert agreed == [] and seen == []


def test_the_choices_are_the_servers() -> None:
    from taut.cli.serve import serve as command

    (option,) = [p for p in command.params if p.name == "compress"]
    assert list(option.type.choices) == list(CHOICES)  # type: ignore[attr-defined]
    assert option.default == CHOICES[0]
    for choice in CHOICES:
        assert set(uvicorn_options(choice)) == {"ws", "ws_per_message_deflate"}
    with pytest.raises(ValueError, match="large, all, none"):
        uvicorn_options("some")


@pytest.mark.parametrize("deflate", [True, False])
def test_uvicorn_serves_through_the_protocol(deflate: bool) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        """No application is reached: only the protocol is made."""

    config = Config(app=app, ws=PROTOCOL, ws_per_message_deflate=deflate)
    config.load()
    assert config.ws_protocol_class is LargeMessagesProtocol
    loop = asyncio.new_event_loop()
    try:
        made = LargeMessagesProtocol(config, ServerState(), {}, _loop=loop)
    finally:
        loop.close()
    factories = made.conn.available_extensions or []
    assert [type(f) for f in factories] == ([LargeMessagesDeflateFactory] if deflate else [])
