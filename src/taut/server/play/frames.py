"""What each client is told: every message is built from that client's view of the game.

:func:`state_frame` is the one place a game's position becomes a message. It reads
``table.state.view(seat)`` (``seat`` None: a spectator) and nothing else of the position:
the picture, the text, the legal moves and the status all come from that view, and the
rest is public (who sits where, who has committed, the narrated log, the result). The
tests prove it: frames built from any full state consistent with a view are the same.

Drawing is the costly part of a frame, and most messages change no position (a commitment,
a reveal, a name): :class:`Pictures` keeps each seat's drawings of the current position,
so that they are made once per position and seat, whatever the number of clients. A frame
leaves out what the connection's previous frame said (``kept``), and to a client that takes
patches a changed picture is sent as a patch of the one it holds
(:mod:`taut.server.play.patches`); :mod:`taut.server.play.wire` writes a frame so for each
connection.
"""

from __future__ import annotations

import time
from typing import Any

from taut.core.errors import TautError
from taut.core.forfeit import drawable
from taut.core.game import State
from taut.core.plugin import GamePlugin
from taut.core.terms import CHANCE_SEAT
from taut.server.play.clients import as_text
from taut.server.play.table import GameTable
from taut.server.play.wire import (
    PATCHED,
    FrameParts,
    log_more,
    touch_width,
    unfit,
    with_kept,
    words_like,
)

#: What clients, tests and benchmarks read from here, written in :mod:`.wire`.
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

#: Legal moves listed in a frame at most (a two-sided choice can have 15,625).
LEGAL_LISTED = 500


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


def result_line(state: State) -> str | None:
    """How a finished game ended, in words (None while it goes on): ``O won — a track
    joins the two sides``, ``Drawn — drawn by agreement``."""
    out = state.outcome
    if out is None:
        return None
    why = out.reason.text or out.reason.name
    if out.is_draw:
        return f"Drawn — {why}"
    return f"{' and '.join(state.seat_name(s) for s in out.winners)} won — {why}"


class Pictures:
    """What frames draw from the position (the seat's view, its legal moves and their words,
    the board, the text, the status, the help, the result), per seat, kept while the position
    stays the same: a commitment or a reveal redraws nothing, and the clients at one seat share
    one drawing. Held by the hub per game; a new position clears it.

    Each part is kept under what it depends on, no more: the board with the moves offered
    (while the seat may choose) or without (once it has chosen), the text, status and
    result per seat whatever its turn, the help only for a seat to move. Each is also kept
    as JSON text, so that a frame repeats none of the drawing's encoding either."""

    def __init__(self) -> None:
        self._state: State | None = None
        self._views: dict[int | None, State] = {}
        self._boards: dict[tuple[int | None, bool], dict[str, Any]] = {}
        self._texts: dict[int, tuple[State, dict[str, Any]]] = {}
        """Keyed by the view's ``id``, with the view (so that the key stays its own)."""
        self._offered: dict[int, tuple[State, dict[str, Any]]] = {}
        """The pictures of a game whose page offers the moves, keyed as ``_texts``."""
        self._helps: dict[int | None, Any] = {}
        self._encoded: dict[tuple[str, Any], str] = {}
        self._strings: dict[int, tuple[str, str]] = {}
        self.narrow: bool | None = None
        """Whether the game draws a picture for a narrow screen beside its wide one (None:
        not known until it is first drawn)."""
        self.touch: float | None = None
        """The wide picture's ``data-touch-width`` as last drawn (None: not known), which
        says which of two pictures a client draws (:meth:`wanted`)."""
        self._titles: list[str] | None = None

    def titles(self, table: GameTable) -> list[str]:
        """The seats' titles (:meth:`~taut.core.plugin.GamePlugin.seat_title`), found once a
        game: they do not change with the position."""
        if self._titles is None or len(self._titles) != len(table.seats):
            self._titles = [table.plugin.seat_title(table.game, i) for i in range(len(table.seats))]
        return self._titles

    def view(self, table: GameTable, seat: int | None) -> State:
        """``table.state.view(seat)``, computed once per position."""
        if self._state is not table.state:
            # States are values: a new position is a new object (kept here, so its id
            # cannot be reused while this cache holds it).
            self._state = table.state
            self._views.clear()
            self._boards.clear()
            self._texts.clear()
            self._offered.clear()
            self._helps.clear()
            self._encoded.clear()
            self._strings.clear()
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = table.state.view(seat)
        return view

    def wanted(self, room: int | None) -> str | None:
        """Which picture a client drawing the board ``room`` pixels wide draws, as
        :func:`~taut.server.play.wire.unfit` and the page choose: ``board`` or
        ``board_narrow``; None where that is not known yet (no room said, or the game not
        drawn yet): it is sent both."""
        if self.narrow is False:
            return "board"
        if room is None or self.touch is None:
            return None
        return "board" if room >= self.touch else "board_narrow"

    def drawn(
        self,
        table: GameTable,
        view: State,
        seat: int | None,
        mine: bool,
        listed: bool,
        want: str | None = None,
    ) -> dict[str, Any]:
        """The parts of the frame drawn from ``view`` (call :meth:`view` first); of the two
        pictures of a game that draws one for a narrow screen, only ``want`` where that is
        given (:meth:`wanted`): the other is drawn once some client needs it."""
        plugin = table.plugin
        board = self._boards.get((seat, listed))
        if board is None:
            legal = _legal(view, seat) if listed and seat is not None else []
            board = self._boards[(seat, listed)] = {
                "legal": legal,
                # Each listed move said in the game's words, for the people choosing.
                "words": [plugin.describe_move(view, seat, m) for m in legal[:LEGAL_LISTED]]
                if seat is not None
                else [],
                "drawn": {},
            }
            board["like"] = words_like(legal[:LEGAL_LISTED], board["words"])
        names = ("board", "board_narrow") if want is None else (want,)
        if plugin.offers:
            pictures = self._offered_boards(plugin, view, names)
        else:
            pictures = self._draw(plugin, view, seat, board["legal"], board["drawn"], names)
        # The text, status and result take no seat: seats whose view is the same object
        # (a game without hidden information) share them.
        found = self._texts.get(id(view))
        if found is not None and found[0] is view:
            texts = found[1]
        else:
            picture = drawable(view)
            texts = {
                "text": plugin.render(picture),
                "status": plugin.status(picture),
                "result": result_line(view),
            }
            self._texts[id(view)] = (view, texts)
        helps = None
        if mine and seat is not None:
            if seat not in self._helps:
                self._helps[seat] = plugin.move_help(drawable(view), seat)
            helps = self._helps[seat]
        return {
            "legal": board["legal"],
            "words": board["words"],
            "like": board["like"],
            **pictures,
            **texts,
            "help": helps,
        }

    def _draw(
        self,
        plugin: GamePlugin,
        view: State,
        seat: int | None,
        legal: list[str],
        into: dict[str, Any],
        names: tuple[str, ...],
    ) -> dict[str, str]:
        """The pictures ``names`` of ``view`` for ``seat`` with ``legal`` offered, drawn into
        ``into`` (kept there) where they are not yet: a game without a narrow picture gives
        its one ``board`` for either name."""
        if "board_narrow" in names and self.narrow is not False and "board_narrow" not in into:
            narrow = plugin.svg_narrow(drawable(view), seat, legal)
            self.narrow = narrow is not None
            if narrow is not None:
                into["board_narrow"] = narrow
        if ("board" in names or self.narrow is False) and "board" not in into:
            into["board"] = plugin.svg(drawable(view), seat, legal)
            self.touch = touch_width(into["board"])
        if self.narrow is False:
            return {"board": into["board"]}
        return {n: into[n] for n in names}

    def _offered_boards(
        self, plugin: GamePlugin, view: State, names: tuple[str, ...]
    ) -> dict[str, str]:
        """The pictures ``names`` of ``view`` with no moves offered, drawn once a view: every
        seat that sees it, whatever its turn, is sent the same (the page offers the legal
        moves)."""
        found = self._offered.get(id(view))
        if found is None or found[0] is not view:
            found = self._offered[id(view)] = (view, {})
        return self._draw(plugin, view, None, [], found[1], names)

    def encoded(self, member: str, key: Any, value: Any) -> str:
        """``value`` (the member ``member`` of a frame drawn under ``key``) as JSON text,
        encoded once per position."""
        text = self._encoded.get((member, key))
        if text is None:
            if isinstance(value, str):
                # The same drawing given to several seats (a board without buttons, once
                # each has chosen) is encoded once: by the string itself, kept with it.
                found = self._strings.get(id(value))
                if found is None or found[0] is not value:
                    found = self._strings[id(value)] = (value, as_text(value))
                text = found[1]
            else:
                text = as_text(value)
            self._encoded[(member, key)] = text
        return text


#: The members of a frame that a client may already hold: a frame leaves out those that
#: are the same as in the previous frame sent on the same connection and lists them under
#: ``kept`` (the client copies them from its previous frame, :func:`with_kept`). A board
#: is most of a frame's bytes, and most messages change no position. ``board_narrow`` is
#: in frames of games that draw one only (:func:`boards`).
KEPT_MEMBERS = (
    "board",
    "board_narrow",
    "text",
    "status",
    "help",
    "result",
    "legal",
    "moves",
    "log",
    "seats",
)


def boards(plugin: GamePlugin, view: State, seat: int | None, legal: list[str]) -> dict[str, str]:
    """The pictures of ``view`` that a page chooses from: ``board``, and ``board_narrow``
    where the game lays the position out apart for a narrow screen (a phone; see
    :meth:`~taut.core.plugin.GamePlugin.svg_narrow`). ``view`` is drawable."""
    out = {"board": plugin.svg(view, seat, legal)}
    narrow = plugin.svg_narrow(view, seat, legal)
    if narrow is not None:
        out["board_narrow"] = narrow
    return out


#: The drawn members that depend on the view alone (not on the seat looking at it).
_BY_VIEW = frozenset(("text", "status", "result"))


def state_frame(
    table: GameTable, seat: int | None, pictures: Pictures | None = None, now: float | None = None
) -> dict[str, Any]:
    """The ``state`` message for a client at ``seat`` (None: a spectator); ``pictures``
    keeps what was drawn for this position before; ``now``: the time the clocks are read
    at (None: the time now)."""
    pictures = pictures if pictures is not None else Pictures()
    frame, drawn, _ = _frame(table, seat, pictures, now)
    frame.update(drawn)
    return frame


def frame_parts(
    table: GameTable,
    seat: int | None,
    pictures: Pictures,
    now: float | None = None,
    want: str | None = None,
) -> FrameParts:
    """:func:`state_frame` as JSON text in parts (the same members), with the drawn
    members encoded once per position: what the hub sends. With ``want``, of a game's two
    pictures of the board only that one (:meth:`Pictures.wanted`: every client it is for
    draws that one)."""
    frame, drawn, (mine, listed, like) = _frame(table, seat, pictures, now, want)
    log = frame.get("log")
    members: dict[str, str] = {}
    drawings = {n: drawn[n] for n in PATCHED if isinstance(drawn.get(n), str)}
    keys = {"board": listed, "board_narrow": listed, "legal": listed, "moves": listed, "help": mine}
    shared = id(pictures.view(table, seat))  # what the text, status and result depend on
    for name in KEPT_MEMBERS:
        if name in drawn:
            key = ("view", shared) if name in _BY_VIEW else (seat, keys.get(name))
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
) -> tuple[dict[str, Any], dict[str, Any], tuple[bool, bool, str | None]]:
    """The frame's members that change with every message, the drawn ones (kept per
    position), whether the seat is to move and may choose, and the sentence its moves'
    words share (:func:`~taut.server.play.wire.words_like`)."""
    view = pictures.view(table, seat)
    phase = table.phase
    acting = [s for s in view.acting_seats() if s != CHANCE_SEAT]
    mine = seat is not None and seat in acting and phase in ("play", "commit")
    listed = mine and seat not in table.commits
    parts = pictures.drawn(table, view, seat, mine, listed, want)
    legal: list[str] = parts["legal"]
    revealing = phase == "reveal" and seat is not None and seat in acting
    outcome = view.outcome
    # Where a move is an answer (a learning game), listing them would give it away.
    hidden = table.plugin.hides_moves(table.game)
    drawn: dict[str, Any] = {
        **{n: parts[n] for n in ("board", "board_narrow") if n in parts},
        "text": parts["text"],
        "status": parts["status"],
        "help": parts["help"],
        "result": parts["result"],
        "legal": [] if hidden else legal[:LEGAL_LISTED],
        # The same moves, each with its notation (what a person types) and its words.
        "moves": []
        if hidden
        else [
            {"notation": n, "words": w}
            for n, w in zip(legal[:LEGAL_LISTED], parts["words"], strict=True)
        ],
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
        **table_part(table, view, seat),
    }
    return frame, drawn, (mine, listed, None if hidden else parts["like"])


def table_part(table: GameTable, view: State, seat: int | None) -> dict[str, Any]:
    """What happens at the table: the seated players' chat (never shown to spectators), the
    open offer, and what this seat may offer now (read from its view)."""
    over = view.is_terminal()
    draws = False
    if not over and seat is not None:
        try:
            view.end_by_agreement()
            draws = True
        except TautError:
            draws = False
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


def _legal(view: State, seat: int) -> list[str]:
    return [view.action_to_string(seat, a) for a in view.legal_actions(seat)]
