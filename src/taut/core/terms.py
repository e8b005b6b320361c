"""The protocol's vocabulary, needed before any state exists: the chance seat, the kinds of
node, what a game declares about itself (:class:`GameInfo`) and how games end
(:class:`Termination`, :class:`Outcome`). Nothing here depends on the rest of taut."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

#: The seat id used for nature at chance nodes.
CHANCE_SEAT = -1

JSON = Any
"""A value that ``json.dumps`` accepts."""


class NodeKind(enum.Enum):
    """Who acts at a state."""

    DECISION = "decision"
    SIMULTANEOUS = "simultaneous"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class GameInfo:
    """Metadata a game declares up front, before any state exists."""

    name: str
    """Registry name (lower case, words joined by dashes)."""
    title: str
    """Human title."""
    version: str
    """Rules version; records carry it so old records are recognised."""
    seats: tuple[str, ...]
    """Short seat names; the seat id is the index."""
    simultaneous: bool
    """True when some states are ``SIMULTANEOUS`` nodes."""
    chance: bool
    """True when some states are explicit ``CHANCE`` nodes."""
    perfect_information: bool
    """False when :meth:`State.view` hides something from some seat."""
    num_distinct_actions: int
    """Action ids are ``0 .. num_distinct_actions - 1`` for every seat."""
    num_chance_outcomes: int
    """Chance outcome ids are ``0 .. num_chance_outcomes - 1`` (0 when there is no chance)."""
    min_utility: float
    max_utility: float
    zero_sum: bool
    max_game_length: int | None
    """An upper bound on the number of nodes along a game, or None when unbounded."""

    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return len(self.seats)


@dataclass(frozen=True)
class Termination:
    """Why a game ended, as a typed value rather than free text.

    ``name`` is the short word records and JSON carry (``"home"``, ``"max_turns"``); two
    terminations are equal when their names are. ``text`` says it for people. Each game
    lists its own in :attr:`Game.TERMINATIONS`; the ones every game may meet are
    :data:`AGREEMENT` and :data:`TURN_LIMIT`.
    """

    name: str
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.name


#: Every seat agreed to a draw.
AGREEMENT = Termination("agreement", "drawn by agreement")
#: The ``max_turns`` option's limit was reached: a draw.
TURN_LIMIT = Termination("max_turns", "drawn at the turn limit")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (empty for a draw) and why."""

    winners: tuple[int, ...]
    reason: Termination

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.winners
