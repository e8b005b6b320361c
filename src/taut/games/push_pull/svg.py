"""The Push-Pull board as an SVG picture for the browser, with the controls of a move.

The duel is a strip of five squares between West and East; the four-sided games use the
5x5 board with a coloured band and a name on every side (each side in its player's or
team's colour, as in the text diagram). The pieces differ in shape and size as well as in
colour, and carry their letter: L a large square, M a medium circle, S a small diamond.
A scored piece sits outside the board by the side (or, for a team, the corner) it left by.

A seat that has to choose gets a panel under the board: one row per piece on the board
(and, for a two-teams player, per side), with a button for each choice. The buttons are
``data-part="SLOT=choice"`` elements; the root's ``data-compose`` joins the parts into the
canonical notation (``L={L},M={M},S={S}``, or ``L={LN}/{LE},...`` for seat NE) and
``data-defaults`` starts every part at ``pass``. Spectators and seats with nothing to
choose see the board alone. Each button takes clicks over its whole cell of the panel, and
the root's ``data-touch-width`` (also the ``--touch-width`` of its style) says how narrow the
picture may be drawn for those cells to stay 44 CSS pixels tall, a finger's target.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from taut.core.svg import esc
from taut.games.push_pull.arrows import (
    CHOICE_NAMES,
    LEFT,
    PASS,
    PULL,
    PUSH,
    RIGHT,
    SIDE_NAMES,
    SIDE_TITLES,
    E,
    N,
    S,
    W,
)
from taut.games.push_pull.arrows import arrow as arrow_of
from taut.games.push_pull.board import CORNER_SIDES, EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.diagram import PIECE_COLOURS, unit_colour
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import NUM_PIECES, PIECES, Layout

_INK = "#1a1a1a"
#: Names of the pieces, for labels read aloud.
PIECE_NAMES = ("Large", "Medium", "Small")
#: Half the size of each piece (L, M, S) on a square.
_RADII = (14, 12, 10)
#: Where the pieces sharing a square sit, by how many share it (offsets from its centre).
_SPOTS = {
    1: ((0, 0),),
    2: ((-12, 0), (12, 0)),
    3: ((-12, -10), (12, -10), (0, 13)),
}
_GLYPH = {(-1, 0): "\u2191", (1, 0): "\u2193", (0, 1): "\u2192", (0, -1): "\u2190"}
_WORD = {(-1, 0): "north", (1, 0): "south", (0, 1): "east", (0, -1): "west"}

#: The four-sided board: square size, margin round the board (bands, scored pieces, names).
CELL, MARGIN = 56, 70
#: The duel strip: square size, margin at each end (band and scored pieces) and the room
#: above it (the sides' names).
STRIP_CELL, STRIP_MARGIN, STRIP_TOP = 64, 48, 40
#: The size of every word on the board, in the picture's units: a phone draws the widest
#: picture (about 420 units) some 350 pixels wide, and words must read at 12 pixels there.
TEXT = 15
#: Control panel: row height, button size and where the buttons start.
ROW, BUTTON_W, BUTTON_H, BUTTONS_X = 74, 66, 48, 104
#: With five choices a row (shifts), narrower buttons closer to the piece, so that the panel
#: stays as narrow as the board: the row names only its side, by its letter.
NARROW_W, NARROW_X = 62, 60

_STYLE = (
    ".pp-board [data-part]{cursor:pointer}"
    ".pp-board [data-part]:hover .btn,.pp-board [data-part]:focus .btn"
    "{stroke:#1a1a1a;stroke-width:4}"
    ".pp-board .chosen .btn{fill:#E69F00;stroke-width:4}"
    ".pp-board .chosen text{font-weight:700}"
    # The squares' coordinates cannot be both small enough for a square and large enough to
    # read on a phone: a phone leaves them out (the position as text names the squares).
    "@media (max-width:520px){.pp-board .pp-coord{display:none}}"
)


def _piece(p: int, x: float, y: float, scale: float = 1.0, ident: bool = True) -> str:
    """Piece ``p`` centred on ``(x, y)``: its shape, its colour and its letter; with
    ``ident``, its identity across positions (``data-id``: the page animates it moving)."""
    r = _RADII[p] * scale
    colour = PIECE_COLOURS[p]
    paint = f'fill="{colour}" stroke="{_INK}" stroke-width="1.5"'
    if p == 0:
        shape = (
            f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'rx="3" {paint}/>'
        )
    elif p == 1:
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'
    else:
        d = r * 1.35
        pts = f"{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}"
        shape = f'<polygon points="{pts}" {paint}/>'
    size = TEXT
    idattr = f' data-id="piece-{PIECES[p]}"' if ident else ""
    return (
        f'<g class="piece"{idattr}>{shape}<text x="{x:.1f}" y="{y + size * 0.36:.1f}" '
        f'text-anchor="middle" font-size="{size}" font-weight="700" fill="{_INK}">'
        f"{PIECES[p]}</text></g>"
    )


def _pieces_on(locs: Sequence[int]) -> dict[int, list[int]]:
    """The pieces on each square, in the order L, M, S, from where each piece is."""
    on: dict[int, list[int]] = {}
    for p, loc in enumerate(locs):
        if loc < OFF:
            on.setdefault(loc, []).append(p)
    return on


def _square_pieces(pieces: list[int], cx: float, cy: float) -> str:
    if not pieces:
        return ""
    return "".join(
        _piece(p, cx + dx, cy + dy) for p, (dx, dy) in zip(pieces, _SPOTS[len(pieces)], strict=True)
    )


def _side_label(lay: Layout, side: int, seat: int | None) -> str:
    """``North``, ``North · N+E`` in a team game, with ``(you)`` on the seat's own sides."""
    text = SIDE_TITLES[side]
    unit = lay.side_unit[side]
    if lay.variant != "duel" and (len(lay.unit_seats[unit]) > 1 or len(lay.seat_sides[0]) > 1):
        text += f" \u00b7 {lay.units[unit]}"
    if seat is not None and side in lay.seat_sides[seat]:
        text += " (you)"
    return text


def _row(items: list[int], x: float, y: float, dx: float, dy: float) -> str:
    """Scored pieces in a short line centred on ``(x, y)``, ``(dx, dy)`` apart."""
    n = len(items)
    return "".join(
        _piece(p, x + (i - (n - 1) / 2) * dx, y + (i - (n - 1) / 2) * dy, 0.9)
        for i, p in enumerate(items)
    )


def _scored(locs: Sequence[int]) -> dict[int, list[int]]:
    """Scored pieces by the exit (side or corner) they left by, from where each piece is."""
    out: dict[int, list[int]] = {}
    for p, loc in enumerate(locs):
        if loc >= OFF:
            out.setdefault(loc - OFF, []).append(p)
    return out


def _strip(view: PushPullState, seat: int | None) -> tuple[str, int, int]:
    """The duel strip: the picture, its width and its height."""
    return _strip_drawn(view.game.layout, tuple(view.locs), seat)


# The strip shows where the pieces are and whose sides are whose: drawn once per look (a
# seat's picture is drawn twice a position, with its moves offered and once it has chosen).
@functools.lru_cache(maxsize=1024)
def _strip_drawn(lay: Layout, locs: tuple[int, ...], seat: int | None) -> tuple[str, int, int]:
    x0, y0, cell = STRIP_MARGIN, STRIP_TOP, STRIP_CELL
    width, mid = 2 * x0 + SIZE * cell, y0 + cell / 2
    parts = []
    on = _pieces_on(locs)
    for c in range(SIZE):
        x = x0 + c * cell
        fill = "#e8e8e8" if c == SIZE // 2 else "#f7f7f7"
        parts.append(
            f'<rect x="{x}" y="{y0}" width="{cell}" height="{cell}" fill="{fill}" '
            f'stroke="#9a9a9a"/><text x="{x + cell / 2:.0f}" y="{y0 + cell + 20}" '
            f'text-anchor="middle" font-size="{TEXT}" fill="#555">{c}</text>'
        )
        parts.append(_square_pieces(on.get(c, []), x + cell / 2, mid))
    scored = _scored(locs)
    # Each side's name above its end of the strip; its scored pieces in a column beyond its
    # band, the word "scored" under them.
    ends = ((W, x0 - 14, 4, "start"), (E, x0 + SIZE * cell + 6, width - 4, "end"))
    for side, band_x, text_x, anchor in ends:
        colour = unit_colour(lay, lay.side_unit[side])[0]
        parts.append(
            f'<rect x="{band_x}" y="{y0}" width="8" height="{cell}" fill="{colour}"/>'
            f'<text x="{text_x}" y="{y0 - 14}" text-anchor="{anchor}" font-size="{TEXT + 1}" '
            f'font-weight="700" fill="{colour}">{esc(_side_label(lay, side, seat))}</text>'
        )
        won = scored.get(side, [])
        if won:
            column = (x0 - 14) / 2 if side == W else width - (x0 - 14) / 2
            parts.append(
                _row(won, column, mid, 0, 26)
                + f'<text x="{text_x}" y="{y0 + cell + 20}" text-anchor="{anchor}" '
                f'font-size="{TEXT}" fill="{_INK}">scored</text>'
            )
    return "".join(parts), width, y0 + cell + 32


def _band(lay: Layout, side: int, seat: int | None, x0: int, size: int) -> str:
    """A side's coloured band along the board and its name beyond it."""
    colour = unit_colour(lay, lay.side_unit[side])[0]
    far = x0 + size
    band = {
        N: (x0, x0 - 14, size, 8),
        S: (x0, far + 6, size, 8),
        W: (x0 - 14, x0, 8, size),
        E: (far + 6, x0, 8, size),
    }[side]
    mid = x0 + size // 2
    text_at = {
        N: (mid, 16, 0),
        S: (mid, far + MARGIN - 16, 0),
        W: (16, mid, -90),
        E: (far + MARGIN - 16, mid, 90),
    }
    tx, ty, turn = text_at[side]
    rotate = f' transform="rotate({turn} {tx} {ty})"' if turn else ""
    return (
        f'<rect x="{band[0]}" y="{band[1]}" width="{band[2]}" height="{band[3]}" fill="{colour}"/>'
        f'<text x="{tx}" y="{ty}" text-anchor="middle" dominant-baseline="middle" '
        f'font-size="{TEXT + 1}" '
        f'font-weight="700" fill="{colour}"{rotate}>{esc(_side_label(lay, side, seat))}</text>'
    )


def _board(view: PushPullState, seat: int | None) -> tuple[str, int, int]:
    """The 5x5 board: the picture, its width and its height."""
    lay = view.game.layout
    x0, cell, size = MARGIN, CELL, SIZE * CELL
    parts = []
    on = _pieces_on(view.locs)
    for sq in range(SIZE * SIZE):
        r, c = divmod(sq, SIZE)
        x, y = x0 + c * cell, x0 + r * cell
        fill = "#e3e3e3" if sq == lay.start else ("#f7f7f7" if (r + c) % 2 else "#eeeeee")
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#9a9a9a"/>'
            f'<text class="pp-coord" x="{x + 3}" y="{y + 11}" font-size="10" fill="#666">'
            f"{r},{c}</text>"
        )
    for sq, pieces in sorted(on.items()):
        r, c = divmod(sq, SIZE)
        parts.append(_square_pieces(pieces, x0 + c * cell + cell / 2, x0 + r * cell + cell / 2))
    for side in (N, E, S, W):
        parts.append(_band(lay, side, seat, x0, size))
    near, far, mid = x0 - 32, x0 + size + 32, x0 + size // 2
    where = {
        N: (mid, near, 30, 0),
        S: (mid, far, 30, 0),
        W: (near, mid, 0, 30),
        E: (far, mid, 0, 30),
    }
    for exit_code, pieces in sorted(_scored(view.locs).items()):
        if exit_code < 4:
            x, y, dx, dy = where[exit_code]
        else:
            a, b = CORNER_SIDES[exit_code]
            x = near if W in (a, b) else far
            y = near if N in (a, b) else far
            dx, dy = 0, 26
            # The corner's name on the board's side of its pieces (a corner score is rare
            # and easily misread).
            reach = 13 * len(pieces) + 10
            ty = y + reach + 4 if y < mid else y - reach
            parts.append(
                f'<text x="{x:.0f}" y="{ty:.0f}" text-anchor="middle" font-size="{TEXT}" '
                f'fill="{_INK}">{EXIT_NAMES[exit_code]}</text>'
            )
        parts.append(_row(pieces, x, y, dx, dy))
    total = 2 * x0 + size
    return "".join(parts), total, total


def _where(view: PushPullState, p: int) -> str:
    """Where piece ``p`` is, in words."""
    lay = view.game.layout
    loc = view.locs[p]
    if loc >= OFF:
        code = loc - OFF
        way = (
            f"off the {SIDE_TITLES[code]} side"
            if code < 4
            else f"off the {EXIT_NAMES[code]} corner"
        )
        return f"scored by {lay.units[lay.exit_unit(code)]} ({way})"
    if lay.rows == 1:
        return f"on square {loc}"
    return f"on row {loc // SIZE}, column {loc % SIZE}"


def describe(view: PushPullState) -> str:
    """The position in words, for the picture's accessible name."""
    game = view.game
    lay = game.layout
    where = "; ".join(f"{PIECES[p]} {_where(view, p)}" for p in range(NUM_PIECES))
    scores = ", ".join(f"{u} {n}" for u, n in zip(lay.units, view.scores(), strict=True))
    board = (
        "strip squares 0 (West) to 4 (East)"
        if lay.rows == 1
        else "rows 0 to 4 from North, columns 0 to 4 from West"
    )
    text = f"{game.title}, {lay.variant}, turn {view.turn} ({board}). {where}. Scored: {scores}."
    if view.outcome is not None:
        text += f" Game over: {view.describe_outcome()}."
    return text


def slots(lay: Layout, seat: int, piece: int) -> list[tuple[str, int]]:
    """The template slots of one piece for ``seat``: ``(slot, side)`` per side it controls."""
    sides = lay.seat_sides[seat]
    if len(sides) == 1:
        return [(PIECES[piece], sides[0])]
    return [(PIECES[piece] + SIDE_NAMES[s], s) for s in sides]


def compose_template(lay: Layout, seat: int, live: Sequence[int]) -> str:
    """The move template: the canonical notation with a slot for every choice."""
    return ",".join(
        f"{PIECES[p]}=" + "/".join(f"{{{slot}}}" for slot, _ in slots(lay, seat, p)) for p in live
    )


def _buttons_at(lay: Layout) -> tuple[int, int]:
    """Where the panel's buttons start and how wide each is."""
    return (NARROW_X, NARROW_W) if lay.n_choices > 3 else (BUTTONS_X, BUTTON_W)


def _button(slot: str, side: int, choice: int, piece: int, x: int, y: int, w: int) -> str:
    """One choice button (``data-part``), ``w`` wide."""
    name = CHOICE_NAMES[choice]
    vector = arrow_of(side, choice)
    glyph = _GLYPH.get(vector, "")
    points = f"arrow {_WORD[vector]}" if vector in _WORD else "no arrow"
    label = f"{PIECE_NAMES[piece]} {PIECES[piece]}, {SIDE_TITLES[side]}: {name} ({points})"
    chosen = ' class="chosen"' if choice == PASS else ""
    cx, cy = x + w // 2, y + BUTTON_H // 2
    # An invisible rectangle takes the clicks over the button and the space round it: the
    # whole cell of the grid of buttons (ROW tall, w + 6 wide).
    pad_x, pad_y = 3, (ROW - BUTTON_H) // 2
    hit = (
        f'<rect x="{x - pad_x}" y="{y - pad_y}" width="{w + 2 * pad_x}" '
        f'height="{ROW}" fill="#ffffff" fill-opacity="0"/>'
    )
    return (
        f'<g data-part="{esc(slot)}={name}" role="button" tabindex="0" '
        f'aria-label="{esc(label)}"{chosen}>{hit}'
        f'<rect class="btn" x="{x}" y="{y}" width="{w}" height="{BUTTON_H}" rx="6" '
        f'fill="#ffffff" stroke="#0072B2" stroke-width="2"/>'
        f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="{TEXT}" fill="{_INK}">'
        f"{name} {glyph}</text></g>"
    )


def _panel(view: PushPullState, seat: int, top: int) -> tuple[str, int]:
    """The choice buttons of ``seat``: the picture and its height."""
    lay = view.game.layout
    live = [p for p in range(NUM_PIECES) if view.locs[p] < OFF]
    choices = [PULL, PUSH, PASS, LEFT, RIGHT][: lay.n_choices]
    rows = []
    y = top + 34
    start, w = _buttons_at(lay)
    for p in live:
        for slot, side in slots(lay, seat, p):
            rows.append(_piece(p, 24, y + BUTTON_H / 2, ident=False))
            # A two-sided seat has a row per side; one side needs only the piece's name.
            name = SIDE_TITLES[side] if len(lay.seat_sides[seat]) > 1 else PIECE_NAMES[p]
            if start == NARROW_X:
                name = SIDE_NAMES[side] if len(lay.seat_sides[seat]) > 1 else ""
            if name:
                rows.append(
                    f'<text x="44" y="{y + BUTTON_H // 2 + 5}" font-size="{TEXT}" fill="{_INK}">'
                    f"{esc(name)}</text>"
                )
            rows += [
                _button(slot, side, c, p, start + i * (w + 6), y, w) for i, c in enumerate(choices)
            ]
            y += ROW
    title = (
        f'<text x="16" y="{top + 20}" font-size="{TEXT}" font-weight="700" fill="{_INK}">'
        f"Your arrows ({esc(lay.seats[seat])}): one choice per row</text>"
    )
    return (
        f'<g role="group" aria-label="your choice for each piece">{title}{"".join(rows)}</g>',
        y - top + 6,
    )


def board_svg(view: PushPullState, seat: int | None, legal: Sequence[str]) -> str:
    """The position drawn from ``view``; with ``legal`` moves for ``seat``, the panel that
    composes one (nothing is clickable for a spectator or a seat with nothing to choose)."""
    lay = view.game.layout
    drawn, width, height = _strip(view, seat) if lay.rows == 1 else _board(view, seat)
    live = [p for p in range(NUM_PIECES) if view.locs[p] < OFF]
    # Every picture of a game is as wide as one with its panel, and says the same narrowest
    # width: the page then draws the board at one scale whether or not a panel is under it
    # (a seat that has chosen waits without one), and nothing on it jumps.
    start, w = _buttons_at(lay)
    width = max(width, start + lay.n_choices * (w + 6) + 10)
    # The narrowest the picture may be drawn, in CSS pixels, for the buttons' cells (ROW
    # units tall) to be 44 pixels, a finger's target, with some room for rounding; a page
    # narrower than this scrolls the picture sideways rather than shrink it.
    touch = math.ceil(width * 44 / ROW * 1.02)
    compose = f' data-touch-width="{touch}" style="--touch-width:{touch}px"'
    panel = ""
    if seat is not None and legal and live:
        panel, extra = _panel(view, seat, height)
        height += extra
        names = [slot for p in live for slot, _ in slots(lay, seat, p)]
        defaults = ";".join(f"{slot}={CHOICE_NAMES[PASS]}" for slot in names)
        compose += (
            f' data-compose="{esc(compose_template(lay, seat, live))}" '
            f'data-defaults="{esc(defaults)}"'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="pp-board" role="group" aria-label="{esc(describe(view))}"{compose} '
        f'font-family="sans-serif"><style>{_STYLE}</style>'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>{drawn}{panel}</svg>'
    )
