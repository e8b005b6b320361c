"""Tug of War on a phone (390 x 844 CSS pixels): the table is drawn whole across the board's
frame, in the tutorial and at a game; the "Chosen:" line says "nothing yet" before a tile
is chosen; and a tile written the other way round from its label in the hand (0-3 played
as 3-0, the half that meets the end first) says so once chosen. On a desktop (1280 x 800)
the page draws the table's wide layout instead, the hand within the first screen, and
switches layouts as the window narrows and widens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser_kit import (
    LiveServer,
    choose,
    chromium,
    expect,
    legal_moves,
    live_server,
    moves_played,
    open_page,
    page_errors,
    wait_for_move,
    wait_for_turn,
)
from tests.browser_play import game_page, new_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PHONE = (390, 844)
DESKTOP = (1280, 800)
#: The width of the board's picture in units: which layout is drawn.
LAYOUT = "() => document.querySelector('#board svg').viewBox.baseVal.width"
#: Where the hand's lowest tile ends, from the top of the page.
HAND_BOTTOM = """() => Math.max(
  ...[...document.querySelectorAll('#board [aria-label^="Your hand"] [data-id]')]
    .map((el) => el.getBoundingClientRect().bottom + scrollY))"""
#: How the board fits its frame: the picture's width, the frame's room, and whether the
#: frame scrolls sideways.
FIT = """() => {
  const holder = document.getElementById('board');
  const inner = getComputedStyle(holder);
  const room = holder.clientWidth - parseFloat(inner.paddingLeft) - parseFloat(inner.paddingRight);
  return {
    board: document.querySelector('#board svg').getBoundingClientRect().width,
    room,
    scrolls: holder.scrollWidth > holder.clientWidth,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module."""
    with live_server(tmp_path_factory.mktemp("tow-phone")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module."""
    with chromium() as started:
        yield started


def assert_fits(page: Page) -> None:
    found: dict[str, Any] = page.evaluate(FIT)
    assert found["board"] <= found["room"] + 1, found
    assert not found["scrolls"], found


def test_the_tutorial_table_fits_and_says_how_a_tile_is_written(
    server: LiveServer, browser: Browser
) -> None:
    page = open_page(browser, server.url("/learn/tug-of-war"), *PHONE)
    page.locator("#next").click()
    assert_fits(page)
    # Step 2: the learner's 0-3 fits ends showing 0 and 3; most of its plays write it 3-0.
    expect(page.locator("#chosen")).to_have_text("nothing yet")
    said = page.locator("#board .tow-laid-3-0")
    expect(said).to_be_hidden()
    page.locator('#board [data-part="tile=3-0"]').click()
    expect(page.locator("#chosen")).to_have_text("3-0@…")
    expect(said).to_be_visible()
    expect(said).to_have_text("0-3 is written 3-0: its 3 meets the end.")
    page.locator("#show").click()
    assert_fits(page)
    assert page_errors(page) == []
    page.context.close()


#: The smallest text on the board as drawn on the screen, in CSS pixels.
SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll('#board svg text')]
  .filter((t) => t.getBoundingClientRect().width > 0)
  .map((t) => { const m = t.getScreenCTM();
    return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); }))"""


def test_a_game_table_fits_and_nothing_is_chosen_at_first(
    server: LiveServer, browser: Browser
) -> None:
    """Moves are made until the board composes a play of parts (a tile, then an end)."""
    made = new_game(server, "tug-of-war")
    page = open_page(browser, server.url(made["mine"]), *PHONE)
    composed = False
    for _ in range(8):
        if wait_for_turn(page) != "choose":
            break
        page.wait_for_function("() => document.getAnimations().length === 0")
        assert_fits(page)
        # Every word on the table reads at 12 px or more on a phone (the end labels were 10).
        smallest = page.evaluate(SMALLEST_TEXT)
        assert smallest >= 12, smallest
        if page.locator("#board svg[data-compose]").count():
            composed = True
            expect(page.locator("#chosen")).to_have_text("nothing yet")
            break
        move = moves_played(page)
        choose(page, legal_moves(page)[0])
        wait_for_move(page, move + 1)
    assert page_errors(page) == []
    page.context.close()
    if not composed:
        pytest.skip("no play of parts came up in this game")


def test_a_desktop_sees_the_wide_table_and_its_hand_on_the_first_screen(
    server: LiveServer, browser: Browser
) -> None:
    page = game_page(browser, server, "tug-of-war", *DESKTOP)
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.evaluate(LAYOUT) == 640
    assert 0 < page.evaluate(HAND_BOTTOM) <= DESKTOP[1]
    # A tile chosen stays chosen when the window narrows to a phone's and the page draws
    # the narrow table instead.
    part = page.locator("#board [data-part^='tile=']")
    chosen = part.first.get_attribute("data-part") if part.count() else None
    if chosen:
        part.first.click()
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_function(f"() => ({LAYOUT})() === 360")
    assert_fits(page)
    if chosen:
        expect(page.locator(f'#board [data-part="{chosen}"]')).to_have_class("tow-click chosen")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.wait_for_function(f"() => ({LAYOUT})() === 640")
    assert page_errors(page) == []
    page.context.close()
