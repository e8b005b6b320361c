"""Signing to the camera in a learning game: landmarks enter the page where the camera's
would (the page's test hook, ``?hands=test``), the recogniser reads the letter, the letter
becomes the move's answer, and after the turn the page sketches the hand it saw beside the
letter it read and the right one.

The synthetic hands come from :mod:`taut.games.pulling_strings.signs.synth`; each is first
checked to be read as its letter by the Python classifier, whose browser twin gives the
same answers.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taut.games.pulling_strings.signs.classify import classify, classify_frames
from taut.games.pulling_strings.signs.synth import hand, sequence
from taut.server.web.settings import default_vendor, mediapipe_folder
from tests.browser_kit import (
    CHROMIUM,
    WAIT_MS,
    LiveServer,
    chromium,
    expect,
    live_server,
    moves_played,
    open_page,
    page_errors,
    wait_for_camera_hook,
    wait_for_move,
    wait_for_turn,
)

try:
    from playwright.sync_api import Browser, Page, Route, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]

OPTIONS = {"edition": "published", "learning": "strict", "seed": 8, "max_turns": 3}
#: Letters signed with motion: a still hand does not make them.
MOVING = ("J", "Z")

#: Inject the same landmarks every 40 ms until the page's answer is ``want`` (or 4 s pass);
#: the page signs a letter held steadily for 0.8 s.
HOLD = """async ([points, want]) => {
  const start = performance.now();
  while (performance.now() - start < 4000) {
    window.__tautSigns.inject(points, "right", 1, 1);
    if (document.getElementById("chosen").dataset.move.endsWith("=" + want)) return true;
    await new Promise((r) => setTimeout(r, 40));
  }
  return false;
}"""


def signed_hand(letter: str) -> list[list[float]]:
    """A synthetic right hand that the classifier reads as ``letter``."""
    for seed in range(100):
        points = hand(letter, random.Random(seed), left=False)
        if classify(points, "right").letter == letter:
            return [list(p) for p in points]
    raise AssertionError(f"no synthetic hand of {letter} is read as {letter}")


#: Inject a sequence of landmark sets stamped 50 ms apart, as a camera would show a moving
#: hand (stamped, not timed: a busy machine cannot stretch the motion past the page's window).
MOVE = """async (frames) => {
  let start = performance.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    frames.forEach((points, i) => window.__tautSigns.inject(points, "right", 1, 1, start + 50 * i));
    await new Promise((r) => setTimeout(r, 100));
    if (/=[A-Z]$/.test(document.getElementById("chosen").dataset.move)) return;
    start += 50 * frames.length + 2000; // past the motion window: a fresh start
  }
}"""


def moving_hand(letter: str) -> list[list[list[float]]]:
    """A synthetic right hand drawing ``letter`` (J or Z) that the classifier reads as it."""
    for seed in range(100):
        frames = sequence(letter, random.Random(seed), frames=16, left=False)
        if classify_frames(frames, "right").letter == letter:
            return [[list(p) for p in points] for points in frames]
    raise AssertionError(f"no synthetic sequence of {letter} is read as {letter}")


def pick_end(page: Any, still: bool = True, want: str | None = None) -> str:
    """Click the end ``want`` if the board has it, else an end whose letter is still (not J
    or Z) unless ``still`` is False; returns its letter."""
    ends = page.locator('#board [data-part^="end="]')
    letters = [(e.get_attribute("data-part") or "").split("=", 1)[1] for e in ends.all()]
    choices = [x for x in letters if x == want] or [
        x for x in letters if not still or x not in MOVING
    ]
    assert choices, "no end to pull"
    ends.nth(letters.index(choices[0])).click()
    return choices[0]


def test_signing_to_the_camera_right_wrong_and_moving(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "easy"], OPTIONS)
        path, token = made["mine"].split("#", 1)
        page = open_page(browser, server.url(f"{path}?hands=test#{token}"), width=900)
        assert wait_for_turn(page) == "choose"
        page.locator("#camera-start").click()
        expect(page.locator("#camera-view")).to_be_visible()
        expect(page.locator("#camera-stop")).to_be_visible()
        wait_for_camera_hook(page)

        # Turn 1: the right handshape, held still until the page signs it.
        move = moves_played(page)
        letter = pick_end(page)
        assert page.evaluate(HOLD, [signed_hand(letter), letter])
        expect(page.locator("#chosen")).to_have_attribute("data-move", f"{letter}={letter}")
        expect(page.locator("#chosen")).to_contain_text(f"answering {letter}")
        expect(page.locator("#camera-signed")).to_contain_text(f"Signed {letter}")
        page.screenshot(path=str(tmp_path / "signed.png"), full_page=True)
        page.locator("#confirm").click()
        wait_for_move(page, move + 1)
        reveal = page.locator("#sign-reveal")
        expect(reveal).to_be_visible()
        expect(reveal).to_have_attribute("data-read", letter)
        expect(reveal).to_have_attribute("data-right", letter)
        expect(reveal).to_contain_text(f"read as {letter}")
        expect(reveal).to_contain_text("right")
        expect(reveal.locator("svg.hand-sketch polyline")).to_have_count(6)
        log = page.locator("#log")
        expect(log).to_contain_text(
            f"meant {letter} and gave the ASL handshape for {letter}: right"
        )

        # Turn 2: another letter's handshape, taken at once with Space.
        assert wait_for_turn(page) == "choose"
        move = moves_played(page)
        meant = pick_end(page)
        wrong = "B" if meant != "B" else "L"
        page.locator("#camera-view").focus()
        page.evaluate("p => window.__tautSigns.inject(p, 'right', 1, 1)", signed_hand(wrong))
        expect(page.locator("#camera-guess")).to_have_attribute("data-letter", wrong)
        page.keyboard.press("Space")
        expect(page.locator("#chosen")).to_have_attribute("data-move", f"{meant}={wrong}")
        expect(page.locator("#camera-signed")).to_contain_text(f"Signed {wrong}")
        page.locator("#confirm").click()
        wait_for_move(page, move + 1)
        expect(reveal).to_have_attribute("data-read", wrong)
        expect(reveal).to_have_attribute("data-right", meant)
        expect(reveal).to_contain_text(f"The right one: {meant}")
        expect(reveal).to_contain_text("wrong")
        # Strict: a wrong answer pulls nothing.
        expect(log).to_contain_text(
            f"meant {meant} and gave the ASL handshape for {wrong}: wrong, the answer for "
            f"{meant} is the ASL handshape for {meant}: no pull."
        )
        # Turn 3: J, drawn in the air: read from the motion of a few frames.
        assert wait_for_turn(page) == "choose"
        move = moves_played(page)
        meant = pick_end(page, still=False, want="J")
        page.evaluate(MOVE, moving_hand("J"))
        expect(page.locator("#chosen")).to_have_attribute("data-move", f"{meant}=J")
        page.locator("#confirm").click()
        wait_for_move(page, move + 1)
        expect(reveal).to_have_attribute("data-read", "J")
        expect(reveal).to_have_attribute("data-right", meant)
        # The game is over after three turns: the camera is stopped.
        assert wait_for_turn(page) == "over"
        assert page.evaluate("() => window.__tautSigns === undefined")
        page.screenshot(path=str(tmp_path / "signing.png"), full_page=True)
        assert page_errors(page) == []


@contextlib.contextmanager
def camera_browser() -> Iterator[Browser]:
    """Chromium with a fake camera (a moving test pattern, no hand) allowed without asking;
    skips like :func:`tests.browser_kit.chromium` when Playwright or Chromium is missing."""
    if sync_playwright is None:
        pytest.skip("Playwright is not installed (pip install 'taut[test]')")
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (make browser installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
        )
        try:
            yield browser
        finally:
            browser.close()


def camera_page(browser: Browser, server: LiveServer, outside: list[str]) -> Page:
    """A learning game's page at its turn to choose, every request to another site refused
    and noted in ``outside``."""
    made = server.new_game("pulling-strings", ["me", "easy"], OPTIONS)
    context = browser.new_context(viewport={"width": 900, "height": 900})

    def local_only(route: Route) -> None:
        if route.request.url.startswith(server.base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server.url(made["mine"]))
    assert wait_for_turn(page) == "choose"
    return page


def test_mediapipe_reads_the_camera_from_this_server_alone(tmp_path: Path) -> None:
    if mediapipe_folder(None) is None:
        pytest.skip(f"MediaPipe Hands is not installed in {default_vendor()} (make vendor)")
    outside: list[str] = []
    with live_server(tmp_path) as server, camera_browser() as browser:
        page = camera_page(browser, server, outside)
        page.locator("#camera-start").click()
        # The test pattern has no hand: MediaPipe ran on a frame and found none.
        expect(page.locator("#camera-guess")).to_have_text("No hand in sight.", timeout=WAIT_MS)
        assert page.evaluate("() => document.getElementById('camera-video').videoWidth") > 0
        # (Pressed from the page: a busy page takes long to pass a click's checks.)
        page.evaluate("() => document.getElementById('camera-stop').click()")
        expect(page.locator("#camera-view")).to_be_hidden()
        assert page.evaluate("() => document.getElementById('camera-video').srcObject") is None
    assert outside == []


def test_without_camera_or_mediapipe_the_palette_stays_and_the_page_says_why(
    tmp_path: Path,
) -> None:
    outside: list[str] = []
    with live_server(tmp_path) as server, camera_browser() as browser:
        page = camera_page(browser, server, outside)
        # MediaPipe Hands missing on the server.
        page.route("**/vendor/mediapipe/**", lambda route: route.fulfill(status=404))
        page.locator("#camera-start").click()
        note = page.locator("#camera-note")
        expect(note).to_contain_text("MediaPipe Hands is not installed on this server")
        expect(page.locator("#camera-view")).to_be_hidden()
        expect(page.locator('#board [data-part^="answer="]')).to_have_count(26)
        # The camera refused.
        page.unroute("**/vendor/mediapipe/**")
        if mediapipe_folder(None) is not None:
            page.evaluate(
                """() => { navigator.mediaDevices.getUserMedia = () =>
                     Promise.reject(new DOMException("refused", "NotAllowedError")); }"""
            )
            page.locator("#camera-start").click()
            expect(note).to_contain_text(
                "Permission to use the camera was refused", timeout=WAIT_MS
            )
            expect(page.locator("#camera-start")).to_be_enabled()
        # No camera at all (a page that is not secure, or a browser without one).
        page.evaluate(
            "() => { Object.defineProperty(navigator, 'mediaDevices', {value: undefined}); }"
        )
        page.locator("#camera-start").click()
        expect(note).to_contain_text("gives this page no camera")
        expect(page.locator('#board [data-part^="answer="]')).to_have_count(26)
    assert outside == []
