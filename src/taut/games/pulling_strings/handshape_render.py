"""Draws a :class:`~taut.games.pulling_strings.handshape_poses.Pose` as an SVG picture.

One function, :func:`render`, draws every handshape. A front view is built in the hand
frame of ``handshape_parts`` (palm toward the viewer) from the back forward: the wrist;
what lies behind the palm (straight fingers, a thumb that stands out to the side); the
palm and its creases; what lies on the palm side (curled, draped and bent fingers, then a
thumb across the palm, then the fingers named in the thumb's ``under``). A back view
draws the palm side first, where the back of the hand hides most of it, mirrors the frame
and gives the hand the darker back shade, fingernails and knuckle marks. The side view (C
and O) has curves of its own. The pose's turn and shift then move the whole hand.
"""

from __future__ import annotations

from taut.core.svg import esc
from taut.games.pulling_strings.handshape_parts import (
    BACK,
    BASE_Y,
    COLUMNS,
    EDGE,
    FINGERS,
    INK,
    PALM,
    PALM_CREASES,
    SIDE_CURVES,
    SIDE_HAND,
    SKIN,
    THUMB_BASE,
    THUMBS,
    WRIST,
    arrow,
    capsule,
    line,
    nail,
    num,
    tip,
)
from taut.games.pulling_strings.handshape_poses import Finger, Pose

#: The top and bottom of a finger's centre line on the palm side, by state. Curled: the
#: folded finger seen from the front. Knuckle: a curled finger seen from the back, where
#: only the knuckle rises above the back of the hand. Draped (M, N): over the thumb, so
#: reaching further down. Bent (E): the part beyond the middle joint, folded down.
_SPANS = {
    "curled": (44.0, 62.0),
    "knuckle": (46.0, 52.0),
    "draped": (44.0, 73.0),
    "bent": (35.0, 54.0),
}


def _shape(d: str, fill: str) -> str:
    """A filled outline (palm, wrist, the side view's hand)."""
    return f'<path d="{d}" fill="{fill}" stroke="{INK}" stroke-width="{num(EDGE)}"/>'


def _patch(x: float, y: float, width: float, fill: str) -> str:
    """Skin over the round root of a part ``width`` wide that starts at (x, y), so that the
    part seems to grow out of what lies under it."""
    r = width / 2 + EDGE + 0.4
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{fill}"/>'


def _straight(name: str, finger: Finger, back: bool, fill: str) -> str:
    col = COLUMNS[name]
    x, y = tip(name, finger.angle, finger.reach)
    out = capsule(f"M{num(col.x)} {num(BASE_Y)}L{num(x)} {num(y)}", col.width, fill)
    if back:
        # The nail sits just inside the round end, turned with the finger.
        out += nail(x, y + 0.6, finger.angle, col.width)
    return out


def _palm_side(name: str, finger: Finger, back: bool, fill: str) -> str:
    """A finger on the palm side: curled, draped, bent, or along an explicit path."""
    col = COLUMNS[name]
    if finger.state == "path":
        out = capsule(finger.d, col.width, fill)
        if finger.nail is not None:
            out += nail(*finger.nail, col.width)
        return out
    top, bottom = _SPANS["knuckle" if back and finger.state == "curled" else finger.state]
    # Folded fingers look a little wider than straight ones and close the fist's gaps.
    out = capsule(f"M{num(col.x)} {num(top)}L{num(col.x)} {num(bottom)}", col.width + 0.5, fill)
    if finger.state == "bent":
        # A bent finger shows its nail at the lower end, where the tip rests on the thumb.
        out += nail(col.x, bottom + 0.5, 180.0, col.width)
    return out


def _hand(pose: Pose) -> str:
    back = pose.view == "back"
    fill = BACK if back else SKIN
    thumb = THUMBS[pose.thumb]
    behind: list[str] = []
    over: list[str] = []
    over_thumb: list[str] = []
    for name in FINGERS:
        finger = pose.finger(name)
        if finger.state == "straight":
            behind.append(_straight(name, finger, back, fill))
        elif name in thumb.under:
            over_thumb.append(_palm_side(name, finger, back, fill))
        else:
            over.append(_palm_side(name, finger, back, fill))
    thumb_part = capsule(thumb.d, thumb.width, fill)
    if thumb.layer == "palm":
        thumb_part += _patch(*THUMB_BASE, thumb.width, fill)
    if thumb.nail is not None and not back:
        thumb_part += nail(*thumb.nail, thumb.width)
    if thumb.layer == "out":
        behind.append(thumb_part)
    else:
        over += [thumb_part, *over_thumb]
    wrist = _shape(WRIST, fill)
    palm = _shape(PALM, fill)
    if back:
        knuckles = "".join(
            line(f"M{num(x - 2.5)} 51Q{num(x)} 48.5 {num(x + 2.5)} 51")
            for x in (COLUMNS[n].x for n in FINGERS)
        )
        return wrist + "".join(over) + "".join(behind) + palm + knuckles
    creases = "".join(line(d) for d in PALM_CREASES)
    return wrist + "".join(behind) + palm + creases + "".join(over)


def _side(pose: Pose) -> str:
    fingers, thumb = SIDE_CURVES[pose.thumb]
    # The middle, ring and little fingers lie behind the index, each a little higher.
    stack = "".join(
        f'<g transform="translate({num(1.2 * k)} {num(-2.2 * k)})">{capsule(fingers, 11, SKIN)}</g>'
        for k in (2, 1)
    )
    return stack + capsule(fingers, 11, SKIN) + capsule(thumb, 10, SKIN) + _shape(SIDE_HAND, SKIN)


def _transform(pose: Pose) -> str:
    # SVG applies the last transform first: mirror (back view), then turn, then shift.
    ops = []
    dx, dy = pose.shift
    if dx or dy:
        ops.append(f"translate({num(dx)} {num(dy)})")
    if pose.turn:
        ops.append(f"rotate({num(pose.turn)} 50 60)")
    if pose.view == "back":
        ops.append("matrix(-1 0 0 1 100 0)")
    return f' transform="{" ".join(ops)}"' if ops else ""


def render(pose: Pose, name: str) -> str:
    """The SVG picture of ``pose``, labelled ``name`` for screen readers."""
    body = _side(pose) if pose.view == "side" else _hand(pose)
    motion = arrow(pose.arrow.d, pose.arrow.head) if pose.arrow is not None else ""
    label = esc(name)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" '
        f'aria-label="{label}"><title>{label}</title>'
        f'<g fill="none" stroke-linecap="round" stroke-linejoin="round">'
        f"<g{_transform(pose)}>{body}</g>{motion}</g></svg>"
    )
