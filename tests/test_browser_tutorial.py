"""Each game's tutorial played to its end in Chromium at phone size, as a newcomer would: a
wrong move first (explained, nothing lost), then "Show me" or the board itself, and at the
end a real game against the computer in one tap."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from taut.core.registry import games
from tests.browser_kit import LiveServer, chromium, expect, live_server, open_page, page_errors


def steps_of(server: LiveServer, name: str) -> list[dict[str, Any]]:
    """The tutorial's steps, as the page is given them."""
    steps: list[dict[str, Any]] = httpx.get(server.url(f"/api/tutorials/{name}")).json()["steps"]
    return steps


@pytest.mark.parametrize("name", games())
def test_a_tutorial_played_to_its_end_then_a_real_game(tmp_path: Path, name: str) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url(f"/learn/{name}"), width=390, height=844)
        expect(page.locator(".learn")).to_have_attribute("data-step", "0")
        steps = steps_of(server, name)
        total = len(steps)
        wrong_tried = False
        for index in range(total - 1):
            expect(page.locator(".learn")).to_have_attribute("data-step", str(index))
            if page.locator("#next").is_visible():
                page.locator("#next").click()
                continue
            wanted = steps[index]["move"]
            if not wrong_tried:
                # Another legal move, from the list in words: explained, the step stays.
                page.locator("#move-list > summary").click()
                other = page.locator(f'#legal button:not([data-move="{wanted}"])').first
                other.click()
                page.locator("#play").click()
                expect(page.locator("#feedback")).to_contain_text("Not this one")
                expect(page.locator(".learn")).to_have_attribute("data-step", str(index))
                wrong_tried = True
            page.locator("#show").click()
            expect(page.locator("#chosen")).to_have_attribute("data-move", wanted)
            page.locator("#play").click()
        expect(page.locator("#step")).to_have_text("Tutorial done")
        if steps[-1]["lines"]:
            expect(page.locator("#happened li").first).to_be_visible()
            expect(page.locator("#happened")).to_contain_text(steps[-1]["lines"][-1])
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
        page.screenshot(path=str(tmp_path / f"tutorial-{name}.png"))
        page.locator("#first-game").click()
        page.wait_for_url("**/g/*")
        expect(page.locator(".game")).to_have_attribute(
            "data-phase", re.compile("play|commit|over")
        )
        assert page_errors(page) == []


def test_a_move_made_on_the_board_itself(tmp_path: Path) -> None:
    # Track Tiles: a move is a cell of the board; clicking it is the natural way.
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/learn/tracks"))
        page.locator("#next").click()
        wanted = steps_of(server, "tracks")[1]["move"]
        page.locator(f'#board [data-move="{wanted}"]').click()
        expect(page.locator("#chosen")).to_have_attribute("data-move", wanted)
        page.locator("#play").click()
        expect(page.locator(".learn")).to_have_attribute("data-step", "2")
        expect(page.locator("#happened")).to_contain_text(f"places kind 3 on {wanted}")
        assert page_errors(page) == []
