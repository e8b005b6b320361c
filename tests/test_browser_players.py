"""Players in the browser: the first visit makes one, its page renames it, a sign-in link
moves it to another browser, and a rated game made from the form attaches the maker."""

from __future__ import annotations

import re
from pathlib import Path

from tests.browser_kit import chromium, expect, live_server, open_page, page_errors


def test_a_player_is_made_renamed_and_moved_to_another_browser(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/"))
        me = page.locator("#me-link")
        expect(me).to_be_visible()
        expect(me).to_have_text(re.compile(r"^player-[0-9a-f]{6}$"))
        me.click()
        expect(page.locator("#you")).to_be_visible()
        page.get_by_label(re.compile("^Your name")).fill("<i>Zoe")
        page.get_by_role("button", name="Change the name").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("<i>Zoe")
        page.get_by_role("button", name="Sign in on another device").click()
        link = page.locator("#signin-out code").inner_text()
        assert "/signin#" in link
        other = open_page(browser, link)
        expect(other.locator("#signin-status")).to_contain_text("Signed in as <i>Zoe")
        expect(other.locator("#me-link")).to_have_text("<i>Zoe")
        assert "#" not in other.url  # the used token is dropped from the address
        page.reload()
        expect(page.locator("#devices li")).to_have_count(2)
        # Two devices alike are told apart by when each was added and last seen.
        for item in page.locator("#devices li").all():
            expect(item).to_contain_text(re.compile(r"^Chrome on Linux.*, added .+, last seen "))
        expect(page.locator("#devices li", has_text="(this one)")).to_have_count(1)
        # A rated game from the form (against the computer): the maker's seat is theirs.
        page.goto(server.url("/new/tracks"))
        expect(page.locator("#seats select")).to_have_count(2)
        page.get_by_label("Rated").check()
        page.get_by_role("button", name="Make the game").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+#[\w-]+$"))
        expect(page.locator("#rated-note")).to_contain_text("counts for <i>Zoe")
        page.goto(server.url("/players/%3Ci%3EZoe"))
        expect(page.locator("section", has_text="Games in progress")).to_contain_text("Track")
        assert page_errors(page) == [] and page_errors(other) == []
