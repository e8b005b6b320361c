"""The clients of the games a hub serves, and the frames they are sent.

Each client gets a frame built from its own seat's view. Clients at the same seat share
one frame, written once; a game's pictures are kept while it has clients, since a position
is drawn the same for every seat that sees it.
"""

from __future__ import annotations

import logging
from typing import Any

from taut.server.play.clients import Connection
from taut.server.play.frames import FrameParts, Pictures, frame_parts, state_frame
from taut.server.play.table import GameTable

log = logging.getLogger("taut.server")


class Audience:
    """The connected clients of every game, by game id."""

    def __init__(self) -> None:
        self.clients: dict[str, set[Connection]] = {}
        self._pictures: dict[str, Pictures] = {}

    def forget(self, game_id: str) -> None:
        """Drop a game's drawings (it leaves memory)."""
        self._pictures.pop(game_id, None)

    def join(self, conn: Connection, table: GameTable, now: float) -> None:
        """Add a client and send it the game as it stands."""
        self.clients.setdefault(conn.game_id, set()).add(conn)
        parts = self._frame_parts(table, conn.seat, now, [conn])
        if parts is None:
            conn.send({"type": "error", "message": "the game cannot be shown now"})
        else:
            conn.send_frame(parts)

    def send_to(self, conn: Connection, table: GameTable, now: float) -> None:
        """Queue one client its frame."""
        parts = self._frame_parts(table, conn.seat, now, [conn])
        if parts is not None:
            conn.send_frame(parts)

    def leave(self, conn: Connection) -> None:
        """Forget a client (and the game's drawings, when it was the last one)."""
        conn.close()
        conns = self.clients.get(conn.game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.clients[conn.game_id]
                self._pictures.pop(conn.game_id, None)

    def _pictures_of(self, game_id: str) -> Pictures:
        """The game's drawings (made on first use: a frame must not build a new set only to
        drop it, as ``setdefault`` would for every frame)."""
        pictures = self._pictures.get(game_id)
        if pictures is None:
            pictures = self._pictures[game_id] = Pictures()
        return pictures

    def frame(self, table: GameTable, seat: int | None, now: float) -> dict[str, Any]:
        """The frame for a client at ``seat`` now (drawings shared while the position
        stays)."""
        return state_frame(table, seat, self._pictures_of(table.id), now)

    def broadcast(self, table: GameTable, now: float) -> None:
        """Queue every client of the game its own frame (one frame, written once, per seat
        and way of drawing)."""
        conns = self.clients.get(table.id)
        if not conns:
            return
        # The clients of a seat that draw the table themselves get its data, the others
        # its pictures.
        seats: dict[tuple[int | None, bool], list[Connection]] = {}
        for conn in list(conns):
            if conn.gone:
                conns.discard(conn)
                continue
            seats.setdefault((conn.seat, conn.draws), []).append(conn)
        for (seat, _), held in seats.items():
            parts = self._frame_parts(table, seat, now, held)
            if parts is not None:
                for conn in held:
                    conn.send_frame(parts)

    def _frame_parts(
        self, table: GameTable, seat: int | None, now: float, conns: list[Connection]
    ) -> FrameParts | None:
        """The frame as JSON parts for the clients ``conns`` at ``seat`` (of a game's two
        pictures of the board, only the one they all draw, where they draw the same; the
        position as text where one of them shows it; the table's data in place of the
        pictures where they all draw it); None (logged) when the game's
        pictures fail: the move stands, and the clients keep the frame they have."""
        try:
            pictures = self._pictures_of(table.id)
            wants = {pictures.wanted(conn.room) for conn in conns}
            want = wants.pop() if len(wants) == 1 else None
            text = any(conn.text for conn in conns)
            drawing = all(conn.draws for conn in conns)
            return frame_parts(table, seat, pictures, now, want, text, drawing)
        except Exception:
            log.exception("cannot draw game %s for seat %s", table.id, seat)
            return None
