"""Word practice in Chromium: a word's pictures shown one by one, in order, at the speed
set; typing it right three times in a row makes it faster, a miss slower; and signing a
word letter by letter to the camera (landmarks fed through the camera module's test hook,
``?hands=test``)."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import httpx

from taut.server.learn.flashcards import word_sets
from tests.browser_kit import (
    chromium,
    expect,
    live_server,
    open_page,
    page_errors,
    wait_for_camera_hook,
)

try:
    from playwright.sync_api import Page
except ImportError:  # pragma: no cover - browser_kit skips the tests
    Page = object  # type: ignore[assignment, misc]

#: Log every picture the stage shows: its tile, its place in the word, and when.
WATCH = """() => {
  window.__shown = [];
  const stage = document.getElementById("w-stage");
  new MutationObserver(() => {
    const shown = stage.querySelector("[data-tile]");
    if (!shown) return;
    const { tile, index } = shown.dataset;
    window.__shown.push([Number(tile), Number(index), performance.now()]);
  }).observe(stage, { childList: true });
}"""


def watch_a_word(page: Page) -> tuple[str, list[float]]:
    """Show the next word (its button pressed already or not); the word its pictures spell
    and the times between them, in milliseconds."""
    expect(page.locator("#w-stage")).to_have_attribute("data-state", "done")
    shown = page.evaluate("() => window.__shown.splice(0)")
    ts = word_sets()[0]
    assert [i for _, i, _ in shown] == list(range(len(shown))), shown
    word = "".join(ts.tiles[t].board.text for t, _, _ in shown)
    gaps = [b[2] - a[2] for a, b in itertools.pairwise(shown)]
    return word, gaps


def test_a_word_is_shown_at_the_speed_set_and_right_answers_make_it_faster(
    tmp_path: Path,
) -> None:
    ts = word_sets()[0]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url(f"/words/{ts.name}"))
        expect(page.locator(".w")).to_have_attribute("data-ready", "true")
        page.get_by_label("Length").select_option("3")
        page.get_by_label("Letters a second").fill("4")
        page.get_by_label("Letters a second").dispatch_event("change")
        page.evaluate(WATCH)
        page.get_by_role("button", name="Show the word").click()
        for n in range(3):
            word, gaps = watch_a_word(page)
            assert len(word) == 3 and word in ts.words
            # 4 letters a second: a picture every 250 ms (timers are not exact).
            assert all(200 <= g <= 450 for g in gaps), gaps
            # The pictures carry no name that gives the letter away.
            assert page.locator("#w-stage svg title").count() == 0
            page.get_by_label("Type the word").fill(word.lower())
            page.get_by_role("button", name="Check").click()
            expect(page.get_by_role("status")).to_contain_text(f"Right: {word}.")
            if n < 2:
                expect(page.get_by_label("Letters a second")).to_have_value("4")
                page.get_by_role("button", name="Next word").click()
        expect(page.get_by_role("status")).to_contain_text("faster now, 4.5 letters a second")
        expect(page.get_by_label("Letters a second")).to_have_value("4.5")
        # A miss: slower again.
        page.get_by_role("button", name="Next word").click()
        word, gaps = watch_a_word(page)
        assert all(150 <= g <= 400 for g in gaps), gaps  # 4.5 a second: 222 ms
        page.get_by_label("Type the word").fill("qqq")
        page.get_by_role("button", name="Check").click()
        expect(page.get_by_role("status")).to_contain_text(f"the word was {word}")
        expect(page.get_by_label("Letters a second")).to_have_value("4")
        # The speed is kept in this browser.
        page.reload()
        expect(page.get_by_label("Letters a second")).to_have_value("4")
        assert page_errors(page) == []


def test_one_letter_a_second_is_said_in_the_singular(tmp_path: Path) -> None:
    ts = word_sets()[0]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url(f"/words/{ts.name}"))
        expect(page.locator(".w")).to_have_attribute("data-ready", "true")
        page.get_by_label("Letters a second").fill("1")
        page.get_by_label("Letters a second").dispatch_event("change")
        page.get_by_label("Length").select_option("3")  # a new word, said at the new speed
        expect(page.get_by_role("status")).to_contain_text("3 letters, at 1 letter a second.")
        assert page_errors(page) == []


#: Feed the frames (cycling, ``gap`` ms apart) as the camera's, until the element
#: ``selector``'s attribute ``name`` (null: its text) contains ``want`` (or 6 s pass).
FEED = """async ([frames, gap, selector, name, want]) => {
  const start = performance.now();
  for (let i = 0; performance.now() - start < 6000; i++) {
    window.__tautSigns.inject(frames[i % frames.length], "right", 1, 1);
    const el = document.querySelector(selector);
    const value = (name ? el.getAttribute(name) : el.textContent) || "";
    if (value.includes(want)) return true;
    await new Promise((r) => setTimeout(r, gap));
  }
  return false;
}"""


def signing(letter: str) -> tuple[list[list[list[float]]], int]:
    """Frames of a synthetic right hand that the recogniser reads as ``letter`` (held
    still, or drawn in the air for J and Z), and the milliseconds between them."""
    from taut.games.pulling_strings.signs.classify import classify, classify_frames
    from taut.games.pulling_strings.signs.synth import hand, sequence

    for seed in range(100):
        if letter in "JZ":
            frames = sequence(letter, random.Random(seed), frames=16, left=False)
            if classify_frames(frames, "right").letter == letter:
                return [[list(p) for p in points] for points in frames], 50
        else:
            points = hand(letter, random.Random(seed), left=False)
            if classify(points, "right").letter == letter:
                return [[list(p) for p in points]], 40
    raise AssertionError(f"no synthetic hand is read as {letter}")


#: A word with a letter drawn in the air and a double letter: the hardest to sign.
HARD = "ZOO"


def test_a_word_is_signed_letter_by_letter_to_the_camera(tmp_path: Path) -> None:
    ts = word_sets()[0]
    assert HARD in ts.words
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/"))
        served = server.url(f"/api/words/{ts.name}")
        body = {"set": httpx.get(served).json()["set"], "words": [HARD]}
        page.route(served, lambda route: route.fulfill(json=body))
        page.goto(server.url(f"/words/{ts.name}?hands=test"))
        expect(page.locator(".w")).to_have_attribute("data-ready", "true")
        page.get_by_label("Length").select_option("3")
        page.get_by_label("signing: sign each letter to the camera").check()
        word_box = page.locator("#w-word")
        expect(word_box).to_have_attribute("aria-label", re.compile("0 of 3 letters signed$"))
        word = (word_box.get_attribute("aria-label") or "").split(":")[0]
        assert word == HARD
        expect(page.get_by_role("status")).to_contain_text(f"Sign {word}, letter by letter.")
        # The page asks for the word at once; the camera listens once its recogniser is in.
        wait_for_camera_hook(page)
        for i, letter in enumerate(word):
            frames, gap = signing(letter)
            if i and word[i - 1] == letter:
                # A double letter: the hand shows something else between the two signs
                # (one held sign is one letter).
                other, _ = signing("B" if letter != "B" else "L")
                page.evaluate("p => window.__tautSigns.inject(p, 'right', 1, 1)", other[0])
            want = f"{i + 1} of 3 letters signed"
            assert page.evaluate(FEED, [frames, gap, "#w-word", "aria-label", want]), (word, i)
        expect(page.get_by_role("status")).to_contain_text(f"Right: you signed {word}.")
        expect(page.locator("#w-word .done")).to_have_count(3)
        assert page_errors(page) == []


def test_without_the_camera_module_signing_says_it_is_not_available(tmp_path: Path) -> None:
    ts = word_sets()[0]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/"))
        page.route("**/static/signs/camera.js", lambda route: route.fulfill(status=404, body="no"))
        page.goto(server.url(f"/words/{ts.name}"))
        expect(page.locator("#w-sign-note")).to_contain_text("no camera module")
        page.get_by_label("signing: sign each letter to the camera").check()
        expect(page.get_by_role("status")).to_contain_text(
            "Signing to the camera is not available here"
        )
        page.goto(server.url(f"/flashcards/{ts.name}"))
        expect(page.locator("#fc-sign-note")).to_contain_text("no camera module")
        expect(page.locator('input[value="board->sign"]')).to_be_disabled()
        assert page_errors(page) == []
