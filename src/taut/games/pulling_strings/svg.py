"""The Pulling Strings board as an SVG picture for the browser.

The 5x5 grid of intersections with its ten strings; every string end carries its letter
(the 2003 letters on round labels, the published edition's letters on square tiles). The
homes are drawn in their side's colour (X blue, O vermillion) with a shape that says whose
they are without colour: X and O marks on the 2003 board, squares and circles on the
published one. Stacks are dark discs with their count; a stack on a home takes the home's
colour and keeps its mark beside it. A broken end is a frayed stub and a struck-through,
dashed label.

Each unbroken end that ``legal`` lists is a button (``data-move`` = its letter; an
invisible disc larger than its label takes the clicks), in clockwise order for the
keyboard: the top ends left to right, the right ends top to bottom, the bottom ends right
to left, the left ends bottom to top.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

from taut.core.svg import esc
from taut.games.pulling_strings.board import HOME_CELLS, NUM_CELLS, NUM_ENDS, SIZE, end_name
from taut.games.pulling_strings.diagram import SEAT_COLOURS
from taut.games.pulling_strings.learning import LearningState
from taut.games.pulling_strings.narrate import answer_words_template, end_words
from taut.games.pulling_strings.rules import PullingStringsState

#: Distance between neighbouring intersections.
STEP = 60
#: Where column 0 and row 0 lie: the ends' labels need little room beyond them, and every
#: unit less draws the board larger on a phone (some 350 px wide).
ORIGIN = 80
#: Distance from the outer row or column to the centre of an end's label.
REACH = 50
WIDTH = 2 * ORIGIN + (SIZE - 1) * STEP
HEIGHT = WIDTH + 44

#: Radius of the invisible disc that takes a click on an end (larger than its label): half
#: the step between ends, 45 px or more across on a phone.
HIT_RADIUS = 30
_INK = "#1a1a1a"
_MUTED = "#8a8a8a"
_LABEL = 17
_OWNER = {c: 0 for c in HOME_CELLS[0]} | {c: 1 for c in HOME_CELLS[1]}
_ORDINALS = ("left", "second", "middle", "fourth", "right")
_ROWS = ("top", "second", "middle", "fourth", "bottom")
#: Clockwise from the top left: the keyboard's order through the ends.
CLOCKWISE: tuple[int, ...] = (
    tuple(range(0, 5)) + tuple(range(5, 10)) + tuple(range(14, 9, -1)) + tuple(range(19, 14, -1))
)

_STYLE = (
    ".ps-board [data-move]{cursor:pointer}"
    ".ps-board [data-move]:hover .end-label,.ps-board [data-move]:focus .end-label"
    "{stroke:#E69F00;stroke-width:4}"
    ".ps-board .chosen .end-label{fill:#E69F00}"
)


def _xy(cell: int) -> tuple[int, int]:
    row, col = divmod(cell, SIZE)
    return ORIGIN + col * STEP, ORIGIN + row * STEP


def end_xy(end: int) -> tuple[int, int]:
    """The centre of an end's label."""
    side, i = divmod(end, SIZE)
    near, far = ORIGIN - REACH, ORIGIN + (SIZE - 1) * STEP + REACH
    line = ORIGIN + i * STEP
    return ((line, near), (far, line), (line, far), (near, line))[side]


def end_title(end: int) -> str:
    """Where an end is, in words: ``the top of the middle column``."""
    side, i = divmod(end, SIZE)
    if side in (0, 2):
        return f"the {('top', 'bottom')[side // 2]} of the {_ORDINALS[i]} column"
    return f"the {('right', 'left')[side // 3]} end of the {_ROWS[i]} row"


def _strings() -> str:
    """The ten strings between their labels (stubs of broken ends are drawn over them)."""
    low, high = ORIGIN - REACH + _LABEL, ORIGIN + (SIZE - 1) * STEP + REACH - _LABEL
    parts = []
    for i in range(SIZE):
        at = ORIGIN + i * STEP
        parts.append(f'<line x1="{at}" y1="{low}" x2="{at}" y2="{high}"/>')
        parts.append(f'<line x1="{low}" y1="{at}" x2="{high}" y2="{at}"/>')
    return f'<g stroke="#6b4f2a" stroke-width="3" aria-hidden="true">{"".join(parts)}</g>'


def _broken_stub(end: int) -> str:
    """Paper over an end's string near its label and draw a frayed cut."""
    x, y = end_xy(end)
    side = end // SIZE
    # Unit vector from the label toward the board.
    dx, dy = ((0, 1), (-1, 0), (0, -1), (1, 0))[side]
    gap_from, gap_to = _LABEL - 2, REACH - 22
    ax, ay = x + dx * gap_from, y + dy * gap_from
    bx, by = x + dx * gap_to, y + dy * gap_to
    cover = f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#ffffff" stroke-width="7"/>'
    # A zigzag where the string ends: a cut, not a line that merely stops.
    px, py = -dy, dx
    zig = " ".join(
        f"{bx + dx * k * 3 + px * w},{by + dy * k * 3 + py * w}"
        for k, w in enumerate((-4, 4, -4, 4))
    )
    return (
        f'<g data-id="cut-{end_name(end)}" aria-hidden="true">{cover}'
        f'<polyline points="{zig}" fill="none" '
        f'stroke="#6b4f2a" stroke-width="2"/></g>'
    )


def _label_shape(x: int, y: int, published: bool, cls: str, extra: str) -> str:
    if published:
        s = 2 * _LABEL - 2
        return (
            f'<rect class="{cls}" x="{x - s // 2}" y="{y - s // 2}" width="{s}" height="{s}" '
            f'rx="5" {extra}/>'
        )
    return f'<circle class="{cls}" cx="{x}" cy="{y}" r="{_LABEL - 1}" {extra}/>'


def _end(
    view: PullingStringsState,
    end: int,
    move: str | None,
    attr: str = "data-move",
    words: str | None = None,
) -> str:
    """One end's label: a button when ``move`` is given (``attr`` says whether it is a
    whole move or a part of one; ``words``, a part's words where the page composes a move
    in words), struck through when broken."""
    game = view.game
    published = game.options["edition"] == "published"
    broken = bool(view.broken >> end & 1)
    return _end_drawn(published, game.letters[end], end, broken, move, attr, words)


@functools.lru_cache(maxsize=8192)
def _end_drawn(
    published: bool,
    letter_text: str,
    end: int,
    broken: bool,
    move: str | None,
    attr: str,
    words: str | None,
) -> str:
    """:func:`_end` from what it depends on: a server draws the same ends again and again."""
    x, y = end_xy(end)
    letter = esc(letter_text)
    # The end's identity across positions (the page animates what changes).
    ident = f'data-id="end-{end_name(end)}"'
    text = f'<text x="{x}" y="{y + 7}" text-anchor="middle">{letter}</text>'
    if broken:
        shape = _label_shape(
            x, y, published, "end-label", 'fill="#f2f2f2" stroke="#8a8a8a" stroke-dasharray="4 3"'
        )
        strike = (
            f'<line x1="{x - 11}" y1="{y + 11}" x2="{x + 11}" y2="{y - 11}" '
            f'stroke="{_INK}" stroke-width="2"/>'
        )
        return (
            f'<g class="end broken" {ident} fill="{_MUTED}"><title>{letter}: broken</title>'
            f"{shape}{text}{strike}</g>"
        )
    fill = "#f3e2bf" if published else "#ffffff"
    shape = _label_shape(
        x, y, published, "end-label", f'fill="{fill}" stroke="{_INK}" stroke-width="2"'
    )
    if move is None:
        return f'<g class="end" {ident} fill="{_INK}">{shape}{text}</g>'
    label = f"pull {letter_text}, {end_title(end)}"
    said = "" if words is None else f' data-part-words="{esc(words)}"'
    return (
        f'<g class="end" {ident} fill="{_INK}" {attr}="{esc(move)}"{said} role="button" '
        f'tabindex="0" '
        f'aria-label="{esc(label)}">{_hit(x, y)}{shape}{text}</g>'
    )


def _hit(x: int, y: int) -> str:
    """An invisible disc under a clickable end: a finger's target (44 CSS pixels across
    when the board is drawn 360 pixels wide, a phone's), larger than the label it carries;
    neighbouring ends' discs never overlap, not even at the corners."""
    return f'<circle cx="{x}" cy="{y}" r="{HIT_RADIUS}" fill="#ffffff" fill-opacity="0"/>'


def _home_mark(seat: int, x: int, y: int, published: bool, small: bool) -> str:
    """A home's mark: a square or circle outline (published), or the letter X or O."""
    colour = SEAT_COLOURS[seat]
    if published:
        size = 48 if not small else 14
        if seat == 0:
            return (
                f'<rect class="home" x="{x - size // 2}" y="{y - size // 2}" width="{size}" '
                f'height="{size}" fill="{colour}" fill-opacity="0.15" stroke="{colour}" '
                'stroke-width="3"/>'
            )
        return (
            f'<circle class="home" cx="{x}" cy="{y}" r="{size // 2 + 2}" fill="{colour}" '
            f'fill-opacity="0.15" stroke="{colour}" stroke-width="3"/>'
        )
    # A small mark reads at 12 px on a phone (the board some 340 px wide).
    size = 16 if small else 32
    # A patch of paper under a large mark keeps the strings from running through the letter.
    patch = (
        ""
        if small
        else f'<circle cx="{x}" cy="{y}" r="19" fill="#ffffff" stroke="{colour}" '
        'stroke-width="1.5" stroke-dasharray="3 3"/>'
    )
    return (
        f'{patch}<text class="home" x="{x}" y="{y + size * 0.36:.0f}" text-anchor="middle" '
        f'font-size="{size}" font-weight="700" fill="{colour}" stroke="#ffffff" '
        f'stroke-width="{1 if small else 3}" paint-order="stroke">{"XO"[seat]}</text>'
    )


def _cell(view: PullingStringsState, cell: int) -> str:
    """An intersection: its home (if any) and its stack (if any)."""
    published = view.game.options["edition"] == "published"
    return _cell_drawn(published, cell, view.stacks.get(cell, 0))


@functools.lru_cache(maxsize=4096)
def _cell_drawn(published: bool, cell: int, disks: int) -> str:
    """:func:`_cell` from what it depends on (drawn once, whatever the position)."""
    x, y = _xy(cell)
    owner = _OWNER.get(cell)
    parts = []
    if owner is not None and (published or not disks):
        parts.append(_home_mark(owner, x, y, published, small=False))
    if disks:
        fill = _INK if owner is None else SEAT_COLOURS[owner]
        # Stacks split and combine, so they have no identity: ``data-alike`` lets the page
        # match each with the nearest stack of the next position.
        parts.append(
            f'<g data-alike="stack"><circle cx="{x}" cy="{y}" r="17" fill="{fill}" '
            f'stroke="#ffffff" stroke-width="2"/><text x="{x}" y="{y + 6}" text-anchor="middle" '
            f'font-size="17" font-weight="700" fill="#ffffff">{disks}</text></g>'
        )
        if owner is not None and not published:
            parts.append(_home_mark(owner, x + 20, y - 16, published, small=True))
    elif owner is None:
        parts.append(f'<circle cx="{x}" cy="{y}" r="4" fill="#6b4f2a"/>')
    return "".join(parts)


def describe(view: PullingStringsState) -> str:
    """The position in words, for the picture's accessible name."""
    game = view.game
    marks = ("X", "O") if game.options["edition"] == "classic" else ("square", "circle")
    stacks = []
    for cell, n in sorted(view.stacks.items()):
        owner = _OWNER.get(cell)
        home = "" if owner is None else f" ({marks[owner]} home of {'XO'[owner]})"
        stacks.append(f"{n} at {game.cell_name(cell)}{home}")
    hx, ho = view.home()
    broken = view.broken_letters()
    parts = [
        f"{game.title}, turn {view.turn}",
        "stacks: " + ("; ".join(stacks) or "none"),
        f"disks home: X {hx}, O {ho} (5 win)",
        "broken ends: " + (", ".join(broken) or "none"),
    ]
    if view.outcome is not None:
        parts.append(f"game over: {view.describe_outcome()}")
    return ". ".join(parts) + "."


def _status(view: PullingStringsState) -> str:
    """The line under the board: disks home on each side, the turn, the result."""
    hx, ho = view.home()
    names = view.game.seat_titles
    y = WIDTH + 22
    line = (
        f'<tspan fill="{SEAT_COLOURS[0]}" font-weight="700">X ({esc(names[0])}) {hx}</tspan>'
        f' \u00b7 <tspan fill="{SEAT_COLOURS[1]}" font-weight="700">O ({esc(names[1])}) {ho}'
        f"</tspan> home \u00b7 turn {view.turn}"
    )
    if view.outcome is not None:
        line += f" \u00b7 {esc(view.describe_outcome())}"
    return f'<text x="{WIDTH // 2}" y="{y}" text-anchor="middle" font-size="16">{line}</text>'


def board_svg(view: PullingStringsState, seat: int | None, legal: Sequence[str]) -> str:
    """The board drawn from ``view``; the ends in ``legal`` (``seat``'s unbroken ends, by
    letter) are buttons, and nothing is clickable when ``legal`` is empty. A learning game
    adds the last turn's answers and, when ``seat`` may move, the answer palette."""
    if isinstance(view, LearningState):
        return _learning_svg(view, seat, legal)
    moves: dict[int, str] = {}
    if seat is not None:
        for move in legal:
            moves[view.string_to_action(seat, move)] = move
    # Both seats see the same position (nothing is hidden), and with the same buttons the
    # same board: a server draws it once for them and the spectators.
    key = (id(view), tuple(moves.items()))
    found = _DRAWN.get(key)
    if found is not None and found[0] is view:
        return found[1]
    drawn = _svg(view, [_end(view, e, moves.get(e)) for e in CLOCKWISE], HEIGHT, "", "")
    if len(_DRAWN) >= _DRAWN_KEPT:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del _DRAWN[next(iter(_DRAWN))]  # the oldest
    _DRAWN[key] = (view, drawn)
    return drawn


#: Boards drawn lately, by the view's ``id`` and the buttons (with the view, so that the
#: key stays its own while it is kept), oldest first.
_DRAWN: dict[tuple[int, tuple[tuple[int, str], ...]], tuple[PullingStringsState, str]] = {}
#: How many boards are kept: a few per game being played on a busy server.
_DRAWN_KEPT = 2048


def _learning_svg(view: LearningState, seat: int | None, legal: Sequence[str]) -> str:
    from taut.games.pulling_strings.svg_learning import PALETTE_STYLE, palette, reveal

    letters = view.game.letters
    choosing = seat is not None and bool(legal)
    ends = [
        _end(
            view,
            e,
            f"end={letters[e]}" if choosing and not view.broken >> e & 1 else None,
            "data-part",
            end_words(view, e),
        )
        for e in CLOCKWISE
    ]
    shown, height = reveal(view, HEIGHT, WIDTH)
    extra = [shown]
    root = ""
    if choosing and seat is not None:
        picks, tall = palette(view, seat, HEIGHT + height, WIDTH)
        extra.append(picks)
        height += tall
        # The move in words, composed by the page from the parts (the moves are never
        # listed in a learning game: they hold the answers).
        words = esc(answer_words_template(view, seat))
        root = f'data-compose="{{end}}={{answer}}" data-compose-words="{words}" data-palette="" '
    return _svg(view, ends, HEIGHT + height, "".join(extra), root, PALETTE_STYLE)


def _svg(
    view: PullingStringsState,
    ends: list[str],
    height: int,
    extra: str,
    root: str,
    style: str = "",
) -> str:
    body = [_strings()]
    body += [_broken_stub(e) for e in range(NUM_ENDS) if view.broken >> e & 1]
    body += [_cell(view, c) for c in range(NUM_CELLS)]
    body.append('<g font-size="20" font-weight="700" font-family="sans-serif">')
    body += ends
    body.append("</g>")
    body.append(_status(view))
    body.append(extra)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="ps-board" role="group" aria-label="{esc(describe(view))}" {root}'
        f'font-family="sans-serif"><style>{_STYLE}{style}</style>'
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>{"".join(body)}</svg>'
    )
