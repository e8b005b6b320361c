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

``--calibration CAL.json`` adapts the reading to a learner's hand: CAL.json has the same
form with a ``"letter"`` on each hand (the letter that hand signs), so a learner's own
recorded hands are a calibration file as they are (:mod:`.learnt`). ``taut signs train``
learns the recogniser again from ``data/signs`` (:mod:`.train`).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taut.core.console import fail

if TYPE_CHECKING:
    from taut.games.pulling_strings.signs.learnt import Calibration

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
    """The hands of a recognise file as ``{"frames": [...], "handedness": str | None,
    "letter": str | None}``, in one unit when the file gives the image's size; anything
    wrong ends the command with a message naming it."""
    from taut.core.errors import RecordError
    from taut.core.record_files import parse_json

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
        letter = hand.get("letter")
        if letter is not None and (
            not isinstance(letter, str) or len(letter) != 1 or not "A" <= letter.upper() <= "Z"
        ):
            fail(f"{where} letter must be one letter A-Z, not {json.dumps(letter)[:40]}")
        hands.append(
            {"frames": frames, "handedness": side, "letter": letter.upper() if letter else None}
        )
    return hands


def read_calibration(source: str) -> Calibration:
    """The calibration in file ``source``: hands of the recognise form, each with the
    ``"letter"`` it signs. J and Z (signs that move) are left out with a note on standard
    error; a hand without a letter, or a file with no still letter, ends the command."""
    from taut.games.pulling_strings.signs.learnt import calibrate

    hands = read_hands(_read(source), source)
    signs: list[tuple[str, list[tuple[float, float, float]]]] = []
    moving = 0
    for i, hand in enumerate(hands, 1):
        if hand["letter"] is None:
            fail(f'{source}: hand {i} has no "letter": a calibration names the letter of each hand')
        if hand["letter"] in ("J", "Z"):
            moving += 1
            continue
        signs.extend((hand["letter"], frame) for frame in hand["frames"])
    if moving:
        click.echo(
            f"{source}: {moving} J or Z hand(s) left out: they are read from motion.", err=True
        )
    calibration = calibrate(signs)
    if not calibration.count():
        fail(f"{source}: no hand of a still letter to calibrate with (A-Y without J)")
    return calibration


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
@click.option(
    "--calibration",
    metavar="CAL.json",
    default=None,
    help="A learner's own signs: FILE's form with a \"letter\" on each hand. The reading "
    "adapts to that hand.",
)
def recognize(source: str, as_json: bool, calibration: str | None) -> None:
    """Say which letter each hand in FILE signs, with the ranked candidates.

    FILE (- for standard input) is JSON {"hands": [{"landmarks": [[x, y, z], ... 21
    points]}, ...]}: x right, y down (in the same unit), z the relative depth. A hand may
    give "frames", a list of such point lists in time order, instead of "landmarks": J and
    Z are told by their motion. "handedness" ("left" or "right") is optional, and so is
    "image": {"width": W, "height": H} beside "hands", for landmarks that are fractions of
    a non-square image's sides (as MediaPipe gives them). When the best letter is not
    clearly ahead of the next, or the hand is no handshape at all, the answer is "not
    sure" (null in --json): sign again.

    With --calibration CAL.json (FILE's form, a "letter" on each hand: a learner's own
    recorded signs, a few a letter) the reading adapts to that learner's hand."""
    from taut.games.pulling_strings.signs.classify import classify_frames

    own = read_calibration(calibration) if calibration is not None else None
    hands = read_hands(_read(source), source)
    results = [classify_frames(h["frames"], h["handedness"], calibration=own) for h in hands]
    if as_json:
        click.echo(json.dumps([_rounded(r.to_json()) for r in results]))
        return
    if not results:
        click.echo("no hands")
    for i, result in enumerate(results, 1):
        said = result.letter or "not sure"
        ranked = ", ".join(f"{k} {p:.2f}" for k, p in result.top)
        click.echo(f"hand {i}: {said}" + (f"  ({ranked})" if ranked else "  (no hand shape)"))


@signs_group.command("train")
@click.option(
    "--data",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of sets of real hands (default: data/signs of this checkout).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the model (default: the shipped recogniser.json).",
)
def train_command(data: Path | None, out: Path | None) -> None:
    """Learn the recogniser again from real signers' hands (needs scikit-learn).

    Reads every set of data/signs (one person a file, see its README), adds the drawings'
    synthetic hands as a prior, fits the model with a fixed seed and writes
    recogniser.json: the same data always give the same file."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        fail("training needs scikit-learn: pip install 'taut[train]'")
    from taut.games.pulling_strings.signs.learnt import shipped_path
    from taut.games.pulling_strings.signs.train import BadSet, default_data, dumps, train

    folder = default_data() if data is None else data
    if not folder.is_dir():
        fail(f"no data to train on: {folder} is not a folder (give --data DIR)")
    try:
        model = train(folder)
    except (FileNotFoundError, BadSet) as exc:
        fail(str(exc))
    target = shipped_path() if out is None else out
    try:
        target.write_text(dumps(model), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")
    hands = sum(s["hands"] for s in model["trained"]["sets"])
    signers = len(model["trained"]["sets"])
    click.echo(f"learnt from {signers} signers, {hands} hands: wrote {target}")
