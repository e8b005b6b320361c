"""Text diagrams of Pulling Strings positions, drawn and read back.

The layout puts the end letters around the 5x5 grid (top, right, bottom, left), marks
empty homes with the edition's marks (``X`` and ``O`` as in the 2003 figures; the
published edition's square and circle), empty intersections with ``.`` and stacks with
their disk count. A stack on a home keeps the home's mark after its count (``3X``: three
disks on an X home). A broken end shows as a blank. Every cell is as wide as the widest,
so the columns stay aligned::

      a b c d e             a  b     d  e
    y . X . O . f        y  . 3X  .  O  . f
    x O . . . X g        x  O  .  .  .  X g
    w . . 5 . . h        w  .  .  2  .  . h
    v X . . . O i        v  X  .  .  .  O i
    t . O . X . l        t  .  O  .  X  . l
      s r o n m             s  r  o  n  m

With ``markup`` the same layout carries Rich markup: X's homes and the stacks on them in
blue, O's in vermillion (Okabe-Ito colours, safe for colour-blind eyes), stacks elsewhere
bold, empty intersections dim, and a broken end as a dim ``-`` (still unlike a letter
where styles are not shown).

:func:`parse` reads a plain diagram back into a position, so positions can be written in
tests exactly as they are drawn; it also takes a bare count on a home, as the 2003 figures
draw it, and either edition's home marks.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from taut.core.errors import PositionError
from taut.games.pulling_strings.board import CLASSIC_LETTERS, HOME_CELLS, NUM_CELLS, SIZE
from taut.games.pulling_strings.rules import (
    O,
    PullingStrings,
    PullingStringsState,
    RepeatingState,
    X,
)

#: Colours of X's and O's homes and of the stacks on them (Okabe-Ito blue and vermillion).
SEAT_COLOURS = ("#0072B2", "#D55E00")
#: Style of a stack that is on no home.
STACK_STYLE = "bold"
#: Style of an empty intersection.
EMPTY_STYLE = "dim"
#: How a broken end is drawn with markup, and its style (plain diagrams leave it blank).
BROKEN_MARK, BROKEN_STYLE = "-", "dim"

_OWNER = {c: X for c in HOME_CELLS[0]} | {c: O for c in HOME_CELLS[1]}
# The marks parse accepts on the homes of X and of O (both editions').
_MARKS = ("X\u25a1", "O\u25cb")
_CELL = re.compile(r"([0-9]{0,4})(\D?)")  # a stack count, never a page of digits
# Ends in the order they appear: top (N), right (E), bottom (S), left (W).
_N, _E, _S, _W = 0, 5, 10, 15


def _cell(game: PullingStrings, cell: int, disks: int) -> tuple[str, str]:
    """The text of one cell and its style."""
    seat = _OWNER.get(cell)
    if seat is None:
        return (str(disks), STACK_STYLE) if disks else (".", EMPTY_STYLE)
    mark = game.home_marks[seat]
    colour = SEAT_COLOURS[seat]
    return (f"{disks}{mark}", f"bold {colour}") if disks else (mark, colour)


def render(state: PullingStringsState, markup: bool = False) -> str:
    """The diagram of ``state`` (no trailing spaces); with ``markup``, Rich markup."""
    game = state.game
    broken = state.broken
    stacks = state.stacks
    cells = [_cell(game, c, stacks.get(c, 0)) for c in range(NUM_CELLS)]
    # Labels of other tile sets may be two digits or wide kana: the columns widen to fit.
    label = max(_columns(text) for text in game.letters)
    width = max(label, *(len(text) for text, _ in cells))

    def paint(text: str, style: str, pad: int) -> str:
        # Padding stays outside the markup so that styles never colour blanks.
        shown = f"[{style}]{text}[/]" if markup and style else text
        return " " * (pad - _columns(text)) + shown

    def letter(end: int, pad: int = label) -> str:
        if broken >> end & 1:
            return paint(BROKEN_MARK, BROKEN_STYLE, pad) if markup else " " * pad
        return paint(game.letters[end], "", pad)

    def edge_line(base: int) -> str:
        margin = " " * (label + 1)
        return (margin + " ".join(letter(base + i, width) for i in range(SIZE))).rstrip()

    lines = [edge_line(_N)]
    for r in range(SIZE):
        row = " ".join(paint(*cells[r * SIZE + c], width) for c in range(SIZE))
        lines.append(f"{letter(_W + r)} {row} {letter(_E + r)}".rstrip())
    lines.append(edge_line(_S))
    return "\n".join(lines)


@functools.lru_cache(maxsize=4096)
def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes (wide East Asian characters take two);
    kept, as the same few labels are measured for every diagram."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _read_cell(token: str, cell: int, where: str) -> int:
    """The disks a cell's text shows (0 for an empty intersection or home)."""
    seat = _OWNER.get(cell)
    match = _CELL.fullmatch(token)
    digits, mark = match.groups() if match else ("", "?")
    if seat is None:
        ok = bool(digits) != (mark == ".") and mark in ("", ".")
        want = "'.' or a count"
    else:
        ok = mark in _MARKS[seat] and bool(digits or mark)
        own = _MARKS[seat][0]
        want = f"{own!r} (an empty home), a count, or a count and {own!r} (3{own})"
    if not ok:
        raise PositionError(f"{where}: expected {want}, got {token!r}")
    if digits and int(digits) < 1:
        raise PositionError(f"{where}: a stack holds at least 1 disk")
    return int(digits) if digits else 0


def _cell_width(row_line: str) -> int:
    tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", row_line)]
    cells = tokens[1:6] if row_line[:1].strip() else tokens[:5]
    for width in range(1, 7):
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
            disks = _read_cell(tok, r * SIZE + j, f"row {r}, column {j}")
            if disks:
                stacks[r * SIZE + j] = disks
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
    if game.repeat is not None:
        return RepeatingState(game, stacks, broken, turn)
    return PullingStringsState(game, stacks, broken, turn)
