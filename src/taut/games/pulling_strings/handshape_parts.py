"""Shared geometry of the ASL handshape drawings: palm, fingers, thumbs, nails and arrows.

Every part is drawn in one *hand frame*: a right hand held upright with its palm toward the
viewer, in the 100 x 100 box of the picture. Seen so, the thumb is on the viewer's right
and the fingers stand from left to right as little, ring, middle and index finger, their
knuckles along the top of the palm. A pose turns or mirrors the whole frame afterwards
(see ``handshape_render``), so the parts never need another orientation.

Fingers and thumbs are round-ended strokes drawn twice, a wide dark one under a narrower
skin-coloured one: this gives every part the same outline whatever its curve, and a part
laid over another is set off from it by its own outline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

#: Skin on the palm side of the hand.
SKIN = "#F2C9A0"
#: Skin on the back of the hand: one shade darker, so the two sides never look alike.
BACK = "#DCA574"
#: Outlines.
INK = "#333"
#: Palm creases and knuckle marks, lighter than the outline.
CREASE = "#B07A52"
#: Fingernails and thumbnails.
NAIL = "#FBE7DA"
#: Motion arrows (Okabe-Ito blue, distinct from skin for colour-blind viewers too).
ARROW = "#0072B2"
#: Width of the dark edge on each side of a stroked part.
EDGE = 1.5

#: The fingers from the viewer's left to right in the hand frame.
FINGERS = ("little", "ring", "middle", "index")


@dataclass(frozen=True)
class Column:
    """Where a finger stands: the x of its centre line, its width and its length."""

    x: float
    width: float
    length: float


#: The four fingers in the hand frame.
COLUMNS: dict[str, Column] = {
    "little": Column(35.0, 7.4, 23.0),
    "ring": Column(43.5, 8.2, 30.0),
    "middle": Column(52.0, 8.6, 34.0),
    "index": Column(60.5, 8.4, 30.0),
}
#: Where a straight finger's centre line starts, hidden behind the top of the palm.
BASE_Y = 54.0

#: The palm in the hand frame (its top edge is the line of the knuckles).
PALM = (
    "M30.5 50C30.5 47 33 46 36 46L63.5 46C66.5 46 68.5 48 68.5 51L68 73"
    "C68 84 62 90 54 91L44 91C36 90 31 84 30.5 76Z"
)
#: The wrist below the palm.
WRIST = "M38 84L38 101L61 101L61 84"
#: Creases that say "this is the palm": the line under the fingers and the one round the thumb.
PALM_CREASES = ("M32 57C41 60 50 56 60 53", "M65 57C57 64 54 76 57 89")


def num(value: float) -> str:
    """A coordinate with at most one decimal and no trailing zeros, to keep SVGs small."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def capsule(d: str, width: float, fill: str) -> str:
    """The path ``d`` drawn as a round-ended part ``width`` wide with a dark outline."""
    return (
        f'<path d="{d}" stroke="{INK}" stroke-width="{num(width + 2 * EDGE)}"/>'
        f'<path d="{d}" stroke="{fill}" stroke-width="{num(width)}"/>'
    )


def line(d: str, colour: str = CREASE, width: float = 1.0) -> str:
    """A thin detail line (a crease, a knuckle mark)."""
    return f'<path d="{d}" stroke="{colour}" stroke-width="{num(width)}"/>'


def nail(x: float, y: float, angle: float, width: float) -> str:
    """A fingernail centred at (x, y) on a finger ``width`` wide pointing ``angle`` degrees
    clockwise from straight up."""
    rx, ry = width * 0.3, width * 0.38
    turn = f' transform="rotate({num(angle)} {num(x)} {num(y)})"' if angle else ""
    return (
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(rx)}" ry="{num(ry)}" fill="{NAIL}" '
        f'stroke="{CREASE}" stroke-width=".8"{turn}/>'
    )


def tip(name: str, angle: float = 0.0, reach: float = 1.0) -> tuple[float, float]:
    """Where a straight finger's centre line ends when it leans ``angle`` degrees toward the
    thumb and is ``reach`` of its full length (less than 1 when it points at the viewer)."""
    col = COLUMNS[name]
    rad = math.radians(angle)
    length = col.length * reach
    return col.x + length * math.sin(rad), BASE_Y - length * math.cos(rad)


def arrow(d: str, head: tuple[float, float, float, float]) -> str:
    """A motion arrow along ``d`` with its head at (x, y) of the last two numbers of
    ``head``, pointing away from the first two."""
    fx, fy, x, y = head
    angle = math.atan2(y - fy, x - fx)
    size = 6.0
    left = (x - size * math.cos(angle - 0.45), y - size * math.sin(angle - 0.45))
    right = (x - size * math.cos(angle + 0.45), y - size * math.sin(angle + 0.45))
    tip_x, tip_y = x + 1.5 * math.cos(angle), y + 1.5 * math.sin(angle)
    return (
        f'<path d="{d}" stroke="#fff" stroke-width="5"/>'
        f'<path d="{d}" stroke="{ARROW}" stroke-width="2.6"/>'
        f'<path d="M{num(left[0])} {num(left[1])}L{num(tip_x)} {num(tip_y)}'
        f'L{num(right[0])} {num(right[1])}Z" fill="{ARROW}" stroke="{ARROW}" '
        f'stroke-width="1.5"/>'
    )


@dataclass(frozen=True)
class Thumb:
    """A thumb position: its centre line ``d`` in the hand frame, whether it lies over the
    palm (``"palm"``) or stands out beside it (``"out"``, drawn behind the palm's edge),
    the fingers that lie over it, and where its nail shows (x, y, angle) when it does."""

    d: str
    layer: Literal["palm", "out"] = "palm"
    under: tuple[str, ...] = ()
    nail: tuple[float, float, float] | None = None
    width: float = 9.0


#: Where every thumb that lies over the palm starts: the pad at the heel of the thumb. A
#: patch of palm is painted over it afterwards, so the thumb grows out of the palm.
THUMB_BASE = (60.0, 80.0)
#: The curve from the thumb's base up to the palm's edge, shared by thumbs over the palm.
_ROOT = "M60 80C66 78 71 72 70 65"

#: The thumb positions that fingerspelling uses, by name.
THUMBS: dict[str, Thumb] = {
    # A: straight up against the side of the fist.
    "beside": Thumb("M60 80C68 78 71.5 70 71.5 60L70.5 45", nail=(71.2, 45.5, -4)),
    # S: bent across the front of the curled index and middle fingers.
    "across": Thumb(_ROOT + "C69 59 60 58 46 59", nail=(48.5, 59, -95)),
    # T: up between the index and middle fingers, the index curled over it.
    "between": Thumb("M60 80C67 76 69 66 64 58L56.5 40.5", under=("index",), nail=(56.8, 41, -28)),
    # M and N: tucked under the draped fingers, its tip showing under the next finger.
    "under3": Thumb(
        "M60 80C62 76 60 75 55 75L42 75C38 75 35.5 73 35.5 70",
        under=("index", "middle", "ring"),
        nail=(35.5, 69.5, -10),
    ),
    "under2": Thumb(
        "M60 80C62 76 60 75 55 75L50 75C46 75 44 73 44 70",
        under=("index", "middle"),
        nail=(44, 69.5, -10),
    ),
    # B: folded across the palm.
    "folded": Thumb(_ROOT + "C69 60 56 63 45 66", nail=(47.5, 65.5, -100)),
    # E: across the palm under the bent fingertips.
    "low": Thumb(_ROOT + "C69 60 54 62 39 63", nail=(41.5, 63, -90)),
    # U, V, R, H: holding the ring and little fingers down.
    "hold2": Thumb(_ROOT + "C69 59 56 59 40 59", nail=(42.5, 59, -92)),
    # W: holding the little finger down.
    "hold1": Thumb(_ROOT + "C69 60 52 60 36 60", nail=(38.5, 60, -92)),
    # I, J: across the curled index, middle and ring fingers.
    "hold3": Thumb(_ROOT + "C69 59 58 59 45 60", nail=(47.5, 60, -92)),
    # The pointing hand (X, Z): across the curled middle and ring fingers.
    "hold_mid": Thumb(_ROOT + "C69 59 58 59 47 60", nail=(49.5, 60, -92)),
    # L: straight out to the side.
    "out": Thumb("M62 78C70 74 78 69 87 64", layer="out"),
    # Y: out and up.
    "wide": Thumb("M62 78C69 72 76 64 83 55", layer="out"),
    # G, Q: up beside the index finger and parallel to it.
    "parallel": Thumb("M64 78C71 70 73.5 58 73.5 42", layer="out"),
    # K, P: its tip against the middle finger, between the index and middle fingers.
    "touch_middle": Thumb("M60 80C67 76 69 66 64 59L56.5 43", nail=(57, 43.5, -35)),
    # P: as for K, but reaching further up so its tip shows between the spread fingers
    # from the back.
    "between_spread": Thumb("M60 80C67 76 69 66 64 59L54 37"),
    # F: its tip meeting the index fingertip in a ring.
    "ring_index": Thumb("M60 80C66 78 72 72 74 64C75.5 58 76 53 74 48.5", nail=(74.5, 49.5, -10)),
    # D: its tip meeting the middle fingertip in a ring.
    "ring_middle": Thumb(_ROOT + "C69 60 60 61 55 60", nail=(57, 60.5, -100)),
}

#: The side view (C and O), by thumb name: the centre lines of the fingers' curve and of the
#: thumb's curve. Both start inside the edge of the hand (:data:`SIDE_HAND`), which is
#: drawn over their roots.
SIDE_CURVES: dict[str, tuple[str, str]] = {
    # C: the fingertips and thumb tip apart, the curve open to the viewer's right.
    "side_open": (
        "M37 60C36 32 50 20 63 22C72 24 78 32 77.5 41",
        "M46 73C56 84 71 82 77 70",
    ),
    # O: the fingertips resting on the thumb tip.
    "side_closed": (
        "M37 60C36 32 50 21 61 23C71 25 74 40 67 54",
        "M46 73C55 82 65 74 66.5 62",
    ),
}
#: The edge of the hand and the wrist in the side view, the palm's pad to the right.
SIDE_HAND = "M30 101L30 58C30 50 35 46 41 48C47 50 51 55 53 62C56 68 56 76 53 84L52 101"
