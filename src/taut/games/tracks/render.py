"""Box-drawing art for Track Tiles boards, plain or with rich markup.

Every cell is drawn 5 characters wide and 3 lines tall. Paths cross a cell border at the
middle of the side (column 2 at the top and bottom, line 1 at the left and right), so the
tracks of neighbouring cells join up. A quarter curve is drawn as a small rounded staircase
so that the two curves of a tile never touch::

    kind 1        kind 2        kind 3        empty
     ╭╯             ╰╮            │
    ─╯ ╭─         ─╮ ╰─         ──┼──           ·
      ╭╯           ╰╮             │

Boards too tall for a terminal are drawn *compact*: one line and 3 characters a cell, a
kind shown by its picture (`` ╯╭``, `` ╰╮``, `` ┼ ``), tracks no longer drawn joined.

Columns are lettered ``a, b, c, ...`` above the board and rows numbered from 1 at the top
on its left (cell ``c3`` is column c, row 3). With ``markup=True`` the result holds rich
markup in the colour-blind-safe Okabe-Ito palette: NS's sides (top and bottom) are blue
and WE's (left and right) vermillion, a winning track is bold in its owner's colour and a
path under inspection bold orange. Nothing depends on colour alone: the seats are named
by their sides (NS top and bottom, WE left and right), and highlighted strands are bold
too, so a terminal without colour shows the same picture.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from taut.core.terms import NodeKind
from taut.games.tracks.cells import SEATS, cell_name, column_letter
from taut.games.tracks.paths import track_traces
from taut.games.tracks.tiles import STRANDS, E, N, S, W, unit_id

if TYPE_CHECKING:
    from taut.games.tracks.rules import TracksState
    from taut.games.tracks.solitaire import Puzzle

#: The art of each kind (index 0: an empty cell).
ART: tuple[tuple[str, ...], ...] = (
    ("     ", "  ·  ", "     "),
    (" ╭╯  ", "─╯ ╭─", "  ╭╯ "),
    ("  ╰╮ ", "─╮ ╰─", " ╰╮  "),
    ("  │  ", "──┼──", "  │  "),
)
#: The compact art of each kind: one line, the kind's picture.
COMPACT_ART: tuple[tuple[str, ...], ...] = ((" · ",), (" ╯╭",), (" ╰╮",), (" ┼ ",))

# Which strand (index into STRANDS[kind]) each character belongs to: 0 or 1, 2 for the
# crossing point of kind 3 (both strands), -1 for blank.
_OWNER: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((-1,) * 5, (-1,) * 5, (-1,) * 5),
    ((-1, 0, 0, -1, -1), (0, 0, -1, 1, 1), (-1, -1, 1, 1, -1)),
    ((-1, -1, 0, 0, -1), (1, 1, -1, 0, 0), (-1, 1, 1, -1, -1)),
    ((-1, -1, 0, -1, -1), (1, 1, 2, 1, 1), (-1, -1, 0, -1, -1)),
)
_COMPACT_OWNER: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((-1, -1, -1),),
    ((-1, 0, 1),),
    ((-1, 0, 1),),
    ((-1, 2, -1),),
)

#: The Okabe-Ito colours this game uses.
BLUE, VERMILLION, ORANGE, BLUISH_GREEN = "#0072B2", "#D55E00", "#E69F00", "#009E73"
#: Colours of the two players' sides (and of their winning tracks).
NS_STYLE = f"bold {BLUE}"
WE_STYLE = f"bold {VERMILLION}"
SEAT_STYLES = (NS_STYLE, WE_STYLE)
#: Strands under inspection in the solitaire (``trace A``).
HIGHLIGHT_STYLE = f"bold {ORANGE}"
LABEL_STYLE = "bold"
#: Messages: something wrong, and a puzzle solved.
WRONG_STYLE = VERMILLION
SOLVED_STYLE = f"bold {BLUISH_GREEN}"
#: Colour names for the seats, as the legend and seat titles say them.
SEAT_COLOURS = ("blue", "vermillion")

CELL_W = 5
COMPACT_W = 3


def _styled(text: str, style: str | None, markup: bool) -> str:
    if not markup or not style or not text.strip():
        return text
    return f"[{style}]{text}[/]"


def _framed_names(names: Sequence[str], width: int) -> str:
    """The heavy frame line of a board side with a name centred on every column."""
    return "".join(name.center(width).replace(" ", "━") for name in names)


def draw_board(
    size: int,
    board: Sequence[int],
    *,
    top: Sequence[str] | None = None,
    bottom: Sequence[str] | None = None,
    left: Sequence[str] | None = None,
    right: Sequence[str] | None = None,
    columns: Sequence[str] | None = None,
    framed: Sequence[str] | None = None,
    highlight: Collection[tuple[int, int]] = (),
    highlight_style: str = HIGHLIGHT_STYLE,
    markup: bool = False,
    side_styles: tuple[str | None, str | None] = (None, None),
    compact: bool = False,
) -> list[str]:
    """Draw ``board`` with labels around it; returns the lines.

    ``top``/``bottom`` label the columns and ``left``/``right`` the rows (one short string
    each; None leaves that side bare); ``columns`` adds a line of column names above and
    below those labels, and ``framed`` writes column names into the top and bottom frame
    lines instead (saving two lines). ``highlight`` holds ``(cell, strand)`` pairs to draw
    in ``highlight_style``, where ``strand`` indexes ``STRANDS[kind]``. ``side_styles``
    colours the top/bottom and left/right labels and frame when ``markup`` is on.
    ``compact`` draws every cell on one line (see the module docstring).
    """
    ns_style, we_style = side_styles
    width = COMPACT_W if compact else CELL_W
    lw = max([len(s) for s in (left or [])] + [1])
    pad = " " * (lw + 2)
    lit = set(highlight)

    def column_labels(labels: Sequence[str]) -> str:
        parts = []
        for lab in labels:
            centred = lab.center(width)
            lead = len(centred) - len(centred.lstrip())
            tail = len(centred) - lead - len(lab)
            parts.append(" " * lead + _styled(lab, ns_style, markup) + " " * tail)
        return (pad + "".join(parts).rstrip()).rstrip()

    # A compact cell's picture ends on its last character: a space keeps it off the frame.
    inside_end = " " if compact else ""

    def frame(left_corner: str, right_corner: str) -> str:
        inner = "━" * (width * size) if framed is None else _framed_names(framed, width)
        line = left_corner + inner + "━" * len(inside_end) + right_corner
        return pad[:-1] + _styled(line, ns_style, markup)

    def plain_columns(names: Sequence[str]) -> str:
        return (pad + "".join(name.center(width) for name in names)).rstrip()

    lines: list[str] = []
    if columns is not None:
        lines.append(plain_columns(columns))
    if top is not None:
        lines.append(column_labels(top))
    lines.append(frame("┏", "┓"))
    # The highlighted strands of each cell (markup only: plain text shows none).
    by_cell: dict[int, set[int]] = {}
    if markup:
        for x, s in lit:
            if board[x]:
                by_cell.setdefault(x, set()).add(s)
    for r in range(size):
        cells = range(r * size, (r + 1) * size)
        marks = (
            tuple(frozenset(by_cell.get(cell, ())) for cell in cells)
            if any(cell in by_cell for cell in cells)
            else None
        )
        labels = (left[r] if left is not None else "", right[r] if right is not None else "")
        lines.extend(
            _row_lines(
                tuple(board[cell] for cell in cells),
                marks,
                labels,
                lw,
                compact,
                we_style,
                markup,
                highlight_style,
            )
        )
    lines.append(frame("┗", "┛"))
    if bottom is not None:
        lines.append(column_labels(bottom))
    if columns is not None:
        lines.append(plain_columns(columns))
    return lines


# A move changes one row of a board: every other row is drawn as it was.
@functools.lru_cache(maxsize=4096)
def _row_lines(
    kinds: tuple[int, ...],
    marks: tuple[frozenset[int], ...] | None,
    labels: tuple[str, str],
    lw: int,
    compact: bool,
    we_style: str | None,
    markup: bool,
    highlight_style: str,
) -> tuple[str, ...]:
    """The lines of one row of cells of ``kinds`` (their highlighted strands ``marks``),
    labelled ``labels`` left and right on its middle line (the left one ``lw`` wide)."""
    art, owners = (COMPACT_ART, _COMPACT_OWNER) if compact else (ART, _OWNER)
    height = 1 if compact else 3
    # A compact cell's picture ends on its last character: a space keeps it off the frame.
    inside_end = " " if compact else ""
    bar = _styled("┃", we_style, markup)
    out = []
    for sub in range(height):
        chunks = [
            _mark(art[k][sub], owners[k][sub], marks[c], highlight_style)
            if marks is not None and k
            else art[k][sub]
            for c, k in enumerate(kinds)
        ]
        middle = sub == height // 2
        lab_l = (labels[0] if middle else "").rjust(lw)
        # The right label ends the line: no padding (it would hide inside the markup).
        lab_r = labels[1] if middle else ""
        row = (
            _styled(lab_l, we_style, markup)
            + " "
            + bar
            + "".join(chunks)
            + inside_end
            + bar
            + " "
            + _styled(lab_r, we_style, markup)
        )
        out.append(row.rstrip())
    return tuple(out)


def _mark(art: str, owner: tuple[int, ...], strands: Collection[int], style: str) -> str:
    if not strands:
        return art
    out = []
    for ch, who in zip(art, owner, strict=True):
        if who >= 0 and (who in strands or who == 2):
            out.append(f"[{style}]{ch}[/]")
        else:
            out.append(ch)
    return "".join(out)


def strand_index(kind: int, side: int) -> int:
    """Which of the two strands of ``kind`` uses ``side``."""
    return 0 if side in STRANDS[kind][0] else 1


def segments_to_highlight(
    board: Sequence[int], segments: Sequence[tuple[int, int, int]]
) -> set[tuple[int, int]]:
    """The ``(cell, strand)`` pairs of traced segments ``(cell, side_in, side_out)``."""
    return {(cell, strand_index(board[cell], side_in)) for cell, side_in, _ in segments}


def kind_picture(kind: int) -> str:
    """A one-line hint of a kind's shape for status lines (``╯╭``, ``╰╮``, ``┼``)."""
    return {1: "╯╭", 2: "╰╮", 3: "┼"}.get(kind, "?")


def winning_strands(state: TracksState) -> set[tuple[int, int]]:
    """The ``(cell, strand)`` pairs of the winner's tracks (empty while playing or drawn)."""
    out = state.outcome
    lit: set[tuple[int, int]] = set()
    if out is not None and out.winners:
        n = state.game.size
        for t in track_traces(state.board, n, out.winners[0]):
            lit |= segments_to_highlight(state.board, t.segments)
    return lit


def hand_lines(state: TracksState, markup: bool = False) -> list[str]:
    """Each seat's tile in hand: ``NS: kind 3 ┼`` (the seat in its colour with markup)."""
    out = []
    for seat, name in enumerate(SEATS):
        kind = state.kinds[seat]
        what = f"kind {kind} {kind_picture(kind)}" if kind else "rolls before placing"
        out.append(f"{_styled(name, SEAT_STYLES[seat], markup)}: {what}")
    return out


def next_step(state: TracksState) -> str:
    """What happens next in a game in progress: the coin, a roll or a placement."""
    mover = state.to_move()
    if mover is None:
        return "A coin decides who places first."
    if state.kind is NodeKind.CHANCE:
        roller = state.rolling_seat()
        return f"{SEATS[roller if roller is not None else mover]} rolls the die."
    return f"{SEATS[mover]} to place kind {state.kinds[mover]}."


def render_state(state: TracksState, markup: bool = False, highlight_winner: bool = True) -> str:
    """The board of a two-player game with coordinates, the tiles in hand and the result.

    At the end, the winner's track(s) are highlighted in the winner's colour (with
    ``markup``).
    """
    n = state.game.size
    cols = [column_letter(c) for c in range(n)]
    rows = [str(r + 1) for r in range(n)]
    out = state.outcome
    lines = draw_board(
        n,
        state.board,
        top=cols,
        bottom=cols,
        left=rows,
        right=rows,
        highlight=winning_strands(state) if highlight_winner else (),
        highlight_style=SEAT_STYLES[out.winners[0]] if out and out.winners else HIGHLIGHT_STYLE,
        markup=markup,
        side_styles=(NS_STYLE, WE_STYLE),
    )
    lines.append("   ".join(hand_lines(state, markup)))
    if out is None:
        step = next_step(state)
        if state.kind is NodeKind.DECISION and state.last is not None:
            step = f"{step[:-1]} (last tile on {cell_name(n, state.last)})."
        lines.append(step)
    else:
        lines.append(state.describe_outcome())
    return "\n".join(lines)


def render_puzzle(
    puzzle: Puzzle,
    tiles: Sequence[int] | None = None,
    markup: bool = False,
    highlight: Collection[tuple[int, int]] = (),
) -> str:
    """A solitaire board: the labels round the edge, coordinates, and ``tiles`` if given
    (0 entries are empty cells)."""
    n = puzzle.size
    labels = puzzle.labels()
    board = list(tiles) if tiles is not None else [0] * (n * n)
    top = [labels[unit_id(n, N, c)] for c in range(n)]
    bottom = [labels[unit_id(n, S, c)] for c in range(n)]
    width = max(len(x) for x in labels.values())
    left = [f"{r + 1:>2} {labels[unit_id(n, W, r)].rjust(width)}" for r in range(n)]
    right = [labels[unit_id(n, E, r)] for r in range(n)]
    lines = draw_board(
        n,
        board,
        top=top,
        bottom=bottom,
        left=left,
        right=right,
        columns=[column_letter(c) for c in range(n)],
        highlight=highlight,
        markup=markup,
        side_styles=(LABEL_STYLE, LABEL_STYLE),
    )
    return "\n".join(lines)
