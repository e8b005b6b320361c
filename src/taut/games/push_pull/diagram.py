"""Text pictures of Push-Pull positions, plain or coloured with Rich markup.

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

In colour (Okabe-Ito, safe for colour-blind readers) each piece has its own colour
wherever it appears, and each scoring unit colours its sides' names and its score; the
text is the same without colour.
"""

from __future__ import annotations

from taut.games.push_pull.arrows import SIDE_TITLES, E, N, S, W
from taut.games.push_pull.board import EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import PIECES, Layout

_CELL = 5

#: Colour of each piece L, M, S: reddish purple, sky blue, yellow.
PIECE_COLOURS: tuple[str, ...] = ("#CC79A7", "#56B4E9", "#F0E442")
#: Colour and its name for each side's player: blue West and vermillion East (the duel's
#: two ends), orange North and bluish green South.
SIDE_COLOURS: dict[int, tuple[str, str]] = {
    N: ("#E69F00", "orange"),
    E: ("#D55E00", "vermillion"),
    S: ("#009E73", "bluish green"),
    W: ("#0072B2", "blue"),
}


def unit_colour(lay: Layout, unit: int) -> tuple[str, str]:
    """The colour (hex, name) of a scoring unit: its side's, or for a team, that of its
    west or east side (every team of adjacent sides holds exactly one of them)."""
    sides = [side for side, u in lay.side_unit.items() if u == unit]
    if len(sides) == 1:
        return SIDE_COLOURS[sides[0]]
    return SIDE_COLOURS[W if W in sides else E]


def _paint(text: str, colour: str, markup: bool) -> str:
    return f"[bold {colour}]{text}[/]" if markup else text


def _side(lay: Layout, side: int, text: str, markup: bool) -> str:
    """A side's label in its unit's colour."""
    return _paint(text, unit_colour(lay, lay.side_unit[side])[0], markup)


def _pieces(letters: str, markup: bool) -> str:
    return "".join(_paint(ch, PIECE_COLOURS[PIECES.index(ch)], markup) for ch in letters)


def _cells(state: PushPullState) -> dict[int, str]:
    cells: dict[int, str] = {}
    for p, loc in enumerate(state.locs):
        if loc < OFF:
            cells[loc] = cells.get(loc, "") + PIECES[p]
    return cells


def _cell(letters: str, markup: bool) -> str:
    """A square ``_CELL`` wide: its pieces (or ``.``) centred as in the plain picture."""
    plain = (letters or ".").center(_CELL)
    if not letters or not markup:
        return plain
    lead = len(plain) - len(plain.lstrip())
    trail = len(plain) - lead - len(letters)
    return " " * lead + _pieces(letters, markup) + " " * trail


def scored_line(state: PushPullState, markup: bool = False) -> str:
    """``Scored: West L, East -`` (a team's pieces carry the side or corner they left by)."""
    lay = state.game.layout
    team_game = any(len(seats) > 1 for seats in lay.unit_seats) or len(lay.seat_sides[0]) > 1
    parts = []
    for u, unit in enumerate(lay.units):
        pieces = []
        for p, loc in enumerate(state.locs):
            if loc >= OFF and lay.exit_unit(loc - OFF) == u:
                letter = _pieces(PIECES[p], markup)
                pieces.append(f"{letter}({EXIT_NAMES[loc - OFF]})" if team_game else letter)
        name = lay.seat_titles[u] if lay.variant == "duel" else unit
        parts.append(f"{_paint(name, unit_colour(lay, u)[0], markup)} {' '.join(pieces) or '-'}")
    return "Scored: " + ", ".join(parts)


def _strip(state: PushPullState, markup: bool) -> list[str]:
    lay = state.game.layout
    cells = _cells(state)
    numbers = "".join(str(c).center(_CELL) for c in range(SIZE))
    strip = "".join(_cell(cells.get(c, ""), markup) for c in range(SIZE))
    west, east = _side(lay, W, "West", markup), _side(lay, E, "East", markup)
    return [f"{west} {strip} {east}", f"     {numbers}"]


def _board(state: PushPullState, markup: bool) -> list[str]:
    lay = state.game.layout
    cells = _cells(state)
    width = _CELL * SIZE
    numbers = "".join(str(c).center(_CELL) for c in range(SIZE))

    def title(side: int) -> str:
        plain = SIDE_TITLES[side].center(width).rstrip()
        lead = len(plain) - len(plain.lstrip())
        return "      " + " " * lead + _side(lay, side, SIDE_TITLES[side], markup)

    lines = [title(N), f"      {numbers}".rstrip()]
    for r in range(SIZE):
        row = "".join(_cell(cells.get(r * SIZE + c, ""), markup) for c in range(SIZE))
        if r == SIZE // 2:
            left, right = _side(lay, W, "W", markup), _side(lay, E, "E", markup)
        else:
            left, right = " ", ""
        lines.append(f"{left}   {r} {row} {right}")
    lines.append(title(S))
    return lines


def render(state: PushPullState, markup: bool = False) -> str:
    """The picture of ``state`` (no trailing spaces); with ``markup``, coloured with Rich
    markup, the same text once the markup is taken away."""
    lay = state.game.layout
    lines = _strip(state, markup) if lay.rows == 1 else _board(state, markup)
    lines.append(scored_line(state, markup))
    return "\n".join(line.rstrip() for line in lines)
