"""Accuracy of the drawings' templates (the recogniser's prior and its motion rule) on
synthetic hands, at two noise levels.

For each of the 24 still letters, N synthetic hands (``signs.synth``: the letter's posed
skeleton with varied joints, bones and thumb, turned up to 25 degrees in the image, tilted,
scaled, placed anywhere, half of them left hands, every landmark jittered) are classified
from one frame without saying which hand they are; J and Z are classified from sequences
of 6 to 30 frames, and so are still sequences of I and D (which must not be read as J or
Z). Printed: top-1 and top-3 accuracy, the share answered "not sure", the share of random
point clouds answered "not sure", and the pairs of letters confused most.

The synthetic hands come from the same model as the templates, so this measures the
templates' consistency and their tolerance of the modelled variation, not accuracy on real
signers: ``benchmarks/signs_real.py`` measures the learnt recogniser on people (see
docs/asl.md, "Recognising signs"). J and Z sequences are read by the whole recogniser
(the motion rule on top of the learnt model).

Run: ``.venv/bin/python benchmarks/signs_accuracy.py [--hands N] [--seed S] [--json]``
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import Recognition, classify_frames, motion_frames
from taut.games.pulling_strings.signs.model import STATIC_LETTERS
from taut.games.pulling_strings.signs.skeleton import Vec
from taut.games.pulling_strings.signs.templates import load


def classify(points: list[Vec]) -> Recognition:
    """What the drawings' templates read in one frame."""
    return motion_frames([points], None, load())


def measure(level: str, hands: int, rng: random.Random) -> dict[str, Any]:
    """Accuracy of one noise level: top-1, top-3, not sure, confusions, per letter."""
    noise = synth.LEVELS[level]
    top1 = top3 = unsure = 0
    confused: Counter[tuple[str, str]] = Counter()
    per_letter: dict[str, float] = {}
    for letter in STATIC_LETTERS:
        right = 0
        for _ in range(hands):
            result = classify(synth.hand(letter, rng, noise))
            ranked = [k for k, _ in result.top]
            right += result.letter == letter
            top3 += letter in ranked[:3]
            unsure += result.letter is None
            if result.letter not in (letter, None):
                confused[(letter, result.letter)] += 1
        top1 += right
        per_letter[letter] = right / hands
    motion: dict[str, float] = {}
    for letter in ("J", "Z", "I", "D"):
        count = max(1, hands // 4)
        said = [
            classify_frames(synth.sequence(letter, rng, noise, rng.randint(6, 30))).letter
            for _ in range(count)
        ]
        motion[letter] = said.count(letter) / count
    total = hands * len(STATIC_LETTERS)
    return {
        "top1": top1 / total,
        "top3": top3 / total,
        "not_sure": unsure / total,
        "per_letter": per_letter,
        "sequences": motion,
        "confusions": [[a, b, n] for (a, b), n in confused.most_common(12)],
    }


def main() -> None:
    """Measure both noise levels and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per letter and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    results = {level: measure(level, args.hands, rng) for level in synth.LEVELS}
    garbage = sum(classify(synth.garbage(rng)).letter is None for _ in range(args.hands))
    results["random_points_not_sure"] = garbage / args.hands
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{args.hands} synthetic hands per letter and level, seed {args.seed}, {seconds:.1f} s")
    print(f"{'noise':6} {'top-1':>7} {'top-3':>7} {'not sure':>9}   J/Z/I/D sequences right")
    for level in synth.LEVELS:
        r = results[level]
        seq = " ".join(f"{k} {v:.0%}" for k, v in r["sequences"].items())
        print(f"{level:6} {r['top1']:7.1%} {r['top3']:7.1%} {r['not_sure']:9.1%}   {seq}")
    print(f"random point clouds answered 'not sure': {garbage / args.hands:.1%}")
    for level in synth.LEVELS:
        r = results[level]
        worst = sorted(r["per_letter"].items(), key=lambda kv: kv[1])[:5]
        print(f"\n{level} noise, weakest letters: " + ", ".join(f"{k} {v:.0%}" for k, v in worst))
        print(
            "confused (signed -> read, count): "
            + (", ".join(f"{a}->{b} {n}" for a, b, n in r["confusions"]) or "none")
        )


if __name__ == "__main__":
    main()
