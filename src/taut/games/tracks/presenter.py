"""Track Tiles at a terminal: a rule naming each placement, and the board once a turn.

The board is drawn when somebody at the terminal has to look at it: before a person places
(after the computer's reply, or after the roll that gives the person a tile) and at the
end. So after a person's placement and the computer's reply the screen holds two rules
and one board, which fits 80x24 for boards up to 6x6 (under ``roll=each`` too); larger
boards are drawn compact (see :mod:`taut.games.tracks.screen`). With
nobody at the terminal the board follows every placement; with several people sharing it,
each is shown the board before choosing (:meth:`Presenter.screen`).

Under ``roll=each`` a computer's roll is told in the title of the placement it leads to
(``WE rolls 4 and places kind 2 on e1``); a person's roll has its own line, before the
board. The result is printed by the table, once, under the last board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taut.core.game import Game, State
from taut.core.plugin import GamePlugin
from taut.core.presenter import Block, Presenter, Rule, escape
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.games.tracks.narrate import chance_line, placement_title
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.screen import fits_full_art, render_screen

#: What ``intro`` is told a person's seat is played by.
HUMAN = "human"


def _ts(state: State) -> TracksState:
    assert isinstance(state, TracksState)
    return state


def turn_lines(game: Tracks) -> int:
    """Lines besides the board between two prompts of one person playing the computer:
    two placement rules, and under ``roll=each`` the line of the person's roll."""
    return 2 + (1 if game.roll_each else 0)


class TracksPresenter(Presenter):
    """Placements as rules, rolls as lines, the board once a turn."""

    def __init__(self, plugin: GamePlugin, game: Game) -> None:
        super().__init__(plugin, game)
        assert isinstance(game, Tracks)
        #: Whether boards are drawn compact (the full art would not leave room for a turn).
        self.compact = not fits_full_art(game.size, turn_lines(game))
        #: The seats people play (None until known: from ``intro``, else from the viewer).
        self.humans: frozenset[int] | None = None
        self._roll_each = game.roll_each
        # The die face of a computer's roll, waiting for the placement it leads to.
        self._face: int | None = None
        # Whether the last ``after`` ended with the board (a shared screen shows it again).
        self._board_shown = False

    def intro(self, seats: Sequence[str]) -> list[Block]:
        """The legend and the seats (the first board follows the opening rolls)."""
        self.humans = frozenset(i for i, spec in enumerate(seats) if spec == HUMAN)
        return super().intro(seats)

    def board(self, view: State) -> str:
        """The board with the tiles in hand beside it (compact on large boards)."""
        return render_screen(_ts(view), markup=True, compact=self.compact)

    def redraw(self, before: State, joint: Mapping[int, int], after: State) -> bool:
        """At the end; before a person places when one person plays; after every placement
        when nobody does (with several people, :meth:`screen` draws it for each)."""
        if after.is_terminal():
            return True
        humans = self.humans or frozenset()
        if not humans:
            return CHANCE_SEAT not in joint
        if len(humans) > 1 or after.kind is not NodeKind.DECISION:
            return False
        return _ts(after).to_move() in humans

    def after(
        self, before: State, joint: Mapping[int, int], after: State, viewer: int | None
    ) -> list[Block]:
        """A placement: a rule (``NS places kind 2 on c3``). A coin or a roll: its line, or
        for a computer's roll under ``roll=each`` nothing yet (its placement's rule tells
        it). Then the board where :meth:`redraw` says."""
        if self.humans is None and viewer is not None:
            self.humans = frozenset({viewer})
        b = _ts(before)
        out: list[Block] = []
        if CHANCE_SEAT in joint:
            outcome = joint[CHANCE_SEAT]
            if self._tell_with_placement(b, after):
                self._face = outcome + 1
            else:
                out.append(escape(chance_line(b, outcome)))
        else:
            self.turns += 1
            seat, cell = next(iter(joint.items()))
            out.append(Rule(placement_title(b, seat, cell, self._face)))
            self._face = None
        self._board_shown = self.redraw(before, joint, after)
        if self._board_shown:
            out.append(self.board(after.view(viewer)))
        return out

    def _tell_with_placement(self, before: TracksState, after: State) -> bool:
        """Whether a roll is told in the title of the placement that follows it: a roll
        under ``roll=each`` made for a seat no person plays."""
        if not self._roll_each or before.first is None or after.kind is not NodeKind.DECISION:
            return False
        return _ts(after).to_move() not in (self.humans or frozenset())

    def screen(self, view: State, seat: int) -> list[Block]:
        """The board before a person's choice on a shared screen, unless the account of
        the last turn shown just before it ends with the board already."""
        return [] if self._board_shown else [self.board(view)]
