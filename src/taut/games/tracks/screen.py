"""The board as the terminal shows it during play, sized so that a whole turn fits a screen.

Column letters are written into the top and bottom frame lines and the row numbers beside
the rows; what :func:`~taut.games.tracks.render.render_state` writes under the board (the
tiles in hand, who is next) stands in a panel to its right. At the end the panel lists the
cells of the winning track (drawn bold in the winner's colour as well, so it can be found
without colour); the result itself is left to the line the table prints after the game.

A board of side ``n`` takes ``3n + 2`` lines, or ``n + 2`` drawn compact;
:func:`fits_full_art` says which form leaves room for the rest of a turn in 80x24.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from taut.games.tracks.cells import SEATS, cell_name, column_letter
from taut.games.tracks.paths import track_traces
from taut.games.tracks.render import (
    NS_STYLE,
    SEAT_STYLES,
    WE_STYLE,
    draw_board,
    hand_lines,
    next_step,
    winning_strands,
)

if TYPE_CHECKING:
    from taut.games.tracks.rules import TracksState

#: The terminal a turn must fit: columns and lines.
SCREEN_WIDTH, SCREEN_LINES = 80, 24
#: Spaces between the board and the panel.
GAP = 3


def board_height(size: int, compact: bool) -> int:
    """Lines of a board of side ``size`` on the screen (the panel adds none)."""
    return (size if compact else 3 * size) + 2


def fits_full_art(size: int, other_lines: int) -> bool:
    """Whether the full art of a ``size`` board, ``other_lines`` more lines and a prompt
    fit in :data:`SCREEN_LINES`."""
    return board_height(size, compact=False) + other_lines + 1 <= SCREEN_LINES


def _track_cells(state: TracksState) -> list[str]:
    """The cells of the winner's tracks in the order the tracks run (each cell once)."""
    out = state.outcome
    if out is None or not out.winners:
        return []
    n = state.game.size
    seen: dict[str, None] = {}
    for t in track_traces(state.board, n, out.winners[0]):
        for cell, _, _ in t.segments:
            seen.setdefault(cell_name(n, cell), None)
    return list(seen)


def panel(state: TracksState, width: int, markup: bool) -> list[str]:
    """The lines beside the board: the tiles in hand and who is next, or at the end the
    last tile and the winning track's cells (wrapped to ``width``)."""
    n = state.game.size
    last = [] if state.last is None else [f"Last tile on {cell_name(n, state.last)}."]
    out = state.outcome
    if out is None:
        return [*hand_lines(state, markup), "", next_step(state), *last]
    cells = _track_cells(state)
    if not cells:
        return last
    winner = out.winners[0]
    name = SEATS[winner] if not markup else f"[{SEAT_STYLES[winner]}]{SEATS[winner]}[/]"
    return [*last, "", f"{name}'s track:", *textwrap.wrap(" ".join(cells), width)]


def render_screen(state: TracksState, markup: bool = True, compact: bool = False) -> str:
    """The board with the panel beside it (see the module docstring)."""
    n = state.game.size
    rows = [str(r + 1) for r in range(n)]
    out = state.outcome
    lit = winning_strands(state)
    style = SEAT_STYLES[out.winners[0]] if out is not None and out.winners else NS_STYLE

    def board(with_markup: bool) -> list[str]:
        return draw_board(
            n,
            state.board,
            left=rows,
            right=rows,
            framed=[column_letter(c) for c in range(n)],
            highlight=lit,
            highlight_style=style,
            markup=with_markup,
            side_styles=(NS_STYLE, WE_STYLE),
            compact=compact,
        )

    plain = board(False)
    lines = board(True) if markup else list(plain)
    start = max(len(line) for line in plain) + GAP
    beside = panel(state, SCREEN_WIDTH - start, markup)
    # The panel starts beside the first row (under the top frame); anything longer than
    # the board goes below it, at the same indent.
    for i, text in enumerate(beside, start=1):
        if not text:
            continue
        if i >= len(lines):
            lines.extend([""] * (i - len(lines) + 1))
            plain.extend([""] * (len(lines) - len(plain)))
        lines[i] += " " * (start - len(plain[i])) + text
    return "\n".join(lines)
