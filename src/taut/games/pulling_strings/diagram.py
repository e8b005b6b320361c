"""Text diagrams of Pulling Strings positions, drawn and read back.

The layout puts the end letters around the 5x5 grid (top, right, bottom, left), marks
empty homes with ``X`` and ``O``, empty intersections with ``.`` and stacks with their
disk count. A broken end shows as a blank. When a stack holds ten or more disks every cell
widens so the columns stay aligned::

      a b c d e
    y . X . O . f
    x O . . . X g
    w . . 5 . . h
    v X . . . O i
    t . O . X . l
      s r o n m

:func:`parse` reads such a diagram back into a position, so positions can be written in
tests exactly as they are drawn.
"""

from __future__ import annotations

import re

from taut.core.errors import PositionError
from taut.games.pulling_strings.board import CLASSIC_LETTERS, HOME_CELLS, SIZE
from taut.games.pulling_strings.rules import PullingStrings, PullingStringsState

_HOME_GLYPH = {c: "X" for c in HOME_CELLS[0]} | {c: "O" for c in HOME_CELLS[1]}
# Ends in the order they appear: top (N), right (E), bottom (S), left (W).
_N, _E, _S, _W = 0, 5, 10, 15


def render(state: PullingStringsState) -> str:
    """The diagram of ``state`` (no trailing spaces)."""
    game = state.game
    broken = state.broken
    stacks = state.stacks
    width = max([1, *(len(str(n)) for n in stacks.values())])

    def letter(end: int) -> str:
        return " " if broken >> end & 1 else game.letters[end]

    def cell(c: int) -> str:
        n = stacks.get(c)
        return (str(n) if n else _HOME_GLYPH.get(c, ".")).rjust(width)

    def edge_line(base: int) -> str:
        return ("  " + " ".join(letter(base + i).rjust(width) for i in range(SIZE))).rstrip()

    lines = [edge_line(_N)]
    for r in range(SIZE):
        cells = " ".join(cell(r * SIZE + c) for c in range(SIZE))
        lines.append(f"{letter(_W + r)} {cells} {letter(_E + r)}".rstrip())
    lines.append(edge_line(_S))
    return "\n".join(lines)


def _cell_width(row_line: str) -> int:
    tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", row_line)]
    cells = tokens[1:6] if row_line[:1].strip() else tokens[:5]
    for width in (1, 2, 3):
        if len(cells) == 5 and all(
            end == 2 + j * (width + 1) + width for j, (_, end) in enumerate(cells)
        ):
            return width
    raise PositionError(f"cannot read the cells of diagram row {row_line!r}")


def parse(text: str, game: PullingStrings | None = None, turn: int = 0) -> PullingStringsState:
    """Read a diagram drawn by :func:`render` (or by hand in the same layout).

    Without ``game`` the edition is taken from the letters: the classic letters give a
    classic game; otherwise a published game with the letters read from the diagram (then
    no end may be blank). Raises :class:`PositionError` naming the problem.
    """
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    if len(lines) != SIZE + 2:
        raise PositionError(
            f"a diagram has 7 non-blank lines (letters, 5 rows, letters); got {len(lines)}"
        )
    width = _cell_width(lines[1])
    letters: dict[int, str] = {}

    def read_edge(line: str, base: int) -> None:
        for m in re.finditer(r"\S", line):
            pos = m.start() - 2 - (width - 1)
            j, rem = divmod(pos, width + 1)
            if rem or not 0 <= j < SIZE:
                raise PositionError(f"letter {m.group()!r} in {line!r} is not above/below a column")
            letters[base + j] = m.group()

    read_edge(lines[0], _N)
    read_edge(lines[-1], _S)
    stacks: dict[int, int] = {}
    for r, line in enumerate(lines[1:-1]):
        if _cell_width(line) != width:
            raise PositionError(f"row {r} of the diagram is not aligned with row 0")
        if line[:1].strip():
            letters[_W + r] = line[0]
        for j in range(SIZE):
            start = 2 + j * (width + 1)
            tok = line[start : start + width].strip()
            cellno = r * SIZE + j
            if tok.isdigit():
                if int(tok) < 1:
                    raise PositionError(f"row {r}, column {j}: a stack holds at least 1 disk")
                stacks[cellno] = int(tok)
            elif tok != _HOME_GLYPH.get(cellno, "."):
                want = _HOME_GLYPH.get(cellno, ".")
                raise PositionError(
                    f"row {r}, column {j}: expected {want!r} or a count, got {tok!r}"
                )
        east = line[2 + SIZE * (width + 1) :].strip()
        if east:
            letters[_E + r] = east
    if game is None:
        if all(letters.get(e, CLASSIC_LETTERS[e]) == CLASSIC_LETTERS[e] for e in range(4 * SIZE)):
            game = PullingStrings()
        elif len(letters) == 4 * SIZE:
            game = PullingStrings(
                edition="published", letters="".join(letters[e].upper() for e in range(4 * SIZE))
            )
        else:
            raise PositionError(
                "the letters are not the classic ones, and a published diagram with blank "
                "(broken) ends needs its game given"
            )
    broken = 0
    for end in range(4 * SIZE):
        seen = letters.get(end)
        if seen is None:
            broken |= 1 << end
        elif seen.lower() != game.letters[end].lower():
            raise PositionError(
                f"end {end} shows {seen!r} but this game has {game.letters[end]!r} there"
            )
    return PullingStringsState(game, stacks, broken, turn)
