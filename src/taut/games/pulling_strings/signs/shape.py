"""The numbers the learnt recogniser reads from a hand: its shape in the image, made alike
for every place, size and side of the hand.

A hand is 21 landmarks ``(x, y, z)`` in one unit (x right, y down; see :mod:`.skeleton`
for their order). Only x and y are used: a tracker's depth is its least certain number,
and some recorders leave it out. Before anything is measured:

1. the wrist goes to the origin;
2. the hand is seen as a left hand seen from its palm would be *in the picture*: when the
   turn from the wrist-to-middle-knuckle line to the little-to-index knuckle line runs the
   other way, x is mirrored. So a left hand, a right hand and a mirrored video all read
   alike, and no handedness label is needed (trackers often get it wrong on mirrored
   video);
3. lengths are divided by the palm's size in the picture (the mean distance from the wrist
   to the four knuckles).

Then :func:`shape` gives, in :data:`SHAPE` order: every landmark's place turned so that the
wrist-to-middle-knuckle line points up (the handshape whatever its turn), the distances
between fingertips and from each fingertip to the thumb's two outer joints (what touches
what), every landmark's place unturned (where the fingers point in the picture: H and U,
or K and P, differ only there) and the cosine and sine of the hand's turn.

``signs.js`` computes the same numbers in the same order with the same arithmetic; change
both together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from taut.games.pulling_strings.signs.skeleton import Vec

#: Landmarks in a hand.
POINTS = 21
#: Fingertips, thumb first.
TIPS = (4, 8, 12, 16, 20)
#: The thumb's two outer joints, which the fingertips touch in E, M, N, S, T, O.
THUMB_JOINTS = (2, 3)
#: Knuckles whose distance from the wrist is the palm's size.
KNUCKLES = (5, 9, 13, 17)


def _names() -> tuple[str, ...]:
    names = [f"turned.{i}.{axis}" for i in range(1, POINTS) for axis in "xy"]
    names += [f"apart.{a}.{b}" for k, a in enumerate(TIPS) for b in TIPS[k + 1 :]]
    names += [f"apart.{t}.{j}" for t in TIPS[1:] for j in THUMB_JOINTS]
    names += [f"placed.{i}.{axis}" for i in range(1, POINTS) for axis in "xy"]
    names += ["turn.cos", "turn.sin"]
    return tuple(names)


#: The names of :func:`shape`'s numbers, in order.
SHAPE: tuple[str, ...] = _names()


class NoHandShape(ValueError):
    """The landmarks do not span a hand in the picture (no palm, or no direction)."""


def canonical(points: Sequence[Vec]) -> list[tuple[float, float]]:
    """The landmarks' x, y from the wrist, mirrored to one side and in palm sizes (steps
    1-3 of the module's docstring). Raises :class:`NoHandShape` for a hand with no size."""
    x0, y0 = points[0][0], points[0][1]
    flat = [(p[0] - x0, p[1] - y0) for p in points]
    ux, uy = flat[9]
    ax, ay = flat[5][0] - flat[17][0], flat[5][1] - flat[17][1]
    if ux * ay - uy * ax < 0.0:
        flat = [(-x, y) for x, y in flat]
    size = 0.0
    for k in KNUCKLES:
        size += math.sqrt(flat[k][0] * flat[k][0] + flat[k][1] * flat[k][1])
    size /= 4.0
    if not size > 0.0:
        raise NoHandShape("the knuckles are at the wrist")
    return [(x / size, y / size) for x, y in flat]


def _apart(p: tuple[float, float], q: tuple[float, float]) -> float:
    # sqrt of the sum, not hypot: the browser's hypot rounds differently.
    dx, dy = p[0] - q[0], p[1] - q[1]
    return math.sqrt(dx * dx + dy * dy)


def shape(points: Sequence[Vec]) -> list[float]:
    """The :data:`SHAPE` numbers of 21 landmarks in one unit (see the module's docstring).
    Raises :class:`NoHandShape` when they give no hand."""
    if len(points) != POINTS:
        raise NoHandShape(f"a hand has {POINTS} landmarks, not {len(points)}")
    q = canonical(points)
    ux, uy = q[9]
    if not ux * ux + uy * uy > 0.0:
        raise NoHandShape("the middle knuckle is at the wrist")
    # The turn from "up" (image -y) to the wrist-to-middle-knuckle line.
    turn = math.atan2(ux, -uy)
    c, s = math.cos(turn), math.sin(turn)
    turned = [(x * c + y * s, x * s - y * c) for x, y in q]
    out: list[float] = []
    for x, y in turned[1:]:
        out.append(x)
        out.append(y)
    for k, a in enumerate(TIPS):
        for b in TIPS[k + 1 :]:
            out.append(_apart(turned[a], turned[b]))
    for t in TIPS[1:]:
        for j in THUMB_JOINTS:
            out.append(_apart(turned[t], turned[j]))
    for x, y in q[1:]:
        out.append(x)
        out.append(y)
    out.append(c)
    out.append(s)
    return out
