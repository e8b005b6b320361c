"""Box-drawing art for Track Tiles boards, plain or with rich markup.

Every cell is drawn 5 characters wide and 3 lines tall. Paths cross a cell border at the
middle of the side (column 2 at the top and bottom, line 1 at the left and right), so the
tracks of neighbouring cells join up. A quarter curve is drawn as a small rounded staircase
so that the two curves of a tile never touch::

    kind 1        kind 2        kind 3        empty
     ╭╯             ╰╮            │
    ─╯ ╭─         ─╮ ╰─         ──┼──           ·
      ╭╯           ╰╮             │

Columns are lettered ``a, b, c, ...`` above the board and rows numbered from 1 at the top
on its left (cell ``c3`` is column c, row 3). With ``markup=True`` the result holds rich
markup: NS's sides (top and bottom) and WE's (left and right) are coloured, and
highlighted strands (a winning track, a path under inspection) are bold.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from taut.games.tracks.tiles import STRANDS

if TYPE_CHECKING:
    from taut.games.tracks.rules import TracksState
    from taut.games.tracks.solitaire import Puzzle

#: The art of each kind (index 0: an empty cell).
ART: tuple[tuple[str, str, str], ...] = (
    ("     ", "  ·  ", "     "),
    (" ╭╯  ", "─╯ ╭─", "  ╭╯ "),
    ("  ╰╮ ", "─╮ ╰─", " ╰╮  "),
    ("  │  ", "──┼──", "  │  "),
)

# Which strand (index into STRANDS[kind]) each character belongs to: 0 or 1, 2 for the
# crossing point of kind 3 (both strands), -1 for blank.
_OWNER: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((-1,) * 5, (-1,) * 5, (-1,) * 5),
    ((-1, 0, 0, -1, -1), (0, 0, -1, 1, 1), (-1, -1, 1, 1, -1)),
    ((-1, -1, 0, 0, -1), (1, 1, -1, 0, 0), (-1, 1, 1, -1, -1)),
    ((-1, -1, 0, -1, -1), (1, 1, 2, 1, 1), (-1, -1, 0, -1, -1)),
)

#: Colours of the two players' sides and of highlighted strands.
NS_STYLE = "bold blue"
WE_STYLE = "bold red"
HIGHLIGHT_STYLE = "bold yellow"
LABEL_STYLE = "bold"

CELL_W = 5


def _styled(text: str, style: str | None, markup: bool) -> str:
    if not markup or not style or not text.strip():
        return text
    return f"[{style}]{text}[/]"


def draw_board(
    size: int,
    board: Sequence[int],
    *,
    top: Sequence[str] | None = None,
    bottom: Sequence[str] | None = None,
    left: Sequence[str] | None = None,
    right: Sequence[str] | None = None,
    columns: Sequence[str] | None = None,
    highlight: Collection[tuple[int, int]] = (),
    markup: bool = False,
    side_styles: tuple[str | None, str | None] = (None, None),
) -> list[str]:
    """Draw ``board`` with labels around it; returns the lines.

    ``top``/``bottom`` label the columns and ``left``/``right`` the rows (one short string
    each; None leaves that side bare); ``columns`` adds a line of column names above and
    below those labels. ``highlight`` holds ``(cell, strand)`` pairs to draw
    in bold, where ``strand`` indexes ``STRANDS[kind]``. ``side_styles`` colours the
    top/bottom and left/right labels and frame when ``markup`` is on.
    """
    ns_style, we_style = side_styles
    lw = max([len(s) for s in (left or [])] + [1])
    rw = max([len(s) for s in (right or [])] + [1])
    pad = " " * (lw + 2)
    lit = set(highlight)

    def column_labels(labels: Sequence[str]) -> str:
        parts = []
        for lab in labels:
            centred = lab.center(CELL_W)
            lead = len(centred) - len(centred.lstrip())
            tail = len(centred) - lead - len(lab)
            parts.append(" " * lead + _styled(lab, ns_style, markup) + " " * tail)
        return (pad + "".join(parts).rstrip()).rstrip()

    def frame(left_corner: str, right_corner: str) -> str:
        line = left_corner + "━" * (CELL_W * size) + right_corner
        return pad[:-1] + _styled(line, ns_style, markup)

    def plain_columns(names: Sequence[str]) -> str:
        return (pad + "".join(name.center(CELL_W) for name in names)).rstrip()

    lines: list[str] = []
    if columns is not None:
        lines.append(plain_columns(columns))
    if top is not None:
        lines.append(column_labels(top))
    lines.append(frame("┏", "┓"))
    bar = _styled("┃", we_style, markup)
    for r in range(size):
        for sub in range(3):
            chunks = []
            for c in range(size):
                cell = r * size + c
                kind = board[cell]
                art = ART[kind][sub]
                owner = _OWNER[kind][sub]
                if markup and kind and lit:
                    strands = {s for (x, s) in lit if x == cell}
                    chunks.append(_mark(art, owner, strands))
                else:
                    chunks.append(art)
            lab_l = (left[r] if left is not None and sub == 1 else "").rjust(lw)
            lab_r = (right[r] if right is not None and sub == 1 else "").ljust(rw)
            row = (
                _styled(lab_l, we_style, markup)
                + " "
                + bar
                + "".join(chunks)
                + bar
                + " "
                + _styled(lab_r, we_style, markup)
            )
            lines.append(row.rstrip())
    lines.append(frame("┗", "┛"))
    if bottom is not None:
        lines.append(column_labels(bottom))
    if columns is not None:
        lines.append(plain_columns(columns))
    return lines


def _mark(art: str, owner: tuple[int, ...], strands: set[int]) -> str:
    if not strands:
        return art
    out = []
    for ch, who in zip(art, owner, strict=True):
        if who >= 0 and (who in strands or (who == 2 and strands)):
            out.append(f"[{HIGHLIGHT_STYLE}]{ch}[/]")
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


def render_state(state: TracksState, markup: bool = False, highlight_winner: bool = True) -> str:
    """The board of a two-player game with coordinates, the tiles in hand and the result.

    At the end, the winner's track(s) are highlighted (with ``markup``) and listed.
    """
    from taut.games.tracks.paths import track_traces
    from taut.games.tracks.rules import SEATS, column_letter

    n = state.game.size
    cols = [column_letter(c) for c in range(n)]
    rows = [str(r + 1) for r in range(n)]
    out = state.outcome
    lit: set[tuple[int, int]] = set()
    if out is not None and out.winners and highlight_winner:
        for t in track_traces(state.board, n, out.winners[0]):
            lit |= segments_to_highlight(state.board, t.segments)
    lines = draw_board(
        n,
        state.board,
        top=cols,
        bottom=cols,
        left=rows,
        right=rows,
        highlight=lit,
        markup=markup,
        side_styles=(NS_STYLE, WE_STYLE),
    )
    style: Callable[[str, str], str] = (
        (lambda text, st: f"[{st}]{text}[/]") if markup else (lambda text, st: text)
    )
    hand = []
    for seat, name in enumerate(SEATS):
        kind = state.kinds[seat]
        what = f"kind {kind} {kind_picture(kind)}" if kind else "rolls before placing"
        label = style(name, NS_STYLE if seat == 0 else WE_STYLE)
        hand.append(f"{label}: {what}")
    lines.append("   ".join(hand))
    if out is None:
        mover = state.to_move()
        if mover is None:
            lines.append("A coin decides who places first.")
        elif state.kind.value == "chance":
            roller = state.rolling_seat()
            lines.append(f"{SEATS[roller if roller is not None else mover]} rolls the die.")
        else:
            last = "" if state.last is None else f" (last tile on {_cell(n, state.last)})"
            lines.append(f"{SEATS[mover]} to place kind {state.kinds[mover]}{last}.")
    else:
        lines.append(state.describe_outcome())
    return "\n".join(lines)


def _cell(size: int, cell: int) -> str:
    from taut.games.tracks.rules import cell_name

    return cell_name(size, cell)


def render_puzzle(
    puzzle: Puzzle,
    tiles: Sequence[int] | None = None,
    markup: bool = False,
    highlight: Collection[tuple[int, int]] = (),
) -> str:
    """A solitaire board: the labels round the edge, coordinates, and ``tiles`` if given
    (0 entries are empty cells)."""
    from taut.games.tracks.rules import column_letter
    from taut.games.tracks.tiles import E, N, S, W, unit_id

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
