"""Each letter's template: the features its drawn handshape has, with tolerances and weights.

:func:`build` poses every letter (:func:`.model.letter_points`), takes its
:func:`~.features.features` as the expected values and gives each feature a tolerance and
a weight by what the feature is (:func:`feature_rule`): a finger's angles always count; a
fingertip's distance to the thumb counts most when the letter has them touch; the gap
between two fingertips counts only when both fingers stand straight; where the hand points
and which way the palm faces allow a hand turned by 30 degrees. J and Z also get the path
their arrow draws. The result is shipped as ``templates.json`` and read by both
classifiers (:mod:`.classify` and ``signs.js``); a test checks that the file is what
:func:`build` makes now. Regenerate it with::

    python -m taut.games.pulling_strings.signs.templates
"""

from __future__ import annotations

import itertools
import json
import math
import string
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs.features import FEATURES, features

#: Version of the templates' JSON layout.
VERSION = 1
#: Points each motion path is resampled to.
PATH_POINTS = 12
#: Decimals kept in the JSON (far below any tolerance).
DECIMALS = 6
#: The shipped file, next to this module.
FILE_NAME = "templates.json"

#: How the scores are made (see :mod:`.classify`): a feature's squared z-score counts at
#: most ``cap``; scores are ``exp(-distance / (2 * temperature))`` normalised together with
#: a "none of them" that sits at distance ``reject``, and a hand farther than ``reject``
#: from every letter is "not sure". A still letter may move its tips ``still`` palm sizes
#: (the hand's jitter); J and Z must move theirs at least ``moving``; ``motion_tol`` and
#: ``motion_weight`` price a miss of either, ``path_tol`` and ``path_weight`` the
#: difference between the drawn and the made path (in path lengths). ``top`` is how many
#: candidates a result lists.
SCORING: dict[str, float] = {
    "cap": 16.0,
    "temperature": 2.0,
    "reject": 36.0,
    "still": 0.4,
    "moving": 0.7,
    "motion_tol": 0.2,
    "motion_weight": 2.0,
    "path_tol": 0.1,
    "path_weight": 2.0,
    "top": 5,
}

#: A finger stands straight when its knuckle flexion and bend are below these.
STRAIGHT_KNUCKLE = 0.5
STRAIGHT_BEND = 0.3
#: A fingertip this close to the thumb tip (palm sizes) touches it.
TOUCH = 0.4


def feature_rule(name: str, value: float, values: dict[str, float]) -> tuple[float, float]:
    """The tolerance and weight of feature ``name`` in a template where it is ``value``
    (``values`` holds the template's other features)."""
    kind = (
        name.split(".")[1] if name.split(".")[0] in ("index", "middle", "ring", "little") else name
    )
    if kind == "knuckle":
        return 0.3, 1.0
    if kind == "bend":
        return 0.25, 1.0
    if kind == "to_thumb":
        # Touching is a defining trait (F, O, D); apart, the finger's angles say enough.
        return (0.2, 1.5) if value < TOUCH else (0.35, 0.5)
    if name.startswith("gap."):
        left, right = name.removeprefix("gap.").split("_")
        both = all(
            values[f"{f}.knuckle"] < STRAIGHT_KNUCKLE and values[f"{f}.bend"] < STRAIGHT_BEND
            for f in (left, right)
        )
        return 0.12, (1.0 if both else 0.0)
    rules = {
        "thumb.across": (0.2, 1.0),
        "thumb.up": (0.2, 1.0),
        "thumb.out": (0.3, 0.5),
        "thumb.direction": (0.35, 1.0),
        # 0.35 right angles is 31 degrees: a hand turned 30 degrees stays within one.
        "hand.direction": (0.35, 1.0),
        "hand.facing": (0.5, 0.5),
    }
    return rules[name]


def _round(value: float) -> float:
    rounded = round(value, DECIMALS)
    return 0.0 if rounded == 0 else rounded


def dist(p: tuple[float, float], q: tuple[float, float]) -> float:
    """The distance between two points, computed as ``signs.js`` computes it (not by
    :func:`math.dist`, whose last bits differ)."""
    dx, dy = p[0] - q[0], p[1] - q[1]
    return math.sqrt(dx * dx + dy * dy)


def add_up(values: list[float]) -> float:
    """The sum of ``values`` added one by one from the left, as ``signs.js`` adds them
    (:func:`sum` compensates rounding since Python 3.12, so its last bits may differ)."""
    out = 0.0
    for value in values:
        out += value
    return out


def resample(points: list[tuple[float, float]], count: int) -> list[tuple[float, float]]:
    """``count`` points spaced evenly along the polyline ``points`` (by length)."""
    lengths = [dist(p, q) for p, q in itertools.pairwise(points)]
    length = add_up(lengths)
    if length <= 0.0:
        return [points[0]] * count
    out = []
    k, walked = 0, 0.0
    for i in range(count):
        goal = length * i / (count - 1)
        while k < len(lengths) - 1 and walked + lengths[k] < goal:
            walked += lengths[k]
            k += 1
        t = (goal - walked) / lengths[k] if lengths[k] > 0.0 else 0.0
        t = min(1.0, max(0.0, t))
        (ax, ay), (bx, by) = points[k], points[k + 1]
        out.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    return out


def normalise_path(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A path resampled to :data:`PATH_POINTS`, moved to start at the origin and scaled to
    length 1 (a path of no length stays a point)."""
    even = resample(points, PATH_POINTS)
    length = add_up([dist(p, q) for p, q in itertools.pairwise(points)])
    x0, y0 = even[0]
    scale = 1.0 / length if length > 0.0 else 0.0
    return [((x - x0) * scale, (y - y0) * scale) for x, y in even]


def build() -> dict[str, Any]:
    """The templates of all 26 letters, the motion paths of J and Z and the scoring
    constants, as the JSON object ``templates.json`` holds."""
    from taut.games.pulling_strings.signs.model import (
        MOTION_LETTERS,
        STATIC_LETTERS,
        arrow_points,
        letter_points,
    )
    from taut.games.pulling_strings.signs.skeleton import FIRST_POINT

    letters: dict[str, Any] = {}
    for letter in string.ascii_uppercase:
        values = dict(zip(FEATURES, features(letter_points(letter)), strict=True))
        rules = [feature_rule(name, values[name], values) for name in FEATURES]
        letters[letter] = {
            "mean": [_round(values[name]) for name in FEATURES],
            "tol": [tol for tol, _ in rules],
            "weight": [weight for _, weight in rules],
        }
    motion: dict[str, Any] = {}
    for letter in MOTION_LETTERS:
        # The arrow is drawn in the picture (x right, y down) of a right hand with its palm
        # to the viewer: x runs across the hand toward the thumb, -y up the hand.
        drawn = [(x, -y) for x, y in arrow_points(letter)]
        finger = "little" if letter == "J" else "index"
        motion[letter] = {
            "point": FIRST_POINT[finger] + 3,
            "path": [[_round(x), _round(y)] for x, y in normalise_path(drawn)],
        }
    return {
        "version": VERSION,
        "features": list(FEATURES),
        "static": list(STATIC_LETTERS),
        "letters": letters,
        "motion": motion,
        "scoring": SCORING,
    }


def dumps(data: dict[str, Any]) -> str:
    """The JSON text of the templates as shipped (stable, one letter's array a line)."""
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


@cache
def load() -> dict[str, Any]:
    """The shipped templates (``templates.json``)."""
    text = (
        resources.files("taut.games.pulling_strings.signs")
        .joinpath(FILE_NAME)
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def shipped_path() -> Path:
    """Where the shipped templates file is in the source tree."""
    return Path(__file__).with_name(FILE_NAME)


def main(argv: list[str] | None = None) -> int:
    """Write the templates to ``templates.json`` next to this module (or to the path
    given)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else shipped_path()
    target.write_text(dumps(build()), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
