"""Flash cards in Chromium: from the home page to a set, cards answered by click and by key,
right and wrong announced, the schedule the server's FSRS gives (checked against the fsrs
library), progress kept across a reload (in the JSON the terminal's progress file uses), a
version 1 record of Leitner boxes converted, pictures without labels that give the answer
away, and screenshots at a desktop's size and a phone's (saved under the test's
``tmp_path``)."""

from __future__ import annotations

import json
from pathlib import Path

import fsrs

from taut.learn import flashcards as fc
from taut.learn.flashcards import Progress
from taut.learn.registry import tile_sets
from taut.learn.tileset import TileSet
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


def shown_card(page: Page, tiles: TileSet) -> tuple[int, str]:
    """The tile and direction of the card the page shows (read from its face)."""
    expect(page.locator("#fc-choices button")).to_have_count(fc.CHOICES)
    face = page.locator("#fc-face")
    direction = face.get_attribute("data-direction") or ""
    if face.locator(".fc-text").count():
        text = face.locator(".fc-text").inner_text()
        found = tiles.find_board(text) if direction == fc.BOARD_TO_OTHER else tiles.find_other(text)
    else:
        described = face.locator(".fc-description").inner_text()
        found = next(
            i for i, t in enumerate(tiles.tiles) if described in (t.other.description, t.other.name)
        )
    assert found is not None, f"the page shows a face of no tile ({direction})"
    return found, direction


def answer(page: Page, tiles: TileSet, right: bool, by_key: bool = False) -> tuple[int, str]:
    """Answer the card shown, right or wrong, with a click (or its number key)."""
    # A card not yet answered is on the page once "Next card" is hidden again (after a
    # click on it the old card stays until the new one has come).
    expect(page.locator("#fc-next")).to_be_hidden()
    tile, direction = shown_card(page, tiles)
    buttons = page.locator("#fc-choices button")
    offered = [int(b.get_attribute("data-tile") or -1) for b in buttons.all()]
    assert tile in offered
    pick = tile if right else next(t for t in offered if t != tile)
    if by_key:
        page.keyboard.press(str(offered.index(pick) + 1))
    else:
        buttons.nth(offered.index(pick)).click()
    said = page.get_by_role("status")
    expect(said).to_contain_text("Right:" if right else "Not right:")
    expect(page.locator("#fc-choices .right")).to_have_attribute("data-tile", str(tile))
    return tile, direction


def test_cards_answered_by_click_and_key_kept_across_a_reload(tmp_path: Path) -> None:
    tiles = tile_sets()["roman"]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/"))
        page.get_by_role("link", name="Practise with flash cards").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Flash cards")
        card = page.locator(".card", has=page.get_by_role("heading", name=tiles.title))
        card.get_by_role("link", name="Practise").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Flash cards: {tiles.title}")
        asked = [answer(page, tiles, right=True)]
        page.get_by_role("button", name="Next card").click()
        asked.append(answer(page, tiles, right=False))
        # Enter on the focused Next button goes on; a number key answers.
        expect(page.get_by_role("button", name="Next card")).to_be_focused()
        page.keyboard.press("Enter")
        asked.append(answer(page, tiles, right=True, by_key=True))
        summary = page.locator("#fc-summary")
        expect(summary).to_contain_text("Accuracy: 2 right of 3 (67%)")
        expect(page.locator("#fc-meta")).to_have_attribute("data-reason", "new")
        missed = asked[1][0]
        expect(summary).to_contain_text(f"Practise {fc.tile_label(tiles, missed)}")
        expect(summary).to_contain_text("You mixed up")

        page.reload()
        expect(page.locator("#fc-summary")).to_contain_text("Accuracy: 2 right of 3 (67%)")
        raw = page.evaluate("() => localStorage.getItem('taut:flashcards')")
        deck = Progress.from_json(json.loads(raw)).deck("roman")
        fc.fit(deck, tiles)
        answers = {k: (s.right, s.wrong) for k, s in deck.cards.items()}
        assert answers == {
            (t, d): (0, 1) if i == 1 else (1, 0) for i, (t, d) in enumerate(asked)
        }, f"asked {asked}, stored {raw}"
        # The schedule is the fsrs library's: one answer each, Good or Again, at the time
        # the server recorded.
        scheduler = fsrs.Scheduler(enable_fuzzing=False)
        for i, key in enumerate(asked):
            memory = deck.cards[key].memory
            assert memory.last_review is not None
            rating = fsrs.Rating.Again if i == 1 else fsrs.Rating.Good
            theirs, _ = scheduler.review_card(
                fsrs.Card(card_id=1, due=memory.last_review), rating, memory.last_review
            )
            assert (memory.due, memory.stability) == (theirs.due, theirs.stability)
        assert sum(deck.confusions.values()) == 1
        assert page_errors(page) == []


def test_direction_choice_and_starting_afresh(tmp_path: Path) -> None:
    tiles = tile_sets()["kana"]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/flashcards/kana"))
        page.get_by_label(f"{tiles.other_kind} → {tiles.board_kind}").check()
        # The card is drawn again for the direction just chosen: wait for it, or the face
        # read could be the old card's while the choices are the new one's.
        expect(page.locator("#fc-face")).to_have_attribute("data-direction", fc.OTHER_TO_BOARD)
        missed = set()
        for _ in range(3):
            tile, direction = answer(page, tiles, right=False)
            assert direction == fc.OTHER_TO_BOARD
            missed.add(tile)
            page.get_by_role("button", name="Next card").click()
        # Every card missed is being learnt (due again within a minute).
        n = len(missed)
        label = f"learning: {n} card{'s' if n != 1 else ''}"
        expect(page.locator(".fc-counts li").nth(1)).to_have_attribute("aria-label", label)
        page.locator(".fc-reset summary").click()
        page.get_by_role("button", name="Forget my progress on this set").click()
        expect(page.locator("#fc-summary")).to_contain_text("No answers yet.")
        assert page_errors(page) == []


def test_pictures_hide_their_names_and_the_screenshots(tmp_path: Path) -> None:
    name = next(n for n, ts in tile_sets().items() if ts.picker == "describe")
    tiles = tile_sets()[name]
    with live_server(tmp_path) as server, chromium() as browser:
        for width, height, size in ((1200, 860, "desktop"), (375, 667, "phone")):
            page = open_page(browser, server.url(f"/flashcards/{name}"), width, height)
            page.get_by_label(f"{tiles.board_kind} → {tiles.other_kind}").check()
            buttons = page.locator("#fc-choices button")
            expect(buttons).to_have_count(fc.CHOICES)
            # The choices are drawn again for the direction just chosen: wait for the new ones.
            page.wait_for_function(
                "n => { const b = [...document.querySelectorAll('#fc-choices button')];"
                " return b.length === n && b.every((x) => x.getAttribute('aria-label')); }",
                arg=fc.CHOICES,
            )
            # Each picture is labelled by its description alone: no <title> or aria-label
            # inside it names the answer, and it is hidden from assistive technology.
            assert page.locator("#fc-choices svg title").count() == 0
            assert page.locator("#fc-choices svg[aria-label]").count() == 0
            for button in buttons.all():
                label = button.get_attribute("aria-label") or ""
                tile = tiles.tiles[int(button.get_attribute("data-tile") or -1)]
                assert label.endswith(tile.other.description or "")
                assert tile.other.name not in label
            page.screenshot(path=str(tmp_path / f"{name}-question-{size}.png"), full_page=True)
            answer(page, tiles, right=size == "desktop")
            shot = tmp_path / f"{name}-answered-{size}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 1000
            # Nothing wider than a phone's screen.
            wide = page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
            assert not wide, f"the page is wider than {width} px"
            # The other way: the picture is shown, described in words, and chosen by letter.
            page.get_by_label(f"{tiles.other_kind} → {tiles.board_kind}").check()
            page.get_by_role("button", name="Next card").click()
            expect(page.locator("#fc-face .fc-description")).to_be_visible()
            assert page.locator("#fc-face svg title").count() == 0
            assert page.locator("#fc-face [aria-hidden=true] svg").count() == 1
            page.screenshot(path=str(tmp_path / f"{name}-picture-{size}.png"), full_page=True)
            answer(page, tiles, right=True)
            page.goto(server.url("/flashcards/roman"))
            expect(page.locator("#fc-choices button")).to_have_count(fc.CHOICES)
            page.screenshot(path=str(tmp_path / f"roman-{size}.png"), full_page=True)
            page.goto(server.url("/flashcards"))
            expect(page.locator(".card")).to_have_count(len(tile_sets()))
            page.screenshot(path=str(tmp_path / f"sets-{size}.png"), full_page=True)
            assert page_errors(page) == []
            page.context.close()


def test_a_version_1_record_in_local_storage_is_converted(tmp_path: Path) -> None:
    # What leitner.js of earlier versions kept in localStorage.
    old = (Path(__file__).parent / "fixtures" / "flashcards_v1_browser.json").read_text()
    tiles = tile_sets()["kana"]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/tiles/kana"))
        page.evaluate("(raw) => localStorage.setItem('taut:flashcards', raw)", old.strip())
        page.goto(server.url("/flashcards/kana"))
        expect(page.get_by_role("status")).to_contain_text("it is now scheduled by FSRS")
        expect(page.locator("#fc-meta")).to_have_attribute("data-reason", "due")
        stored = json.loads(page.evaluate("() => localStorage.getItem('taut:flashcards')"))
        assert stored["version"] == 2
        before = Progress.from_json(json.loads(old)).deck("kana")
        deck = Progress.from_json(stored).deck("kana")
        assert {k: (s.right, s.wrong) for k, s in deck.cards.items()} == {
            k: (s.right, s.wrong) for k, s in before.cards.items()
        }
        assert deck.confusions == before.confusions
        answer(page, tiles, right=True)
        expect(page.get_by_role("status")).to_contain_text("Again in")
        assert page_errors(page) == []


def test_a_letter_is_signed_to_the_camera(tmp_path: Path) -> None:
    from tests.test_browser_words import FEED, signing

    name = next(n for n, ts in tile_sets().items() if ts.sign_files)
    tiles = tile_sets()[name]
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url(f"/flashcards/{name}?hands=test"))
        expect(page.locator(".fc")).to_have_attribute("data-ready", "true")
        page.get_by_label(f"{tiles.board_kind} → sign it to the camera").check()
        expect(page.locator("#fc-face")).to_have_attribute("data-direction", fc.BOARD_TO_SIGN)
        expect(page.locator("#fc-video")).to_be_visible()
        # The preview is mirrored, as in a game, and the landmarks lie over it: no blank
        # space under the video.
        video = page.locator("#fc-video")
        assert video.evaluate("v => getComputedStyle(v).transform").startswith("matrix(-1")
        box, over = video.bounding_box(), page.locator("#fc-canvas").bounding_box()
        assert box and over and abs(box["y"] - over["y"]) < 1
        assert over["height"] <= box["height"] + 1
        letter = page.locator("#fc-face .fc-text").inner_text()
        tile = tiles.find_board(letter)
        assert tile is not None
        expect(page.get_by_role("status")).to_contain_text("Sign it to the camera.")
        frames, gap = signing(tiles.tiles[tile].other.text)
        wait_for_camera_hook(page)  # the recogniser loads after the card asks for a sign
        assert page.evaluate(FEED, [frames, gap, "#fc-feedback", None, "Right:"])
        expect(page.get_by_role("status")).to_contain_text("Right:")
        raw = page.evaluate("() => localStorage.getItem('taut:flashcards')")
        deck = Progress.from_json(json.loads(raw)).deck(name)
        assert deck.cards[(tile, fc.BOARD_TO_SIGN)].right == 1
        # The summary now counts the signed cards too.
        expect(page.locator("#fc-summary")).to_contain_text("Accuracy: 1 right of 1")
        assert page_errors(page) == []
