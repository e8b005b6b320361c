"""Two people in two browsers, as the server's players: each becomes a named player, one
makes a rated game with a clock and invites the other, they chat, the tab says whose move it
is, one loses on time, and both find the game on their player pages with their ratings
changed (and on the game's leaderboard). The server's clock is moved on by hand."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from tests.browser_kit import (
    choose,
    chromium,
    expect,
    legal_moves,
    live_server,
    open_page,
    page_errors,
    wait_for_turn,
)
from tests.test_browser_clocks import Clock


def named(page: Any, name: str) -> dict[str, str]:
    """Make the page's player ``name`` (on its own page ``/me``); the key's header."""
    page.wait_for_function("() => window.tautPlayer !== undefined")
    headers: dict[str, str] = page.evaluate(
        "async () => { await window.tautPlayer.ready; return window.tautPlayer.headers(); }"
    )
    page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + "/me")
    field = page.get_by_label(re.compile("Your name"))
    field.fill(name)
    page.get_by_role("button", name="Change the name").click()
    expect(page.locator("h1")).to_have_text(name)
    return headers


def test_two_players_play_a_rated_game_with_a_clock_and_one_flags(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        clock = Clock()
        server._server.config.app.state.store.clock = clock
        x = open_page(browser, server.url("/"))
        o = open_page(browser, server.url("/"))
        x_key = named(x, "Ada")
        named(o, "Brook")
        body = {
            "game": "pulling-strings", "options": {}, "rated": True, "time_control": "1+0",
            "seats": [{"kind": "me"}, {"kind": "invite"}],
        }  # fmt: skip
        made = httpx.post(server.url("/api/games"), json=body, headers=x_key, timeout=30)
        assert made.status_code == 200, made.text
        links = made.json()
        x.goto(server.url(links["mine"]))
        o.goto(server.url(links["links"]["O"]))  # the invite link attaches O to Brook
        expect(x.locator("#clock-control")).to_contain_text("1+0")
        # Both must choose: each tab says it is its player's move.
        assert wait_for_turn(x) == "choose" and wait_for_turn(o) == "choose"
        expect(x).to_have_title(re.compile(r"^\(●\) Your move"))
        x.locator("#chat-text").fill("good luck!")
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator("#chat-lines")).to_contain_text("good luck!")
        choose(x, legal_moves(x)[0])
        expect(x).not_to_have_title(re.compile(r"Your move"))
        expect(o).to_have_title(re.compile(r"^\(●\) Your move"))
        # Brook's own page says "Your move"; the same page seen by Ada says whose it is.
        for context, text in ((o.context, "Your move"), (x.context, "Brook's move")):
            other = context.new_page()
            other.goto(server.url("/players/Brook"))
            expect(other.locator("tr.your-move .mover")).to_have_text(text)
            other.close()
        # Brook thinks too long: 61 seconds pass at the server; Ada's next line of chat
        # (a command: the server looks at the clocks first) finds the flag fallen.
        clock.offset += 61
        x.locator("#chat-text").fill("hurry up")
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator("#clock-result")).to_have_text("O lost on time.", timeout=15_000)
        expect(x.locator("#result-text")).to_contain_text("time")
        # Each side's seat is marked: X won, O lost.
        for page in (x, o):
            expect(page.locator("#seats li").nth(0).locator(".badge.done")).to_have_text("won")
            expect(page.locator("#seats li").nth(1).locator(".badge.lost")).to_have_text("lost")
        # Both player pages show the finished game, rated, with the ratings moved.
        for page, name, won in ((x, "Ada", True), (o, "Brook", False)):
            answer = httpx.get(server.url(f"/api/players/{name}")).json()
            (game,) = [g for g in answer["finished"] if g["id"] == links["id"]]
            change = game["rating"]["change"]
            assert game["rating"]["rated"] and change is not None, game
            assert (change["mu"] > change["mu_before"]) is won, change
            page.goto(server.url(f"/players/{name}"))
            expect(page.locator("main")).to_contain_text("Finished games")
            expect(page.locator("main")).to_contain_text("→")
        board = httpx.get(server.url("/api/leaderboard/pulling-strings")).json()
        assert {"Ada", "Brook"} <= {row["name"] for row in board["entries"]}
        assert page_errors(x) == page_errors(o) == []
