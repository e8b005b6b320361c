"""Ratings as a phone shows them: the player page and the leaderboard fit 390 px, show one
rating (the displayed one) and name the pool in words."""

from __future__ import annotations

from pathlib import Path

from tests.browser_kit import chromium, expect, live_server, page_errors
from tests.test_server_kit import app_client
from tests.test_server_ratings import rated_game_played


def test_ratings_fit_a_phone_and_say_one_rating(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        rated_game_played(client)
        for _ in range(200):  # the rating is written just after the last move
            if len(client.get("/api/leaderboard/tracks?size=2").json()["entries"]) == 2:
                break
        rating = client.get("/api/players/Alice").json()["ratings"][0]["rating"]
    with live_server(tmp_path) as server, chromium() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = context.new_page()
        for path in ("/players/Alice", "/leaderboard/tracks?size=2"):
            page.goto(server.url(path))
            expect(page.locator("main")).to_contain_text(f"{rating:.1f}")
            expect(page.locator("main")).to_contain_text("Board size: 2")
            expect(page.locator("main")).not_to_contain_text("size=2")
            wide = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], (path, wide)
            # mu and sigma wait in a details view, closed.
            expect(page.locator("details.rating-model")).not_to_have_attribute("open", "")
            page.screenshot(path=str(tmp_path / f"{path.strip('/').replace('/', '-')}.png"))
        assert page_errors(page) == []
        context.close()
