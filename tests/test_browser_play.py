"""Two people play Pulling Strings in two browsers: sealed choices, reveals, the result, the
replay, the record checked on the verify page, a rematch in one click; and a game survives a
reload and a server restart."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.browser_kit import (
    board_text,
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
from tests.test_browser_patches import same_board

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

NAME = "Ann <b>&amp;</b>"


def test_two_browsers_play_a_whole_game_with_sealed_choices(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "invite"], {"max_turns": 4}, name=NAME)
        x = open_page(browser, server.url(made["mine"]))
        o = open_page(browser, server.url(made["links"]["O"]))
        # A name is text, never markup.
        expect(o.locator("#seats")).to_contain_text(NAME)
        assert o.locator("#seats b").count() == 0
        rng = random.Random(5)
        turns = 0
        while wait_for_turn(x) == "choose":
            assert wait_for_turn(o) == "choose"
            move = moves_played(x)
            expect(x.locator("#turn")).to_have_text("Your choice")
            choose(x, rng.choice(legal_moves(x)))
            expect(x.locator("#turn")).to_have_text("You have chosen")
            expect(x.locator("#turn-detail")).to_contain_text("sealed")
            # The other player learns that X has chosen, not what.
            expect(o.locator("#seats li").first).to_contain_text("has chosen")
            expect(o.locator("#turn-detail")).to_contain_text("has chosen")
            choose(o, rng.choice(legal_moves(o)))
            wait_for_move(x, move + 1)
            wait_for_move(o, move + 1)
            turns += 1
            # The last turn is told in words and marked in the log.
            expect(x.locator("#log li.last").first).to_be_visible()
            expect(x.locator("#announce")).not_to_be_empty()
        assert wait_for_turn(o) == "over"
        assert turns == 4
        for page in (x, o):
            # Said to each seat for itself: "You won", "You lost" or "Drawn", then how.
            expect(page.locator("#result-text")).to_contain_text(
                re.compile(r"^(Drawn|You won|You lost)\. .* — ")
            )
            expect(page.locator("#result-title")).to_be_visible()
            expect(page.locator("#announce")).to_contain_text(re.compile("Drawn|You won|You lost"))
            # What ends with the game leaves the page: offers, resigning, notifications.
            expect(page.locator("#table-panel")).to_be_hidden()
        # A drawn game marks no seat won or lost.
        expect(x.locator("#result-text")).to_contain_text("Drawn")
        assert x.locator("#seats .badge.lost, #seats .badge.done").count() == 0

        record = x.request.get(server.url(f"/api/games/{made['id']}/record")).json()
        assert len(record["commitments"]) == 2 * turns
        check_replay(x, made["id"], turns)
        check_verify(x, server.url("/verify"), record, tmp_path)

        check_rematch(browser, made["id"], x, o)
        assert page_errors(x) == page_errors(o) == []


def check_rematch(browser: Browser, game_id: str, x: Page, o: Page) -> None:
    """One click on the rematch: that player goes on to the new game on the same page (and
    socket), the other is told and follows with one click too; the rematch's board is the
    one a new page draws, and the rematch is played on."""
    for page in (x, o):
        page.evaluate("() => { window.sameDocument = true; }")
    o.locator("#rematch").click()
    o.wait_for_url(re.compile(r"/g/(?!" + re.escape(game_id) + r")"))
    expect(o.locator("#turn")).to_have_text("Your choice")
    expect(x.locator("#rematch-link")).to_be_visible()
    x.locator("#rematch-link").click()
    expect(x.locator("#turn")).to_have_text("Your choice")
    assert x.url.split("#")[0] == o.url.split("#")[0]
    # Neither page was loaded again: the rematch came on the same page.
    assert x.evaluate("() => window.sameDocument") and o.evaluate("() => window.sameDocument")
    for page in (x, o):
        expect(page.locator("#announce")).to_contain_text("The rematch begins.")
    expect(x.locator("#result")).to_be_hidden()
    expect(x.locator("#log-empty")).to_be_visible()
    assert x.locator("#replay-link").get_attribute("href") != f"/replay/{game_id}"
    fresh = open_page(browser, x.url)
    assert same_board(x, fresh), "the rematch's board differs from a new page's"
    fresh.close()
    # Sealed and revealed under the new game's id: the rematch moves on.
    move = moves_played(x)
    rng = random.Random(9)
    choose(x, rng.choice(legal_moves(x)))
    choose(o, rng.choice(legal_moves(o)))
    wait_for_move(x, move + 1)
    wait_for_move(o, move + 1)
    x.go_back()  # the finished game's own page again
    x.wait_for_url(re.compile(re.escape(game_id)))
    expect(x.locator("#result")).to_be_visible()


def check_replay(page: Page, game_id: str, turns: int) -> None:
    """The replay page steps through every position, by button and by key."""
    page.goto(page.url.split("/g/")[0] + f"/replay/{game_id}")
    where = page.locator("#where")
    expect(where).to_contain_text(f"Position 0 of {turns}")
    page.locator("#next").click()
    expect(where).to_contain_text(f"Position 1 of {turns}")
    page.keyboard.press("End")
    expect(where).to_contain_text(f"Position {turns} of {turns}")
    expect(where).to_contain_text(re.compile("draw|won"))
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(f"Position {turns - 1} of {turns}")
    expect(page.locator("#lines li").first).to_be_visible()
    page.go_back()


def check_verify(page: Page, url: str, record: dict[str, Any], folder: Path) -> None:
    """The verify page checks every hash in the browser and shows the server's replay."""
    good = folder / "record.json"
    good.write_text(json.dumps(record))
    page.goto(url)
    page.locator("#file").set_input_files(str(good))
    report = page.locator("#report")
    n = len(record["commitments"])
    expect(report).to_contain_text(f"{n} of {n} commitments match")
    expect(report).to_contain_text("all legal")
    # A changed salt no longer matches its hash: the browser says so.
    record["commitments"][0]["salt"] = "0" * 32
    bad = folder / "tampered.json"
    bad.write_text(json.dumps(record))
    page.locator("#file").set_input_files(str(bad))
    expect(report).to_contain_text("does not match")
    expect(report).to_contain_text(f"{n - 1} of {n} commitments match")
    expect(report).to_contain_text("the record does not verify")
    expect(report).not_to_contain_text(" won")  # no result claimed for a failed record
    # JSON that is no record: nothing ticked as checked.
    page.locator("#paste-box > summary").click()
    page.locator("#paste").fill("{}")
    page.locator("#verify-form button[type=submit]").click()
    expect(report).to_contain_text("no game record here")
    expect(report).not_to_contain_text("✓")
    page.go_back()


def test_a_reload_keeps_the_sealed_choice_and_the_game(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "invite"], {"max_turns": 6})
        x = open_page(browser, server.url(made["mine"]))
        o = open_page(browser, server.url(made["links"]["O"]))
        for page, move in ((x, "a"), (o, "s")):
            wait_for_turn(page)
            choose(page, move)
        wait_for_move(x, 1)
        before = board_text(o)
        o.reload()
        wait_for_turn(o)
        assert board_text(o) == before

        # X commits, then reloads before O has chosen: the choice is still sealed, and this
        # browser still holds it (with its salt) to reveal once O chooses.
        wait_for_turn(x)
        choose(x, "c")
        expect(x.locator("#turn")).to_have_text("You have chosen")
        kept = x.evaluate(
            "() => Object.keys(localStorage).filter(k => k.startsWith('taut:commit:'))"
        )
        assert kept, "the committed choice is kept in localStorage"
        x.reload()
        expect(x.locator("#turn")).to_have_text("You have chosen")
        # Said in words, as the game tells the pull (its notation is "c").
        expect(x.locator("#turn-detail")).to_contain_text("You chose: Eks (X) pulls c (top)")
        choose(o, "m")
        wait_for_move(x, 2)
        wait_for_move(o, 2)
        record_moves = o.evaluate(
            "id => fetch(`/api/games/${id}/positions`).then(r => r.status)", made["id"]
        )
        assert record_moves == 409  # still being played
        expect(o.locator("#log")).to_contain_text("c")
        assert page_errors(x) == page_errors(o) == []


def test_the_page_reconnects_and_sends_what_was_not_acknowledged(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "invite"], {"max_turns": 6})
        x = open_page(browser, server.url(made["mine"]))
        o = open_page(browser, server.url(made["links"]["O"]))
        wait_for_turn(x)
        wait_for_turn(o)
        server.stop()
        expect(x.locator("#connection")).to_contain_text("reconnecting")
        # Chosen while the server is away: kept, and sent once the page is connected again.
        choose(x, "b")
        expect(x.locator("#turn")).to_have_text("Sending your move…")
        server.start()
        expect(x.locator("#connection")).to_have_text("Connected.")
        expect(x.locator("#turn")).to_have_text("You have chosen")
        expect(o.locator("#connection")).to_have_text("Connected.")
        choose(o, "n")
        wait_for_move(x, 1)
        wait_for_move(o, 1)
        assert page_errors(x) == page_errors(o) == []


def test_the_maker_is_told_while_a_seat_waits_for_someone(tmp_path: Path) -> None:
    """A game with a seat for anyone: its maker's page says the seat is still open until
    someone takes it from the lobby, then no more."""
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("push-pull", ["me", "open"])
        mine = open_page(browser, server.url(made["mine"]))
        wait_for_turn(mine)
        detail = mine.locator("#turn-detail")
        expect(detail).to_contain_text("Seat E is still open")
        other = open_page(browser, server.url("/"))
        row = other.locator("#lobby tr", has_text="Push-Pull")
        row.get_by_role("button", name=re.compile("Take a seat")).click()
        other.wait_for_url(re.compile(r"/g/"))
        # Told with the frame the taking sends, not by the page's asking every 10 s.
        expect(detail).not_to_contain_text("still open", timeout=1500)
        assert page_errors(mine) == page_errors(other) == []
