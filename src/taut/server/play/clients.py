"""Connected clients and what is on its way to them.

Every message to a client goes through its :class:`Connection`'s outbox, in order, written
at the loop's next turn (by a callback where the client :class:`WritesAtOnce`, else by a
task, and by a task whenever its socket cannot take more now): a command never waits for
a slow client, and one client that stops reading cannot hold up a game for the others. A
frame waiting in the outbox is replaced by a newer one (each frame is the whole game as
that client may see it, so the newer says everything the older did); a client that falls
further behind than :data:`MAX_BEHIND` messages is closed, and its page reconnects and
gets a fresh frame.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

log = logging.getLogger("taut.server")

#: Messages a connection may have waiting before it is closed as not reading.
MAX_BEHIND = 64
#: The close code for a client that does not keep up (RFC 6455: try again later).
TOO_SLOW = 1013


class Client(Protocol):
    """A connected browser (or test client): something messages can be sent to."""

    async def send_text(self, text: str) -> None:
        """Send one message (JSON text)."""
        ...

    async def close(self, code: int) -> None:
        """Close the connection."""
        ...


class WritesAtOnce(Protocol):
    """A client whose transport can take a message at once, without a coroutine (``taut
    serve``'s WebSocket protocol gives the means: see :mod:`taut.server.web.deflate`).
    Its connection's messages are then written by a callback, not a task: on this path
    a frame costs no task, and none of the framework's coroutines and dictionaries that
    end in the same write to the socket."""

    def write_now(self, text: str) -> bool:
        """Write one message at once and say True, or say False and write nothing where it
        cannot go now (its socket's buffer is full, or it is closing):
        :meth:`Client.send_text` then sends it, waiting or raising as it must."""
        ...


def as_text(data: Any) -> str:
    """A message as compact JSON (by orjson: frames are most of the server's encoding)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


class Frame(Protocol):
    """A frame to send, written for one connection from what that connection was sent
    before (:class:`taut.server.play.frames.FrameParts`)."""

    def text(
        self,
        sent: dict[str, str] | None = None,
        held: dict[str, Any] | None = None,
        room: int | None = None,
        edits: bool = False,
    ) -> str:
        """The frame's JSON for a connection whose previous frame held ``sent`` (updated),
        holding the pictures ``held`` (updated), drawing the board ``room`` pixels wide,
        taking edits of a picture's tokens (``edits``)."""
        ...


@dataclass(eq=False)
class Connection:
    """One client of one game, at a seat (``seat``) or watching (None)."""

    client: Client
    game_id: str
    seat: int | None
    label: str = ""
    """What a spectator's chat lines are signed with (a seat's lines, with the seat)."""
    token_hash: str | None = None
    """The hash of the token its hello gave (None: none), which names its seat in the
    game's rematch too."""
    gone: bool = False
    """True once the client has gone or has been closed: nothing more is sent."""
    acks_in_frames: bool = False
    """The client asked for acknowledgements inside frames (its hello's ``acks``): an
    acknowledgement queued right behind a frame rides in that frame's ``acks`` list."""
    _outbox: deque[tuple[bool, str | Frame]] = field(default_factory=deque)
    _writer: asyncio.Task[None] | asyncio.Handle | None = None
    """What writes the outbox: a callback that writes at once (a client that
    :class:`WritesAtOnce`), or a task that awaits each message."""
    patches: bool = False
    """The client takes a changed picture as a patch of the one it holds (its hello's
    ``patches``)."""
    edits: bool = False
    """Its patches may edit a token of the picture held (its hello's ``patches`` is
    ``"edits"``)."""
    room: int | None = None
    """The width the client draws the board in (its hello's ``room``): frames carry only the
    picture of the two that fits it; None: both."""
    draws: bool = False
    """The client draws the table of a game that gives its data (its hello's ``draws``):
    frames for a seat whose clients all draw carry that data, not the pictures."""
    text: bool = True
    """The client shows the position as text (its hello's ``text``, then its ``text``
    messages): frames for a seat whose clients all leave it out do not draw it."""
    _sent: dict[str, str] = field(default_factory=dict)
    """The members of the last frame written, which the next one may leave out."""
    _held: dict[str, Any] = field(default_factory=dict)
    """The pictures and the log of the last frame written (what a patch is made from)."""
    _riding: list[dict[str, Any]] = field(default_factory=list)
    """The acknowledgements that ride in the frame waiting in the outbox (at most one frame
    waits: a newer one takes its place, and its acknowledgements)."""
    _write_now: Callable[[str], bool] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        # Looked up once: a client that WritesAtOnce gives the means.
        self._write_now = getattr(self.client, "write_now", None)

    def send(self, data: dict[str, Any]) -> None:
        """Queue one message (sent in order, without waiting)."""
        self.send_text(as_text(data), frame=data.get("type") == "state")

    def acknowledge(self, ack: dict[str, Any]) -> None:
        """Queue the acknowledgement ``ack`` (``{"type": "ack", "ref": ...}``): inside the
        frame waiting last in the outbox when the client asked for that, so that a command
        costs one message less; else as a message of its own. Either way the client reads
        it after that frame, as it would have."""
        outbox = self._outbox
        if self.acks_in_frames and not self.gone and outbox and outbox[-1][0]:
            self._riding.append({k: v for k, v in ack.items() if k != "type"})
            return
        self.send(ack)

    def send_frame(self, frame: Frame) -> None:
        """Queue a state frame (a newer frame replaces it while it waits); it is written
        when its turn comes, leaving out what the previous frame written holds already."""
        self.send_text(frame, frame=True)

    def send_text(self, text: str | Frame, frame: bool = False) -> None:
        """Queue one message already written as JSON; ``frame``: a state frame, which a
        newer frame replaces while it waits."""
        if self.gone:
            return
        outbox = self._outbox
        if frame:
            for i, (waiting_frame, _) in enumerate(outbox):
                if waiting_frame:
                    outbox[i] = (True, text)
                    break
            else:
                outbox.append((True, text))
        else:
            outbox.append((False, text))
        if len(outbox) > MAX_BEHIND:
            self._drop()
            return
        if self._writer is None:
            # Run at the loop's next turn either way, so that what the command still
            # queues (its acknowledgement, riding in this frame) goes with it.
            loop = asyncio.get_running_loop()
            if self._write_now is not None:
                self._writer = loop.call_soon(self._write_at_once, self._write_now)
            else:
                self._writer = loop.create_task(self._write())

    @property
    def waiting(self) -> int:
        """Messages queued and not yet being written."""
        return len(self._outbox)

    def move_to(self, game_id: str, seat: int | None) -> None:
        """Serve this client the game ``game_id`` from now on, at ``seat`` (a rematch it
        follows on the same socket). What still waits for it of the game it leaves is
        dropped (its page has moved on), and the next frame is whole: the client holds
        nothing of the new game. Called once the game it leaves has let it go."""
        self.game_id, self.seat = game_id, seat
        self.gone = False
        self._outbox.clear()
        self._riding.clear()
        self._sent = {}
        self._held = {}

    def close(self) -> None:
        """Send nothing more (the client has gone)."""
        self.gone = True
        self._outbox.clear()
        self._riding.clear()

    async def drained(self) -> None:
        """Wait until everything queued has been written (or the client has gone)."""
        while self._writer is not None:
            if isinstance(self._writer, asyncio.Handle):
                await asyncio.sleep(0)  # the callback runs at the loop's next turn
            else:
                await asyncio.shield(self._writer)

    def _next_text(self) -> str:
        """The first message of the outbox, taken out and written for this connection."""
        is_frame, item = self._outbox.popleft()
        if isinstance(item, str):
            text = item
        else:
            held = self._held if self.patches else None
            text = item.text(self._sent, held, self.room, self.edits)
        if is_frame and self._riding:
            text = f'{text[:-1]},"acks":{as_text(self._riding)}}}'
            self._riding = []
        return text

    def _write_at_once(self, write_now: Callable[[str], bool]) -> None:
        self._writer = None
        try:
            while self._outbox and not self.gone:
                text = self._next_text()
                if not write_now(text):
                    # The socket cannot take it now: a task waits until it can.
                    self._writer = asyncio.get_running_loop().create_task(self._write(text))
                    return
        except Exception:  # a closed socket: the page reconnects by itself
            self.close()

    async def _write(self, first: str | None = None) -> None:
        try:
            if first is not None and not self.gone:
                await self.client.send_text(first)
            while self._outbox and not self.gone:
                await self.client.send_text(self._next_text())
        except Exception:  # a closed socket: the page reconnects by itself
            self.close()
        finally:
            self._writer = None

    def _drop(self) -> None:
        log.info("closing a client of %s that does not keep up", self.game_id)
        self.close()
        task = asyncio.get_running_loop().create_task(self._close_client())
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)

    async def _close_client(self) -> None:
        try:
            await self.client.close(TOO_SLOW)
        except Exception:  # already closed
            log.debug("client of %s was closed already", self.game_id)


#: Close tasks under way (kept so that they are not collected before they run).
_CLOSING: set[asyncio.Task[None]] = set()
