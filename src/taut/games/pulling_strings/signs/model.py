"""Each letter's handshape as a posed skeleton, read from the handshape drawings' data.

The drawings (:mod:`~taut.games.pulling_strings.handshape_poses`,
:mod:`~taut.games.pulling_strings.handshape_parts`) say what every finger does and where
the thumb lies, in a 100 x 100 picture of a right hand with its palm to the viewer. This
module reads them as anatomy:

* a finger's state gives its joint angles (:data:`STATE_JOINTS`); a straight finger's
  ``angle`` is its lean toward the thumb and its ``reach`` below 1 an MCP flexion
  (``acos(reach)``: the finger points partly at the viewer); a finger drawn along a path
  is read from the path: one that runs down the palm is folded, one that rises and turns
  over is hooked (a straight rise first, the X) or curved (the F), by as much as the path
  turns;
* the thumb follows its drawn centre line with the bones of a real thumb, lying in front
  of the palm (over a curled finger when its tip ends on one) or, for a thumb drawn beside
  the hand, nearly in the palm's plane;
* a fingertip drawn where the thumb ends touches the thumb tip (D, F, and all of O);
* the side views (C and O) curve all four fingers by the turn of the drawn curve and put
  the thumb tip as far from the fingertips as the picture does;
* the view and turn of the picture become the hand's orientation to the camera.

Picture coordinates become hand-frame centimetres by an affine map that puts the drawn
knuckle columns on the skeleton's knuckles and the drawn wrist at its wrist.
"""

from __future__ import annotations

import itertools
import math
import re
import string

from taut.games.pulling_strings.handshape_parts import (
    BASE_Y,
    COLUMNS,
    SIDE_CURVES,
    THUMBS,
    tip,
)
from taut.games.pulling_strings.handshape_poses import POSES, Finger, Pose
from taut.games.pulling_strings.signs.skeleton import (
    FINGERS,
    THUMB_BONES,
    THUMB_CMC,
    FingerJoints,
    HandSpec,
    Vec,
    finger_points,
    orient,
    skeleton,
)

#: Letters signed without motion, recognised from one frame.
STATIC_LETTERS = tuple(ch for ch in string.ascii_uppercase if POSES[ch].arrow is None)
#: Letters whose sign moves (J, Z): recognised from a sequence of frames.
MOTION_LETTERS = tuple(ch for ch in string.ascii_uppercase if POSES[ch].arrow is not None)

#: Joint angles (MCP, PIP, DIP flexion, degrees) of the finger states that have no shape of
#: their own: a finger curled into a fist, draped over the thumb (M, N), bent at the
#: middle joints with its knuckle only half folded (E, the D's other fingers).
STATE_JOINTS = {
    "curled": (85.0, 100.0, 70.0),
    "draped": (75.0, 85.0, 25.0),
    "bent": (30.0, 100.0, 70.0),
}
#: A fingertip that ends this close to the thumb's tip in the picture touches it.
CONTACT = 8.5
#: A side view's fingertips this close to the thumb tip in the picture touch it.
SIDE_CONTACT = 10.0
#: How far in front of the palm the thumb tip lies (cm): over a curled finger, elsewhere on
#: the palm side, and beside the hand.
DEPTH_OVER_FIST = 4.3
DEPTH_ON_PALM = 2.0
DEPTH_BESIDE = 0.8

#: Picture units to hand-frame cm: across (x) and up (y), and where the wrist is drawn.
_CM_X = 0.2235
_CM_Y = 0.2065
_WRIST_Y = 92.0


def to_hand(x: float, y: float) -> tuple[float, float]:
    """A point of the picture's hand frame as (a, u) in the skeleton's hand frame (cm)."""
    return 0.4 + (x - COLUMNS["middle"].x) * _CM_X, (_WRIST_Y - y) * _CM_Y


def path_points(d: str, steps: int = 16) -> list[tuple[float, float]]:
    """The points along an SVG path of absolute ``M``, ``L`` and ``C`` commands (the only
    ones the drawings use), each cubic curve sampled at ``steps`` points."""
    tokens = re.findall(r"[MLC]|-?\d*\.?\d+", d)
    out: list[tuple[float, float]] = []
    i, command = 0, ""
    while i < len(tokens):
        if tokens[i] in "MLC":
            command = tokens[i]
            i += 1
            continue
        if command in ("M", "L"):
            out.append((float(tokens[i]), float(tokens[i + 1])))
            i += 2
        else:
            x0, y0 = out[-1]
            c = [float(t) for t in tokens[i : i + 6]]
            for k in range(1, steps + 1):
                t = k / steps
                w = ((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3)
                out.append(
                    (
                        w[0] * x0 + w[1] * c[0] + w[2] * c[2] + w[3] * c[4],
                        w[0] * y0 + w[1] * c[1] + w[2] * c[3] + w[3] * c[5],
                    )
                )
            i += 6
    return out


def _turning(points: list[tuple[float, float]]) -> float:
    """How far the path turns from its first to its last direction, in degrees, summed
    along the way (so a hook that turns 200 degrees is not read as 160)."""
    total, last = 0.0, None
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if (x0, y0) == (x1, y1):
            continue
        angle = math.atan2(y1 - y0, x1 - x0)
        if last is not None:
            delta = (angle - last + math.pi) % (2 * math.pi) - math.pi
            total += delta
        last = angle
    return abs(math.degrees(total))


def path_joints(d: str) -> tuple[float, float, float]:
    """The MCP, PIP and DIP flexion of a finger drawn along path ``d``."""
    points = path_points(d)
    y0, y1 = points[0][1], points[-1][1]
    top = min(y for _, y in points)
    if y1 > y0 and top >= y0 - 2:
        # Drawn running down the palm: a finger folded over in front (the T).
        return STATE_JOINTS["curled"]
    turn = min(_turning(points), 180.0)
    first = re.match(r"M\s*\S+\s+\S+\s*L", d) is not None
    if first:
        # A straight rise before the turn: the knuckle is straight and the finger hooks
        # at its middle joints (the X).
        return 0.0, 0.55 * turn, 0.45 * turn
    return 0.3 * turn, 0.4 * turn, 0.3 * turn


def finger_joints(finger: Finger) -> FingerJoints:
    """The joints of a finger in one of the drawings' states."""
    if finger.state == "straight":
        return FingerJoints(math.degrees(math.acos(min(1.0, finger.reach))), 0.0, 0.0, finger.angle)
    if finger.state == "path":
        return FingerJoints(*path_joints(finger.d))
    return FingerJoints(*STATE_JOINTS[finger.state])


def drawn_end(name: str, finger: Finger) -> tuple[float, float] | None:
    """Where a finger's tip is drawn in the picture, when it can meet the thumb there."""
    if finger.state == "straight":
        return tip(name, finger.angle, finger.reach)
    if finger.state == "bent":
        return COLUMNS[name].x, BASE_Y
    if finger.state == "path":
        return path_points(finger.d)[-1]
    return None


def _along(line: list[tuple[float, float]], shares: tuple[float, ...]) -> list[tuple[float, float]]:
    """The points at the given shares of polyline ``line``'s length, from its start."""
    lengths = [math.dist(p, q) for p, q in itertools.pairwise(line)]
    total = sum(lengths) or 1.0
    out = []
    for share in shares:
        goal, k = share * total, 0
        while k < len(lengths) - 1 and goal > lengths[k]:
            goal -= lengths[k]
            k += 1
        t = min(1.0, goal / lengths[k]) if lengths[k] else 0.0
        (ax, ay), (bx, by) = line[k], line[k + 1]
        out.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    return out


#: Where the thumb's MCP and IP joints and its tip lie along its drawn line: at the shares
#: of its length that a real thumb's bones take. The drawn line is shorter or longer than a
#: thumb where the thumb points toward or away from the viewer, so its length is kept.
THUMB_SHARES = (
    THUMB_BONES[0] / sum(THUMB_BONES),
    (THUMB_BONES[0] + THUMB_BONES[1]) / sum(THUMB_BONES),
    1.0,
)


def _thumb_depth(pose: Pose) -> float:
    """How far in front of the palm the thumb tip of ``pose`` lies (cm)."""
    thumb = THUMBS[pose.thumb]
    if thumb.layer == "out":
        return DEPTH_BESIDE
    if thumb.under:
        # Under the fingers that drape over it (M, N, T).
        return DEPTH_ON_PALM
    x, _ = path_points(thumb.d)[-1]
    nearest = min(FINGERS, key=lambda n: abs(COLUMNS[n].x - x))
    finger = pose.finger(nearest)
    over_fist = abs(COLUMNS[nearest].x - x) <= 6.0
    if over_fist and finger.state in ("curled", "draped"):
        return DEPTH_OVER_FIST
    if abs(COLUMNS[nearest].x - x) > 6.0 and pose.thumb == "beside":
        return DEPTH_BESIDE + 0.7
    return DEPTH_ON_PALM


def _thumb(pose: Pose) -> tuple[Vec, Vec, Vec]:
    """The thumb's MCP, IP and tip for a front or back view."""
    line = [to_hand(x, y) for x, y in path_points(THUMBS[pose.thumb].d)]
    # The drawn line starts at the thumb's base pad: move it onto the skeleton's CMC.
    dx, dy = THUMB_CMC[0] - line[0][0], THUMB_CMC[1] - line[0][1]
    line = [(a + dx, u + dy) for a, u in line]
    mcp, ip, end = _along(line, THUMB_SHARES)
    depth = _thumb_depth(pose)
    base = THUMB_CMC[2]
    return (
        (mcp[0], mcp[1], base + 0.5 * (depth - base)),
        (ip[0], ip[1], base + 0.85 * (depth - base)),
        (end[0], end[1], depth),
    )


def _side_spec(pose: Pose) -> HandSpec:
    """C and O: every finger curved by the drawn curve's turn; the thumb tip as far below
    the fingertips as drawn, touching them when the drawing has them meet."""
    fingers_d, thumb_d = SIDE_CURVES[pose.thumb]
    fingers_line, thumb_line = path_points(fingers_d), path_points(thumb_d)
    # The drawn curve bends the palm a little too: the fingers take 85% of its turn.
    turn = 0.85 * _turning(fingers_line)
    joints = FingerJoints(0.3 * turn, 0.4 * turn, 0.3 * turn)
    fingers = dict.fromkeys(FINGERS, joints)
    (fx, fy), (tx, ty) = fingers_line[-1], thumb_line[-1]
    gap = math.dist((fx, fy), (tx, ty))
    if gap <= SIDE_CONTACT:
        contacts: tuple[str, ...] = ("index", "middle")
        tip_: Vec = (2.0, 8.0, 5.0)  # replaced by the contact
    else:
        # The side view shows the palm's normal across the picture and "up" up it; the
        # thumb tip sits below the index fingertip by the drawn gap.
        index_tip = finger_points("index", joints)[-1]
        contacts = ()
        tip_ = (
            index_tip[0] + 0.3,
            index_tip[1] - (ty - fy) * _CM_Y,
            index_tip[2] + (tx - fx) * _CM_X,
        )
    cmc = THUMB_CMC
    mcp = (cmc[0] + 0.4 * (tip_[0] - cmc[0]) + 1.0, cmc[1] + 0.4 * (tip_[1] - cmc[1]), 2.0)
    ip = (cmc[0] + 0.72 * (tip_[0] - cmc[0]) + 0.7, cmc[1] + 0.72 * (tip_[1] - cmc[1]), 3.0)
    return HandSpec(fingers, (mcp, ip, tip_), contacts, "side", pose.turn)


def hand_spec(letter: str) -> HandSpec:
    """The skeleton's pose for ``letter`` (A..Z), read from its drawing."""
    pose = POSES[letter]
    if pose.view == "side":
        return _side_spec(pose)
    fingers = {name: finger_joints(pose.finger(name)) for name in FINGERS}
    thumb_end = path_points(THUMBS[pose.thumb].d)[-1]
    contacts = []
    for name in FINGERS:
        end = drawn_end(name, pose.finger(name))
        if end is not None and math.dist(end, thumb_end) <= CONTACT:
            contacts.append(name)
    return HandSpec(fingers, _thumb(pose), tuple(contacts), pose.view, pose.turn)


def arrow_points(letter: str) -> list[tuple[float, float]]:
    """The points along the motion arrow of ``letter`` (J or Z) in the picture."""
    arrow = POSES[letter].arrow
    if arrow is None:
        raise ValueError(f"{letter} has no motion; only {', '.join(MOTION_LETTERS)} move")
    return path_points(arrow.d)


def letter_points(letter: str) -> list[Vec]:
    """The 21 landmarks of ``letter``'s handshape exactly as drawn, in image axes (cm)."""
    spec = hand_spec(letter)
    return orient(skeleton(spec), spec.view, spec.turn)
