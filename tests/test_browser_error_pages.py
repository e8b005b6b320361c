"""A wrong address opened in Chromium: the refusal is a page of the site (its title, its
navigation, the status code kept) that passes the accessibility audit, and so is the
replay of a game still being played."""

from __future__ import annotations

from pathlib import Path

from tests.browser_kit import chromium, expect, live_server, open_page, page_errors
from tests.test_browser_axe import (
    axe_script,  # noqa: F401 (a fixture)
    said,
    violations,
)


def test_wrong_addresses_are_pages_with_the_site_around_them(
    tmp_path: Path,
    axe_script: Path,  # noqa: F811 (the fixture)
) -> None:
    script = axe_script
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("tracks", ["me", "invite"], {"size": 3})
        page = open_page(browser, server.url("/"))
        cases = [
            ("/new/chess", 404, "No game called \u201cchess\u201d"),
            ("/g/xyz", 404, "No game \u201cxyz\u201d"),
            ("/nonexistent", 404, "No such page"),
            (f"/replay/{made['id']}", 200, "still being played"),
        ]
        for path, status, heading in cases:
            answer = page.goto(server.url(path))
            assert answer is not None and answer.status == status, path
            expect(page.locator("h1")).to_contain_text(heading)
            assert page.title() not in ("", "taut")
            expect(page.get_by_role("navigation", name="Site")).to_be_visible()
            found = violations(page, script)
            assert not found, f"{path}:\n{said(found)}"
        assert page_errors(page) == []
