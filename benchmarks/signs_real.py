"""The fingerspelling recogniser on real signers, measured leave-one-signer-out.

For each set of ``data/signs`` (one person each), the recogniser is trained exactly as
``taut signs train`` trains it but without that person, then reads that person's hands of
the 24 still letters (one frame each). Printed, per held-out signer and pooled:

* top-1 (with a 95% Wilson interval) and top-3;
* "judged wrong": a correct sign whose best letter was another one *and* clearly ahead
  (the recogniser answered, wrongly), and "sign again": the answer was "not sure", at the
  shipped margin, and the curve of both over the margin;
* per-letter top-1 and the pairs confused most;
* with calibration: 3 signs a letter taken at random from the held-out person (5 draws),
  the rest read with that calibration;
* beside them, the same figures on synthetic hands from the drawings' model, which say
  how consistent the recogniser is, not how it reads people.

``--extra DIR`` also reads every ``*.json`` set in DIR (same form as ``data/signs``) with
the model trained on all the project's sets: people the project never trained on.

Run: ``.venv/bin/python benchmarks/signs_real.py [--json] [--extra DIR]`` (about 4
minutes; needs scikit-learn).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import template_distance
from taut.games.pulling_strings.signs.learnt import Calibration, letter_scores
from taut.games.pulling_strings.signs.model import STATIC_LETTERS
from taut.games.pulling_strings.signs.shape import shape
from taut.games.pulling_strings.signs.templates import load as load_templates
from taut.games.pulling_strings.signs.train import (
    MARGIN,
    SignerSet,
    fit,
    read_set,
    read_sets,
)

#: The margins of the printed curve.
CURVE = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
#: Calibration: signs a letter, and how many random draws.
CALIBRATION_SIGNS = 3
DRAWS = 5


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def gates(one: SignerSet) -> np.ndarray:
    """Each hand's distance from the nearest still template (the "no hand shape" rule)."""
    templates = load_templates()
    return np.array([template_distance([p], templates) for p in one.points])


def log_probs(
    model: dict[str, Any], shapes: np.ndarray, own: dict[str, np.ndarray] | None = None
) -> np.ndarray:
    """Every hand's letter log-probabilities, as
    :func:`~taut.games.pulling_strings.signs.learnt.letter_scores` computes them (checked
    against it), vectorised. ``own``: standardised calibration signs by letter."""
    mean, scale = np.array(model["mean"]), np.array(model["scale"])
    z = (shapes - mean) / scale
    logits = z @ np.array(model["weights"]).T + np.array(model["bias"])
    if own is not None:
        rule = model["calibration"]
        for k, letter in enumerate(model["letters"]):
            if letter in own:
                near = ((z[:, None, :] - own[letter][None]) ** 2).mean(axis=2).min(axis=1)
            else:
                near = np.full(len(z), rule["absent"])
            logits[:, k] -= rule["weight"] * near
    top = logits.max(axis=1, keepdims=True)
    norm = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
    return np.asarray(logits - norm)


def read(
    model: dict[str, Any], lp: np.ndarray, outside: np.ndarray, truth: list[str], margin: float
) -> dict[str, Any]:
    """Top-1, top-3, judged wrong and sign again of hands whose log-probabilities are
    ``lp``, at ``margin``."""
    letters = np.array(model["letters"])
    order = np.argsort(-lp, axis=1, kind="stable")
    best = letters[order[:, 0]]
    gap = lp[np.arange(len(lp)), order[:, 0]] - lp[np.arange(len(lp)), order[:, 1]]
    truth_a = np.array(truth)
    right = best == truth_a
    top3 = np.array([t in letters[o[:3]] for t, o in zip(truth_a, order, strict=True)])
    sure = (gap >= margin) & (outside <= model["outside"])
    return {
        "n": len(truth),
        "top1": float(right.mean()),
        "top3": float(top3.mean()),
        "wrong": float((sure & ~right).mean()),
        "again": float((~sure).mean()),
        "best": best,
    }


def calibrated(
    model: dict[str, Any], one: SignerSet, shapes: np.ndarray, outside: np.ndarray, seed: int
) -> list[dict[str, Any]]:
    """The held-out person's hands read with a calibration of ``CALIBRATION_SIGNS`` of
    their signs a letter, drawn at random ``DRAWS`` times; the signs drawn are not read."""
    rng = np.random.default_rng(seed)
    truth = np.array(one.letters)
    mean, scale = np.array(model["mean"]), np.array(model["scale"])
    out = []
    for _ in range(DRAWS):
        chosen = np.zeros(len(truth), dtype=bool)
        for letter in sorted(set(one.letters)):
            where = np.flatnonzero(truth == letter)
            chosen[rng.choice(where, min(CALIBRATION_SIGNS, len(where)), replace=False)] = True
        own = {k: (shapes[chosen & (truth == k)] - mean) / scale for k in sorted(set(one.letters))}
        lp = log_probs(model, shapes[~chosen], own)
        margin = model["calibration"]["margin"]
        out.append(read(model, lp, outside[~chosen], list(truth[~chosen]), margin))
    return out


def check_vectorised(model: dict[str, Any], one: SignerSet) -> None:
    """The vectorised scores equal the recogniser's own on a few hands (with and without
    a calibration)."""
    shapes = np.array(one.shapes[:5])
    lp = log_probs(model, shapes)
    own = {one.letters[0]: (np.array(one.shapes[5:8]) - model["mean"]) / model["scale"]}
    lpc = log_probs(model, shapes, own)
    cal = Calibration({one.letters[0]: one.shapes[5:8]})
    for i, values in enumerate(one.shapes[:5]):
        scores = letter_scores([values], model)
        assert max(abs(scores[k] - lp[i, j]) for j, k in enumerate(model["letters"])) < 1e-9
        scores = letter_scores([values], model, cal)
        assert max(abs(scores[k] - lpc[i, j]) for j, k in enumerate(model["letters"])) < 1e-9


def synthetic(model: dict[str, Any], hands: int, seed: int) -> dict[str, float]:
    """Top-1 on synthetic hands of the drawings' model, at each noise level."""
    out = {}
    for level, noise in synth.LEVELS.items():
        rng = random.Random(seed)
        shapes, truth, far = [], [], []
        for letter in STATIC_LETTERS:
            for _ in range(hands):
                points = synth.hand(letter, rng, noise)
                shapes.append(shape(points))
                truth.append(letter)
                far.append(template_distance([points], model["templates"]))
        lp = log_probs(model, np.array(shapes))
        outside = np.array(far)
        r = read(model, lp, outside, truth, MARGIN)
        out[level] = r["top1"]
        out[f"{level}_again"] = r["again"]
    return out


def main() -> None:
    """Measure and print (or print JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--extra", type=Path, default=None, help="more sets, read only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    sets = read_sets()
    per: dict[str, Any] = {}
    confused: Counter[tuple[str, str]] = Counter()
    letter_hits: Counter[str] = Counter()
    letter_all: Counter[str] = Counter()
    curves: dict[float, list[tuple[float, float]]] = {m: [] for m in CURVE}
    for held in sets:
        model = fit([s for s in sets if s is not held])
        check_vectorised(model, held)
        shapes = np.array(held.shapes)
        outside = gates(held)
        lp = log_probs(model, shapes)
        r = read(model, lp, outside, held.letters, MARGIN)
        for m in CURVE:
            x = read(model, lp, outside, held.letters, m)
            curves[m].append((x["wrong"], x["again"]))
        for t, b in zip(held.letters, r["best"], strict=True):
            letter_all[t] += 1
            letter_hits[t] += t == b
            if t != b:
                confused[(t, str(b))] += 1
        cal = calibrated(model, held, shapes, outside, args.seed)
        hits = round(r["top1"] * r["n"])
        per[held.name] = {
            "hands": r["n"],
            "top1": r["top1"],
            "top1_interval": wilson(hits, r["n"]),
            "top3": r["top3"],
            "wrong": r["wrong"],
            "again": r["again"],
            "calibrated_top1": float(np.mean([c["top1"] for c in cal])),
            "calibrated_wrong": float(np.mean([c["wrong"] for c in cal])),
            "calibrated_again": float(np.mean([c["again"] for c in cal])),
        }
        if not args.json:
            p = per[held.name]
            lo, hi = p["top1_interval"]
            print(
                f"signer {held.name}: {p['hands']:5d} hands  top-1 {p['top1']:.3f} "
                f"[{lo:.3f}, {hi:.3f}]  top-3 {p['top3']:.3f}  judged wrong {p['wrong']:.3f}  "
                f"sign again {p['again']:.3f}  | calibrated: top-1 {p['calibrated_top1']:.3f} "
                f"wrong {p['calibrated_wrong']:.3f} again {p['calibrated_again']:.3f}",
                flush=True,
            )
    full = fit(sets)
    result: dict[str, Any] = {
        "signers": per,
        "mean": {
            k: float(np.mean([p[k] for p in per.values()]))
            for k in (
                "top1",
                "top3",
                "wrong",
                "again",
                "calibrated_top1",
                "calibrated_wrong",
                "calibrated_again",
            )
        },
        "min_top1": min(p["top1"] for p in per.values()),
        "margin": MARGIN,
        "curve": {
            str(m): {
                "wrong_mean": float(np.mean([w for w, _ in v])),
                "wrong_max": max(w for w, _ in v),
                "again_mean": float(np.mean([a for _, a in v])),
                "again_max": max(a for _, a in v),
            }
            for m, v in curves.items()
        },
        "per_letter": {k: letter_hits[k] / letter_all[k] for k in sorted(letter_all)},
        "confusions": [[a, b, n] for (a, b), n in confused.most_common(15)],
        "synthetic": synthetic(full, 50, args.seed),
    }
    if args.extra is not None:
        extra = {}
        for path in sorted(args.extra.glob("*.json")):
            one = read_set(path)
            lp, outside = log_probs(full, np.array(one.shapes)), gates(one)
            r = read(full, lp, outside, one.letters, MARGIN)
            extra[path.stem] = {k: r[k] for k in ("n", "top1", "top3", "wrong", "again")}
        result["extra"] = extra
    result["seconds"] = time.perf_counter() - started
    if args.json:
        print(json.dumps(result, indent=1))
        return
    m = result["mean"]
    print(
        f"\nmean over {len(per)} signers: top-1 {m['top1']:.3f} (lowest {result['min_top1']:.3f}), "
        f"top-3 {m['top3']:.3f}, judged wrong {m['wrong']:.3f}, sign again {m['again']:.3f} "
        f"at margin {MARGIN}"
    )
    print(
        f"with calibration ({CALIBRATION_SIGNS} signs a letter): top-1 {m['calibrated_top1']:.3f}, "
        f"judged wrong {m['calibrated_wrong']:.3f}, sign again {m['calibrated_again']:.3f}"
    )
    print("\nmargin  judged wrong (mean, worst signer)  sign again (mean, worst signer)")
    for k, c in result["curve"].items():
        print(
            f"{float(k):6.1f}  {c['wrong_mean']:.3f} {c['wrong_max']:.3f}"
            f"                      {c['again_mean']:.3f} {c['again_max']:.3f}"
        )
    print(
        "\nper letter top-1: " + "  ".join(f"{k} {v:.2f}" for k, v in result["per_letter"].items())
    )
    print(
        "confused most (signed > read): "
        + ", ".join(f"{a}>{b} {n}" for a, b, n in result["confusions"])
    )
    s = result["synthetic"]
    print(
        f"\nfor comparison, synthetic hands of the drawings' model: top-1 {s['low']:.3f} (low "
        f"noise), {s['high']:.3f} (high noise)"
    )
    if "extra" in result:
        print("\npeople never trained on (model trained on every project set):")
        for name, r in result["extra"].items():
            print(
                f"  {name}: {r['n']} hands  top-1 {r['top1']:.3f}  top-3 {r['top3']:.3f}  "
                f"judged wrong {r['wrong']:.3f}  sign again {r['again']:.3f}"
            )
    print(f"\n{result['seconds']:.0f} s")


if __name__ == "__main__":
    main()
