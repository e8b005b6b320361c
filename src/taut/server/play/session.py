"""One WebSocket of live play: its origin, its hello, its messages and their answers.

A page opens ``/ws/{game id}`` and says ``hello`` with the token of its link; the token's
hash names a seat (or the spectators). Each later message is validated
(:mod:`~taut.server.play.protocol`), rate limited, carried out by the hub and answered to that
client alone: ``ack`` (with the ``ref`` the client gave it) or ``error`` (a sentence, never
a stack trace). Whatever a client sends, the socket is closed only when it goes, when its
first message is not a good hello, or when it stops reading. Once its game has a rematch,
``follow`` moves the socket to it (:func:`follow`): one socket serves a page's games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from taut.core.errors import TautError
from taut.server.play.clients import Connection, as_text
from taut.server.play.hub import Hub
from taut.server.play.making import rematch_of
from taut.server.play.position import Batch, Refused
from taut.server.play.protocol import (
    Answer,
    BadMessage,
    Chat,
    Commit,
    Fit,
    Follow,
    Hello,
    Move,
    Offer,
    Ping,
    Rematch,
    Resign,
    Reveal,
    SetName,
    Shown,
    parse_message,
    ref_of,
)
from taut.server.store.database import token_hash

log = logging.getLogger("taut.server")

#: Messages a connection may send per second (and in a burst).
RATE, BURST = 10.0, 30.0
#: Seconds a new connection has to say hello.
HELLO_WAIT = 15.0
#: The close code for a refused connection (RFC 6455: policy violation).
POLICY = 1008


class Bucket:
    """A token bucket: a client may send ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self) -> bool:
        """Spend one message; False when the client sends too fast."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: The key of the ASGI scope's ``extensions`` under which a server that can write a text
#: message at once puts the function that does (see
#: :class:`taut.server.play.clients.WritesAtOnce`): ``taut serve``'s WebSocket protocol does.
WRITE_NOW = "taut.write_now"


class WebClient:
    """A WebSocket as the hub's client (a :class:`~taut.server.play.clients.WritesAtOnce`
    where the server gives the means, :data:`WRITE_NOW`)."""

    write_now: Callable[[str], bool]

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        write_now = socket.scope.get("extensions", {}).get(WRITE_NOW)
        if write_now is not None:
            self.write_now = write_now

    async def send_text(self, text: str) -> None:
        """Send one message."""
        await self.socket.send_text(text)

    async def close(self, code: int) -> None:
        """Close the socket."""
        await self.socket.close(code=code)


def origin_ok(socket: WebSocket, origins: tuple[str, ...]) -> bool:
    """A browser's WebSocket must come from this server's pages (or a listed origin)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True  # not a browser: there is no other site's page to protect it from
    host = socket.headers.get("host", "").lower()
    listed = {o.rstrip("/").lower() for o in origins}
    return urlsplit(origin.lower()).netloc == host or origin.rstrip("/").lower() in listed


async def serve_socket(socket: WebSocket, game_id: str, hub: Hub, origins: tuple[str, ...]) -> None:
    """The whole life of one WebSocket."""
    if not origin_ok(socket, origins):
        await socket.close(code=POLICY)  # before accepting: the browser sees a refusal
        return
    await socket.accept()
    client = WebClient(socket)
    conn = await _hello(socket, client, hub, game_id)
    if conn is None:
        return
    hub.join(conn)
    bucket = Bucket()
    try:
        while True:
            raw = await _receive(socket)
            if raw is None:
                break
            if not bucket.take():
                conn.send({"type": "error", "message": "too many messages; slow down"})
                continue
            await handle(hub, conn, raw)
    finally:
        hub.leave(conn)


async def _receive(socket: WebSocket) -> str | bytes | None:
    """The next message, as sent (None: the client has gone)."""
    try:
        message = await socket.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] != "websocket.receive":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _refuse(socket: WebSocket, message: str) -> None:
    with contextlib.suppress(Exception):  # the client may have gone already
        await socket.send_text(as_text({"type": "error", "message": message}))
        await socket.close(code=POLICY)


async def _hello(socket: WebSocket, client: WebClient, hub: Hub, game_id: str) -> Connection | None:
    """Read the first message: which seat (if any) the client's token opens."""
    try:
        table = await hub.table(game_id)
    except Exception:
        log.exception("loading game %s", game_id)
        await _refuse(socket, "the game cannot be loaded now; try again soon")
        return None
    if table is None:
        await _refuse(socket, "no such game")
        return None
    try:
        raw = await asyncio.wait_for(_receive(socket), HELLO_WAIT)
        if raw is None:
            return None
        hello = parse_message(raw)
        if not isinstance(hello, Hello):
            raise BadMessage("the first message must be hello")
    except BadMessage as exc:
        await _refuse(socket, str(exc))
        return None
    except TimeoutError:
        await _refuse(socket, "say hello first")
        return None
    hashed = None if hello.token is None else token_hash(hello.token)
    seat = await _seat_opened(hub, game_id, hashed)
    if seat is None:
        await _refuse(socket, "this link opens no seat of this game")
        return None
    if seat == "spectator":
        # Spectators are nobody in particular: a short random label tells their lines apart.
        conn = Connection(client, game_id, None, label=f"spectator {secrets.token_hex(2)}")
    else:
        conn = Connection(client, game_id, int(seat))
    conn.token_hash = hashed
    conn.acks_in_frames = hello.acks == "in-frames"
    conn.patches = bool(hello.patches)
    conn.edits = hello.patches == "edits"
    conn.room = hello.room
    conn.draws = hello.draws
    conn.text = hello.text
    return conn


async def _seat_opened(hub: Hub, game_id: str, hashed: str | None) -> int | str | None:
    """The seat (or ``"spectator"``) that a token's hash opens in a game served here, the
    game's seats read again where it opens none (an open seat may have been claimed since
    through another process); None: it opens nothing."""
    seat = hub.seat_of(game_id, hashed)
    if seat is None and hashed is not None:
        await hub.refresh_row(game_id)
        seat = hub.seat_of(game_id, hashed)
    return seat


async def handle(hub: Hub, conn: Connection, raw: str | bytes) -> None:
    """One message from a client: validated, carried out, answered (to that client)."""
    ref = 0
    try:
        message = parse_message(raw)
        if isinstance(message, Ping):
            conn.send({"type": "pong"})
            return
        if isinstance(message, Hello):
            raise BadMessage("hello is said once")
        if isinstance(message, Fit):
            conn.room = message.room
            hub.refresh(conn)
            return
        if isinstance(message, Shown):
            conn.text = message.shown
            hub.refresh(conn)
            return
        ref = message.ref
        if isinstance(message, Follow):
            await follow(hub, conn)
            return
        if conn.seat is None:
            if isinstance(message, Chat):  # the spectators' own chat
                label, text = conn.label or "spectator", message.text
                await hub.command(conn.game_id, lambda t: t.say_watching(label, text, time.time()))
                conn.acknowledge({"type": "ack", "ref": ref, "seq": hub.tables[conn.game_id].seq})
                return
            raise Refused("spectators watch and chat among themselves; they do not play")
        if isinstance(message, Rematch):
            await _rematch(hub, conn)
            conn.acknowledge({"type": "ack", "ref": ref})
            return
        batch = await _carry_out(hub, conn, conn.seat, message)
        table = hub.tables[conn.game_id]
        conn.acknowledge({"type": "ack", "ref": ref, "seq": table.seq, "repeat": batch.repeat})
    except BadMessage as exc:
        conn.send({"type": "error", "ref": ref or ref_of(raw), "message": str(exc)})
    except (Refused, TautError) as exc:
        conn.send({"type": "error", "ref": ref, "message": str(exc)})
    except Exception:  # a fault of the server's: logged here, never shown to the client
        log.exception("while handling a message for game %s", conn.game_id)
        conn.send({"type": "error", "ref": ref, "message": "something went wrong on the server"})


async def _carry_out(
    hub: Hub,
    conn: Connection,
    seat: int,
    message: SetName | Move | Commit | Reveal | Chat | Resign | Offer | Answer,
) -> Batch:
    game_id = conn.game_id
    if isinstance(message, Chat | Resign | Offer | Answer):
        return await _at_table(hub, game_id, seat, message)
    if isinstance(message, SetName):
        name = message.name
        return await hub.command(game_id, lambda t: t.name(seat, name))
    if isinstance(message, Move):
        move, action = message.move, message.action
        return await hub.command(game_id, lambda t: t.move(seat, move, action))
    if isinstance(message, Commit):
        move, digest = message.move, message.hash
        opening = None if message.reveal is None else (message.reveal.action, message.reveal.salt)
        return await hub.command(game_id, lambda t: t.commit(seat, move, digest, opening))
    move, action, salt = message.move, message.action, message.salt
    return await hub.command(game_id, lambda t: t.reveal(seat, move, action, salt))


async def _at_table(
    hub: Hub, game_id: str, seat: int, message: Chat | Resign | Offer | Answer
) -> Batch:
    """Chat, a resignation, an offer or an answer to one."""
    if isinstance(message, Chat):
        text = message.text
        return await hub.command(game_id, lambda t: t.say(seat, text, time.time()))
    if isinstance(message, Resign):
        return await hub.command(game_id, lambda t: t.resign(seat))
    what = message.what
    if isinstance(message, Answer):
        move, accept = message.move, message.accept
        return await hub.command(game_id, lambda t: t.answer(seat, move, what, accept))
    table = hub.tables[game_id]
    computers = [s for s, x in enumerate(table.seats) if x.kind == "computer" and s != seat]
    agreed: list[int] = []
    if what == "takeback" and computers:
        # The computer lets a move be taken back in a friendly game; a rated game's result
        # must not depend on second tries, so there it never agrees.
        if table.config.get("rated"):
            raise Refused("in a rated game the computer does not agree to take back a move")
        agreed = computers
    return await hub.command(game_id, lambda t: t.propose(seat, what, agreed))


async def follow(hub: Hub, conn: Connection) -> None:
    """Move ``conn`` to its game's rematch, as the seat its token opens there: the page goes
    on to the next game without a socket (and a page) of its own for it. The client is told
    ``followed`` and then sent the rematch's first frame, whole."""
    table = hub.tables.get(conn.game_id)
    new_id = None if table is None else table.rematch
    if new_id is None:
        raise Refused("this game has no rematch to follow yet")
    try:
        found = await hub.table(new_id)
    except Exception:
        log.exception("loading game %s", new_id)
        raise Refused("the rematch cannot be loaded now; try again soon") from None
    if found is None:
        raise Refused("the rematch cannot be found")
    seat = await _seat_opened(hub, new_id, conn.token_hash)
    if seat is None:
        raise Refused("this link opens no seat of the rematch")
    # Nothing is awaited from here on: no frame of either game comes in between.
    hub.leave(conn)
    conn.move_to(new_id, None if seat == "spectator" else int(seat))
    conn.send({"type": "followed", "game": new_id})
    hub.join(conn)


async def _rematch(hub: Hub, conn: Connection) -> None:
    table = hub.tables[conn.game_id]
    if not table.state.is_terminal():
        raise Refused("a rematch follows a finished game")
    if table.rematch is not None:
        return
    row = hub.rows.get(conn.game_id)
    # The row held here says who holds the seats once no seat is left open (a seat claimed
    # through another process would change it).
    made = await rematch_of(hub.store, conn.game_id, row if row and not row.free_seats else None)
    if made.made is not None:
        hub.adopt(*made.made)  # its players come at once: served without reading it back
    new_id = made.id
    await hub.command(conn.game_id, lambda t: t.rematched(new_id))
