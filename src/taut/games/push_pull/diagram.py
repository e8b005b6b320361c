"""Text pictures of Push-Pull positions.

The duel strip, positions 0..4 from West to East, with the pieces on each square::

    West  .    .   LMS   .    .   East
          0    1    2    3    4
    Scored: West -, East -

The four-sided board, rows 0..4 from north and columns 0..4 from west::

                North
           0    1    2    3    4
      0    .    .    .    .    .
      1    .    .    .    .    .
    W 2    .    .   LMS   .    .   E
      3    .    .    .    .    .
      4    .    .    .    .    .
                South
    Scored: N -, E -, S -, W -
"""

from __future__ import annotations

from taut.games.push_pull.arrows import SIDE_TITLES
from taut.games.push_pull.board import EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import PIECES

_CELL = 5


def _cells(state: PushPullState) -> dict[int, str]:
    cells: dict[int, str] = {}
    for p, loc in enumerate(state.locs):
        if loc < OFF:
            cells[loc] = cells.get(loc, "") + PIECES[p]
    return cells


def scored_line(state: PushPullState) -> str:
    """``Scored: West L, East -`` (a team's pieces carry the side or corner they left by)."""
    lay = state.game.layout
    team_game = any(len(seats) > 1 for seats in lay.unit_seats) or len(lay.seat_sides[0]) > 1
    parts = []
    for u, unit in enumerate(lay.units):
        pieces = []
        for p, loc in enumerate(state.locs):
            if loc >= OFF and lay.exit_unit(loc - OFF) == u:
                pieces.append(f"{PIECES[p]}({EXIT_NAMES[loc - OFF]})" if team_game else PIECES[p])
        name = lay.seat_titles[u] if lay.variant == "duel" else unit
        parts.append(f"{name} {' '.join(pieces) or '-'}")
    return "Scored: " + ", ".join(parts)


def render(state: PushPullState) -> str:
    """The picture of ``state`` (no trailing spaces)."""
    lay = state.game.layout
    cells = _cells(state)
    numbers = "".join(str(c).center(_CELL) for c in range(SIZE))
    if lay.rows == 1:
        strip = "".join(cells.get(c, ".").center(_CELL) for c in range(SIZE))
        lines = [f"West {strip} East", f"     {numbers}"]
    else:
        width = _CELL * SIZE
        lines = [f"      {SIDE_TITLES[0].center(width)}".rstrip(), f"      {numbers}".rstrip()]
        for r in range(SIZE):
            row = "".join(cells.get(r * SIZE + c, ".").center(_CELL) for c in range(SIZE))
            left, right = ("W", "E") if r == SIZE // 2 else (" ", "")
            lines.append(f"{left}   {r} {row} {right}".rstrip())
        lines.append(f"      {SIDE_TITLES[2].center(width)}".rstrip())
    lines.append(scored_line(state))
    return "\n".join(line.rstrip() for line in lines)
