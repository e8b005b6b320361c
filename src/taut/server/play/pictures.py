"""What frames draw from the position, kept while the position stays the same.

:class:`Pictures` keeps each seat's drawings of the current position (the board, in the
layouts its clients draw, the text, the status, the legal moves and their words), so that
they are made once per position and seat, whatever the number of clients, and each is kept
as JSON text too. :mod:`taut.server.play.frames` builds every frame from them.
"""

from __future__ import annotations

from typing import Any

from taut.core.errors import TautError
from taut.core.forfeit import drawable
from taut.core.game import State
from taut.core.plugin import GamePlugin
from taut.server.play.clients import as_text
from taut.server.play.table import GameTable
from taut.server.play.wire import fitting, touch_width, words_like

#: Legal moves listed in a frame at most (a two-sided choice can have 15,625).
LEGAL_LISTED = 500


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
        self._draws: dict[int | None, bool] = {}
        self._encoded: dict[tuple[str, Any], str] = {}
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
        if self._titles is None:
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
            self._draws.clear()
            self._encoded.clear()
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
        return fitting(room, self.touch)

    def drawn(
        self,
        table: GameTable,
        view: State,
        seat: int | None,
        mine: bool,
        listed: bool,
        want: str | None = None,
        text: bool = True,
        drawing: bool = False,
    ) -> dict[str, Any]:
        """The parts of the frame drawn from ``view`` (call :meth:`view` first); of the two
        pictures of a game that draws one for a narrow screen, only ``want`` where that is
        given (:meth:`wanted`): the other is drawn once some client needs it. The position
        as text only with ``text`` (no client of the seat shows it otherwise). With
        ``drawing`` (every client of the seat draws the table itself), a game that gives its
        table's data (:meth:`~taut.core.plugin.GamePlugin.table`) is sent that in place of
        its pictures."""
        plugin = table.plugin
        board = self._boards.get((seat, listed))
        if board is None:
            legal = view.legal_action_strings(seat) if listed and seat is not None else []
            board = self._boards[(seat, listed)] = {
                "legal": legal,
                # Each listed move said in the game's words, for the people choosing.
                # (A game over lists none: a forfeit's wrapper is no position of the game's.)
                "words": plugin.describe_moves(drawable(view), seat, legal[:LEGAL_LISTED])
                if seat is not None and legal
                else [],
                "drawn": {},
            }
            board["like"] = words_like(legal[:LEGAL_LISTED], board["words"])
            # The same moves, each with its notation (what a person types) and its words.
            board["moves"] = [
                {"notation": n, "words": w}
                for n, w in zip(legal[:LEGAL_LISTED], board["words"], strict=True)
            ]
        names = ("board", "board_narrow") if want is None else (want,)
        data = self._table(plugin, view, seat, board) if drawing else None
        if data is not None:
            pictures = {"table": data}
        elif plugin.offers:
            pictures = self._offered_boards(plugin, view, names)
        else:
            pictures = self._draw(plugin, view, seat, board["legal"], board["drawn"], names)
        # The text, status and result take no seat: seats whose view is the same object
        # (a game without hidden information) share them.
        found = self._texts.get(id(view))
        if found is not None and found[0] is view:
            texts = found[1]
        else:
            texts = {"status": plugin.status(drawable(view)), "result": result_line(view)}
            self._texts[id(view)] = (view, texts)
        shown = {"status": texts["status"], "result": texts["result"]}
        if text:
            if "text" not in texts:
                texts["text"] = plugin.render(drawable(view))
            shown["text"] = texts["text"]
        helps = None
        if mine and seat is not None:
            if seat not in self._helps:
                self._helps[seat] = plugin.move_help(drawable(view), seat)
            helps = self._helps[seat]
        return {
            "legal": board["legal"],
            "words": board["words"],
            "moves": board["moves"],
            "like": board["like"],
            **pictures,
            **shown,
            "help": helps,
        }

    def may_draw(self, view: State, seat: int | None) -> bool:
        """Whether ``seat`` may offer a draw in ``view`` (its view; call :meth:`view`
        first): the game can end there by agreement. Found once per position and seat."""
        found = self._draws.get(seat)
        if found is None:
            found = False
            if seat is not None and not view.is_terminal():
                try:
                    view.end_by_agreement()
                    found = True
                except TautError:
                    found = False
            self._draws[seat] = found
        return found

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

    def _table(
        self, plugin: GamePlugin, view: State, seat: int | None, board: dict[str, Any]
    ) -> Any:
        """The data the page draws the table of ``view`` from, for ``seat`` with the moves
        of ``board`` offered, made once (kept in ``board``; once a view where the page
        offers the moves, as those pictures are); None where the game has none."""
        if plugin.table_drawing is None:
            return None
        if plugin.offers:
            into, seat, legal = self._offered_for(view), None, []
        else:
            into, legal = board["drawn"], board["legal"]
        if "table" not in into:
            into["table"] = plugin.table(drawable(view), seat, legal)
        return into["table"]

    def _offered_boards(
        self, plugin: GamePlugin, view: State, names: tuple[str, ...]
    ) -> dict[str, str]:
        """The pictures ``names`` of ``view`` with no moves offered, drawn once a view: every
        seat that sees it, whatever its turn, is sent the same (the page offers the legal
        moves)."""
        return self._draw(plugin, view, None, [], self._offered_for(view), names)

    def _offered_for(self, view: State) -> dict[str, Any]:
        """What is drawn of ``view`` with no moves offered, kept once a view."""
        found = self._offered.get(id(view))
        if found is None or found[0] is not view:
            found = self._offered[id(view)] = (view, {})
        return found[1]

    def encoded(self, member: str, key: Any, value: Any) -> str:
        """``value`` (the member ``member`` of a frame drawn under ``key``) as JSON text,
        encoded once per position."""
        text = self._encoded.get((member, key))
        if text is None:
            # (A picture is not encoded here: it is encoded where it is sent whole, once
            # whatever the seats it is sent to; see wire.encoded.)
            text = self._encoded[(member, key)] = as_text(value)
        return text


def boards(plugin: GamePlugin, view: State, seat: int | None, legal: list[str]) -> dict[str, str]:
    """The pictures of ``view`` that a page chooses from: ``board``, and ``board_narrow``
    where the game lays the position out apart for a narrow screen (a phone; see
    :meth:`~taut.core.plugin.GamePlugin.svg_narrow`). ``view`` is drawable."""
    out = {"board": plugin.svg(view, seat, legal)}
    narrow = plugin.svg_narrow(view, seat, legal)
    if narrow is not None:
        out["board_narrow"] = narrow
    return out
