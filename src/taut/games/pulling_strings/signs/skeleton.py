"""A 21-point hand skeleton posed from joint angles: the forward model of a typical hand.

Points are numbered as MediaPipe Hands numbers them: 0 the wrist; 1-4 the thumb's CMC,
MCP, IP joints and tip; then four points (MCP, PIP, DIP, tip) for each of the index
(5-8), middle (9-12), ring (13-16) and little (17-20) fingers.

The skeleton is built in the *hand frame*, in centimetres: a right hand with the wrist at
the origin, ``a`` across the palm toward the thumb, ``u`` up the palm toward the middle
knuckle and ``p`` out of the palm (``p = a x u``). Bone lengths are those of a typical
adult hand. :func:`orient` then turns the hand into image coordinates, where x runs right,
y down and z away from the camera, as MediaPipe's landmarks do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: A point or direction in three dimensions.
Vec = tuple[float, float, float]

#: The four fingers, in the order of their landmarks.
FINGERS = ("index", "middle", "ring", "little")
#: The first landmark (the MCP joint) of each finger; its PIP, DIP and tip follow.
FIRST_POINT = {"index": 5, "middle": 9, "ring": 13, "little": 17}
#: The thumb's landmarks: CMC, MCP, IP, tip.
THUMB_POINTS = (1, 2, 3, 4)

#: Where each finger's MCP joint (knuckle) sits in the hand frame, in cm.
KNUCKLES: dict[str, Vec] = {
    "index": (2.3, 9.0, 0.0),
    "middle": (0.4, 9.4, 0.0),
    "ring": (-1.4, 9.0, 0.0),
    "little": (-3.1, 8.2, 0.0),
}
#: The proximal, middle and distal bones of each finger, in cm.
BONES: dict[str, tuple[float, float, float]] = {
    "index": (4.0, 2.4, 1.9),
    "middle": (4.5, 2.8, 2.0),
    "ring": (4.2, 2.7, 2.0),
    "little": (3.3, 2.0, 1.8),
}
#: The thumb's metacarpal, proximal and distal bones, in cm.
THUMB_BONES = (3.8, 3.0, 2.5)
#: The thumb's CMC joint (the base of its metacarpal) in the hand frame, in cm.
THUMB_CMC: Vec = (1.9, 2.4, 1.0)


def add(v: Vec, w: Vec) -> Vec:
    """v + w."""
    return (v[0] + w[0], v[1] + w[1], v[2] + w[2])


def sub(v: Vec, w: Vec) -> Vec:
    """v - w."""
    return (v[0] - w[0], v[1] - w[1], v[2] - w[2])


def mul(v: Vec, k: float) -> Vec:
    """k v."""
    return (v[0] * k, v[1] * k, v[2] * k)


def norm(v: Vec) -> float:
    """The length of v."""
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


@dataclass(frozen=True)
class FingerJoints:
    """A finger's flexion at its MCP, PIP and DIP joints and its lean toward the thumb
    (abduction), all in degrees."""

    mcp: float
    pip: float
    dip: float
    lean: float = 0.0


@dataclass(frozen=True)
class HandSpec:
    """Everything the forward model needs to pose one hand.

    ``fingers`` holds each finger's joints. ``thumb`` is the thumb's MCP, IP and tip in
    the hand frame (its CMC is :data:`THUMB_CMC`). ``contacts`` names the fingers whose
    tips the thumb tip meets: the thumb is moved onto them after the fingers are posed,
    so a touch survives any change of the fingers' angles. ``view`` and ``turn`` say how
    the hand is shown (``front``: palm to the camera; ``back``; ``side``: palm to the
    image's right) and how far it is turned clockwise in the image, in degrees. ``scale``
    stretches a finger's bones (by finger name; 1 when absent).
    """

    fingers: dict[str, FingerJoints]
    thumb: tuple[Vec, Vec, Vec]
    contacts: tuple[str, ...] = ()
    view: str = "front"
    turn: float = 0.0
    scale: dict[str, float] = field(default_factory=dict)


def finger_points(name: str, joints: FingerJoints, scale: float = 1.0) -> list[Vec]:
    """The MCP, PIP, DIP and tip of finger ``name`` posed at ``joints``.

    The finger starts along ``u`` leaned toward ``a`` by ``joints.lean``; each flexion
    turns the following bones toward the palm side ``p`` (past 90 degrees they point back
    down toward the wrist, as a curled finger does)."""
    lean = math.radians(joints.lean)
    base = (math.sin(lean), math.cos(lean), 0.0)
    out = [KNUCKLES[name]]
    total = 0.0
    for bone, flex in zip(BONES[name], (joints.mcp, joints.pip, joints.dip), strict=True):
        total += math.radians(flex)
        direction = add(mul(base, math.cos(total)), (0.0, 0.0, math.sin(total)))
        out.append(add(out[-1], mul(direction, bone * scale)))
    return out


def skeleton(spec: HandSpec) -> list[Vec]:
    """The 21 points of the hand posed by ``spec``, in the hand frame (cm)."""
    points: list[Vec] = [(0.0, 0.0, 0.0)] * 21
    for name in FINGERS:
        first = FIRST_POINT[name]
        posed = finger_points(name, spec.fingers[name], spec.scale.get(name, 1.0))
        points[first : first + 4] = posed
    mcp, ip, tip = spec.thumb
    if spec.contacts:
        # The thumb's pad meets the fingertips: its tip goes where they are, a little to
        # the palm side, and its joints follow part of the way.
        tips = [points[FIRST_POINT[n] + 3] for n in spec.contacts]
        meet = mul(tips[0], 0.0)
        for t in tips:
            meet = add(meet, mul(t, 1.0 / len(tips)))
        meet = add(meet, (0.3, -0.3, 0.5))
        shift = sub(meet, tip)
        mcp, ip, tip = add(mcp, mul(shift, 0.2)), add(ip, mul(shift, 0.6)), meet
    points[1:5] = [THUMB_CMC, mcp, ip, tip]
    return points


def orient(points: list[Vec], view: str, turn: float) -> list[Vec]:
    """Hand-frame points in image axes (x right, y down, z away from the camera), seen
    from ``view`` and turned ``turn`` degrees clockwise in the image."""
    # Where the hand frame's a, u and p axes point in the image, by view; each is a
    # rotation (p = a x u), so a right hand stays a right hand.
    axes = {
        "front": ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)),
        "back": ((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
        "side": ((0.0, 0.0, 1.0), (0.0, -1.0, 0.0), (1.0, 0.0, 0.0)),
    }[view]
    ax, ux, px = axes
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    out = []
    for a, u, p in points:
        x = a * ax[0] + u * ux[0] + p * px[0]
        y = a * ax[1] + u * ux[1] + p * px[1]
        z = a * ax[2] + u * ux[2] + p * px[2]
        out.append((x * c - y * s, x * s + y * c, z))
    return out
