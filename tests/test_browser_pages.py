"""The pages around the games: a newcomer's way from the home page to a game against the
computer, the new-game form built from every kind of option, the lobby, and what every page
owes a phone and a keyboard."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.browser_kit import (
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


def test_a_newcomer_plays_the_computer_from_the_home_page(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/"))
        card = page.locator(".card", has=page.get_by_role("heading", name="Pulling Strings"))
        expect(card).to_contain_text("five disks")
        card.get_by_role("link", name="New game").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("New game of Pulling Strings")
        page.get_by_label(re.compile(r"^O \(")).select_option("hard")
        page.get_by_role("button", name="Make the game").click()
        # Nobody to invite: straight to the seat.
        page.wait_for_url(re.compile(r"/g/[\w-]+#[\w-]+$"))
        expect(page.locator("#seats")).to_contain_text("the computer (hard)")
        rng = random.Random(1)
        for _ in range(3):
            assert wait_for_turn(page) == "choose"
            move = moves_played(page)
            choose(page, rng.choice(legal_moves(page)))
            wait_for_move(page, move + 1)
        assert len(page.locator("#log li").all()) >= 1
        assert page_errors(page) == []


def test_the_form_follows_the_options_and_hands_out_links(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/new/tug-of-war"))
        seats = page.locator("#seats select")
        expect(seats).to_have_count(3)
        # An integer option that changes the number of seats: the seats are asked for again.
        page.get_by_label("Players", exact=True).fill("5")
        page.get_by_label("Players", exact=True).press("Tab")
        expect(seats).to_have_count(5)
        expect(page.locator("#seats")).to_contain_text("5 seats")
        # A list of choices with "none", and the defaults shown.
        expect(page.get_by_label("Domino set", exact=True)).to_have_value("null")
        expect(page.locator("#option-set option").first).to_have_text("none (default)")
        # One seat is mine; choosing "me" elsewhere turns the first into an invitation.
        seats.nth(2).select_option("me")
        expect(seats.nth(0)).to_have_value("invite")
        seats.nth(1).select_option("invite")
        seats.nth(3).select_option("open")
        seats.nth(4).select_option("easy")
        # A value out of range is refused here, before anything is sent.
        page.get_by_label("Target score", exact=True).fill("0")
        page.get_by_role("button", name="Make the game").click()
        expect(page.locator("#form-error")).to_contain_text("Target score")
        expect(page.get_by_label("Target score", exact=True)).to_have_attribute(
            "aria-invalid", "true"
        )
        page.get_by_label("Target score", exact=True).fill("20")
        page.get_by_role("button", name="Make the game").click()
        expect(page.get_by_role("heading", name="Your game is ready")).to_be_visible()
        links = page.locator("#links li")
        expect(links).to_have_count(3)  # two invitations and the spectators
        expect(page.locator("#links")).to_contain_text("Spectators")
        expect(page.get_by_role("link", name="Go to your seat")).to_be_visible()

        # The open seat is in the lobby of the home page; someone takes it.
        other = open_page(browser, server.url("/"))
        row = other.locator("#lobby tr", has_text="Tug of War")
        expect(row).to_have_count(1)
        row.get_by_role("button", name=re.compile("Take a seat")).click()
        other.wait_for_url(re.compile(r"/g/"))
        expect(other.locator("#seats")).to_contain_text("you")
        # Said once, by the badge: not also as the seat's name ("P1: you you").
        expect(other.locator("#seats")).not_to_contain_text(": you")
        expect(other.locator("#connection")).to_have_text("Connected.")

        # A switch (checkbox) and a choice that changes the number of seats.
        page.goto(server.url("/new/push-pull"))
        expect(page.locator("#seats select")).to_have_count(2)
        expect(page.get_by_label("Sideways shifts")).to_be_hidden()  # a duel has none
        page.get_by_label("Variant", exact=True).select_option('"four"')
        expect(page.locator("#seats select")).to_have_count(4)
        expect(page.get_by_label("Sideways shifts")).not_to_be_checked()
        # Text and nullable numbers: empty means none.
        page.goto(server.url("/new/pulling-strings"))
        letters = page.get_by_label("Letters on the ends", exact=True)
        expect(letters).to_have_attribute("placeholder", "none")
        page.locator("#more-options > summary").click()
        page.get_by_label("Draw when a position repeats", exact=True).fill("1")
        page.get_by_role("button", name="Make the game").click()
        expect(page.locator("#form-error")).to_contain_text("repeat")
        assert page_errors(page) == page_errors(other) == []


def test_a_game_page_without_a_seat_link_says_what_to_do(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "invite"])
        page = open_page(browser, server.url(f"/g/{made['id']}"))
        expect(page.locator("#turn")).to_have_text("This link opens no seat of this game")
        expect(page.locator("#turn-detail")).to_contain_text("lobby")
        expect(page.locator("#compose")).to_be_hidden()
        page.goto(server.url(f"/replay/{made['id']}"))
        expect(page.locator("#where")).to_contain_text("No replay yet")
        expect(page.locator("main")).to_contain_text("once it is over")
        expect(page.locator("#next")).to_have_count(0)  # no controls that cannot work


def test_every_page_fits_a_phone_and_labels_its_parts(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("push-pull", ["me", "invite"], {"max_turns": 1})
        pages = ["/", "/lobby", "/verify", "/rules/tug-of-war", "/new/tug-of-war", made["mine"]]
        for width, height in ((375, 667), (1280, 800)):
            page = open_page(browser, server.url("/"), width=width, height=height)
            for path in pages:
                page.goto(server.url(path))
                page.wait_for_load_state("networkidle")
                # Nothing wider than the screen: no sideways scrolling.
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, f"{path} is {wide} px wide on a {width} px screen"
                assert page.locator("main").count() == 1
                assert page.locator("nav").count() >= 1
                expect(page.locator("h1")).to_have_count(1)
                unlabelled = page.evaluate(
                    """() => [...document.querySelectorAll('input, select, textarea')]
                        .filter(e => e.type !== 'hidden' && e.offsetParent !== null)
                        .filter(e => !(e.labels && e.labels.length))
                        .filter(e => !e.getAttribute('aria-label'))
                        .map(e => e.id || e.name)"""
                )
                assert unlabelled == [], f"{path}: controls without a label: {unlabelled}"
            # The keyboard's focus shows.
            page.goto(server.url("/"))
            page.keyboard.press("Tab")
            page.keyboard.press("Tab")
            style = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert style == "solid"
            assert page_errors(page) == []
