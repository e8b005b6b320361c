"""The pieces the Tug of War table is drawn with (see :mod:`.svg`): dominoes with their pips
as dots, buttons, text, and rows of items that wrap at the picture's right margin.

Dots follow one pattern per number up to 12 (the double-twelve set): a column of dots on
each side of a half and a column in the middle, so a number is read by its shape.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from taut.core.svg import esc


@dataclass(frozen=True)
class Layout:
    """How wide a table is laid out, and what follows from its width: a wide screen gets
    :data:`WIDE`, a phone :data:`NARROW` (the page picks one by the room it has)."""

    width: int
    """Width of the picture in units (its height follows from what is drawn)."""
    target: int
    """The least side of a click target, and the least distance between rows of them."""
    place: int
    """A hand tile's or a number button's place in a row, its click target as wide."""
    touch_width: int
    """The narrowest the picture may be drawn, in CSS pixels, for its click targets to stay
    44 pixels, a finger's size (a page narrower than this scrolls the picture sideways)."""
    train_x: int
    """Where a train's tiles start (the seat's name is left of it)."""
    status_chars: int
    """Characters in a line of the sentence on what happens now (bold, 16 units)."""
    hint_chars: int
    """Characters in a line of the hint and of the bonus step's facts (14 units)."""
    wide: bool
    """The round's facts beside the score sheet, and a share's digits beside their place's
    name; else each under the other."""


#: A desktop's table: every target 40 units (45 CSS pixels at its touch width of 720), the
#: round's facts beside the score sheet, a train on one row until it is long.
WIDE = Layout(
    width=640,
    target=40,
    place=44,
    touch_width=720,
    train_x=60,
    status_chars=68,
    hint_chars=80,
    wide=True,
)
#: A phone's table: drawn whole across a phone's board (a phone 360 pixels wide has about
#: 330 for it), its targets 50 units (44 pixels at 317); things stack and rows wrap.
NARROW = Layout(
    width=360,
    target=50,
    place=50,
    touch_width=320,
    train_x=48,
    status_chars=34,
    hint_chars=42,
    wide=False,
)

INK = "#1a1a1a"
MUTED = "#666666"
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
#: Fills: a tile, a starter (a tint of reddish purple), an open end (a tint of orange).
TILE_FILL = "#fffdf7"
STARTER_FILL = "#f5dcea"
END_FILL = "#fdebc8"

Draw = Callable[[float, float], str]
"""Draws one item of a row at its top-left corner."""


# The table is drawn for every frame of every client, twice (wide and narrow), and most of
# it is the same dominoes and words in the same places: each is drawn once, then reused.
@functools.lru_cache(maxsize=16384)
def text(x: float, y: float, words: str, size: int = 14, **attrs: str) -> str:
    """A ``<text>`` at ``(x, y)``: ``words`` escaped; ``attrs`` with ``_`` for ``-``."""
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{extra}>{esc(words)}</text>'


def clickable(label: str, move: str | None, part: str | None) -> str:
    """The attributes of a clickable element (a whole move or one part of one)."""
    what = f'data-move="{esc(move)}"' if move is not None else f'data-part="{esc(part)}"'
    return f'class="tow-click" {what} role="button" tabindex="0" aria-label="{esc(label)}"'


def _spread(count: int) -> list[float]:
    """``count`` positions spread evenly over -1..1 (one in the middle)."""
    if count == 1:
        return [0.0]
    return [-1 + 2 * i / (count - 1) for i in range(count)]


#: Pips by number: a column of dots each side and a column in the middle (counts), so
#: every number to 12 has one clear pattern; 2 and 3 run corner to corner.
_COLUMNS = {
    4: (2, 0),
    5: (2, 1),
    6: (3, 0),
    7: (3, 1),
    8: (3, 2),
    9: (3, 3),
    10: (4, 2),
    11: (4, 3),
    12: (4, 4),
}


def pip_spots(number: int) -> list[tuple[float, float]]:
    """Where the dots of ``number`` lie in a half, as ``(x, y)`` in -1..1."""
    if number <= 0:
        return []
    if number == 1:
        return [(0.0, 0.0)]
    if number in (2, 3):
        spots = [(1.0, -1.0), (-1.0, 1.0)]
        return [*spots, (0.0, 0.0)] if number == 3 else spots
    side, middle = _COLUMNS.get(number, (4, 4))
    spots = [(x, y) for x in (-1.0, 1.0) for y in _spread(side)]
    return spots + [(0.0, y) for y in _spread(middle)] if middle else spots


def _face(size: float, number: int) -> str:
    """The dots of ``number`` in a half of side ``size``, round the origin."""
    reach = size / 2 - size * (0.22 if number < 10 else 0.17)
    radius = size * (0.085 if number < 10 else 0.07)
    return "".join(
        f'<circle cx="{x * reach:.1f}" cy="{y * reach:.1f}" r="{radius:.1f}"/>'
        for x, y in pip_spots(number)
    )


@functools.lru_cache(maxsize=4096)
def wrapped(words: str, width: int) -> tuple[str, ...]:
    """``words`` cut into lines of at most ``width`` characters (:func:`textwrap.wrap`),
    once for every picture that says them: the same sentences come back turn after turn."""
    return tuple(textwrap.wrap(words, width))


def face_id(size: float, number: int) -> str:
    """The id of the dots of ``number`` in a half of side ``size`` (:func:`faces`)."""
    return f"tow-pips-{size:g}-{number}"


@functools.lru_cache(maxsize=64)
def faces(top: int, sizes: tuple[float, ...]) -> str:
    """The dots of every number of a double-``top`` set, once for each half's side of
    ``sizes``, to be used by reference (:func:`domino`): the same in every picture of the
    set, so that a tile laid or drawn costs a patch two short references, not its dots."""
    out = [
        f'<g id="{face_id(size, n)}">{_face(size, n)}</g>'
        for size in sizes
        for n in range(1, top + 1)
    ]
    return f"<defs>{''.join(out)}</defs>"


def _pips(cx: float, cy: float, size: float, number: int) -> str:
    if number <= 0:
        return ""
    return f'<use href="#{face_id(size, number)}" x="{cx:g}" y="{cy:g}"/>'


@functools.lru_cache(maxsize=16384)
def domino(
    x: float,
    y: float,
    halves: tuple[int, int],
    half: float,
    vertical: bool = False,
    fill: str = TILE_FILL,
    stroke: float = 1.5,
) -> str:
    """A domino with its top-left corner at ``(x, y)``: ``halves`` left to right (top to
    bottom when ``vertical``), each a square of side ``half`` with its pips as dots (drawn
    by reference: the picture holds :func:`faces` for ``half``)."""
    w, h = (half, 2 * half) if vertical else (2 * half, half)
    a, b = halves
    if vertical:
        line = f'<line x1="{x + 4:g}" y1="{y + half:g}" x2="{x + w - 4:g}" y2="{y + half:g}"/>'
        second = (x + half / 2, y + 1.5 * half)
    else:
        line = f'<line x1="{x + half:g}" y1="{y + 4:g}" x2="{x + half:g}" y2="{y + h - 4:g}"/>'
        second = (x + 1.5 * half, y + half / 2)
    return (
        f'<rect class="tow-hit" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" '
        f'fill="{fill}" stroke="{INK}" stroke-width="{stroke:g}"/>'
        f'<g stroke="{INK}" stroke-width="1">{line}</g>'
        f'<g fill="{INK}">{_pips(x + half / 2, y + half / 2, half, a)}'
        f"{_pips(*second, half, b)}</g>"
    )


def domino_id(halves: tuple[int, int]) -> str:
    """A domino's identity in a picture (``data-id``), the same whichever way it lies:
    ``domino-3-5`` (each tile of a set is there once)."""
    low, high = sorted(halves)
    return f"domino-{low}-{high}"


def hit(x: float, y: float, width: float, height: float) -> str:
    """An invisible rectangle that takes the clicks of a clickable item: a finger's target
    larger than what is drawn, reaching into the space around it (never into another
    item's)."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" '
        'fill="#ffffff" fill-opacity="0"/>'
    )


def button(
    x: float, y: float, width: float, caption: str, label: str, target: int, **click: str
) -> str:
    """A labelled button 30 units high making a move (``move=``) or setting a part
    (``part=``); it takes clicks 3 units beyond its sides and a ``target`` high band (rows
    of buttons lie ``target`` apart, side by side at least 6 apart; none is narrower than
    ``target - 6``)."""
    return (
        f"<g {clickable(label, click.get('move'), click.get('part'))}>"
        + hit(x - 3, y - (target - 30) / 2, width + 6, target)
        + f'<rect class="tow-hit" x="{x:g}" y="{y:g}" width="{width:g}" height="30" rx="6" '
        f'fill="#ffffff" stroke="{BLUE}" stroke-width="2"/>'
        + text(
            x + width / 2, y + 20, caption, 15, text_anchor="middle", fill=BLUE, font_weight="bold"
        )
        + "</g>"
    )


def flow(
    items: Sequence[tuple[float, Draw]],
    x0: float,
    y0: float,
    line: float,
    right: float,
) -> tuple[str, float]:
    """Items of the given widths laid out left to right from ``(x0, y0)``, wrapping to a
    new line of height ``line`` where one would pass ``right``; returns the drawing and its
    bottom. Each item is drawn from its own origin and moved to its place by its group's
    transform: an item that moves (a train grown at its left end, a hand with a tile gone)
    then changes only that token of a patch, and its drawing is the same wherever it is."""
    out, x, y = [], x0, y0
    for width, draw in items:
        if x > x0 and x + width > right:
            x, y = x0, y + line
        out.append(f'<g transform="translate({x:g} {y:g})">{draw(0, 0)}</g>')
        x += width
    return "".join(out), y + line


def button_at(width: float, caption: str, label: str, move: str, target: int) -> Draw:
    """A button making ``move``, as an item of a row (see :func:`flow`)."""
    return lambda x, y: button(x, y, width, caption, label, target, move=move)


def tiles(count: int) -> str:
    """``1 tile``, ``2 tiles``."""
    return "1 tile" if count == 1 else f"{count} tiles"
