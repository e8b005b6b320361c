"""Tournaments in the browser: a player makes one on /tournaments, lands on its page as
an entrant, enters the computer, and another player enters from the page; the lobby shows
an open game's variant, rating and time control."""

from __future__ import annotations

from pathlib import Path

from tests.browser_kit import chromium, expect, live_server, open_page, page_errors


def test_make_a_tournament_enter_it_and_see_the_lobby(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        maker = open_page(browser, server.url("/tournaments"))
        expect(maker.locator("#tournaments-empty")).to_be_visible()
        maker.fill("#t-name", "Lunch cup")
        # The options are the new-game form's: presets and fields in words, no typed text.
        expect(maker.locator("#t-options")).to_have_count(0)
        maker.select_option("#t-game", "tug-of-war")
        # A game for any number of players is asked for two; more is refused as it is chosen.
        expect(maker.locator("#option-players")).to_have_value("2")
        maker.locator("#options-box > summary").click()
        maker.fill("#option-players", "3")
        maker.locator("#option-players").dispatch_event("change")
        expect(maker.locator("#t-seats-note")).to_contain_text("3 seats")
        maker.select_option("#t-game", "push-pull")
        # Only the presets that keep two seats are offered.
        expect(maker.locator("#presets label")).to_have_text([" Duel"])
        maker.select_option("#t-game", "tracks")
        expect(maker.locator("#t-seats-note")).to_have_text("A tournament game has two seats.")
        maker.locator("#presets label", has_text="Quick game").click()
        expect(maker.locator("#option-size")).not_to_have_value("6")
        maker.fill("#option-size", "3")
        maker.select_option("#time_control", "other")
        maker.fill("#time_control_other", "5+3")
        maker.select_option("#t-system", "swiss")
        maker.fill("#t-rounds", "2")
        maker.click("button[type=submit]")
        maker.wait_for_url("**/t/*")
        expect(maker.locator("h1")).to_have_text("Lunch cup")
        expect(maker.locator("main")).to_contain_text("5+3")
        expect(maker.locator("#t-standings")).to_contain_text("player-")
        maker.locator("#t-levels button[data-level=easy]").click()
        expect(maker.locator("#t-standings")).to_contain_text("computer (easy)")
        expect(maker.locator("#t-join")).to_be_hidden()
        other = open_page(browser, maker.url)
        other.locator("#t-join").click()
        expect(other.locator("#t-standings tr")).to_have_count(3)
        expect(other.locator("#t-levels")).to_be_hidden()
        # On a phone the standings fit: no column is cut off.
        phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        phone.goto(maker.url)
        expect(phone.locator("#t-standings tr")).to_have_count(3)
        expect(phone.locator("#t-standings tr").first).to_contain_text("0–0–0")
        wide = phone.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], wide
        table = phone.locator("table.standings").bounding_box()
        assert table is not None and table["x"] + table["width"] <= 360
        phone.context.close()
        listing = open_page(browser, server.url("/tournaments"))
        expect(listing.locator("#tournaments")).to_contain_text("Lunch cup")
        expect(listing.locator("#tournaments")).to_contain_text("Swiss, 2 rounds")
        # The lobby, on the same server: an open game's variant and time control.
        server.new_game("tracks", ["me", "open"], {"size": 4})
        lobby = open_page(browser, server.url("/lobby"))
        row = lobby.locator("#lobby tr").first
        expect(row).to_contain_text("4")
        expect(row).to_contain_text("none")
        for page in (maker, other, listing, lobby):
            assert page_errors(page) == []
