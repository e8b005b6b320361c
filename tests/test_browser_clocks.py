"""Clocks in two browsers: a 1+0 game of Pulling Strings, the clocks counting down on the
page, and one side losing on time. The server's clock (the store's) is moved on by hand
rather than waiting a minute: the page counts down from what the frames say, and the flag
falls by the server's timer."""

from __future__ import annotations

import time
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


class Clock:
    """The time now plus an offset the test moves on."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def shown(page: Any, seat: str) -> str:
    """What the page's clock of ``seat`` shows."""
    return str(page.locator(f'.clock[data-seat="{seat}"] .clock-time').inner_text())


def seconds(text: str) -> float:
    """A clock's text (``0:59``, ``0:09.4``) in seconds."""
    minutes, rest = text.split(":")
    return int(minutes) * 60 + float(rest)


def test_two_browsers_see_the_clocks_and_one_loses_on_time(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        clock = Clock()
        server._server.config.app.state.store.clock = clock
        body = {
            "game": "pulling-strings", "options": {}, "seats": [{"kind": "me"}, {"kind": "invite"}],
            "time_control": "1+0",
        }  # fmt: skip
        response = httpx.post(server.url("/api/games"), json=body, timeout=30)
        assert response.status_code == 200, response.text
        made = response.json()
        x = open_page(browser, server.url(made["mine"]))
        o = open_page(browser, server.url(made["links"]["O"]))
        for page in (x, o):
            expect(page.locator("#clock-panel")).to_be_visible()
            expect(page.locator("#clock-control")).to_contain_text("1+0")
            # Said as people say it: one minute, not "1 minutes".
            expect(page.locator("#clock-control")).to_contain_text(
                "1 minute each, plus 0 seconds a move"
            )
            expect(page.locator('.clock[data-seat="X"] .clock-time')).to_have_text("1:00")
            expect(page.locator('.clock[data-seat="O"] .clock-state')).to_have_text("stopped")
        assert wait_for_turn(x) == "choose"
        choose(x, legal_moves(x)[0])  # X's first choice starts O's clock
        expect(o.locator('.clock[data-seat="O"] .clock-state')).to_have_text("running")
        expect(o.locator('.clock[data-seat="X"] .clock-state')).to_have_text("stopped")
        first = seconds(shown(o, "O"))
        o.wait_for_timeout(1300)
        later = seconds(shown(o, "O"))
        assert 0.5 < first - later < 5, (first, later)  # it counts down between frames
        assert seconds(shown(o, "X")) == 60  # X has chosen: its clock stands
        # 55 seconds pass at the server; a chat line brings both pages a frame saying so.
        clock.offset += 55
        x.locator("#chat-text").fill("tick tock")
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator('.clock[data-seat="O"] .clock-state')).to_have_text("running, low on time")
        assert seconds(shown(o, "O")) < 6
        # Nobody does anything: the server's timer lets O's flag fall.
        expect(o.locator("#clock-result")).to_have_text("O lost on time.", timeout=15_000)
        expect(x.locator("#clock-result")).to_have_text("O lost on time.")
        expect(x.locator("#result-text")).to_contain_text("time")
        expect(o.locator('.clock[data-seat="O"] .clock-state')).to_have_text("out of time")
        assert shown(o, "O") == "0:00.0"
        expect(o.locator("#clock-note")).to_have_text("O ran out of time.")
        assert page_errors(x) == page_errors(o) == []
