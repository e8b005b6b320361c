"""WebSocket compression where it pays: large messages compressed, small ones sent plain.

Browsers ask every WebSocket for ``permessage-deflate`` (RFC 7692), and a server that
grants it compresses every message it sends by default. A game's frames, as the page takes
them, are small: its later frames carry only what changed (about a kilobyte) and its first
frame the table's facts (1-4 KB), which the page draws. Compressing each costs the server
10-20 µs of CPU (a twentieth of what a command costs it under load) and saves no round
trip: a message of a few kilobytes leaves in TCP's first flight (an initial window of ten
segments, about 14 KB) compressed or not. The RFC lets either side send any message
uncompressed (its first frame's RSV1 bit clear) once the extension is agreed, so this server
compresses only messages of :data:`COMPRESS_FROM` bytes or more (pictures sent whole: a
learning game's, or those of a client that takes the server's pictures, which compress
several times) and sends the others as they are. Every client decodes both kinds.

The same protocol also gives the application a way to write a text message straight to
the socket (:meth:`LargeMessagesProtocol.write_text`), past the framework's layers.

:data:`PROTOCOL` names the uvicorn protocol that does so, for ``uvicorn.run(ws=...)``;
:func:`uvicorn_options` gives the options for each choice of ``taut serve --compress``:
``large`` (this), ``all`` (every message compressed: fewest bytes, most CPU) or ``none``
(the extension refused: every message plain).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, TypeVar

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.typing import ExtensionParameter

from taut.server.play.session import WRITE_NOW

#: Messages shorter than this (in bytes, as encoded) are sent uncompressed: they leave in
#: TCP's first flight compressed or not, with room to spare for a smaller initial window,
#: so compression would cost the server CPU and save no round trip.
COMPRESS_FROM = 8192

#: The value of ``uvicorn.run(ws=...)`` that serves WebSockets this way.
PROTOCOL = f"{__name__}:LargeMessagesProtocol"

#: The window (as a power of two) and zlib's settings the server agrees with a browser, as
#: uvicorn's own protocol does.
WINDOW_BITS = 12
COMPRESS_SETTINGS: dict[str, int] = {"memLevel": 5}

#: The choices of ``taut serve --compress``, the default first.
CHOICES = ("large", "all", "none")

_DATA = (Opcode.TEXT, Opcode.BINARY)

E = TypeVar("E", bound=PerMessageDeflate)


def uvicorn_options(compress: str) -> dict[str, Any]:
    """The options of ``uvicorn.run`` that serve WebSockets compressed as ``compress`` (one
    of :data:`CHOICES`) says; ValueError for another."""
    if compress == "large":
        return {"ws": PROTOCOL, "ws_per_message_deflate": True}
    if compress == "all":
        # uvicorn's own protocol on websockets, which compresses every message.
        return {"ws": "websockets-sansio", "ws_per_message_deflate": True}
    if compress == "none":
        return {"ws": PROTOCOL, "ws_per_message_deflate": False}
    raise ValueError(f"compress is one of {', '.join(CHOICES)}, not {compress!r}")


class LargeMessagesDeflate(PerMessageDeflate):
    """``permessage-deflate`` that sends whole messages under :data:`COMPRESS_FROM` bytes
    uncompressed (a fragmented message is compressed whatever its size)."""

    def encode(self, frame: Frame) -> Frame:
        """The frame as sent: compressed unless it is a small whole message."""
        if frame.fin and frame.opcode in _DATA and len(frame.data) < COMPRESS_FROM:
            return frame
        return super().encode(frame)


def agreed_as(agreed: PerMessageDeflate, kind: type[E]) -> E:
    """The extension ``agreed`` (its windows and settings, as negotiated) as a ``kind``."""
    return kind(
        agreed.remote_no_context_takeover,
        agreed.local_no_context_takeover,
        agreed.remote_max_window_bits,
        agreed.local_max_window_bits,
        agreed.compress_settings,
    )


def server_end(kind: type[E]) -> E:
    """A ``kind`` of extension for one connection, on the terms this server agrees with a
    browser (context carried from message to message)."""
    return kind(False, False, WINDOW_BITS, WINDOW_BITS, dict(COMPRESS_SETTINGS))


class LargeMessagesDeflateFactory(ServerPerMessageDeflateFactory):
    """Agrees ``permessage-deflate`` as websockets' own server does, with
    :class:`LargeMessagesDeflate` as the extension."""

    def process_request_params(
        self,
        params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Extension],
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        """The response's parameters and the agreed extension (raises as the parent does
        where the client's offer cannot be agreed)."""
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, agreed_as(agreed, LargeMessagesDeflate)


class LargeMessagesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O implementation, the one it
    chooses by default) with :class:`LargeMessagesDeflateFactory` in the place of its
    ``permessage-deflate``, on the same settings; without it where
    ``ws_per_message_deflate`` is off. It gives the application :meth:`write_text` in its
    scope's extensions (:data:`~taut.server.play.session.WRITE_NOW`)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:
            self.conn.available_extensions = [
                LargeMessagesDeflateFactory(
                    server_max_window_bits=WINDOW_BITS,
                    client_max_window_bits=WINDOW_BITS,
                    compress_settings=dict(COMPRESS_SETTINGS),
                )
            ]

    def handle_connect(self, event: Request) -> None:
        """Begin the handshake as uvicorn does, and offer :meth:`write_text` to the
        application."""
        super().handle_connect(event)
        if self.response.status_code == 101:
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[WRITE_NOW] = self.write_text

    def write_text(self, text: str) -> bool:
        """Write the text message ``text`` at once, as uvicorn's ``send`` of a
        ``websocket.send`` would, and say True; or say False and write nothing where it
        cannot go now (the socket's buffer is full, the handshake is not over, or the
        connection is closing or closed), so that the application sends it through ASGI,
        which waits or raises as it must."""
        if (
            self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
        ):
            return False
        self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
