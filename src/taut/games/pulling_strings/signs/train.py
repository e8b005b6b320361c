"""Training the learnt recogniser (:mod:`.learnt`) from real signers' landmarks.

The data are the sets of ``data/signs`` in a checkout (one person a file; see its
README). Every hand of the 24 still letters becomes its :func:`~.shape.shape` numbers, in
one unit first (x times the set's aspect, 4/3 for a 640x480 webcam unless the file says
otherwise). The drawings' hand model adds a prior: ``SYNTHETIC`` synthetic hands a letter
(:mod:`.synth`, "high" noise), each counting ``SYNTHETIC_WEIGHT`` of a real one, so that
what no signer covers still leans toward the drawn handshape. A multinomial logistic
regression (scikit-learn, L2 penalty ``C``), fitted to convergence on the standardised
numbers, gives the weights; the standardisation and each letter's centre come from the
real hands alone.

The thresholds (``MARGIN``, ``OUTSIDE``, the calibration's ``WEIGHT``, ``ABSENT`` and
``CALIBRATED_MARGIN``) were
chosen leave-one-signer-out on the same sets by ``benchmarks/signs_real.py``, which prints
the curves they come from.

Run ``taut signs train`` (or ``python -m taut.games.pulling_strings.signs.train``) to
write ``recogniser.json``; a test fails while the shipped file differs from what training
gives. Training needs scikit-learn (the ``train`` extra).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.learnt import FILE_NAME, VERSION, shipped_path
from taut.games.pulling_strings.signs.model import STATIC_LETTERS
from taut.games.pulling_strings.signs.shape import SHAPE, NoHandShape, shape
from taut.games.pulling_strings.signs.skeleton import Vec
from taut.games.pulling_strings.signs.templates import load as load_templates

#: The regularisation of the logistic regression (scikit-learn's C).
C = 1.0
#: Synthetic hands a letter from the drawings' model, and what each counts.
SYNTHETIC = 40
SYNTHETIC_WEIGHT = 0.3
#: The seed of the synthetic hands.
SEED = 1
#: The runner-up's log-probability must be this far below the best for an answer.
MARGIN = 3.0
#: A hand farther than this from every still letter's template (the drawings' model) is no
#: letter: random points and an open hand at rest (the "5") are, real signers' hands about
#: one time in sixty.
OUTSIDE = 40.0
#: Calibration: what a unit of distance to the learner's own signs costs a letter, and the
#: distance a letter the learner did not sign counts as.
WEIGHT = 8.0
ABSENT = 1.5
#: The margin for an answer when the learner's calibration sharpens the reading.
CALIBRATED_MARGIN = 2.5
#: The aspect (width / height) taken for a set that does not give its own.
WEBCAM_ASPECT = 4 / 3
#: Decimals kept in the JSON.
DECIMALS = 6
#: Candidates a result lists.
TOP = 5


def default_data() -> Path:
    """``data/signs`` of the checkout this module runs from."""
    return Path(__file__).resolve().parents[5] / "data" / "signs"


@dataclass(frozen=True)
class SignerSet:
    """One set of real hands: its name, where it came from, and its still letters' shape
    numbers with their letters."""

    name: str
    source: str
    shapes: list[list[float]]
    letters: list[str]
    points: list[list[Vec]]


class BadSet(ValueError):
    """A set of hands that cannot be read (the message names the file and what is wrong)."""


def read_set(path: Path) -> SignerSet:
    """A set of ``data/signs`` (or any file of its form), its hands in one unit. Raises
    :class:`BadSet` for a file that is not such a set or holds no hand of a still letter."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        aspect = float(data.get("aspect", WEBCAM_ASPECT))
        hands = list(data["hands"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BadSet(f"{path}: not a set of hands ({exc})") from None
    try:
        return _read_hands(path, data, aspect, hands)
    except BadSet:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise BadSet(f"{path}: a hand is not 21 points [x, y, z] with a letter ({exc})") from None


def _read_hands(path: Path, data: dict[str, Any], aspect: float, hands: list[Any]) -> SignerSet:
    """The still letters' hands of a set read by :func:`read_set`."""
    shapes: list[list[float]] = []
    letters: list[str] = []
    kept: list[list[Vec]] = []
    for hand in hands:
        if hand["letter"] not in STATIC_LETTERS:
            continue
        points: list[Vec] = [(x * aspect, y, z * aspect) for x, y, z in hand["landmarks"]]
        try:
            shapes.append(shape(points))
        except NoHandShape:
            continue
        letters.append(hand["letter"])
        kept.append(points)
    if not letters:
        raise BadSet(f"{path}: no hand of a still letter (A-Y without J)")
    name = path.stem.removeprefix("real_signer_")
    return SignerSet(name, str(data.get("source", path.name)), shapes, letters, kept)


def read_sets(folder: Path | None = None) -> list[SignerSet]:
    """Every ``*.json`` set of ``folder`` (default :func:`default_data`), by name."""
    folder = default_data() if folder is None else folder
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise FileNotFoundError(f"no sets of hands (*.json) in {folder}")
    return [read_set(p) for p in paths]


def synthetic_prior(
    seed: int = SEED, count: int = SYNTHETIC
) -> tuple[list[list[float]], list[str]]:
    """``count`` synthetic hands a still letter from the drawings' model, as shapes."""
    rng = random.Random(seed)
    shapes: list[list[float]] = []
    letters: list[str] = []
    for letter in STATIC_LETTERS:
        for _ in range(count):
            shapes.append(shape(synth.hand(letter, rng, synth.HIGH)))
            letters.append(letter)
    return shapes, letters


def _r(value: float) -> float:
    return round(float(value), DECIMALS)


def fit(sets: Sequence[SignerSet], seed: int = SEED, synthetic: int = SYNTHETIC) -> dict[str, Any]:
    """The model learnt from ``sets`` (with the synthetic prior), as ``recogniser.json``
    holds it."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    real = np.array([s for one in sets for s in one.shapes], dtype=float)
    labels = [k for one in sets for k in one.letters]
    mean = real.mean(axis=0)
    mean, scale = np.round(mean, DECIMALS), np.round(real.std(axis=0), DECIMALS)
    # A number that never varies (the middle knuckle's turned x is 0 by construction).
    scale[scale < 1e-4] = 1.0
    fake, fake_labels = synthetic_prior(seed, synthetic) if synthetic else ([], [])
    x = (np.vstack([real, np.array(fake, dtype=float).reshape(-1, len(SHAPE))]) - mean) / scale
    weights = np.concatenate([np.ones(len(labels)), np.full(len(fake_labels), SYNTHETIC_WEIGHT)])
    model = LogisticRegression(C=C, max_iter=20000, tol=1e-10)
    model.fit(x, labels + fake_labels, sample_weight=weights)
    letters = [str(k) for k in model.classes_]
    return {
        "version": VERSION,
        "shape": list(SHAPE),
        "letters": letters,
        "mean": [_r(v) for v in mean],
        "scale": [_r(v) for v in scale],
        "weights": [[_r(v) for v in row] for row in model.coef_],
        "bias": [_r(v) for v in model.intercept_],
        "margin": MARGIN,
        "outside": OUTSIDE,
        "calibration": {"weight": WEIGHT, "absent": ABSENT, "margin": CALIBRATED_MARGIN},
        "top": TOP,
        "trained": {
            "sets": [{"name": s.name, "hands": len(s.letters), "source": s.source} for s in sets],
            "synthetic": {"per_letter": synthetic, "weight": SYNTHETIC_WEIGHT, "seed": seed},
            "C": C,
        },
        "templates": load_templates(),
    }


def dumps(model: dict[str, Any]) -> str:
    """The model's JSON text as shipped (one key a line at the top, rows compact)."""
    lines = ["{"]
    items = list(model.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f" {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def train(folder: Path | None = None) -> dict[str, Any]:
    """The model learnt from every set in ``folder`` (default: ``data/signs``)."""
    return fit(read_sets(folder))


def main(argv: Iterable[str] | None = None) -> int:
    """Train on ``data/signs`` (or the folder given) and write ``recogniser.json`` (or
    the path given with ``--out``)."""
    import argparse

    parser = argparse.ArgumentParser(description="Train the fingerspelling recogniser.")
    parser.add_argument("--data", type=Path, default=None, help="folder of sets (data/signs)")
    parser.add_argument("--out", type=Path, default=None, help=f"where to write {FILE_NAME}")
    args = parser.parse_args(list(argv) if argv is not None else None)
    out = shipped_path() if args.out is None else args.out
    out.write_text(dumps(train(args.data)), encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
