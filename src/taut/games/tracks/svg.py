"""Track Tiles positions as SVG pictures for the browser (see :mod:`taut.core.svg`).

(Longer than 400 lines: the board, its cached parts and the panel under it make one
picture.)

The board with column letters above and below it and row numbers on both sides; its top
and bottom edges are NS's (blue) and its left and right edges WE's (vermillion), in the
colour-blind-safe Okabe-Ito palette. Every placed tile shows its two pieces of track
(quarter curves, or the straight crossing with the upright piece bridging the other). A
piece of track is coloured by the board sides its whole path reaches: blue for top or
bottom, vermillion for left or right, both (vermillion with blue dashes) when it reaches
one of each, grey while it reaches none. At the end the winner's track is drawn thick
over a dark outline. The last placement is framed with a dashed square.

Under the board: each player's tile in hand (its picture and its kind), who places next,
and the result. Nothing depends on colour alone: the sides are named by where they are
(NS top and bottom, WE left and right) and paths can be followed to the edge they reach.

For the player to move every empty cell is a button (``data-move`` = the cell, ``c3``)
that shows a faint picture of the tile it would receive when pointed at or focused.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taut.core.svg import Picture, esc, picture
from taut.core.terms import NodeKind
from taut.games.tracks.cells import SEATS, cell_name, column_letter
from taut.games.tracks.render import next_step, strand_index, winning_strands
from taut.games.tracks.tiles import (
    JOIN,
    KINDS,
    STRANDS,
    E,
    N,
    S,
    W,
    step_table,
    unit_cell,
    unit_side,
)

if TYPE_CHECKING:
    from taut.games.tracks.rules import TracksState

#: Room for the coordinates and edges round the board.
MARGIN = 44
#: The least width of the picture (the panel under the board needs it).
MIN_WIDTH = 540
#: Height of the panel of tiles in hand and the status under the board.
PANEL = 222
#: What the colours of the track say, under the board.
LEGEND = (
    "Track colours: blue reaches the top or bottom, vermillion the left or right, "
    "striped both, grey neither."
)

INK = "#1a1a1a"
MUTED = "#666666"
GREY = "#8a8a8a"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
ORANGE = "#E69F00"
CELL_FILL = "#fffdf7"
EMPTY_FILL = "#eeeeee"

#: Each seat's colour: NS's edges are the top and bottom, WE's the left and right.
SEAT_COLOURS = (BLUE, VERMILLION)
#: The sides each seat joins, in words.
SEAT_SIDES = ("top and bottom", "left and right")

_STYLE = (
    # A free cell is a choice while the page offers it (data-move, from its data-offer).
    ".tt-board [data-move]{cursor:pointer}"
    ".tt-board .tt-ghost{opacity:0}"
    ".tt-board [data-move]:hover .tt-ghost,.tt-board [data-move]:focus .tt-ghost{opacity:.45}"
    ".tt-board [data-move]:hover .tt-hit,.tt-board [data-move]:focus .tt-hit"
    "{stroke:#E69F00;stroke-width:4}"
    ".tt-board [data-move]:focus{outline:none}"
    ".tt-board [data-move] .tt-dot{display:none}"
    ".tt-board:not([data-offering]) .tt-offering{visibility:hidden}"
    ".tt-board .chosen .tt-ghost{opacity:.8}"
    ".tt-board .chosen .tt-hit{stroke:#E69F00;stroke-width:5}"
    # Drawn small (a phone draws the picture at about two thirds of its units, a desktop
    # whose window is short at four fifths), the words grow to read at 12 px or more: the
    # page keeps the units a CSS pixel makes in --unit. The layout has room for 19.5 units
    # (the legend is wrapped short enough), what a phone needs; without --unit, a narrow
    # screen is taken for a phone.
    + "".join(
        f'.tt-board .tt-small[font-size="{n}"]{{font-size:max({n}px,calc(12.2px*var(--unit,0)))}}'
        for n in (13, 14, 15)
    )
    + "@media (max-width:520px){.tt-board text.tt-small[font-size]{font-size:19.5px}}"
)
#: The style as a part of every picture: one object, which a patch passes over at once.
_STYLE_PART = f"<style>{_STYLE}</style>"


def cell_size(size: int) -> int:
    """The side of a cell: the board stays about 480 units across (at most 96 a cell)."""
    return min(96, 480 // size)


def picture_width(size: int) -> int:
    """The picture's width: the board and its margins, or the panel's least width."""
    return max(MIN_WIDTH, 2 * MARGIN + size * cell_size(size))


def board_left(size: int) -> float:
    """Where the board's left edge lies (the board is centred)."""
    return (picture_width(size) - size * cell_size(size)) / 2


# -- pieces of track -------------------------------------------------------------------------


def _midpoint(x: float, y: float, c: float, side: int) -> tuple[float, float]:
    return ((x + c / 2, y), (x + c, y + c / 2), (x + c / 2, y + c), (x, y + c / 2))[side]


def strand_path(x: float, y: float, c: float, sides: tuple[int, int]) -> str:
    """The path data of a piece of track joining two sides of the cell at ``(x, y)``: a
    straight line across, or a quarter circle round the corner the two sides share."""
    a, b = sides
    (x1, y1), (x2, y2) = _midpoint(x, y, c, a), _midpoint(x, y, c, b)
    if (a + 2) % 4 == b:
        return f"M{x1:g} {y1:g}L{x2:g} {y2:g}"
    cx = x + c if E in sides else x
    cy = y + c if S in sides else y
    # Screen coordinates run downwards: a positive cross product turns clockwise.
    sweep = 1 if (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx) > 0 else 0
    r = c / 2
    return f"M{x1:g} {y1:g}A{r:g} {r:g} 0 0 {sweep} {x2:g} {y2:g}"


def _stroke(path: str, colour: str, width: float, extra: str = "") -> str:
    return (
        f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width:g}" '
        f'stroke-linecap="butt"{extra}/>'
    )


def reached_sides(board: Sequence[int], size: int) -> dict[tuple[int, int], set[int]]:
    """For every piece of track ``(cell, strand)`` on a path that reaches the border, the
    board sides (N, E, S, W) its path reaches; pieces on no such path are left out.
    (Worked out once per board: every seat's frame of a position asks.)"""
    codes = reached_codes(tuple(board), size)
    return {
        divmod(i, 2): {side for side in (N, E, S, W) if code >> side & 1}
        for i, code in enumerate(codes)
        if code
    }


#: ``_STRAND_OF[kind][side]``: which of the two strands of ``kind`` uses ``side``.
_STRAND_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(strand_index(kind, side) for side in (N, E, S, W)) if kind else ()
    for kind in range(len(STRANDS))
)
#: A piece's colouring is a small number (its *code*, cheap to key a cache by): the board
#: sides its path reaches as bits (``1 << side``), and the winner whose track it is as
#: ``(winner + 1) << WINNER_SHIFT`` (0: none).
WINNER_SHIFT = 4
_NS, _WE = 1 << N | 1 << S, 1 << E | 1 << W


@functools.lru_cache(maxsize=64)
def _starts(size: int) -> tuple[tuple[int, int], ...]:
    """Each edge unit's border cell and the side of that cell the unit is."""
    return tuple(unit_cell(size, unit) for unit in range(4 * size))


@functools.lru_cache(maxsize=1024)
def reached_codes(board: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Each piece's sides reached, as bits (``1 << side``), at ``2 * cell + strand``; 0 for
    a piece on no path from the border. The paths are those of
    :func:`taut.games.tracks.paths.trace`, followed on integers only (a board is worked out
    after every move, for the picture and for the page's data alike)."""
    step = step_table(size)
    out = [0] * (2 * len(board))
    ended = [False] * (4 * size)
    for unit, (cell, side) in enumerate(_starts(size)):
        if ended[unit]:  # the far end of a path already followed from its other end
            continue
        pieces = []
        end = -1
        while kind := board[cell]:
            pieces.append(2 * cell + _STRAND_OF[kind][side])
            code = step[4 * cell + JOIN[kind][side]]
            if code < 0:  # off the board through unit ~code
                end = ~code
                break
            cell, side = code >> 2, code & 3
        if not pieces:
            continue
        sides = 1 << unit_side(size, unit)
        if end >= 0:
            ended[end] = True
            sides |= 1 << unit_side(size, end)
        # Each piece of track lies on one path only.
        for piece in pieces:
            out[piece] = sides
    return tuple(out)


def _piece(path: str, c: float, code: int) -> str:
    """One piece of track coloured by its code (the sides its path reaches, the winner whose
    track it is; see the module)."""
    width = max(3.0, c / 9)
    winner = (code >> WINNER_SHIFT) - 1
    if winner >= 0:
        # ``data-glow``: the page lights the winning track up when it is completed.
        return _stroke(path, INK, width * 2.2) + _stroke(
            path, SEAT_COLOURS[winner], width * 1.5, ' data-glow=""'
        )
    ns, we = bool(code & _NS), bool(code & _WE)
    if ns and we:
        dash = f' stroke-dasharray="{width * 1.5:g} {width * 1.5:g}"'
        return _stroke(path, VERMILLION, width) + _stroke(path, BLUE, width, dash)
    if ns or we:
        return _stroke(path, BLUE if ns else VERMILLION, width)
    return _stroke(path, GREY, width * 0.8)


# A board is drawn for every frame of every client, and its tiles hardly change between
# two frames: each tile's art is drawn once per place, kind and colouring, then reused.
@functools.lru_cache(maxsize=8192)
def _tile_art(x: float, y: float, c: float, kind: int, code0: int = 0, code1: int = 0) -> str:
    """A tile of ``kind`` in the cell at ``(x, y)``: its two pieces, strand 0 coloured by
    ``code0`` and strand 1 by ``code1`` (:data:`WINNER_SHIFT`; 0: grey). The upright piece
    of a crossing bridges the other (a gap in the paper under it)."""
    out = []
    codes = (code0, code1)
    for strand, sides in enumerate(STRANDS[kind]):
        path = strand_path(x, y, c, sides)
        piece = _piece(path, c, codes[strand])
        if kind == 3 and sides == (N, S):
            # The upright piece goes on top, over a gap cut in the flat one.
            gap = _stroke(path, CELL_FILL, max(3.0, c / 9) * 2.6)
            out.append(gap + piece)
        else:
            out.insert(0, piece)
    return "".join(out)


# -- the board -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)  # the same for every position of a size
def _coordinates(size: int, c: int) -> str:
    """Column letters above and below, row numbers left and right."""
    out = []
    left = board_left(size)
    for i in range(size):
        mid = i * c + c / 2
        letter = column_letter(i)
        for y in (MARGIN - 16, MARGIN + size * c + 28):
            out.append(_label(left + mid, y, letter, class_="tt-small"))
        for x in (left - 22, left + size * c + 22):
            out.append(_label(x, MARGIN + mid + 5, str(i + 1), class_="tt-small"))
    return f'<g aria-hidden="true" fill="{MUTED}">{"".join(out)}</g>'


def _label(x: float, y: float, text: str, size: int = 14, **attrs: str) -> str:
    extra = "".join(f' {k.strip("_").replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="middle"{extra}>'
        f"{esc(text)}</text>"
    )


@functools.lru_cache(maxsize=32)  # the same for every position of a size
def _edges(size: int, c: int) -> str:
    """NS's edges (top, bottom) and WE's (left, right) as thick bars in their colours."""
    left, right = board_left(size), board_left(size) + size * c
    top, bottom = MARGIN, MARGIN + size * c
    bars = (
        (left, top - 4, right, top - 4, BLUE),
        (left, bottom + 4, right, bottom + 4, BLUE),
        (left - 4, top, left - 4, bottom, VERMILLION),
        (right + 4, top, right + 4, bottom, VERMILLION),
    )
    return "".join(
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
        'stroke-width="7"/>'
        for x1, y1, x2, y2, colour in bars
    )


@functools.lru_cache(maxsize=16384)
def _cell(
    size: int,
    cell: int,
    kind: int,
    code0: int,
    code1: int,
    last: bool,
    place: int | None,
) -> str:
    """One cell: its tile (its strands coloured by ``code0`` and ``code1``, see
    :data:`WINNER_SHIFT`), a place to put a tile of kind ``place``, or a dot. Drawn once per
    cell and look, then reused by every frame that shows it so (its key is small numbers,
    cheap to look up)."""
    c = cell_size(size)
    r, col = divmod(cell, size)
    x, y = board_left(size) + col * c, MARGIN + r * c
    name = cell_name(size, cell)
    square = (
        f'<rect class="tt-hit" x="{x:g}" y="{y}" width="{c}" height="{c}" '
        f'fill="{CELL_FILL if kind else EMPTY_FILL}" stroke="{GREY}" stroke-width="1"/>'
    )
    if kind:
        label = f"{name}: kind {kind}" + (", the last tile placed" if last else "")
        # The tile's identity across positions (the page animates it coming down).
        return (
            f'<g data-id="tile-{esc(name)}" role="img" aria-label="{esc(label)}">{square}'
            f"{_tile_art(x, y, c, kind, code0, code1)}</g>"
        )
    if place is not None:
        # The tile to place, shown on hover: drawn once in the picture (:func:`_ghost`) and
        # used here, so that a board offering its moves is not twice as long as one without.
        ghost = f'<use class="tt-ghost" href="#{_ghost_id(c, place)}" x="{x:g}" y="{y}"/>'
        label = f"place kind {place} on {name}"
        return (
            f'<g class="tt-click" data-move="{esc(name)}" role="button" tabindex="0" '
            f'aria-label="{esc(label)}">{square}{ghost}</g>'
        )
    # Offered by the page when it is the viewer's move (the same markup every turn, so a
    # move's patch leaves it alone); its ghost is the tile to place now (:func:`_offered`).
    dot = f'<circle class="tt-dot" cx="{x + c / 2:g}" cy="{y + c / 2:g}" r="2" fill="{GREY}"/>'
    ghost = f'<use class="tt-ghost" href="#{_offer_id(c)}" x="{x:g}" y="{y}"/>'
    return f'<g data-offer="{esc(name)}">{square}{dot}{ghost}</g>'


def _ghost_id(c: float, kind: int) -> str:
    """The id of a tile's ghost: by kind and cell size only, so that two pictures on one
    page (a board and an engine's move beside it) that both define it define the same."""
    return f"tt-ghost-{c:g}-{kind}"


@functools.lru_cache(maxsize=64)
def _ghost(c: float, kind: int) -> str:
    """The ghost of a tile of ``kind`` for cells of size ``c``, at the origin, for the cells
    that offer it to ``<use>``."""
    return f'<defs><g id="{_ghost_id(c, kind)}">{_tile_art(0, 0, c, kind)}</g></defs>'


def _offer_id(c: float) -> str:
    """The id of the tile an offered cell shows on hover: by cell size only, the same for
    every kind, so that the cells' markup does not change when the kind to place does."""
    return f"tt-offer-{c:g}"


def _kind_id(c: float, kind: int) -> str:
    """The id of a tile of ``kind``'s picture for cells of size ``c`` (:func:`_kinds`)."""
    return f"tt-kind-{c:g}-{kind}"


@functools.lru_cache(maxsize=64)
def _kinds(c: float) -> str:
    """Every kind of tile, grey, at the origin, for cells of size ``c``: drawn in every
    picture the same, so that what shows a kind (the tile to place on hover, the tiles in
    hand) is a short ``<use>`` of it, and a move's patch names the kind, not its art."""
    art = "".join(f'<g id="{_kind_id(c, k)}">{_tile_art(0, 0, c, k)}</g>' for k in KINDS)
    return f"<defs>{art}</defs>"


def _offered(c: float, kind: int) -> str:
    """The tile of ``kind`` that offered cells of size ``c`` show on hover: a ``<use>`` of
    :func:`_kinds`' picture under the id the cells use."""
    return f'<defs><use id="{_offer_id(c)}" href="#{_kind_id(c, kind)}"/></defs>'


def _cells(state: TracksState, movable: set[int]) -> list[str]:
    """The board's cells, each a part of the picture (:func:`~taut.core.svg.picture`):
    drawn once per look and kept, so that a move's patch compares the few that changed."""
    size = state.game.size
    c = cell_size(size)
    board = state.board
    reach = reached_codes(tuple(board), size)
    won = winning_strands(state)
    out = state.outcome
    lit = (out.winners[0] + 1) << WINNER_SHIFT if won and out is not None else 0
    mover = state.to_move()
    kind_now = state.kinds[mover] if mover is not None else 0
    left = board_left(size)
    parts = []
    last = state.last
    for cell, kind in enumerate(board):
        if kind:
            # Each piece's sides reached, and the winner whose track it is (if any).
            code0, code1 = reach[2 * cell], reach[2 * cell + 1]
            if lit:
                code0 |= lit if (cell, 0) in won else 0
                code1 |= lit if (cell, 1) in won else 0
            parts.append(_cell(size, cell, kind, code0, code1, cell == last, None))
        else:
            shown = kind_now if cell in movable else None
            parts.append(_cell(size, cell, kind, 0, 0, False, shown))
    if movable and kind_now:
        parts.insert(0, _ghost(c, kind_now))
    if kind_now and state.kind is NodeKind.DECISION and len(movable) < len(board) - state.placed():
        parts.insert(0, _offered(c, kind_now))
    if state.last is not None:
        r, col = divmod(state.last, size)
        x, y = left + col * c + 3, MARGIN + r * c + 3
        parts.append(
            f'<rect x="{x:g}" y="{y}" width="{c - 6}" height="{c - 6}" fill="none" '
            f'stroke="{ORANGE}" stroke-width="3" stroke-dasharray="6 3" aria-hidden="true"/>'
        )
    return parts


# -- under the board -------------------------------------------------------------------------


def _hand(state: TracksState, seat: int, x: float, y: float) -> str:
    """One player's tile in hand: its picture and kind, whose sides, and the turn."""
    mover = state.to_move() if state.outcome is None else None
    placing = mover == seat and state.kind is NodeKind.DECISION
    return _hand_drawn(
        seat, state.kinds[seat], cell_size(state.game.size), x, y, mover == seat, placing
    )


# The tiles in hand change once a turn: each look is drawn once.
@functools.lru_cache(maxsize=1024)
def _hand_drawn(
    seat: int, kind: int, c: int, x: float, y: float, to_move: bool, placing: bool
) -> str:
    """The hand of ``seat`` holding ``kind`` (0: it rolls first) at ``(x, y)``, for cells of
    size ``c``; ``to_move``: its turn, ``placing``: it places now."""
    box = 56
    out = [
        f'<rect x="{x:g}" y="{y:g}" width="{box}" height="{box}" fill="{CELL_FILL}" '
        f'stroke="{SEAT_COLOURS[seat]}" stroke-width="3"/>'
    ]
    if kind:
        # The kind's picture (:func:`_kinds`) drawn at the hand's size: its lines scale
        # with it, as a tile drawn in a box that size would have them.
        out.append(
            f'<use href="#{_kind_id(c, kind)}" '
            f'transform="translate({x:g} {y:g}) scale({box / c:g})"/>'
        )
        what = f"kind {kind}"
    else:
        out.append(_label(x + box / 2, y + box / 2 + 8, "?", 24, fill=MUTED))
        what = "rolls before placing"
    weight = "bold" if to_move else "normal"
    # A line each (the seat, its sides, its tile, the turn): short enough to sit beside the
    # other hand in the larger words of a phone.
    lines = [(SEATS[seat], 15, weight), (SEAT_SIDES[seat], 14, "normal"), (what, 14, "normal")]
    if placing:
        lines.append(("▶ to place", 14, "bold"))
    for i, (words, size, bold) in enumerate(lines):
        out.append(
            f'<text class="tt-small" x="{x + box + 10:g}" y="{y + 16 + 19 * i:g}" '
            f'font-size="{size}" font-weight="{bold}" fill="{INK}">{esc(words)}</text>'
        )
    label = f"{SEATS[seat]}, joining {SEAT_SIDES[seat]}: {what}"
    return f'<g role="img" aria-label="{esc(label)}">{"".join(out)}</g>'


def status(state: TracksState) -> str:
    """What happens next (with the last cell), or the result."""
    out = state.outcome
    if out is not None:
        why = out.reason.text or out.reason.name
        if out.winners:
            return f"{SEATS[out.winners[0]]} won: {why}."
        return f"{why[0].upper()}{why[1:]}." if why.startswith("drawn") else f"Draw: {why}."
    step = next_step(state)
    if state.last is not None:
        step = f"{step[:-1]} (last tile on {cell_name(state.game.size, state.last)})."
    return step


#: The legend under the board, wrapped once.
_LEGEND_LINES = textwrap.wrap(LEGEND, 46)


@functools.lru_cache(maxsize=16)
def _cells_named(size: int) -> dict[str, int]:
    """Every cell by its name (``c3``): legal placements come written so, and a look-up
    costs less than reading the name."""
    return {cell_name(size, cell): cell for cell in range(size * size)}


def movable_cells(state: TracksState, seat: int | None, legal: Sequence[str]) -> set[int]:
    """The cells of ``seat``'s ``legal`` placements that it may click now (none unless it
    is to place); a placement written otherwise than the game writes a cell (``C3``) is
    read as the rules read it."""
    movable: set[int] = set()
    if seat is None or seat != state.to_move() or state.kind is not NodeKind.DECISION:
        return movable
    named = _cells_named(state.game.size)
    for text in legal:
        cell = named.get(text)
        if cell is None:
            try:
                cell = state.string_to_action(seat, text)
            except ValueError:
                continue
        if state.is_legal(seat, cell):
            movable.add(cell)
    return movable


def board_svg(state: TracksState, seat: int | None, legal: Sequence[str]) -> Picture:
    """The position with ``seat``'s ``legal`` placements clickable (empty cells); every other
    empty cell is an offer (``data-offer``), the page's to make a choice."""
    size = state.game.size
    c = cell_size(size)
    movable = movable_cells(state, seat, legal)
    width = picture_width(size)
    top = MARGIN + size * c + MARGIN
    half = width / 2
    said = status(state)
    holds = "; ".join(
        f"{SEATS[s]} holds kind {k}" if k else f"{SEATS[s]} has not rolled"
        for s, k in enumerate(state.kinds)
    )
    summary = (
        f"Track Tiles, {size} by {size}: {said} {state.placed()} of {size * size} cells "
        f"filled; {holds}."
    )
    mover = state.to_move() if state.kind is NodeKind.DECISION else None
    # The words an offered cell's choice is named by (the page's; see taut.core.svg), on
    # an element of their own: the root's tag then stays the same from move to move.
    offer = (
        f'<g data-offer-words="place kind {state.kinds[mover]} on {{move}}"/>'
        if mover is not None and state.kinds[mover]
        else ""
    )
    # The picture's parts (taut.core.svg.picture): what a move leaves alone is the same
    # object from picture to picture (the caches above), and a patch passes over it.
    body = [
        _STYLE_PART,
        # The position in words: the picture's description (its name, on the root, says
        # the game only, so that the root's tag stays the same from move to move).
        f"<desc>{esc(summary)}</desc>",
        offer,
        _background(width, top + PANEL),
        _kinds(c),
        _coordinates(size, c),
        _edges(size, c),
        *_cells(state, movable),
        _hand(state, 0, 12, top),
        _hand(state, 1, half + 4, top),
        f'<text class="tt-small" x="12" y="{top + 108}" font-size="15" font-weight="bold">'
        f"{esc(said)}</text>",
    ]
    body.append(_legend(top))
    offering = ' data-offering=""' if movable else ""
    root = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tt-board"{offering} '
        f'viewBox="0 0 {width} {top + PANEL}" role="group" '
        f'aria-label="Track Tiles, {size} by {size}" '
        f'font-family="system-ui, sans-serif" fill="{INK}">'
    )
    return picture([root, *body, "</svg>"])


@functools.lru_cache(maxsize=32)
def _background(width: int, height: int) -> str:
    return f'<rect width="{width}" height="{height}" fill="#ffffff"/>'


@functools.lru_cache(maxsize=32)  # the same for every position of a size
def _legend(top: int) -> str:
    """What the colours say, under the board, with the line asking for a cell above it: that
    line shows while cells are offered (the page marks the root), its place kept either way
    so that the legend stays put from turn to turn."""
    lines = [("Choose an empty cell for your tile.", " tt-offering")]
    lines += [(line, "") for line in _LEGEND_LINES]
    return "".join(
        f'<text class="tt-small{more}" x="12" y="{top + 136 + 24 * i}" font-size="13" '
        f'fill="{MUTED}">{esc(line)}</text>'
        for i, (line, more) in enumerate(lines)
    )
