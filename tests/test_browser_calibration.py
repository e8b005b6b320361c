"""Teaching the camera a learner's hand in the browser: the calibration page collects three
still frames of every still letter (the page's test hook feeds real signers' landmarks in
where the camera's would come), keeps the calibration with the player on the server and in
the browser, equal to what Python makes of the same hands; the game page then reads with
it; one click deletes it everywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taut.games.pulling_strings.signs.learnt import calibrate, load
from tests.browser_kit import chromium, live_server, open_page, page_errors, wait_for_camera_hook
from tests.real_hands import real_hand

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the test extra installs it
    expect = None  # type: ignore[assignment]

#: The learner: another signer than the one the game tests sign with.
SIGNER = "real_signer_b.json"
OPTIONS = {"edition": "published", "learning": "strict", "seed": 8, "max_turns": 3}

#: Feed one hand and take it with the page's button, as Space would.
TAKE = """(points) => {
  window.__tautSigns.inject(points, null, 1, 1);
  document.getElementById("cal-take").click();
}"""

SERVER_COPY = """async () => {
  const key = JSON.parse(localStorage.getItem("taut:player")).key;
  const answer = await fetch("/api/me/calibration", { headers: { "X-Taut-Player": key } });
  return (await answer.json()).calibration;
}"""


def hands_of(letter: str) -> list[list[Any]]:
    """Three hands of the learner signing ``letter`` (any of them, read right or not)."""
    from taut.games.pulling_strings.signs.train import default_data, read_set

    real = read_set(default_data() / SIGNER)
    found = [p for k, p in zip(real.letters, real.points, strict=True) if k == letter][:3]
    return [[list(q) for q in p] for p in found]


def test_calibrating_keeps_the_hand_with_the_player_and_the_game_reads_with_it(
    tmp_path: Path,
) -> None:
    letters = load()["letters"]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/calibrate?hands=test"), width=390, height=844)
        status = page.locator("#cal-status")
        expect(status).to_contain_text("No calibration yet")
        expect(page.locator("#cal-delete")).to_be_hidden()
        page.locator("#cal-start").click()
        wait_for_camera_hook(page)
        expect(page.locator("#cal-letter")).to_have_text(letters[0])
        expect(page.locator("#cal-picture svg")).to_be_visible()
        page.screenshot(path=str(tmp_path / "calibrating.png"), full_page=True)
        signs: list[tuple[str, Any]] = []
        for letter in letters:
            own = hands_of(letter)
            if not own:  # this learner never signed it: skipped, as a learner may
                page.locator("#cal-skip").click()
                continue
            expect(page.locator("#cal-letter")).to_have_text(letter)
            for points in (own * 3)[:3]:
                page.evaluate(TAKE, points)
                signs.append((letter, points))
        expect(status).to_contain_text("Calibrated:")
        expect(page.locator("#cal-work")).to_be_hidden()
        expect(page.locator("#cal-delete")).to_be_visible()
        kept = page.evaluate(SERVER_COPY)
        local = page.evaluate("() => JSON.parse(localStorage.getItem('taut:calibration'))")
        assert kept == local
        python = calibrate([(k, [tuple(p) for p in points]) for k, points in signs])
        assert sorted(kept["letters"]) == sorted(python.letters)
        for letter, made in python.letters.items():
            for a, b in zip(kept["letters"][letter], made, strict=True):
                assert max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1e-12
        n = len(python.letters)
        expect(status).to_contain_text(f"{n} letters, {len(signs)} signs")

        # A game of this player reads with the calibration.
        made_game = server.new_game("pulling-strings", ["me", "easy"], OPTIONS)
        path, token = made_game["mine"].split("#", 1)
        page.goto(server.url(f"{path}?hands=test#{token}"))
        page.locator("#camera-start").click()
        wait_for_camera_hook(page)
        expect(page.locator("#camera-calibrated")).to_contain_text("with your calibration")
        assert page.evaluate("() => window.__tautSigns.calibrated()")
        # The frame rate is told once a second of frames.
        for _ in range(2):
            page.evaluate("(p) => window.__tautSigns.inject(p, null, 1, 1)", real_hand("B"))
            page.wait_for_timeout(1100)
        page.evaluate("(p) => window.__tautSigns.inject(p, null, 1, 1)", real_hand("B"))
        expect(page.locator("#camera-rate")).to_contain_text("frames a second")

        # One click deletes it, on the server and in the browser.
        page.goto(server.url("/calibrate"))
        expect(status).to_contain_text("Calibrated:")
        page.locator("#cal-delete").click()
        expect(status).to_contain_text("No calibration yet")
        assert page.evaluate(SERVER_COPY) is None
        assert page.evaluate("() => localStorage.getItem('taut:calibration')") is None
        assert page_errors(page) == []


def test_the_calibration_page_says_so_when_nothing_is_kept_yet(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/calibrate?hands=test"))
        expect(page.locator("#cal-status")).to_contain_text("No calibration yet")
        page.locator("#cal-start").click()
        wait_for_camera_hook(page)
        first = load()["letters"][0]
        expect(page.locator("#cal-letter")).to_have_text(first)
        page.locator("#cal-stop").click()
        # Nothing taken: nothing kept.
        expect(page.locator("#cal-status")).to_contain_text("No calibration yet")
        assert (
            json.loads(page.evaluate("() => JSON.stringify(localStorage)")).get("taut:calibration")
            is None
        )
