"""The learning game's additions to the board picture: the answer palette and the reveal.

Below the board, the last turn's answers are shown with both faces of every tile involved
(a handshape as its picture) and whether each was right. When the player may move, the
board's ends become parts (``data-part="end=B"``) and a palette of every answer of the
tile set follows, each named by its place this turn (``data-part="answer=@3"``, which the
rules read back: :meth:`LearningState.palette_tile`), in an order shuffled each turn so
that neither a place nor the page gives a tile away; the root's template
``{end}={answer}`` makes the move. The palette is unlabelled: a picture's accessible name
is its description, never its letter.
"""

from __future__ import annotations

import re

from taut.core.svg import PALETTE, esc
from taut.games.pulling_strings.learning import LearningState
from taut.games.pulling_strings.state import O, X
from taut.learn.tileset import Face, TileSet

#: Palette cells per row, and a cell's size: the whole cell takes a click, 48 px or more
#: across on a phone (the board drawn across its width).
COLUMNS, CELL = 7, 56
#: Height of the reveal strip.
REVEAL = 86
_TITLE = re.compile(r"<title>.*?</title>", re.S)
_ROOT_LABEL = re.compile(r'\s(?:role|aria-label)="[^"]*"')

PALETTE_STYLE = (
    ".ps-board [data-part]{cursor:pointer}"
    ".ps-board [data-part]:hover .end-label,.ps-board [data-part]:focus .end-label,"
    ".ps-board [data-part]:hover .pick,.ps-board [data-part]:focus .pick"
    "{stroke:#E69F00;stroke-width:4}"
    ".ps-board .chosen .end-label,.ps-board .chosen .pick{fill:#F0E442}"
)


def picture(face: Face, x: float, y: float, size: float) -> str:
    """``face`` drawn in a ``size`` square at ``(x, y)``: its picture, unlabelled (the
    element around it says what it is), or its text."""
    if face.svg is not None:
        inner = _TITLE.sub("", face.svg)
        head, sep, rest = inner.partition(">")
        head = _ROOT_LABEL.sub("", head)
        head = head.replace(
            "<svg",
            f'<svg x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" aria-hidden="true"',
            1,
        )
        return head + sep + rest
    font = size * (0.5 if len(face.text) <= 2 else 0.34 if len(face.text) <= 4 else 0.26)
    return (
        f'<text x="{x + size / 2:g}" y="{y + size / 2 + font * 0.36:g}" text-anchor="middle" '
        f'font-size="{font:.0f}" font-weight="700" aria-hidden="true">{esc(face.text)}</text>'
    )


def palette(view: LearningState, seat: int, top: int, width: int) -> tuple[str, int]:
    """The answer palette starting at ``top``; returns it and its height."""
    tiles = view.tiles
    order = view.palette_order(seat)
    rows = -(-len(order) // COLUMNS)
    left = (width - COLUMNS * CELL) / 2
    out = [
        f'<text x="{width / 2:g}" y="{top + 18}" text-anchor="middle" font-size="17">'
        f"Choose a string, then its {esc(tiles.other_kind)}:</text>",
        f'<g role="group" aria-label="{esc(tiles.other_kind)} palette">',
    ]
    for n, tile in enumerate(order):
        row, col = divmod(n, COLUMNS)
        x, y = left + col * CELL, top + 28 + row * CELL
        face = tiles.tiles[tile].other
        label = tiles.describe_other(tile)
        out.append(
            f'<g data-part="answer=@{n}" role="button" tabindex="0" '
            f'aria-label="{esc(label)}"><title>{esc(label)}</title>'
            f'<rect x="{x:g}" y="{y:g}" width="{CELL}" height="{CELL}" fill="#ffffff" '
            'fill-opacity="0"/>'
            f'<rect class="pick" x="{x + 2:g}" y="{y + 2:g}" width="{CELL - 4}" '
            f'height="{CELL - 4}" rx="6" fill="#ffffff" stroke="#8a8a8a" stroke-width="1.5"/>'
            f"{picture(face, x + 5, y + 5, CELL - 10)}</g>"
        )
    out.append("</g>")
    return "".join(out), 28 + rows * CELL + 6


def reveal(view: LearningState, top: int, width: int) -> tuple[str, int]:
    """The last turn's answers, both faces shown; returns it and its height (0: none)."""
    if view.answers is None:
        return "", 0
    tiles = view.tiles
    half = width / 2
    out = ['<g role="group" aria-label="the last turn\'s answers">']
    for seat, answer in zip((X, O), view.answers, strict=True):
        x0 = seat * half
        asked = tiles.tiles[answer.asked]
        gave = tiles.tiles[answer.gave]
        verdict = "right" if answer.right else "wrong"
        colour = PALETTE["green"] if answer.right else PALETTE["vermillion"]
        said = _said(view, seat, tiles, answer.asked, answer.gave, verdict)
        mark = "\u2713" if answer.right else "\u2717"
        out.append(
            f'<g aria-label="{esc(said)}" role="img"><title>{esc(said)}</title>'
            # The seat's title, not its letter: "X meant X" read as a riddle.
            f'<text x="{x0 + 10:g}" y="{top + 16}" font-size="17">'
            f"{esc(view.game.seat_titles[seat])} meant "
            f"{esc(view.game.letters[answer.meant])}, gave</text>"
            f"{picture(gave.other, x0 + 10, top + 22, 56)}"
            f'<text x="{x0 + 74:g}" y="{top + 44}" font-size="17" font-weight="700" '
            f'fill="{colour}">{mark} {verdict}</text>'
        )
        if not answer.right:
            out.append(
                f'<text x="{x0 + 74:g}" y="{top + 66}" font-size="16">'
                f"{esc(asked.board.text)} is</text>"
                f"{picture(asked.other, x0 + 140, top + 40, 40)}"
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out), REVEAL


def _said(
    view: LearningState, seat: int, tiles: TileSet, asked: int, gave: int, verdict: str
) -> str:
    meant = tiles.tiles[asked].board.text
    given = tiles.describe_other(gave)
    who = f"{view.game.seat_titles[seat]} ({view.seat_name(seat)})"
    text = f"{who} meant {meant} and gave: {given}. {verdict}."
    if asked != gave:
        text += f" {meant} is: {tiles.describe_other(asked)}"
    return text
