"""``signs.js`` in Chromium gives the Python recogniser's answers: the same letter, the same
candidates in the same order, scores equal to 1e-9, on real signers' hands of every letter
(mirrored too), synthetic hands, J and Z sequences, still sequences, random points, a hand
with no palm, and all of them again with a learner's calibration; the shape numbers and a
calibration made in the browser equal Python's.

The script is loaded as a plain ``<script>`` into an empty page; the test skips, saying why,
when Playwright or Chromium is missing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import classify_frames, square_up
from taut.games.pulling_strings.signs.learnt import calibrate, load
from taut.games.pulling_strings.signs.shape import shape
from taut.games.pulling_strings.signs.train import default_data, read_set
from tests.browser_kit import chromium

SCRIPT = Path(__file__).parents[1] / "src/taut/games/pulling_strings/signs/signs.js"


def cases() -> list[dict[str, Any]]:
    """Landmark sets to classify, each ``{"frames": [...], "handedness": ...}``."""
    rng = random.Random(11)
    out: list[dict[str, Any]] = []
    for path in sorted(default_data().glob("*.json")):
        real = read_set(path)
        for i in range(0, len(real.points), 97):
            out.append({"frames": [real.points[i]], "handedness": None})
            mirrored = [(-x, y, z) for x, y, z in real.points[i]]
            out.append({"frames": [mirrored], "handedness": None})
    for letter in load()["letters"]:
        for noise in (synth.LOW, synth.HIGH):
            left = rng.random() < 0.5
            hand = synth.hand(letter, rng, noise, left=left)
            out.append({"frames": [hand], "handedness": None})
            out.append({"frames": [hand], "handedness": "left" if left else "right"})
    for letter in ("J", "Z", "I", "D", "Y"):
        out.append({"frames": synth.sequence(letter, rng, synth.HIGH), "handedness": None})
    for _ in range(5):
        out.append({"frames": [synth.garbage(rng)], "handedness": None})
    out.append({"frames": [[(0.5, 0.5, 0.0)] * 21], "handedness": None})
    return out


def own_signs() -> list[tuple[str, list[tuple[float, float, float]]]]:
    """A learner's signs for a calibration: three hands a letter of one real signer."""
    real = read_set(default_data() / "real_signer_c.json")
    seen: dict[str, int] = {}
    out = []
    for letter, points in zip(real.letters, real.points, strict=True):
        if seen.get(letter, 0) < 3:
            seen[letter] = seen.get(letter, 0) + 1
            out.append((letter, points))
    return out


def test_the_browser_classifier_agrees_with_python() -> None:
    model = load()
    todo = cases()
    signs = own_signs()
    own = calibrate(signs)
    expected = [classify_frames(c["frames"], c["handedness"]).to_json() for c in todo]
    expected += [
        classify_frames(c["frames"], c["handedness"], calibration=own).to_json() for c in todo
    ]
    with chromium() as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_content("<!doctype html><title>signs</title>")
        page.add_script_tag(path=str(SCRIPT))
        got = page.evaluate(
            """([model, cases]) => cases.map((c) => TautSigns.classifyFrames(
                   model, c.frames, c.handedness))""",
            [model, todo],
        )
        got += page.evaluate(
            """([model, cases, own]) => cases.map((c) => TautSigns.classifyFrames(
                   model, c.frames, c.handedness, own))""",
            [model, todo, own.to_json()],
        )
        made = page.evaluate(
            "([model, signs]) => TautSigns.calibrate(model, signs)", [model, signs]
        )
        numbers = page.evaluate("(points) => TautSigns.shape(points)", todo[0]["frames"][0])
        one = page.evaluate(
            "([model, points]) => TautSigns.classify(model, points)",
            [model, todo[0]["frames"][0]],
        )
        features = page.evaluate(
            "(points) => TautSigns.features(points)", [list(p) for p in todo[0]["frames"][0]]
        )
        squared = page.evaluate(
            "(points) => TautSigns.squareUp(points, 1280, 720)", todo[0]["frames"][0]
        )
        assert errors == []
    assert squared == [list(p) for p in square_up(todo[0]["frames"][0], 1280, 720)]
    assert one == got[0]
    assert len(features) == len(model["templates"]["features"])
    python_numbers = shape(todo[0]["frames"][0])
    assert max(abs(a - b) for a, b in zip(numbers, python_numbers, strict=True)) <= 1e-12
    assert sorted(made["letters"]) == sorted(own.letters)
    for letter, signs_made in made["letters"].items():
        for a, b in zip(signs_made, own.letters[letter], strict=True):
            assert max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1e-12
    letters = {e["letter"] for e in expected}
    assert {"J", "Z", None} <= letters and len(letters) > 20
    for case, want, have in zip(todo + todo, expected, got, strict=True):
        label = f"{want['letter']} ({len(case['frames'])} frames)"
        assert have["letter"] == want["letter"], label
        assert [k for k, _ in have["top"]] == [k for k, _ in want["top"]], label
        for (_, p), (_, q) in zip(have["top"], want["top"], strict=True):
            assert abs(p - q) <= 1e-9, label
