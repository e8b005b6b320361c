"""Every game's page on a phone (390 x 844 CSS pixels) and on a desktop (1280 x 800): the page
never scrolls sideways, on the phone the board fills the width, and everything one clicks or
taps (buttons, links, form fields, the board's moves and parts) is at least 44 x 44 CSS
pixels, a finger's target; on the phone the board is drawn whole across its frame (no
sideways scrolling inside it either).

Screenshots of each page are saved under the test's ``tmp_path``; with
``TAUT_DOCS_SCREENSHOTS=1`` in the environment they are also copied to
``docs/screenshots/phone-<game>.png`` and ``desktop-<game>.png``, the pictures the README
shows::

    TAUT_DOCS_SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser_phone.py
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser_kit import LiveServer, chromium, live_server, page_errors
from tests.browser_play import GAMES, game_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
#: The smallest side of a target, in CSS pixels (WCAG 2.5.5, target size).
TARGET = 44
#: The largest screenshot kept, in bytes.
MOST_BYTES = 200_000
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

#: Every visible, enabled thing that takes a click, with its box (a check box or a radio
#: button by its label, which takes its clicks); and the widths the layout is judged by.
MEASURE = """() => {
  const clickable = 'button, a[href], input:not([type=hidden]), select, textarea, summary, '
    + '#board [data-move], #board [data-part]';
  const small = [];
  let count = 0;
  for (const el of document.querySelectorAll(clickable)) {
    if (el.disabled || !el.checkVisibility({ visibilityProperty: true })) continue;
    let box = el.getBoundingClientRect();
    if ((el.type === 'checkbox' || el.type === 'radio') && el.labels && el.labels.length) {
      box = el.labels[0].getBoundingClientRect();
    }
    if (box.width === 0 && box.height === 0) continue;
    count += 1;
    if (box.width < 44 || box.height < 44) {
      const name = el.dataset.move || el.dataset.part || el.id
        || (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
      small.push(`${el.tagName.toLowerCase()} "${name}": `
        + `${box.width.toFixed(1)} x ${box.height.toFixed(1)}`);
    }
  }
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  const content = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const holder = document.getElementById('board');
  const inner = getComputedStyle(holder);
  const room = holder.clientWidth - parseFloat(inner.paddingLeft) - parseFloat(inner.paddingRight);
  return {
    small, count, content, room,
    scroll: document.scrollingElement.scrollWidth,
    viewport: innerWidth,
    holder: holder.getBoundingClientRect().width,
    board: document.querySelector('#board svg').getBoundingClientRect().width,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module's games."""
    with live_server(tmp_path_factory.mktemp("phone")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module."""
    with chromium() as started:
        yield started


def measure(page: Page) -> dict[str, Any]:
    """What :data:`MEASURE` finds on ``page``, once a move's animation has ended (pieces in
    motion are not where, nor the size, they will stay)."""
    page.wait_for_function("() => document.getAnimations().length === 0")
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def check_layout(page: Page, size: str) -> int:
    """Assert the page's layout and targets, with the list of moves both shut and open;
    returns the number of targets measured."""
    counted = 0
    for opened in (False, True):
        if opened:
            page.locator("#other-ways > summary").click()
        found = measure(page)
        where = f"{size}, list of moves {'open' if opened else 'shut'}"
        assert found["scroll"] <= found["viewport"], (
            f"{where}: the page scrolls sideways ({found['scroll']} > {found['viewport']} px)"
        )
        assert found["small"] == [], f"{where}: targets under {TARGET} px: " + "; ".join(
            found["small"]
        )
        counted += found["count"]
        if size == "phone":
            assert abs(found["holder"] - found["content"]) <= 1, (
                f"the board's frame is {found['holder']} px wide in {found['content']} px"
            )
            assert abs(found["board"] - found["room"]) <= 1, (
                f"the board is {found['board']} px wide in a frame of {found['room']} px"
            )
    return counted


@pytest.mark.parametrize("game", list(GAMES))
def test_game_page_on_a_phone_and_a_desktop(
    game: str, server: LiveServer, browser: Browser, tmp_path: Path
) -> None:
    shots = []
    page = game_page(browser, server, game, *SIZES["phone"])
    for size, (width, height) in SIZES.items():
        # The same game, in the same browser, on the other screen.
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#other-ways").evaluate("d => { d.open = false; }")
        # The first screen, as the person sees it (CSS pixels: small files), once the last
        # move's animation is over and back at the top (a click scrolls the page).
        page.wait_for_function("() => document.getAnimations().length === 0")
        page.evaluate("() => { scrollTo(0, 0); document.getElementById('board').scrollLeft = 0; }")
        shot = tmp_path / f"{size}-{game}.png"
        page.screenshot(path=str(shot), scale="css")
        shots.append(shot)
        assert check_layout(page, size) > 5
    assert page_errors(page) == []
    page.context.close()
    for shot in shots:
        assert 1000 < shot.stat().st_size < MOST_BYTES, f"{shot.name}: {shot.stat().st_size} B"
    if os.environ.get("TAUT_DOCS_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        for shot in shots:
            shutil.copyfile(shot, DOCS / shot.name)


def test_a_long_refused_move_wraps_on_a_phone(server: LiveServer, browser: Browser) -> None:
    """The error naming a long typed move wraps instead of widening the page; the box takes
    no more than a move can hold (the protocol's limit)."""
    from taut.server.play.protocol import Action

    page = game_page(browser, server, "pulling-strings", *SIZES["phone"], moves=0)
    page.locator("#other-ways").evaluate("d => { d.open = true; }")
    box = page.locator("#move-text")
    assert box.get_attribute("maxlength") == str(Action.__metadata__[0].max_length)
    box.fill("z" * 150)
    box.press("Enter")
    page.wait_for_function("() => document.getElementById('error').textContent.length > 0")
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    assert page_errors(page) == []
    page.context.close()
