"""Track Tiles in words: what the coin, a roll or a placement did, and help for a move.

Every sentence here is public: the whole game is open to both players.
"""

from __future__ import annotations

from collections.abc import Mapping

from taut.core.terms import CHANCE_SEAT
from taut.games.tracks.cells import SEATS, cell_name
from taut.games.tracks.render import kind_picture
from taut.games.tracks.rules import TracksState
from taut.games.tracks.tiles import roll_to_kind


def chance_line(before: TracksState, outcome: int) -> str:
    """The coin (``The coin says NS places first.``) or a roll (``NS rolls 4: kind 2.``)."""
    if before.first is None:
        return f"The coin says {SEATS[outcome]} places first."
    seat = before.rolling_seat()
    who = SEATS[seat] if seat is not None else "?"
    face = outcome + 1
    return f"{who} rolls {face}: kind {roll_to_kind(face)}."


def placement_title(before: TracksState, seat: int, cell: int, face: int | None = None) -> str:
    """A placement without the full stop, as a rule's title: ``NS places kind 2 on c3``;
    with the die ``face`` that gave the tile, ``NS rolls 4 and places kind 2 on c3``."""
    return placement_words(before.game.size, seat, before.kinds[seat], cell, face)


def placement_words(size: int, seat: int, kind: int, cell: int, face: int | None = None) -> str:
    """:func:`placement_title` from what it depends on: the board's size, the seat, the kind
    in its hand and the cell (and the die ``face`` that gave the tile)."""
    rolled = "" if face is None else f"rolls {face} and "
    return f"{SEATS[seat]} {rolled}places kind {kind} on {cell_name(size, cell)}"


def describe(before: TracksState, joint: Mapping[int, int]) -> list[str]:
    """One sentence on what the node from ``before`` did (a chance outcome or a placement)."""
    if CHANCE_SEAT in joint:
        return [chance_line(before, joint[CHANCE_SEAT])]
    seat, cell = next(iter(joint.items()))
    return [placement_title(before, seat, cell) + "."]


def move_help(state: TracksState, seat: int) -> str:
    """What ``help`` prints at a placement: the tile in hand, how to name a cell and the
    empty cells (the table adds the prompt's own commands)."""
    kind = state.kinds[seat]
    cells = " ".join(state.action_to_string(seat, a) for a in state.legal_actions(seat))
    return (
        f"{SEATS[seat]} places kind {kind} {kind_picture(kind)} on an empty cell: a column "
        "letter and a row number, e.g. c3.\n"
        f"Legal: {cells or '(none)'}"
    )


def move_words(state: TracksState, seat: int, cell: int) -> str:
    """A placement offered to ``seat``, as the narration says it: ``NS places kind 2 on c3``."""
    return placement_title(state, seat, cell)
