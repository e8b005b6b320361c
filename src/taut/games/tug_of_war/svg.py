"""Tug of War positions as SVG pictures for the browser (see :mod:`taut.core.svg`).

From the top: the score sheet (seat, score, tiles in hand, round points under
``end=round-points``) with the round's facts and the boneyard's size; a line on what
happens now; every seat's train as a row of dominoes (the starter tinted and captioned
``starter``, tiles as laid, the two open ends boxed with their numbers and their notation
``J.E`` under them, and the train's ``= sum``); the viewing seat's hand; the buttons.

Only what the view holds is drawn: a seat's own hand (every hand of a full state, as on
the replay page), never another hand's tiles, the boneyard's content or a tile another
seat has just drawn; hidden hands appear as counts only.

Clicking follows the legal moves: a hand tile that takes part in several plays is a part
``tile=a-b`` and the open ends it fits are parts ``end=J.E`` (the root's template is
``{tile}@{end}``); a tile with one play is the whole move. Draw, pass and the bonus steps
are buttons; when a share of the leftover can be one of many numbers it is composed from
digit buttons (``-{hundreds}{tens}{units}@T``, each digit starting at 0). Whatever is
clickable takes clicks on an invisible rectangle larger than what is drawn, and the root's
``data-touch-width`` (also the ``--touch-width`` of its style) says how narrow the picture
may be drawn for those targets to stay 44 CSS pixels, a finger's size.

The table is drawn in two layouts (:class:`~.svg_pieces.Layout`); a client draws the one
that fits its board (one that tells the server its board's width is sent that one only):
:func:`board_svg` for a desktop (:data:`~.svg_pieces.WIDE`), whose screen holds the whole
table, the hand included; :func:`board_svg_narrow` for a phone
(:data:`~.svg_pieces.NARROW`), which must see the whole table without scrolling sideways,
so there the round's facts go under the score sheet, the sentences wrap, and trains, hands
and digits wrap onto more rows.

Drawn for patches (:mod:`taut.server.play.patches`): the position is said in the picture's
``<desc>`` (the root names the game), a half's dots are drawn once a picture and used by
reference, each piece of a row is drawn from its own origin and placed by its group, and
how a choice or a faded tile looks is in the style: a move changes few tokens.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from taut.core.svg import esc
from taut.games.tug_of_war.model import DEAL, OVER, Line, TugModel
from taut.games.tug_of_war.svg_choices import Choices, choices, fit_style, hint, laid_as
from taut.games.tug_of_war.svg_hand import HAND_HALF, controls, hands
from taut.games.tug_of_war.svg_pieces import (
    END_FILL,
    INK,
    MUTED,
    NARROW,
    ORANGE,
    STARTER_FILL,
    WIDE,
    Draw,
    Layout,
    clickable,
    domino,
    domino_id,
    faces,
    flow,
    hit,
    text,
    tiles,
    wrapped,
)
from taut.games.tug_of_war.svg_sheet import score_sheet, status_line
from taut.games.tug_of_war.tiles import Tile

#: Side of a domino half on the trains.
HALF = 28
#: A train's rows lie 50 units apart, a click target in either layout (the open ends'
#: targets, row under row).
TRAIN_LINE = 50

_STYLE = (
    # What makes a tile of the hand or an open end look like a choice is here, not in its
    # markup (the same whatever the turn: a turn changes only the element's own tag). The
    # rules weigh no more than a presentation attribute did (:where), so that hover, a
    # choice and a fitting end still outline it as before.
    ".tow-board :where(.tow-click)>.tow-face>.tow-hit{stroke-width:3}"
    ".tow-board :where(.tow-click[data-part^='end='])>.tow-hit{stroke:#1a1a1a;stroke-width:3}"
    ".tow-board .tow-dim>.tow-face{opacity:.4}"
    ".tow-board .tow-click{cursor:pointer}"
    ".tow-board .tow-click:hover .tow-hit,.tow-board .tow-click:focus .tow-hit"
    "{stroke:#E69F00;stroke-width:4}"
    ".tow-board .tow-click:focus{outline:none}"
    ".tow-board .chosen .tow-hit{stroke:#E69F00;stroke-width:5;fill:#fdebc8}"
)


# -- the parts of the table ------------------------------------------------------------------


def _shift(draw: Draw, dx: float) -> Draw:
    return lambda x, y: draw(x + dx, y)


def _then(first: Draw, second: Draw, dx: float) -> Draw:
    """``first``, then ``second`` ``dx`` to its right, as one item."""
    return lambda x, y: first(x, y) + second(x + dx, y)


def _end_box(name: str, seat: int, e: int, value: int, fits: Sequence[str], layout: Layout) -> Draw:
    """Open end ``e`` (showing ``value``) of the train of ``seat`` (called ``name``): its
    number boxed, its notation ``J.E`` under it; a part of a play when tiles of the hand
    with several plays ``fits`` it."""
    kept = tuple(fits)
    return lambda x, y: _end_box_at(name, seat, e, value, kept, layout, x, y)


# A row is drawn again when another end of it changes (or whose turn it is): each end is
# drawn once per look and place.
@functools.lru_cache(maxsize=4096)
def _end_box_at(
    name: str,
    seat: int,
    e: int,
    value: int,
    fits: tuple[str, ...],
    layout: Layout,
    x: float,
    y: float,
) -> str:
    """:func:`_end_box` drawn at ``(x, y)``."""
    active = bool(fits)
    # The end's identity across positions (the page animates it along a growing train).
    ident = f'data-id="end-{seat}.{e}"'
    box = (
        f'<rect class="tow-hit" x="{x:g}" y="{y:g}" width="{HALF}" height="{HALF}" '
        f'rx="5" fill="{END_FILL}" stroke="{ORANGE}" stroke-width="2"/>'
        + text(
            x + HALF / 2,
            y + HALF / 2 + 6,
            # The space (not drawn: it ends the line) keeps the number and the notation
            # two words in the element's text, "6 0.1", as its name has them.
            f"{value} ",
            17,
            text_anchor="middle",
            font_weight="bold",
        )
        # 13 units: at least 12 px where the narrow table fills a phone's width.
        + text(x + HALF / 2, y + HALF + 14, f"{seat}.{e}", 13, text_anchor="middle", fill=MUTED)
    )
    # The click target reaches over the gaps and the notation beside and under the box
    # (nothing there is clickable), short of the next train's row; drawn whether or not
    # the end is a choice now, so that only the element's tag changes with the turn.
    wide = layout.place
    area = hit(x - (wide - HALF) / 2, y - 7, wide, TRAIN_LINE)
    if not active:
        return f"<g {ident}>{area}{box}</g>"
    label = (
        # It starts with the words the box shows, the open number then the end's
        # notation (a name that holds the visible words, for speech input).
        f"{value} {seat}.{e}: open end {seat}.{e} of {name}'s train, "
        f"{value}; {', '.join(fits)} fit here"
    )
    fitting = esc(" ".join(fits))
    return (
        f'<g {ident} {clickable(label, None, f"end={seat}.{e}")} data-fits="{fitting}">'
        f"{area}{box}</g>"
    )


def _laid(halves: tuple[int, int]) -> Draw:
    return lambda x, y: _laid_at(halves, x, y)


@functools.lru_cache(maxsize=4096)
def _laid_at(halves: tuple[int, int], x: float, y: float) -> str:
    """A tile laid on a train, at ``(x, y)`` (drawn once per place: a row is drawn from its
    items' own origins)."""
    return f'<g data-id="{domino_id(halves)}">{domino(x, y, halves, HALF)}</g>'


def _starter(halves: tuple[int, int]) -> Draw:
    """The starter: tinted, in a dashed frame, captioned (so colour is not needed)."""
    return lambda x, y: _starter_at(halves, x, y)


@functools.lru_cache(maxsize=1024)
def _starter_at(halves: tuple[int, int], x: float, y: float) -> str:
    """:func:`_starter` drawn at ``(x, y)``."""
    return (
        f'<g data-id="{domino_id(halves)}">'
        f'<rect x="{x - 3:g}" y="{y - 3:g}" width="{2 * HALF + 6}" height="{HALF + 6}" '
        f'rx="6" fill="none" stroke="{INK}" stroke-width="1" stroke-dasharray="3 2"/>'
        + domino(x, y, halves, HALF, fill=STARTER_FILL)
        + text(x + HALF, y + HALF + 15, "starter", 13, text_anchor="middle", fill=MUTED)
        + "</g>"
    )


def _sum(total: int) -> Draw:
    return lambda x, y: text(x + 6, y + HALF / 2 + 6, f"= {total}", 16, font_weight="bold")


def train_row(
    view: TugModel,
    seat: int,
    fitting: dict[tuple[int, int], list[str]],
    y: float,
    layout: Layout,
) -> tuple[str, float]:
    """Seat ``seat``'s train at height ``y``: its name, then ``(end 0) tiles {starter}
    tiles (end 1) = sum``, wrapped where it is too long; returns it and its bottom."""
    return _train_row(
        view.seat_name(seat),
        seat,
        view.viewer == seat,
        view.playing[seat],
        view.in_game[seat],
        view.trains[seat],
        view.ends[seat],
        tuple(fitting.get((seat, 0), ())),
        tuple(fitting.get((seat, 1), ())),
        y,
        layout,
    )


# A move lays one tile on one train: every other row is drawn as it was (the same seat's
# picture, or another seat's seeing the same train), so a row is drawn once per look.
@functools.lru_cache(maxsize=8192)
def _train_row(
    name: str,
    seat: int,
    viewer: bool,
    playing: bool,
    in_game: bool,
    line: Line | None,
    ends: Tile | None,
    fits0: tuple[str, ...],
    fits1: tuple[str, ...],
    y: float,
    layout: Layout,
) -> tuple[str, float]:
    head = text(8, y + HALF / 2 + 5, name, 15, font_weight="bold" if viewer else "normal")
    if not playing or line is None or ends is None:
        if not playing:
            why = "out of the game" if not in_game else "sits out the tie-break"
        else:
            why = "no starter yet"
        return head + text(layout.train_x, y + HALF / 2 + 5, why, 14, fill=MUTED), y + HALF + 12
    starter, side0, side1 = line
    gap = 4
    items: list[tuple[float, Draw]] = [
        (HALF + 2 * gap, _shift(_end_box(name, seat, 0, ends[0], fits0, layout), gap))
    ]
    items += [(2 * HALF + gap, _laid((b, a))) for a, b in reversed(side0)]
    items.append((2 * HALF + 3 * gap, _shift(_starter(starter), gap)))
    items += [(2 * HALF + gap, _laid(t)) for t in side1]
    total = ends[0] + ends[1]
    last = _shift(_end_box(name, seat, 1, ends[1], fits1, layout), gap)
    # The last open end and the sum stay on one line.
    items.append((HALF + 2 * gap + 64, _then(last, _sum(total), HALF + 2 * gap)))
    drawn, bottom = flow(items, layout.train_x, y, TRAIN_LINE, layout.width - 8)
    laid = len(side0) + len(side1)
    label = (
        f"{name}'s train: starter {starter[0]}-{starter[1]}, {tiles(laid)} more laid; open "
        f"ends {ends[0]} (end {seat}.0) and {ends[1]} (end {seat}.1), sum {total}"
    )
    return f'{head}<g role="group" aria-label="{esc(label)}">{drawn}</g>', bottom


def trains(view: TugModel, ch: Choices, y: float, layout: Layout) -> tuple[str, float]:
    """Every seat's train, one under another."""
    out = [text(8, y + 14, "Trains", 14, fill=MUTED)]
    y += 24
    ends = ch.fitting()
    for s in range(view.game.num_players):
        row, y = train_row(view, s, ends, y, layout)
        out.append(row)
    return "".join(out), y


# -- the whole picture -----------------------------------------------------------------------


def _summary(view: TugModel) -> str:
    names = view.seat_name
    scores = ", ".join(f"{names(s)} {v}" for s, v in enumerate(view.scores))
    out = f"Tug of War, round {view.round}. {status_line(view)} Scores: {scores}."
    if view.phase not in (DEAL, OVER):
        out += f" Boneyard: {tiles(view.stock_size)}."
    if view.is_view and view.viewer is not None:
        out += f" You are {names(view.viewer)}, holding {tiles(view.sizes[view.viewer])}."
    return out


def board_svg(view: TugModel, seat: int | None, legal: Sequence[str]) -> str:
    """The table as ``view`` holds it, with ``seat``'s ``legal`` moves clickable, laid out
    for a desktop's screen (:data:`~.svg_pieces.WIDE`)."""
    return draw_table(view, seat, legal, WIDE)


def board_svg_narrow(view: TugModel, seat: int | None, legal: Sequence[str]) -> str:
    """:func:`board_svg` laid out for a phone (:data:`~.svg_pieces.NARROW`)."""
    return draw_table(view, seat, legal, NARROW)


def _moved(drawn: str, y: float) -> str:
    """``drawn`` (from its own top) moved down to ``y``."""
    return f'<g transform="translate(0 {y:g})">{drawn}</g>' if drawn else ""


def draw_table(view: TugModel, seat: int | None, legal: Sequence[str], layout: Layout) -> str:
    """The table as ``view`` holds it, with ``seat``'s ``legal`` moves clickable, laid out
    by ``layout``."""
    ch = choices(view, seat, legal)
    body = [
        # The position in words, the picture's description: the root's name says the game
        # only, so that its tag (a long token of a patch) changes less from move to move.
        f"<desc>{esc(_summary(view))}</desc>",
        # The rules of this turn's choices apart from the rest, which never change.
        f"<style>{_STYLE}</style><style>{fit_style(ch)}</style>",
        faces(view.game.dominoes.top, (HALF, HAND_HALF)),
        f'<rect width="{layout.width}" height="100%" fill="#ffffff"/>',
    ]
    sheet, y = score_sheet(view, 6, layout)
    body.append(sheet)
    for line in wrapped(status_line(view), layout.status_chars):
        body.append(text(8, y + 16, line, 16, font_weight="bold"))
        y += 20
    y += 4
    for line in wrapped(hint(ch), layout.hint_chars):
        body.append(text(8, y + 14, line, 14, fill=MUTED))
        y += 18
    # Each part below the words is drawn from its own top and moved down in one
    # transform: words that take another line (whose turn it is) move the parts below by
    # that one token, and a patch of the picture (taut.server.play.patches) stays short.
    drawn, y = laid_as(view, ch, y)
    body.append(drawn)
    drawn, below = trains(view, ch, 6, layout)
    body.append(_moved(drawn, y))
    y += below
    drawn, below = hands(view, ch, 4, layout)
    body.append(_moved(drawn, y))
    y += below
    # The buttons' targets reach above them (10 units on a phone), clear of the hand's.
    drawn, below, compose, defaults = controls(view, ch, 12, layout)
    body.append(_moved(drawn, y))
    y += below
    height = int(y + 10)
    touch = layout.touch_width
    # The page's style draws a narrow table no more than half as large again.
    narrow = "" if layout.wide else " tow-narrow"
    attrs = f' data-compose="{esc(compose)}"' if compose else ""
    if compose and defaults:
        attrs += f' data-defaults="{esc(defaults)}"'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tow-board{narrow}" '
        f'viewBox="0 0 {layout.width} {height}" role="group" '
        f'aria-label="Tug of War" data-touch-width="{touch}" '
        f'style="--touch-width:{touch}px" '
        f'font-family="system-ui, sans-serif" fill="{INK}"{attrs}>' + "".join(body) + "</svg>"
    )
