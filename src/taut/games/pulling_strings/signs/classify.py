"""Which letter a hand signs.

The 24 still letters are read by the learnt recogniser (:mod:`.learnt`: a model learnt from
real signers, shipped as ``recogniser.json``), which answers only when it is sure and may
be calibrated to a learner's own hand. J and Z, whose signs move, are read from a sequence
of frames by the motion rule of the drawings' templates (below), on top: when a sequence
draws J's or Z's path with its handshape, that is the answer; otherwise the still letter
the frames show together.

The motion rule: for each letter the *distance* of a hand is the weighted sum, over the
template features (:mod:`.features`), of the squared z-score ``((value - mean) / tol) **
2``, each capped so that one odd feature cannot outweigh all the others; over a sequence a
letter's distance is its mean over the frames plus a price for motion, so a still letter
must keep its fingertips nearly still, and J (the little fingertip) and Z (the index
fingertip) must move their tip along the path their arrow draws. Scores are a softmax of
``-distance / (2 * temperature)`` over the letters and "none of them" at ``reject``.

``signs.js`` does the same with the same JSON; change both together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taut.games.pulling_strings.signs.features import (
    DegenerateHand,
    features,
    hand_axes,
    mirror,
    palm_side,
    palm_size,
)
from taut.games.pulling_strings.signs.learnt import Calibration, judge
from taut.games.pulling_strings.signs.learnt import load as load_model
from taut.games.pulling_strings.signs.shape import NoHandShape, shape
from taut.games.pulling_strings.signs.skeleton import Vec
from taut.games.pulling_strings.signs.templates import add_up, normalise_path

#: The hands a caller may name (``None``: the hand tells).
HANDEDNESS = ("left", "right")


@dataclass(frozen=True)
class Recognition:
    """The answer for one hand: the letter (None when not sure) and the best candidates
    with their scores, best first."""

    letter: str | None
    top: list[tuple[str, float]]

    def to_json(self) -> dict[str, Any]:
        """``{"letter": "A" | null, "top": [["A", 0.93], ...]}``."""
        return {"letter": self.letter, "top": [[k, p] for k, p in self.top]}


def _distance(values: Sequence[float], template: dict[str, Any], cap: float) -> float:
    total = 0.0
    for value, mean, tol, weight in zip(
        values, template["mean"], template["tol"], template["weight"], strict=True
    ):
        z = (value - mean) / tol
        total += weight * min(z * z, cap)
    return total


def _rank(distances: dict[str, float], model: dict[str, Any]) -> Recognition:
    """Scores from distances (see the module's docstring), best first."""
    scoring = model["scoring"]
    reject = scoring["reject"]
    scale = 2.0 * scoring["temperature"]
    best = min(distances.values())
    floor = min(best, reject)
    weights = {k: math.exp(-(d - floor) / scale) for k, d in distances.items()}
    total = 0.0
    for k in distances:
        total += weights[k]
    total += math.exp(-(reject - floor) / scale)
    ranked = sorted(distances, key=lambda k: (distances[k], k))
    top = [(k, weights[k] / total) for k in ranked[: int(scoring["top"])]]
    letter = ranked[0] if best <= reject else None
    return Recognition(letter, top)


def _right_hand(frames: Sequence[Sequence[Vec]], handedness: str | None) -> list[list[Vec]]:
    """The frames as a right hand's: mirrored when the hand is (or looks) left."""
    if handedness is None:
        left = add_up([palm_side(frame) for frame in frames]) < 0.0
    elif handedness in HANDEDNESS:
        left = handedness == "left"
    else:
        raise ValueError(f"handedness must be one of {', '.join(HANDEDNESS)}, not {handedness!r}")
    return [mirror(frame) if left else list(frame) for frame in frames]


def square_up(points: Sequence[Vec], width: float, height: float) -> list[Vec]:
    """Landmarks normalised to an image ``width`` x ``height`` (MediaPipe's x and z are
    fractions of the width, y of the height) in one unit, the image's height, so that a
    wide image does not squash the hand."""
    k = width / height
    return [(x * k, y, z * k) for x, y, z in points]


def classify(
    points: Sequence[Vec],
    handedness: str | None = None,
    model: dict[str, Any] | None = None,
    calibration: Calibration | None = None,
) -> Recognition:
    """The still letter that 21 landmarks ``points`` sign (x right, y down, in one unit),
    with ranked candidates; letter None when not sure. ``handedness`` (``"left"``,
    ``"right"`` or None) is checked but not needed: a hand and its mirror image read alike.
    ``calibration`` adapts the reading to a learner's hand (:func:`.learnt.calibrate`)."""
    return classify_frames([points], handedness, model, calibration)


def _track(frames: Sequence[Sequence[Vec]], point: int, size: float) -> list[tuple[float, float]]:
    """Where landmark ``point`` goes over the frames, across and up the first frame's hand,
    in palm sizes."""
    a, u, _ = hand_axes(frames[0])
    start = frames[0][point]
    out = []
    for frame in frames:
        d = (frame[point][0] - start[0], frame[point][1] - start[1], frame[point][2] - start[2])
        out.append(
            (
                (d[0] * a[0] + d[1] * a[1] + d[2] * a[2]) / size,
                (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / size,
            )
        )
    return out


def _reach(track: list[tuple[float, float]]) -> float:
    """How far a tracked point gets from where it started."""
    return max(math.sqrt(x * x + y * y) for x, y in track)


def _path_distance(track: list[tuple[float, float]], path: list[list[float]]) -> float:
    """The root mean square distance between a track and a drawn path, both resampled
    and scaled to length 1."""
    made = normalise_path(track)
    total = 0.0
    for (x, y), (px, py) in zip(made, path, strict=True):
        total += (x - px) * (x - px) + (y - py) * (y - py)
    return math.sqrt(total / len(path))


def classify_frames(
    frames: Sequence[Sequence[Vec]],
    handedness: str | None = None,
    model: dict[str, Any] | None = None,
    calibration: Calibration | None = None,
) -> Recognition:
    """The letter a sequence of landmark sets signs (one set: a still letter only; two or
    more: J and Z too, by the motion of their fingertip; see the module's docstring)."""
    if not frames:
        raise ValueError("a sequence needs at least one frame")
    if handedness is not None and handedness not in HANDEDNESS:
        raise ValueError(f"handedness must be one of {', '.join(HANDEDNESS)}, not {handedness!r}")
    model = load_model() if model is None else model
    if len(frames) > 1:
        moved = motion_frames(frames, handedness, model["templates"])
        if moved.letter in model["templates"]["motion"]:
            return moved
    try:
        values = [shape(frame) for frame in frames]
    except NoHandShape:
        return Recognition(None, [])
    letter, top = judge(values, model, calibration)
    if letter is not None and template_distance(frames, model["templates"]) > model["outside"]:
        return Recognition(None, top)
    return Recognition(letter, top)


def template_distance(frames: Sequence[Sequence[Vec]], model: dict[str, Any]) -> float:
    """How far the frames' hand is from the nearest still letter of the drawings'
    templates ``model`` (the mean over the frames), read as it is and mirrored, whichever
    is nearer: no handedness label is trusted. Infinite for a hand with no palm."""
    best = math.inf
    for side in HANDEDNESS:
        try:
            values = [features(hand) for hand in _right_hand(frames, side)]
        except DegenerateHand:
            return math.inf
        letters = model["letters"]
        for name in model["static"]:
            total = 0.0
            for v in values:
                total += _distance(v, letters[name], model["scoring"]["cap"])
            best = min(best, total / len(values))
    return best


def motion_frames(
    frames: Sequence[Sequence[Vec]], handedness: str | None, model: dict[str, Any]
) -> Recognition:
    """The letter a sequence signs by the drawings' templates ``model`` and the motion
    rule (the module's docstring): J or Z when it draws their path, else the nearest
    template's still letter."""
    scoring = model["scoring"]
    try:
        hands = _right_hand(frames, handedness)
        values = [features(hand) for hand in hands]
    except DegenerateHand:
        return Recognition(None, [])
    letters = model["letters"]
    moving = len(hands) > 1
    names = sorted(letters) if moving else model["static"]
    distances: dict[str, float] = {}
    for name in names:
        total = 0.0
        for v in values:
            total += _distance(v, letters[name], scoring["cap"])
        distances[name] = total / len(values)
    if moving:
        size = 0.0
        for hand in hands:
            size += palm_size(hand)
        size /= len(hands)
        tracks = {k: _track(hands, m["point"], size) for k, m in sorted(model["motion"].items())}
        still = max(_reach(t) for t in tracks.values())
        extra = max(0.0, still - scoring["still"]) / scoring["motion_tol"]
        for name in names:
            if name in tracks:
                track, path = tracks[name], model["motion"][name]["path"]
                short = max(0.0, scoring["moving"] - _reach(track)) / scoring["motion_tol"]
                miss = _path_distance(track, path) / scoring["path_tol"]
                distances[name] += scoring["motion_weight"] * (short * short)
                distances[name] += scoring["path_weight"] * (miss * miss)
            else:
                distances[name] += scoring["motion_weight"] * (extra * extra)
    return _rank(distances, model)
