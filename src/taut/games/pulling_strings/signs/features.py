"""The features of a hand: 21 numbers that say what its fingers, thumb and palm do.

A hand is 21 landmarks ``(x, y, z)`` (see :mod:`.skeleton` for their order) in image axes:
x right, y down, z away from the camera, x and y in the same unit. The features do not
change when the hand moves, grows or shrinks in the image; joint angles and distances
inside the hand do not change when it turns either, and the two that should (where the
hand points, which way the palm faces) are measured against the image's axes.

A left hand is mirrored into a right hand first (``x -> -x``). The caller may say which
hand it is; otherwise the hand tells: fingers fold, and the thumb lies, toward the palm,
and seen as a right hand a left hand's palm is on its back.

``signs.js`` computes the same features in the same order with the same arithmetic;
change both together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from taut.games.pulling_strings.signs.skeleton import FINGERS, FIRST_POINT, Vec

#: The feature names, in the order :func:`features` returns them.
FEATURES: tuple[str, ...] = (
    *(f"{finger}.{what}" for finger in FINGERS for what in ("knuckle", "bend", "to_thumb")),
    "gap.index_middle",
    "gap.middle_ring",
    "gap.ring_little",
    "thumb.across",
    "thumb.up",
    "thumb.out",
    "thumb.direction",
    "hand.direction",
    "hand.facing",
)

#: Number of landmarks in a hand.
POINTS = 21
#: The finger pairs whose tips' separation across the palm is a feature.
GAPS = (("index", "middle"), ("middle", "ring"), ("ring", "little"))


class DegenerateHand(ValueError):
    """The landmarks do not span a hand (its palm has no size or no direction)."""


def _sub(v: Vec, w: Vec) -> Vec:
    return (v[0] - w[0], v[1] - w[1], v[2] - w[2])


def _dot(v: Vec, w: Vec) -> float:
    return v[0] * w[0] + v[1] * w[1] + v[2] * w[2]


def _cross(v: Vec, w: Vec) -> Vec:
    return (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])


def _length(v: Vec) -> float:
    return math.sqrt(_dot(v, v))


def _angle(v: Vec, w: Vec) -> float:
    """The unsigned angle between v and w, in radians (atan2 keeps it exact near 0)."""
    return math.atan2(_length(_cross(v, w)), _dot(v, w))


def palm_size(points: Sequence[Vec]) -> float:
    """The hand's unit of length: the mean distance from the wrist to the four knuckles."""
    wrist = points[0]
    total = 0.0
    for finger in FINGERS:
        total += _length(_sub(points[FIRST_POINT[finger]], wrist))
    return total / 4.0


def hand_axes(points: Sequence[Vec]) -> tuple[Vec, Vec, Vec]:
    """The hand's axes as a right hand's: ``a`` across the knuckles toward the thumb,
    ``u`` from the wrist to the middle knuckle, and ``n = a x u``, out of a right hand's
    palm. Raises :class:`DegenerateHand` when the points give no such axes."""
    up = _sub(points[FIRST_POINT["middle"]], points[0])
    size = _length(up)
    if not size > 0.0:
        raise DegenerateHand("the wrist and the middle knuckle are at the same point")
    u = (up[0] / size, up[1] / size, up[2] / size)
    w = _sub(points[FIRST_POINT["index"]], points[FIRST_POINT["little"]])
    along = _dot(w, u)
    w = (w[0] - along * u[0], w[1] - along * u[1], w[2] - along * u[2])
    width = _length(w)
    if not width > 1e-9 * size:
        raise DegenerateHand("the knuckles lie on the line from the wrist")
    a = (w[0] / width, w[1] / width, w[2] / width)
    return a, u, _cross(a, u)


def palm_side(points: Sequence[Vec]) -> float:
    """How far the fingertips and the thumb's tip and last joint lie on the palm side of
    the hand, read as a right hand (in palm sizes): positive for a right hand, negative for
    a mirrored one."""
    _, _, n = hand_axes(points)
    total = _dot(_sub(points[4], points[0]), n) + _dot(_sub(points[3], points[0]), n)
    for finger in FINGERS:
        first = FIRST_POINT[finger]
        total += _dot(_sub(points[first + 3], points[first]), n)
    return total / palm_size(points)


def mirror(points: Sequence[Vec]) -> list[Vec]:
    """The hand mirrored left to right in the image (a left hand becomes a right one)."""
    return [(-x, y, z) for x, y, z in points]


def features(points: Sequence[Vec]) -> list[float]:
    """The :data:`FEATURES` of a right hand's landmarks (mirror a left hand first).

    Angles are in right angles (1.0 = 90 degrees) or half turns, lengths in palm sizes.
    """
    a, u, n = hand_axes(points)
    size = palm_size(points)
    thumb = points[4]
    out: list[float] = []
    for finger in FINGERS:
        first = FIRST_POINT[finger]
        mcp, pip, dip, tip = points[first : first + 4]
        proximal = _sub(pip, mcp)
        middle = _sub(dip, pip)
        distal = _sub(tip, dip)
        # Flexion at the knuckle: how far the first bone turns from "up" toward the palm
        # side (its lean to either side left out).
        out.append(math.atan2(_dot(proximal, n), _dot(proximal, u)) / (math.pi / 2))
        out.append((_angle(proximal, middle) + _angle(middle, distal)) / math.pi)
        out.append(_length(_sub(tip, thumb)) / size)
    for left, right in GAPS:
        out.append(
            _dot(_sub(points[FIRST_POINT[left] + 3], points[FIRST_POINT[right] + 3]), a) / size
        )
    thumb_from_wrist = _sub(thumb, points[0])
    out.append(_dot(thumb_from_wrist, a) / size)
    out.append(_dot(thumb_from_wrist, u) / size)
    out.append(_dot(thumb_from_wrist, n) / size)
    thumb_dir = _sub(thumb, points[2])
    out.append(math.atan2(_dot(thumb_dir, a), _dot(thumb_dir, u)) / (math.pi / 2))
    # Image up is -y: 0 for a hand pointing up, 1 sideways (or at the camera), 2 down.
    out.append(math.atan2(math.sqrt(u[0] * u[0] + u[2] * u[2]), -u[1]) / (math.pi / 2))
    # The camera looks along +z: 1 with the palm to it, -1 with the back.
    out.append(-n[2])
    return out
