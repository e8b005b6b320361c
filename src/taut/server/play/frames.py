"""What each client is told: every message is built from that client's view of the game.

:func:`state_frame` is the one place a game's position becomes a message. It reads
``table.state.view(seat)`` (``seat`` None: a spectator) and nothing else of the position:
the picture, the text, the legal moves and the status all come from that view, and the
rest is public (who sits where, who has committed, the narrated log, the result). The
tests prove it: frames built from any full state consistent with a view are the same.

Drawing is the costly part of a frame, and most messages change no position (a commitment,
a reveal, a name): :class:`~taut.server.play.pictures.Pictures` keeps each seat's drawings
of the current position, so that they are made once per position and seat, whatever the
number of clients. A frame
leaves out what the connection's previous frame said (``kept``), and to a client that takes
patches a changed picture is sent as a patch of the one it holds
(:mod:`taut.server.play.patches`); :mod:`taut.server.play.wire` writes a frame so for each
connection.
"""

from __future__ import annotations

import time
from typing import Any

from taut.core.game import State
from taut.core.terms import CHANCE_SEAT
from taut.server.play.clients import as_text
from taut.server.play.pictures import LEGAL_LISTED, Pictures, boards, result_line
from taut.server.play.table import GameTable
from taut.server.play.wire import (
    PATCHED,
    FrameParts,
    log_more,
    unfit,
    with_kept,
)

#: What clients, tests and benchmarks read from here, written in :mod:`.wire` and
#: :mod:`.pictures`.
__all__ = [
    "KEPT_MEMBERS",
    "LEGAL_LISTED",
    "PATCHED",
    "FrameParts",
    "Pictures",
    "boards",
    "frame_parts",
    "frame_text",
    "log_more",
    "result_line",
    "seat_list",
    "state_frame",
    "table_part",
    "unfit",
    "with_kept",
]


def seat_list(table: GameTable, titles: list[str] | None = None) -> list[dict[str, Any]]:
    """Public facts about every seat (``titles``: the seats' titles, where they are known:
    they are the game's, the same all game long)."""
    game = table.game
    if titles is None:
        titles = [table.plugin.seat_title(game, i) for i in range(len(table.seats))]
    out = []
    for i, seat in enumerate(table.seats):
        out.append(
            {
                "seat": game.info.seats[i],
                "title": titles[i],
                "kind": seat.kind,
                "agent": seat.agent,
                "name": seat.name,
                "open": seat.open,
            }
        )
    return out


#: The members of a frame that a client may already hold: a frame leaves out those that
#: are the same as in the previous frame sent on the same connection and lists them under
#: ``kept`` (the client copies them from its previous frame, :func:`with_kept`). A board
#: is most of a frame's bytes, and most messages change no position. ``board_narrow`` is
#: in frames of games that draw one only (:func:`boards`).
KEPT_MEMBERS = (
    "board",
    "board_narrow",
    "table",
    "text",
    "status",
    "help",
    "result",
    "legal",
    "moves",
    "log",
    "seats",
)


#: The drawn members that depend on the view alone (not on the seat looking at it).
_BY_VIEW = frozenset(("text", "status", "result"))


def state_frame(
    table: GameTable,
    seat: int | None,
    pictures: Pictures | None = None,
    now: float | None = None,
    drawing: bool = False,
) -> dict[str, Any]:
    """The ``state`` message for a client at ``seat`` (None: a spectator); ``pictures``
    keeps what was drawn for this position before; ``now``: the time the clocks are read
    at (None: the time now); ``drawing``: for a client that draws the table itself."""
    pictures = pictures if pictures is not None else Pictures()
    frame, drawn, _ = _frame(table, seat, pictures, now, drawing=drawing)
    frame.update(drawn)
    # Kept by ``pictures`` for later frames: the caller gets its own to change.
    frame["moves"] = [dict(m) for m in frame["moves"]]
    return frame


def frame_parts(
    table: GameTable,
    seat: int | None,
    pictures: Pictures,
    now: float | None = None,
    want: str | None = None,
    text: bool = True,
    drawing: bool = False,
) -> FrameParts:
    """:func:`state_frame` as JSON text in parts (the same members), with the drawn
    members encoded once per position: what the hub sends. With ``want``, of a game's two
    pictures of the board only that one (:meth:`Pictures.wanted`: every client it is for
    draws that one); without ``text``, no position as text (none of them shows it); with
    ``drawing``, the table's data in place of the pictures where the game gives it (every
    client it is for draws the table itself)."""
    frame, drawn, (mine, listed, like) = _frame(table, seat, pictures, now, want, text, drawing)
    log = frame.get("log")
    members: dict[str, str | None] = {}
    drawings = {n: drawn[n] for n in PATCHED if isinstance(drawn.get(n), str)}
    # What each drawn member depends on.
    keys = {"legal": listed, "moves": listed, "help": mine, "table": listed}
    shared = id(pictures.view(table, seat))  # what the text, status and result depend on
    for name in KEPT_MEMBERS:
        if name in drawings:
            members[name] = None  # encoded where it is sent whole (FrameParts.text)
        elif name in drawn:
            # (A game whose page offers the moves draws its table once a view.)
            by_view = name in _BY_VIEW or (name == "table" and table.plugin.offers)
            key = ("view", shared) if by_view else (seat, keys.get(name))
            members[name] = pictures.encoded(name, key, drawn[name])
        elif name in frame:
            members[name] = as_text(frame.pop(name))
    return FrameParts(as_text(frame), members, drawings, log, like if drawn["moves"] else None)


def frame_text(
    table: GameTable, seat: int | None, pictures: Pictures, now: float | None = None
) -> str:
    """:func:`state_frame` as JSON text (the whole frame)."""
    return frame_parts(table, seat, pictures, now).text()


def _frame(
    table: GameTable,
    seat: int | None,
    pictures: Pictures,
    now: float | None,
    want: str | None = None,
    text: bool = True,
    drawing: bool = False,
) -> tuple[dict[str, Any], dict[str, Any], tuple[bool, bool, str | None]]:
    """The frame's members that change with every message, the drawn ones (kept per
    position), whether the seat is to move and may choose, and the sentence its moves'
    words share (:func:`~taut.server.play.wire.words_like`)."""
    view = pictures.view(table, seat)
    phase = table.phase
    acting = [s for s in view.acting_seats() if s != CHANCE_SEAT]
    mine = seat is not None and seat in acting and phase in ("play", "commit")
    listed = mine and seat not in table.commits
    parts = pictures.drawn(table, view, seat, mine, listed, want, text, drawing)
    legal: list[str] = parts["legal"]
    revealing = phase == "reveal" and seat is not None and seat in acting
    outcome = view.outcome
    # Where a move is an answer (a learning game), listing them would give it away.
    hidden = table.plugin.hides_moves(table.game)
    drawn: dict[str, Any] = {
        **{n: parts[n] for n in ("board", "board_narrow", "table", "text") if n in parts},
        "status": parts["status"],
        "help": parts["help"],
        "result": parts["result"],
        "legal": [] if hidden else legal[:LEGAL_LISTED],
        # The same moves, each with its notation (what a person types) and its words.
        "moves": [] if hidden else parts["moves"],
    }
    frame = {
        "type": "state",
        "seq": table.seq,
        "move": table.node,
        "phase": phase,
        "you": None if seat is None else table.seat_name(seat),
        "acting": [table.seat_name(s) for s in acting],
        "committed": [table.seat_name(s) for s in sorted(table.commits)],
        "revealed": [table.seat_name(s) for s in sorted(table.reveals)],
        "to_reveal": revealing and seat not in table.reveals,
        "legal_count": len(legal),
        "log": list(table.log),
        "winners": None if outcome is None else [table.seat_name(s) for s in outcome.winners],
        "seats": seat_list(table, pictures.titles(table)),
        "rematch": table.rematch,
        "deadline": table.config.get("reveal_deadline"),
        "reveal_since": table.reveal_since,
        # Public: per seat the time left, whose clocks run, and the server's time (ms).
        "clock": table.clock_frame(time.time() if now is None else now),
        **table_part(table, view, seat, pictures.may_draw(view, seat)),
    }
    return frame, drawn, (mine, listed, None if hidden else parts["like"])


def table_part(table: GameTable, view: State, seat: int | None, draws: bool) -> dict[str, Any]:
    """What happens at the table: the seated players' chat (never shown to spectators), the
    open offer, and what this seat may offer now (read from its view; ``draws``: whether
    it may offer a draw, :meth:`Pictures.may_draw`)."""
    over = view.is_terminal()
    return {
        "chat": []
        if seat is None
        else [{"seat": c["seat"], "text": c["text"]} for c in table.chat],
        # The spectators' own chat, never shown to the players (no advice from the gallery).
        "gallery": []
        if seat is not None
        else [{"who": c["who"], "text": c["text"]} for c in table.gallery],
        "offer": None
        if table.offer is None
        else {k: table.offer[k] for k in ("move", "seat", "what", "accepted")},
        "may_draw": draws,
        "may_take_back": not over and seat is not None and table.takeback_to(seat) is not None,
        "may_resign": not over and seat is not None,
    }
