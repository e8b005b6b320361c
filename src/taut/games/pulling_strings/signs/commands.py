"""``taut signs recognize FILE``: which fingerspelled letter each hand in a file signs.

FILE (``-`` for standard input) is JSON::

    {"hands": [{"landmarks": [[x, y, z], ... 21 points], "handedness": "right"},
               {"frames": [[[x, y, z], ...], [[x, y, z], ...], ...]}]}

A hand gives either ``landmarks`` (one frame: a still letter) or ``frames`` (a sequence of
landmark sets in time order, for J and Z), and optionally ``handedness`` (``left`` or
``right``, any case: the hand the points show; without it the hand's shape tells). When
the landmarks are fractions of a non-square image's width (x, z) and height (y), as
MediaPipe gives them, ``"image": {"width": W, "height": H}`` next to ``"hands"`` puts them
in one unit. Other keys are ignored. Bad input ends the command with exit status 2 through
:func:`taut.core.console.fail`.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import click

from taut.core.console import fail

#: Landmarks in one hand.
POINTS = 21
#: The largest coordinate accepted (landmarks are normalised to the image or in pixels).
LIMIT = 1e6
#: The most frames one hand may carry.
MAX_FRAMES = 1000

_FORMAT = (
    'FILE is JSON {"hands": [{"landmarks": [[x, y, z], ... 21 points]}, ...]}; a hand may '
    'give "frames" (a list of such point lists, for J and Z) instead of "landmarks", and '
    '"handedness" ("left" or "right"); "image": {"width": W, "height": H} may give the '
    "image's size for landmarks normalised to it."
)


def _read(source: str) -> bytes:
    try:
        if source == "-":
            return sys.stdin.buffer.read()
        return Path(source).read_bytes()
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror or exc}")


def _point(value: Any, where: str) -> tuple[float, float, float]:
    if not isinstance(value, list) or len(value) != 3:
        fail(f"{where} must be a list of three numbers [x, y, z], not {json.dumps(value)[:60]}")
    out = []
    for axis, number in zip("xyz", value, strict=True):
        if isinstance(number, bool) or not isinstance(number, int | float):
            fail(f"{where} {axis} must be a number, not {json.dumps(number)[:40]}")
        if not math.isfinite(number) or abs(number) > LIMIT:
            fail(f"{where} {axis} is {number}: coordinates must be finite, within +-{LIMIT:g}")
        out.append(float(number))
    return out[0], out[1], out[2]


def _landmarks(value: Any, where: str) -> list[tuple[float, float, float]]:
    if not isinstance(value, list) or len(value) != POINTS:
        got = f"{len(value)} points" if isinstance(value, list) else json.dumps(value)[:40]
        fail(f"{where} must be a list of {POINTS} points [x, y, z], not {got}")
    return [_point(p, f"{where} point {i}") for i, p in enumerate(value)]


def _image_size(value: Any) -> float | None:
    """The width / height ratio of ``{"width": W, "height": H}`` (None when absent)."""
    if value is None:
        return None
    sizes: list[float] = []
    for key in ("width", "height"):
        v = value.get(key) if isinstance(value, dict) else None
        if isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= LIMIT:
            sizes.append(float(v))
    if len(sizes) != 2:
        fail('"image" must be {"width": W, "height": H} with positive numbers (pixels)')
    return sizes[0] / sizes[1]


def read_hands(text: bytes, what: str) -> list[dict[str, Any]]:
    """The hands of a recognise file as ``{"frames": [...], "handedness": str | None}``,
    in one unit when the file gives the image's size; anything wrong ends the command
    with a message naming it."""
    from taut.core.errors import RecordError
    from taut.core.record import parse_json

    try:
        data = parse_json(text, what)
    except RecordError as exc:
        fail(str(exc))
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        fail(f'{what} must be a JSON object with a list "hands". {_FORMAT}')
    size = _image_size(data.get("image"))
    hands = []
    for i, hand in enumerate(data["hands"], 1):
        where = f"hand {i}"
        if not isinstance(hand, dict):
            fail(f'{where} must be an object with "landmarks" or "frames". {_FORMAT}')
        if ("landmarks" in hand) == ("frames" in hand):
            fail(f'{where} must give either "landmarks" or "frames" (one of them). {_FORMAT}')
        if "landmarks" in hand:
            frames = [_landmarks(hand["landmarks"], f"{where} landmarks")]
        else:
            raw = hand["frames"]
            if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_FRAMES:
                fail(f"{where} frames must be a list of 1 to {MAX_FRAMES} landmark lists")
            frames = [_landmarks(f, f"{where} frame {k}") for k, f in enumerate(raw, 1)]
        side = hand.get("handedness")
        if side is not None:
            if not isinstance(side, str) or side.lower() not in ("left", "right"):
                fail(f'{where} handedness must be "left" or "right", not {json.dumps(side)}')
            side = side.lower()
        if size is not None:
            frames = [[(x * size, y, z * size) for x, y, z in f] for f in frames]
        hands.append({"frames": frames, "handedness": side})
    return hands


def _rounded(entry: dict[str, Any]) -> dict[str, Any]:
    """A result with its scores to six decimals."""
    return {"letter": entry["letter"], "top": [[k, round(p, 6)] for k, p in entry["top"]]}


@click.group("signs", no_args_is_help=True)
def signs_group() -> None:
    """ASL fingerspelling from hand landmarks (21 points a hand, as MediaPipe Hands gives
    them)."""


@signs_group.command("recognize")
@click.argument("source", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one entry a hand.")
def recognize(source: str, as_json: bool) -> None:
    """Say which letter each hand in FILE signs, with the ranked candidates.

    FILE (- for standard input) is JSON {"hands": [{"landmarks": [[x, y, z], ... 21
    points]}, ...]}: x right, y down (in the same unit), z the relative depth. A hand may
    give "frames", a list of such point lists in time order, instead of "landmarks": J and
    Z are told by their motion. "handedness" ("left" or "right") is optional, and so is
    "image": {"width": W, "height": H} beside "hands", for landmarks that are fractions of
    a non-square image's sides (as MediaPipe gives them). A hand far from every letter is
    "not sure" (null in --json)."""
    from taut.games.pulling_strings.signs.classify import classify_frames

    hands = read_hands(_read(source), source)
    results = [classify_frames(h["frames"], h["handedness"]) for h in hands]
    if as_json:
        click.echo(json.dumps([_rounded(r.to_json()) for r in results]))
        return
    if not results:
        click.echo("no hands")
    for i, result in enumerate(results, 1):
        said = result.letter or "not sure"
        ranked = ", ".join(f"{k} {p:.2f}" for k, p in result.top)
        click.echo(f"hand {i}: {said}" + (f"  ({ranked})" if ranked else "  (no hand shape)"))
