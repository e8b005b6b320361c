"""What each client is told: every message is built from that client's view of the game.

:func:`state_frame` is the one place a game's position becomes a message. It reads
``table.state.view(seat)`` (``seat`` None: a spectator) and nothing else of the position:
the picture, the text, the legal moves and the status all come from that view, and the
rest is public (who sits where, who has committed, the narrated log, the result). The
tests prove it: frames built from any full state consistent with a view are the same.

Drawing is the costly part of a frame, and most messages change no position (a commitment,
a reveal, a name): :class:`Pictures` keeps each seat's drawings of the current position,
so that they are made once per position and seat, whatever the number of clients.
"""

from __future__ import annotations

import time
from typing import Any

from taut.core.errors import TautError
from taut.core.forfeit import drawable
from taut.core.game import CHANCE_SEAT, State
from taut.server.table import GameTable

#: Legal moves listed in a frame at most (a two-sided choice can have 15,625).
LEGAL_LISTED = 500


def seat_list(table: GameTable) -> list[dict[str, Any]]:
    """Public facts about every seat."""
    game = table.game
    out = []
    for i, seat in enumerate(table.seats):
        out.append(
            {
                "seat": game.info.seats[i],
                "title": table.plugin.seat_title(game, i),
                "kind": seat.kind,
                "agent": seat.agent,
                "name": seat.name,
            }
        )
    return out


class Pictures:
    """What frames draw from the position (the seat's view, its legal moves and their words,
    the board, the text, the status, the help, the result), per seat, kept while the position
    stays the same: a commitment or a reveal redraws nothing, and the clients at one seat share
    one drawing. Held by the hub per game; a new position clears it."""

    def __init__(self) -> None:
        self._state: State | None = None
        self._views: dict[int | None, State] = {}
        self._drawn: dict[tuple[int | None, bool, bool], dict[str, Any]] = {}

    def view(self, table: GameTable, seat: int | None) -> State:
        """``table.state.view(seat)``, computed once per position."""
        if self._state is not table.state:
            # States are values: a new position is a new object (kept here, so its id
            # cannot be reused while this cache holds it).
            self._state = table.state
            self._views.clear()
            self._drawn.clear()
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = table.state.view(seat)
        return view

    def drawn(
        self, table: GameTable, view: State, seat: int | None, mine: bool, listed: bool
    ) -> dict[str, Any]:
        """The parts of the frame drawn from ``view`` (call :meth:`view` first)."""
        key = (seat, mine, listed)
        parts = self._drawn.get(key)
        if parts is None:
            plugin = table.plugin
            legal = _legal(view, seat) if listed and seat is not None else []
            board = drawable(view)
            parts = self._drawn[key] = {
                "legal": legal,
                # Each listed move said in the game's words, for the people choosing.
                "words": [plugin.describe_move(view, seat, m) for m in legal[:LEGAL_LISTED]]
                if seat is not None
                else [],
                "board": plugin.svg(board, seat, legal),
                "text": plugin.render(board),
                "status": plugin.status(board),
                "help": plugin.move_help(board, seat) if mine and seat is not None else None,
                "result": None if view.outcome is None else view.describe_outcome(),
            }
        return parts


def state_frame(
    table: GameTable, seat: int | None, pictures: Pictures | None = None, now: float | None = None
) -> dict[str, Any]:
    """The ``state`` message for a client at ``seat`` (None: a spectator); ``pictures``
    keeps what was drawn for this position before; ``now``: the time the clocks are read
    at (None: the time now)."""
    pictures = pictures if pictures is not None else Pictures()
    view = pictures.view(table, seat)
    phase = table.phase
    acting = [s for s in view.acting_seats() if s != CHANCE_SEAT]
    mine = seat is not None and seat in acting and phase in ("play", "commit")
    drawn = pictures.drawn(table, view, seat, mine, mine and seat not in table.commits)
    legal: list[str] = drawn["legal"]
    revealing = phase == "reveal" and seat is not None and seat in acting
    outcome = view.outcome
    # Where a move is an answer (a learning game), listing them would give it away.
    hidden = table.plugin.hides_moves(table.game)
    return {
        "type": "state",
        "seq": table.seq,
        "move": table.node,
        "phase": phase,
        "you": None if seat is None else table.seat_name(seat),
        "acting": [table.seat_name(s) for s in acting],
        "committed": [table.seat_name(s) for s in sorted(table.commits)],
        "revealed": [table.seat_name(s) for s in sorted(table.reveals)],
        "to_reveal": revealing and seat not in table.reveals,
        "legal": [] if hidden else legal[:LEGAL_LISTED],
        # The same moves, each with its notation (what a person types) and its words.
        "moves": []
        if hidden
        else [
            {"notation": n, "words": w}
            for n, w in zip(legal[:LEGAL_LISTED], drawn["words"], strict=True)
        ],
        "legal_count": len(legal),
        "board": drawn["board"],
        "text": drawn["text"],
        "status": drawn["status"],
        "help": drawn["help"],
        "log": list(table.log),
        "result": drawn["result"],
        "winners": None if outcome is None else [table.seat_name(s) for s in outcome.winners],
        "seats": seat_list(table),
        "rematch": table.rematch,
        "deadline": table.config.get("reveal_deadline"),
        "reveal_since": table.reveal_since,
        # Public: per seat the time left, whose clocks run, and the server's time (ms).
        "clock": table.clock_frame(time.time() if now is None else now),
        **table_part(table, view, seat),
    }


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
        "offer": None
        if table.offer is None
        else {k: table.offer[k] for k in ("move", "seat", "what", "accepted")},
        "may_draw": draws,
        "may_take_back": not over and seat is not None and table.takeback_to(seat) is not None,
        "may_resign": not over and seat is not None,
    }


def _legal(view: State, seat: int) -> list[str]:
    return [view.action_to_string(seat, a) for a in view.legal_actions(seat)]
