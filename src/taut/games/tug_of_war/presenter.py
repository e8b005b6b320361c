"""Tug of War at a terminal: the moves as they happen, a score sheet after every round, and
the table from a player's seat before they choose.

Moves are announced one line each (a draw never names the tile); the table is not drawn
again after every move, since a player sees it, from their own seat, when it is their turn.
A human's forced moves (a draw, a pass, the keep step, a drawn tile that fits one place
only) are made for them. A play a human typed is announced with the tile as they typed it
(``5-3``), whichever way round it was laid; records keep the tile as laid.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING

from taut.core.game import Game, State
from taut.core.presenter import Block, Presenter, escape
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war.model import BONUS, OVER, ends_round
from taut.games.tug_of_war.notation import typed_tile
from taut.games.tug_of_war.render import describe, render, styled
from taut.games.tug_of_war.rules import TugOfWar
from taut.games.tug_of_war.state import TugState
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:
    from taut.core.plugin import GamePlugin

#: Public lines of recent moves shown above a covered seat's table.
LOG_LINES = 8


def _tug(state: State) -> TugState:
    assert isinstance(state, TugState)
    return state


class ScoreSheet:
    """Scores after every round, with a note on how each round ended."""

    def __init__(self, game: TugOfWar) -> None:
        self.game = game
        #: Per round: its number, the scores and round points after it, and the note.
        self.rows: list[tuple[int, list[int], list[int], str]] = []

    def add(self, before: TugState, after: TugState) -> None:
        """Note the round that ``before -> after`` finished."""
        bonus = before.bonus
        if bonus is not None and before.phase == BONUS:
            how = "blocked, fewest pips" if bonus.blocked else "went out"
            shares = " ".join(
                f"{before.seat_name(s)}{'+' if s == bonus.winner else '-'}{p}"
                for s, p in bonus.allocation().items()
            )
            note = f"{before.seat_name(bonus.winner)} {how}; bonus {bonus.total}: {shares}"
        else:
            note = "blocked, tied on pips: no bonus"
        if after.pool is not None and after.phase != OVER:
            note += f"; tie: extra round for {', '.join(after.seat_name(s) for s in after.pool)}"
        out = [
            s for s in range(self.game.num_players) if before.in_game[s] and not after.in_game[s]
        ]
        if out:
            note += f"; out: {', '.join(after.seat_name(s) for s in out)}"
        self.rows.append((before.round, list(after.scores), list(after.points), note))

    def lines(self) -> list[str]:
        """The sheet as a plain-text table (round points in parentheses with
        ``end=round-points``); no line at all before the first round ends."""
        if not self.rows:
            return []
        rp = self.game.end_rules.end == "round-points"
        head = ["round", *self.game.seat_names, "how the round ended"]
        rows = [
            [
                str(rnd),
                *(f"{s} ({p})" if rp else str(s) for s, p in zip(scores, points, strict=True)),
                note,
            ]
            for rnd, scores, points, note in self.rows
        ]
        widths = [max(len(row[k]) for row in [head, *rows]) for k in range(len(head) - 1)]

        def line(cells: list[str]) -> str:
            numbers = "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=False))
            return f"{numbers}  {cells[-1]}"

        return ["Score sheet:", line(head), *(line(row) for row in rows)]


def you_can(view: TugState) -> str | None:
    """What the seat of ``view`` may do now: its legal moves, or how to give a bonus share."""
    seat = view.viewer
    if seat is not None and seat in view.acting_seats() and view.phase != BONUS:
        legal = view.legal_actions(seat)
        return "You can play: " + " ".join(view.action_to_string(seat, a) for a in legal)
    bonus = view.bonus
    if view.phase == BONUS and bonus is not None and bonus.target is not None:
        left = bonus.remaining
        if not view.game.split_bonus:
            return (
                f"Type keep ({view.seat_name(bonus.winner)} +{left}) or give "
                f"({view.seat_name(bonus.target)} -{left})."
            )
        return (
            f"Type how many points {view.seat_name(bonus.target)} loses (0..{left}), e.g. {left}."
        )
    return None


class TugPresenter(Presenter):
    """The terminal play of one game of Tug of War."""

    def __init__(self, plugin: GamePlugin, game: Game) -> None:
        super().__init__(plugin, game)
        assert isinstance(game, TugOfWar)
        self.sheet = ScoreSheet(game)
        #: The public lines of the last moves.
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        #: The last move a human typed: seat, action, and the tile as typed (for a play).
        self._typed: tuple[int, int, Tile] | None = None

    def entered(self, view: State, seat: int, text: str, action: int) -> None:
        """Note that the human at ``seat`` typed ``text`` for ``action`` (legal at ``view``):
        the announcement of that play tells its tile as typed."""
        tile = typed_tile(text)
        self._typed = None if tile is None else (seat, action, tile)

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """The public line on a node, with a human's tile as they typed it."""
        typed = None
        if self._typed is not None and CHANCE_SEAT not in joint:
            seat, action, tile = self._typed
            typed = tile if dict(joint) == {seat: action} else None
            self._typed = None
        if not joint:
            return []
        line = describe(_tug(before), joint, _tug(after), typed)
        return [] if line is None else [line]

    def redraw(self, before: State, joint: Mapping[int, int], after: State) -> bool:
        """Never: a player sees the table from their seat when it is their turn."""
        return False

    def after(
        self, before: State, joint: Mapping[int, int], after: State, viewer: int | None
    ) -> list[Block]:
        """The public line on the move, and the score sheet when a round has ended."""
        if CHANCE_SEAT not in joint:
            self.turns += 1
        lines = self.narrate(before, joint, after)
        self.log.extend(lines)
        out: list[Block] = [escape(line) for line in lines]
        if ends_round(_tug(before), _tug(after)):
            self.sheet.add(_tug(before), _tug(after))
            out.append(escape("\n".join(self.sheet.lines())))
        return out

    def _table(self, view: State) -> list[str]:
        """The coloured table and the hint on what the seat can play (markup)."""
        tug = _tug(view)
        shown = [render(tug, styled)]
        hint = you_can(tug)
        if hint is not None:
            shown.append(escape(hint))
        return shown

    def prompt(self, view: State, seat: int) -> list[Block]:
        """The table from the seat's view and what it can play."""
        return ["\n".join(self._table(view))]

    def screen(self, view: State, seat: int) -> list[Block]:
        """On a cleared screen: the score sheet, the recent moves, then the table from the
        seat's view and what it can play."""
        parts = [escape(line) for line in self.sheet.lines()]
        if self.log:
            parts.append(escape("Recent moves:\n  " + "\n  ".join(self.log)))
        parts.extend(self._table(view))
        return ["\n".join(parts)]

    def forced(self, view: State, seat: int) -> int | None:
        """The only legal move, when there is just one (a draw, a pass, the keep step, a
        drawn tile that fits one place only); None when the human must choose."""
        legal = view.legal_actions(seat)
        return legal[0] if len(legal) == 1 else None

    def summary(self, final: State) -> list[Block]:
        """The final table, as everybody sees it."""
        return [render(_tug(final.view(None)), styled)]
