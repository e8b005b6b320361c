"""The Tug of War state as the protocol sees it: the model and its moves, with notation,
JSON and views.

:class:`TugState` is the class of every state and view of a game (``game.new_initial_state``,
``game.state_from_json``). Its fields, derived facts, legal actions and chance are in
:mod:`.model`, its moves in :mod:`.transitions`; this class adds what the protocol reads
from the modules above the model: :mod:`.notation`, :mod:`.position` and :mod:`.view`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

import taut.games.tug_of_war.notation as notation
from taut.core.terms import JSON
from taut.games.tug_of_war.model import (
    BONUS,
    DEAL,
    DRAWING,
    DRAWN,
    OVER,
    PHASES,
    TURN,
    Bonus,
    Line,
)
from taut.games.tug_of_war.position import read_state, state_to_json
from taut.games.tug_of_war.transitions import TugTransitions
from taut.games.tug_of_war.view import make_view

if TYPE_CHECKING:  # annotations only: the rules import this module
    from taut.games.tug_of_war.rules import TugOfWar

__all__ = [
    "BONUS",
    "DEAL",
    "DRAWING",
    "DRAWN",
    "OVER",
    "PHASES",
    "TURN",
    "Bonus",
    "Line",
    "TugState",
]


class TugState(TugTransitions):
    """A Tug of War position (or a seat's view of one). Fields are read-only by contract."""

    __slots__ = ()

    @classmethod
    def from_json(cls, game: TugOfWar, data: JSON) -> Self:
        """Rebuild a state or a view from :meth:`to_json` (PositionError when malformed)."""
        return read_state(cls, game, data)

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain why ``action`` is not allowed for ``seat`` here."""
        return notation.explain_illegal(self, seat, action)

    # -- chance ---------------------------------------------------------------------------

    def is_chance_outcome(self, outcome: int) -> bool:
        """At a deal or draw of the full state: a tile in the stock, oriented as
        :meth:`chance_outcomes` offers it (either way round for a starter, low half first
        otherwise), found without listing them; a view's as the list says."""
        if self.is_view:
            return super().is_chance_outcome(outcome)
        if self.phase != DEAL and self.phase != DRAWING:
            return False
        ds = self.game.dominoes
        if not 0 <= outcome < ds.num_oriented:
            return False
        try:
            tile = ds.index(*ds.unorient(outcome))
        except KeyError:  # halves that make no tile of the set
            return False
        assert self.stock is not None
        if tile not in self.stock:
            return False
        return self.is_starter_deal() or outcome == ds.canonical[tile]

    # -- notation -------------------------------------------------------------------------

    def action_to_string(self, seat: int, action: int) -> str:
        """The action in Tug of War notation (``3-5@1.0``, ``draw``, ``-12@2``, ...)."""
        return notation.action_to_string(self, seat, action)

    def _moves_read(self) -> dict[tuple[int, str], int]:
        """The moves read at this position so far, by seat and notation (made on first use)."""
        said = self._said
        if said is None:
            said = self._said = {}
        return said

    def legal_action_strings(self, seat: int) -> list[str]:
        """Every legal move in notation; each is then read back (:meth:`string_to_action`)
        from what was written here, without parsing: the server lists the moves, then reads
        them back to say them in words and to draw their places."""
        said = self._moves_read()
        texts = []
        for action in self.legal_actions(seat):
            text = notation.action_to_string(self, seat, action)
            said.setdefault((seat, text), action)
            texts.append(text)
        return texts

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse notation; raises MalformedActionError naming what is allowed. (Read once
        per position, seat and text: the position is a value.)"""
        said = self._moves_read()
        found = said.get((seat, text))
        if found is None:
            found = said[(seat, text)] = notation.string_to_action(self, seat, text)
        return found

    def action_to_json(self, seat: int, action: int) -> JSON:
        """The action as an object, e.g. ``{"type": "play", "tile": [3, 5], ...}``."""
        return notation.action_to_json(self, seat, action)

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Inverse of :meth:`action_to_json` (also accepts a notation string)."""
        return notation.action_from_json(self, seat, data)

    # -- information ----------------------------------------------------------------------

    def view(self, seat: int | None) -> Self:
        """What ``seat`` may know (None: a spectator); see :mod:`.view`."""
        return make_view(self, seat)

    def to_json(self) -> JSON:
        """The state (or view) as JSON; a view's JSON holds no hidden tile."""
        return state_to_json(self)
