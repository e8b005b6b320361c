"""Synthetic hands: each letter's posed skeleton with the variation real hands and cameras add.

A synthetic hand starts from the letter's pose (:func:`.model.hand_spec`), changes every
joint angle, bone length and thumb position a little (:class:`Noise`), shows it from its
view, turned in the image by up to ``roll`` degrees and tilted out of it a little, as a
right or a mirrored left hand, at a random size and place in a unit image (x, y in 0..1, z
relative to the wrist in the same unit, as MediaPipe gives them), and jitters every
landmark. A J or Z moves the whole hand so that the tracked fingertip draws the letter's
arrow; a still sequence only trembles.

These hands are made from the same model the templates come from, so recognising them
shows that the classifier is consistent and robust to the variation modelled here, not
that it reads real hands: real hands differ from the model.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace

from taut.games.pulling_strings.signs.model import arrow_points, hand_spec
from taut.games.pulling_strings.signs.skeleton import (
    FINGERS,
    FIRST_POINT,
    FingerJoints,
    HandSpec,
    Vec,
    orient,
    skeleton,
)

#: The two sides of the hand a synthetic hand can be.
HANDS = ("right", "left")


@dataclass(frozen=True)
class Noise:
    """How much synthetic hands vary: joint flexion and finger lean (degrees, standard
    deviation), thumb tip position and knuckle positions (cm), bone lengths (relative),
    the turn in the image (uniform within +-``roll`` degrees), the tilt out of it
    (degrees), and the jitter of every landmark and extra jitter of its depth (palm
    sizes)."""

    joint: float
    lean: float
    thumb: float
    knuckle: float
    bones: float
    roll: float
    tilt: float
    jitter: float
    depth: float


#: Variation of a careful signer in front of a good camera.
LOW = Noise(
    joint=6, lean=3, thumb=0.4, knuckle=0.15, bones=0.04, roll=25, tilt=8, jitter=0.01, depth=0.03
)
#: Twice as sloppy, and a noisier landmark detector.
HIGH = Noise(
    joint=12, lean=6, thumb=0.8, knuckle=0.3, bones=0.08, roll=25, tilt=15, jitter=0.025, depth=0.06
)
#: The noise levels by name.
LEVELS = {"low": LOW, "high": HIGH}


@dataclass(frozen=True)
class Placement:
    """Where a synthetic hand is shown: its turn and tilts (degrees), whether it is a left
    hand, its scale (image units per cm) and the wrist's place in the image."""

    roll: float
    tilt_x: float
    tilt_y: float
    left: bool
    scale: float
    at: tuple[float, float]


def _vary_spec(spec: HandSpec, rng: random.Random, noise: Noise) -> HandSpec:
    fingers = {}
    for name in FINGERS:
        j = spec.fingers[name]
        fingers[name] = FingerJoints(
            max(-5.0, j.mcp + rng.gauss(0, noise.joint)),
            max(0.0, j.pip + rng.gauss(0, noise.joint)),
            max(0.0, j.dip + rng.gauss(0, noise.joint)),
            j.lean + rng.gauss(0, noise.lean),
        )
    scale = {name: 1.0 + rng.gauss(0, noise.bones) for name in FINGERS}
    return replace(spec, fingers=fingers, scale=scale)


def _vary_points(points: list[Vec], rng: random.Random, noise: Noise) -> list[Vec]:
    """Knuckles moved a little (each finger with its knuckle) and the thumb moved, its tip
    most."""
    out = list(points)
    for name in FINGERS:
        first = FIRST_POINT[name]
        da, du = rng.gauss(0, noise.knuckle), rng.gauss(0, noise.knuckle)
        for k in range(first, first + 4):
            a, u, p = out[k]
            out[k] = (a + da, u + du, p)
    shift = (rng.gauss(0, noise.thumb), rng.gauss(0, noise.thumb), rng.gauss(0, noise.thumb))
    for k, share in ((2, 0.3), (3, 0.6), (4, 1.0)):
        a, u, p = out[k]
        out[k] = (a + share * shift[0], u + share * shift[1], p + share * shift[2])
    return out


def random_placement(rng: random.Random, noise: Noise, left: bool | None = None) -> Placement:
    """A random way to show a hand (a left hand half the time unless ``left`` says)."""
    return Placement(
        roll=rng.uniform(-noise.roll, noise.roll),
        tilt_x=rng.gauss(0, noise.tilt),
        tilt_y=rng.gauss(0, noise.tilt),
        left=rng.random() < 0.5 if left is None else left,
        scale=rng.uniform(0.01, 0.035),
        at=(rng.uniform(0.25, 0.75), rng.uniform(0.35, 0.85)),
    )


def place(points: list[Vec], view: str, turn: float, where: Placement) -> list[Vec]:
    """Hand-frame points (cm) as image landmarks shown as ``where`` says."""
    turned = orient(points, view, turn + where.roll)
    cx, sx = math.cos(math.radians(where.tilt_x)), math.sin(math.radians(where.tilt_x))
    cy, sy = math.cos(math.radians(where.tilt_y)), math.sin(math.radians(where.tilt_y))
    wx, wy = where.at
    out = []
    for x, y, z in turned:
        y, z = y * cx - z * sx, y * sx + z * cx  # tilt about the image's x axis
        x, z = x * cy + z * sy, -x * sy + z * cy  # and about its y axis
        if where.left:
            x = -x
        out.append((wx + x * where.scale, wy + y * where.scale, z * where.scale))
    return out


def _jitter(points: list[Vec], rng: random.Random, noise: Noise, size: float) -> list[Vec]:
    j, d = noise.jitter * size, noise.depth * size
    return [
        (x + rng.gauss(0, j), y + rng.gauss(0, j), z + rng.gauss(0, j) + rng.gauss(0, d))
        for x, y, z in points
    ]


#: The palm size of the skeleton, in cm (the wrist to the four knuckles, on average).
PALM_CM = 9.0


def posed(letter: str, rng: random.Random, noise: Noise) -> tuple[list[Vec], HandSpec]:
    """A varied skeleton of ``letter`` in the hand frame, and the varied pose."""
    spec = _vary_spec(hand_spec(letter), rng, noise)
    return _vary_points(skeleton(spec), rng, noise), spec


def hand(
    letter: str, rng: random.Random, noise: Noise = LOW, left: bool | None = None
) -> list[Vec]:
    """One synthetic hand signing ``letter`` (J and Z: their still handshape)."""
    points, spec = posed(letter, rng, noise)
    where = random_placement(rng, noise, left)
    return _jitter(place(points, spec.view, spec.turn, where), rng, noise, PALM_CM * where.scale)


def _drawn_track(letter: str, length: float) -> list[tuple[float, float]]:
    """The arrow of ``letter`` in the hand frame (a, u), from its start, ``length`` cm
    long."""
    points = [(x, -y) for x, y in arrow_points(letter)]
    total = sum(math.dist(p, q) for p, q in itertools.pairwise(points))
    x0, y0 = points[0]
    return [((x - x0) * length / total, (y - y0) * length / total) for x, y in points]


def sequence(
    letter: str,
    rng: random.Random,
    noise: Noise = LOW,
    frames: int = 16,
    left: bool | None = None,
    path: str | None = "own",
) -> list[list[Vec]]:
    """A sequence of ``frames`` synthetic hands signing ``letter``. The hand moves so that
    the tracked fingertip draws the arrow of ``path`` (``"J"`` or ``"Z"``; by default the
    letter's own arrow, none for a still letter); without a path it holds still but
    trembles."""
    points, spec = posed(letter, rng, noise)
    where = random_placement(rng, noise, left)
    size = PALM_CM * where.scale
    if path == "own":
        path = letter if letter in ("J", "Z") else None
    if path is not None:
        drawn = _drawn_track(path, rng.uniform(9.0, 15.0))
        # Uneven speed: the frames fall at random, sorted places along the arrow.
        cuts = sorted(rng.random() for _ in range(frames - 2))
        offsets = [_along(drawn, t) for t in (0.0, *cuts, 1.0)]
    else:
        offsets = [(0.0, 0.0)] * frames
    out = []
    for da, du in offsets:
        tremble = (rng.gauss(0, 0.1), rng.gauss(0, 0.1))
        moved = [(a + da + tremble[0], u + du + tremble[1], p) for a, u, p in points]
        out.append(_jitter(place(moved, spec.view, spec.turn, where), rng, noise, size))
    return out


def _along(line: list[tuple[float, float]], share: float) -> tuple[float, float]:
    """The point at ``share`` of polyline ``line``'s length."""
    lengths = [math.dist(p, q) for p, q in itertools.pairwise(line)]
    goal = share * sum(lengths)
    for (p, q), length in zip(itertools.pairwise(line), lengths, strict=True):
        if goal <= length and length > 0:
            t = goal / length
            return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        goal -= length
    return line[-1]


def garbage(rng: random.Random) -> list[Vec]:
    """21 points thrown at random into a box the size of a hand: no handshape at all."""
    x0, y0 = rng.uniform(0.2, 0.6), rng.uniform(0.2, 0.6)
    return [
        (x0 + rng.uniform(0, 0.3), y0 + rng.uniform(0, 0.3), rng.uniform(-0.1, 0.1))
        for _ in range(21)
    ]
