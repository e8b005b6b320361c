"""The learnt recogniser: a linear model of the 24 still letters over a hand's
:func:`~.shape.shape`, learnt from real signers (:mod:`.train`), shipped as
``recogniser.json``.

A hand's numbers are standardised (``(value - mean) / scale``) and each letter's score is
``bias + weights . z``; scores become log-probabilities by a log-softmax. Three more rules
sit on top:

* **Calibration.** A learner's own signs (:class:`Calibration`: standardised shapes by
  letter) pull each letter's score toward that learner's hand: a letter loses
  ``weight * d``, where ``d`` is the mean squared difference between the hand and the
  nearest of the learner's signs of that letter (``absent`` for a letter the learner did
  not sign), and the scores are normalised again.
* **Not a hand shape.** A hand farther than ``outside`` from every still letter of the
  drawings' templates (:mod:`.classify`'s distance) is no letter at all (random points, an
  open hand at rest): "not sure". Real signers' hands are farther than that about one
  time in sixty.
* **Only when sure.** The best letter is the answer only when its log-probability is
  ``margin`` or more above the runner-up's (the calibration's own ``margin`` when the
  learner's calibration is used); otherwise the answer is "not sure" (letter None), and a
  learner is asked to sign again rather than judged on a guess.

``signs.js`` does the same with the same JSON; change both together.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs.shape import NoHandShape, shape
from taut.games.pulling_strings.signs.skeleton import Vec

#: The shipped model, next to this module.
FILE_NAME = "recogniser.json"
#: Version of the model's JSON layout.
VERSION = 2


def shipped_path() -> Path:
    """Where the shipped model lives in a checkout."""
    return Path(__file__).with_name(FILE_NAME)


@cache
def load() -> dict[str, Any]:
    """The shipped model (read once)."""
    text = resources.files(__package__).joinpath(FILE_NAME).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def standardise(values: Sequence[float], model: Mapping[str, Any]) -> list[float]:
    """A hand's :func:`~.shape.shape` numbers in the model's units."""
    return [(v - m) / s for v, m, s in zip(values, model["mean"], model["scale"], strict=True)]


def _mean_square(z: Sequence[float], c: Sequence[float]) -> float:
    total = 0.0
    for a, b in zip(z, c, strict=True):
        total += (a - b) * (a - b)
    return total / len(z)


@dataclass(frozen=True)
class Calibration:
    """A learner's own signs: standardised shapes by letter (see the module's docstring).
    Build one with :func:`calibrate`."""

    letters: dict[str, list[list[float]]] = field(default_factory=dict)

    def count(self) -> int:
        """How many signs it holds."""
        return sum(len(v) for v in self.letters.values())

    def to_json(self) -> dict[str, Any]:
        """``{"version": 1, "letters": {"A": [[...shape numbers...], ...]}}``: the signs'
        raw shape numbers, which :func:`calibration_from_json` reads back."""
        return {"version": 1, "letters": self.letters}


def calibrate(
    signs: Sequence[tuple[str, Sequence[Vec]]], model: Mapping[str, Any] | None = None
) -> Calibration:
    """A calibration from a learner's signs ``(letter, landmarks)``; letters the model
    does not read from one frame (J, Z) and hands with no shape are left out."""
    model = load() if model is None else model
    letters: dict[str, list[list[float]]] = {}
    for letter, points in signs:
        if letter not in model["letters"]:
            continue
        try:
            values = shape(points)
        except NoHandShape:
            continue
        letters.setdefault(letter, []).append(values)
    return Calibration({k: letters[k] for k in sorted(letters)})


def calibration_from_json(data: Any, model: Mapping[str, Any] | None = None) -> Calibration:
    """A calibration read from :meth:`Calibration.to_json`'s form. Raises ValueError
    naming what is wrong."""
    model = load() if model is None else model
    if not isinstance(data, dict) or not isinstance(data.get("letters"), dict):
        raise ValueError('a calibration is {"version": 1, "letters": {"A": [[...], ...]}}')
    size = len(model["mean"])
    letters: dict[str, list[list[float]]] = {}
    for letter, signs in data["letters"].items():
        if letter not in model["letters"]:
            raise ValueError(f"calibration letter {letter!r} is not one of the still letters")
        if not isinstance(signs, list) or len(signs) > 100:
            raise ValueError(f"calibration letter {letter}: a list of at most 100 signs")
        for sign in signs:
            ok = isinstance(sign, list) and len(sign) == size
            if not ok or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in sign
            ):
                raise ValueError(f"calibration letter {letter}: each sign is {size} numbers")
        letters[letter] = [[float(v) for v in sign] for sign in signs]
    return Calibration({k: letters[k] for k in sorted(letters)})


def letter_scores(
    frames_values: Sequence[Sequence[float]],
    model: Mapping[str, Any],
    calibration: Calibration | None = None,
) -> dict[str, float]:
    """Each letter's log-probability for a hand seen in one or more frames (their scores
    averaged)."""
    letters: list[str] = model["letters"]
    totals = [0.0] * len(letters)
    zs = [standardise(values, model) for values in frames_values]
    for z in zs:
        for k, (row, bias) in enumerate(zip(model["weights"], model["bias"], strict=True)):
            score = bias
            for w, v in zip(row, z, strict=True):
                score += w * v
            totals[k] += score
    logits = [t / len(zs) for t in totals]
    if calibration is not None and calibration.letters:
        rule = model["calibration"]
        own = {
            k: [standardise(v, model) for v in signs] for k, signs in calibration.letters.items()
        }
        for k, letter in enumerate(letters):
            if letter in own:
                near = math.inf
                for z in zs:
                    for sign in own[letter]:
                        near = min(near, _mean_square(z, sign))
            else:
                near = rule["absent"]
            logits[k] -= rule["weight"] * near
    top = max(logits)
    total = 0.0
    for value in logits:
        total += math.exp(value - top)
    norm = top + math.log(total)
    return {letter: logits[k] - norm for k, letter in enumerate(letters)}


def judge(
    frames_values: Sequence[Sequence[float]],
    model: Mapping[str, Any] | None = None,
    calibration: Calibration | None = None,
) -> tuple[str | None, list[tuple[str, float]]]:
    """The letter a hand's shape numbers (one list a frame) sign, None when the best is
    not ``margin`` ahead of the runner-up, and the ranked candidates with their
    probabilities."""
    model = load() if model is None else model
    scores = letter_scores(frames_values, model, calibration)
    ranked = sorted(scores, key=lambda k: (-scores[k], k))
    top = [(k, math.exp(scores[k])) for k in ranked[: int(model["top"])]]
    calibrated = calibration is not None and bool(calibration.letters)
    margin = model["calibration"]["margin"] if calibrated else model["margin"]
    sure = scores[ranked[0]] - scores[ranked[1]] >= margin
    return (ranked[0] if sure else None), top
