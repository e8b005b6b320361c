"""``signs.js`` in Chromium gives the Python classifier's answers: the same letter, the same
candidates in the same order, scores equal to 1e-9, on synthetic hands of every letter,
left hands, J and Z sequences, still sequences, random points and a hand with no palm.

The script is loaded as a plain ``<script>`` into an empty page; the test skips, saying why,
when Playwright or Chromium is missing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs import synth
from taut.games.pulling_strings.signs.classify import classify_frames, square_up
from taut.games.pulling_strings.signs.templates import load
from tests.browser_kit import chromium

SCRIPT = Path(__file__).parents[1] / "src/taut/games/pulling_strings/signs/signs.js"


def cases() -> list[dict[str, Any]]:
    """Landmark sets to classify, each ``{"frames": [...], "handedness": ...}``."""
    rng = random.Random(11)
    out: list[dict[str, Any]] = []
    for letter in load()["static"]:
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


def test_the_browser_classifier_agrees_with_python() -> None:
    model = load()
    todo = cases()
    expected = [classify_frames(c["frames"], c["handedness"]).to_json() for c in todo]
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
    assert len(features) == len(model["features"])
    letters = {e["letter"] for e in expected}
    assert {"J", "Z", None} <= letters and len(letters) > 20
    for case, want, have in zip(todo, expected, got, strict=True):
        label = f"{want['letter']} ({len(case['frames'])} frames)"
        assert have["letter"] == want["letter"], label
        assert [k for k, _ in have["top"]] == [k for k, _ in want["top"]], label
        for (_, p), (_, q) in zip(have["top"], want["top"], strict=True):
            assert abs(p - q) <= 1e-9, label
