"""The 26 fingerspelling handshapes as data: each finger's state, the thumb, the view.

A :class:`Pose` says what each finger does (``straight``, ``curled`` into the palm,
``draped`` over the thumb, ``bent`` at the middle joints, or an explicit ``path`` for a
finger that curves to meet the thumb), where the thumb is (a name from
:data:`~taut.games.pulling_strings.handshape_parts.THUMBS`), which side of the hand the
viewer sees, how far the hand is turned and any motion arrow. ``handshape_render`` draws
every pose with the same function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Finger:
    """One finger: its ``state``; for a straight finger its lean in degrees toward the
    thumb (``angle``) and the share of its length that shows (``reach``); for a ``path``
    finger its centre line ``d`` in the hand frame and where its nail shows (x, y, angle)."""

    state: Literal["straight", "curled", "draped", "bent", "path"]
    angle: float = 0.0
    reach: float = 1.0
    d: str = ""
    nail: tuple[float, float, float] | None = None


STRAIGHT = Finger("straight")
CURLED = Finger("curled")
DRAPED = Finger("draped")
BENT = Finger("bent")


@dataclass(frozen=True)
class Arrow:
    """A motion arrow: its path ``d`` in the picture's coordinates and its head (from x,
    from y, to x, to y: the head sits at the second point and points away from the first)."""

    d: str
    head: tuple[float, float, float, float]


@dataclass(frozen=True)
class Pose:
    """A handshape as data.

    ``view`` is ``"front"`` (palm toward the viewer), ``"back"`` (back of the hand toward
    the viewer) or ``"side"`` (the hand edge-on, its palm to the viewer's right: only the
    C and O shapes, whose curve shows from there; their ``thumb`` names one of
    :data:`~taut.games.pulling_strings.handshape_parts.SIDE_CURVES`). ``turn`` rotates
    the drawn hand clockwise in degrees and ``shift`` moves it, after the view is chosen.
    """

    letter: str
    description: str
    thumb: str
    index: Finger = CURLED
    middle: Finger = CURLED
    ring: Finger = CURLED
    little: Finger = CURLED
    view: Literal["front", "back", "side"] = "front"
    turn: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    arrow: Arrow | None = None

    def finger(self, name: str) -> Finger:
        """The finger called ``name`` (``index``, ``middle``, ``ring`` or ``little``)."""
        fingers = {
            "index": self.index,
            "middle": self.middle,
            "ring": self.ring,
            "little": self.little,
        }
        return fingers[name]


#: The poses, by capital letter.
POSES: dict[str, Pose] = {
    p.letter: p
    for p in (
        Pose(
            "A",
            "A closed fist with the thumb held straight up against the side of the index finger.",
            "beside",
            shift=(0, -6),
        ),
        Pose(
            "B",
            "A flat hand with the four fingers upright and together and the thumb folded "
            "across the palm.",
            "folded",
            index=Finger("straight", angle=1.0),
            middle=STRAIGHT,
            ring=Finger("straight", angle=-1.0),
            little=Finger("straight", angle=-3.0),
        ),
        Pose(
            "C",
            "The fingers and thumb curve together like a hand about to grip a cup, with an open "
            "gap between their tips, seen from the side.",
            "side_open",
            view="side",
        ),
        Pose(
            "D",
            "The index finger points straight up while the other fingers curve down to "
            "touch the tip of the thumb.",
            "ring_middle",
            index=STRAIGHT,
            middle=BENT,
            ring=BENT,
            little=BENT,
        ),
        Pose(
            "E",
            "The fingertips bend down to rest on the thumb, which lies across the palm "
            "beneath them.",
            "low",
            index=BENT,
            middle=BENT,
            ring=BENT,
            little=BENT,
        ),
        Pose(
            "F",
            "The index finger and thumb touch at their tips in a small circle while the "
            "other three fingers stand up, slightly apart.",
            "ring_index",
            index=Finger("path", d="M60.5 50C59.5 38 63 30 69.5 30C75.5 30 78 38 74.5 46"),
            middle=Finger("straight", angle=-2.0),
            ring=Finger("straight", angle=-7.0),
            little=Finger("straight", angle=-13.0),
        ),
        Pose(
            "G",
            "The index finger and thumb point sideways, parallel to each other, from a "
            "closed hand seen from the back.",
            "parallel",
            view="back",
            turn=90.0,
            shift=(-4, 0),
            index=STRAIGHT,
        ),
        Pose(
            "H",
            "The index and middle fingers point sideways together from a closed hand "
            "seen from the back.",
            "hold2",
            index=STRAIGHT,
            middle=STRAIGHT,
            view="back",
            turn=90.0,
            shift=(-4, 0),
        ),
        Pose(
            "I",
            "A fist with only the little finger raised and the thumb across the front of "
            "the other fingers.",
            "hold3",
            little=STRAIGHT,
        ),
        Pose(
            "J",
            "A fist with only the little finger raised, which draws a downward hook in the air as "
            "the arrow shows.",
            "hold3",
            little=STRAIGHT,
            arrow=Arrow("M27 24C21 40 19 56 22 66C25 76 33 78 37 72", (34, 76, 37, 72)),
        ),
        Pose(
            "K",
            "The index finger points up and the middle finger angles out from it, with the "
            "thumb tip touching the middle finger between them.",
            "touch_middle",
            index=Finger("straight", angle=5.0),
            middle=Finger("straight", angle=-11.0, reach=0.85),
        ),
        Pose(
            "L",
            "The index finger points up and the thumb points out to the side at a right angle, "
            "the other fingers curled.",
            "out",
            index=STRAIGHT,
        ),
        Pose(
            "M",
            "The index, middle and ring fingers fold down over the thumb, whose tip peeks "
            "out between the ring and little fingers.",
            "under3",
            index=DRAPED,
            middle=DRAPED,
            ring=DRAPED,
            shift=(0, -6),
        ),
        Pose(
            "N",
            "The index and middle fingers fold down over the thumb, whose tip peeks out "
            "between the middle and ring fingers.",
            "under2",
            index=DRAPED,
            middle=DRAPED,
            shift=(0, -6),
        ),
        Pose(
            "O",
            "All the fingertips curve round to meet the thumb tip, leaving a round hole, seen from"
            " the side.",
            "side_closed",
            view="side",
        ),
        Pose(
            "P",
            "A hand turned down and seen from the back, the index finger pointing forward, the "
            "middle finger pointing down and the thumb between them.",
            "between_spread",
            index=Finger("straight", angle=8.0),
            middle=Finger("straight", angle=-26.0, reach=0.9),
            view="back",
            turn=112.0,
            shift=(-2, -8),
        ),
        Pose(
            "Q",
            "A closed hand turned so that the index finger and thumb point downward side by side, "
            "seen from the back.",
            "parallel",
            view="back",
            turn=155.0,
            shift=(0, -6),
            index=STRAIGHT,
        ),
        Pose(
            "R",
            "The index and middle fingers are raised and crossed, with the thumb holding "
            "the other two fingers down.",
            "hold2",
            index=Finger("straight", angle=-18.0),
            middle=Finger("straight", angle=16.0, reach=0.93),
        ),
        Pose(
            "S",
            "A closed fist with the thumb wrapped across the front of the curled fingers.",
            "across",
            shift=(0, -6),
        ),
        Pose(
            "T",
            "A closed fist with the thumb tucked up between the index and middle fingers so "
            "that its tip shows.",
            "between",
            index=Finger("path", d="M60.5 47L60.5 62"),
            shift=(0, -6),
        ),
        Pose(
            "U",
            "The index and middle fingers stand straight up, pressed together, with the "
            "thumb holding the other fingers down.",
            "hold2",
            index=STRAIGHT,
            middle=STRAIGHT,
        ),
        Pose(
            "V",
            "The index and middle fingers stand up spread apart, with the thumb holding the other "
            "fingers down.",
            "hold2",
            index=Finger("straight", angle=13.0),
            middle=Finger("straight", angle=-11.0),
        ),
        Pose(
            "W",
            "The index, middle and ring fingers stand up spread apart, with the thumb "
            "holding the little finger down.",
            "hold1",
            index=Finger("straight", angle=14.0),
            middle=STRAIGHT,
            ring=Finger("straight", angle=-14.0),
        ),
        Pose(
            "X",
            "A fist with the index finger raised and bent into a hook.",
            "hold_mid",
            index=Finger("path", d="M60.5 54L60.5 38C60.5 29 69 28 69.5 37"),
        ),
        Pose(
            "Y",
            "The thumb and little finger stretch out to the sides while the three middle "
            "fingers curl into the palm.",
            "wide",
            little=Finger("straight", angle=-30.0),
        ),
        Pose(
            "Z",
            "The index finger points up and traces a zigzag in the air (across, down-left, across "
            "again) as the arrow shows, mirrored as the viewer sees it.",
            "hold_mid",
            index=STRAIGHT,
            arrow=Arrow("M56 11L26 11L48 32L20 32", (26, 32, 20, 32)),
        ),
    )
}
