"""Games of more than two seats in the browser: Tug of War with hidden hands (two people, the
computer and a spectator), and Push-Pull's four-sided game against three computer seats."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser_kit import (
    WAIT_MS,
    PlaywrightTimeout,
    board_text,
    choose,
    chromium,
    expect,
    legal_moves,
    live_server,
    moves_played,
    open_page,
    page_errors,
    phase,
    show_text,
    wait_for_move,
    wait_for_turn,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

HAND = re.compile(r"Your hand \((P\d)\)")


def hands_shown(page: Page) -> set[str]:
    """The seats whose hand the page shows, in its text picture and in its board."""
    text = board_text(page) + "\n" + page.locator("#board").inner_html()
    return set(HAND.findall(text))


def test_tug_of_war_each_player_sees_only_their_own_hand(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("tug-of-war", ["me", "invite", "medium"], {"players": 3})
        p0 = open_page(browser, server.url(made["mine"]))
        p1 = open_page(browser, server.url(made["links"]["P1"]))
        watcher = open_page(browser, server.url(made["spectator"]))
        expect(watcher.locator("#turn")).to_have_text("You are watching")
        for page in (p0, p1, watcher):
            show_text(page)
        try:
            wait_for_move(watcher, 1, timeout_ms=10_000)
        except PlaywrightTimeout:
            pytest.fail("the game never started: the deal (its first chance nodes) was not drawn")
        played = 0
        deadline = time.monotonic() + WAIT_MS / 1000 * 2
        while played < 4 and time.monotonic() < deadline:
            for page, seat in ((p0, "P0"), (p1, "P1")):
                expect(page.locator("#board-text")).to_contain_text(f"Your hand ({seat})")
                assert hands_shown(page) == {seat}
                assert hands_shown(watcher) == set()
                if phase(page) == "choose":
                    move = moves_played(page)
                    choose(page, legal_moves(page)[0])
                    wait_for_move(page, move + 1)
                    played += 1
            time.sleep(0.1)
        assert played >= 4, "two people took turns with the computer"
        # The spectator sees the trains and the scores, and no hand at all.
        expect(watcher.locator("#board-text")).to_contain_text("P2")
        assert "Your hand" not in board_text(watcher)
        expect(watcher.locator("#seats")).to_contain_text("the computer (medium)")
        assert page_errors(p0) == page_errors(p1) == page_errors(watcher) == []


def test_push_pull_four_against_three_computer_seats_to_the_end(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game(
            "push-pull", ["me", "easy", "medium", "easy"], {"variant": "four", "max_turns": 8}
        )
        page = open_page(browser, server.url(made["mine"]), width=390, height=844)
        rng = random.Random(3)
        turns = 0
        ways = set()
        composed = page.locator("#board svg[data-compose]").count() > 0
        while wait_for_turn(page) == "choose":
            move = moves_played(page)
            ways.add(choose(page, rng.choice(legal_moves(page))))
            wait_for_move(page, move + 1)
            turns += 1
        assert 1 <= turns <= 8
        # Where the board composes a move from its parts, the moves were made there.
        assert not composed or "board" in ways
        expect(page.locator("#result-text")).to_contain_text(re.compile("draw|won"))
        expect(page.locator("#replay-link")).to_be_visible()
        expect(page.locator("#record-link")).to_be_visible()
        assert page_errors(page) == []
