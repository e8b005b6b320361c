"""Games made for the browser tests of the pages' looks (phone sizes, accessibility): each of
the shipped games against the computer, a few moves in, as a person sees it at their turn."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import httpx

from tests.browser_kit import (
    LiveServer,
    choose,
    legal_moves,
    moves_played,
    open_page,
    wait_for_move,
    wait_for_turn,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: The games whose pages are checked, with options that keep them small enough to show whole.
GAMES: dict[str, dict[str, Any]] = {
    "pulling-strings": {},
    "push-pull": {},
    "tug-of-war": {"players": 3},
    "tracks": {},
}
#: How many games :func:`game_page` plays at most to find one still going.
ATTEMPTS = 5


def new_game(server: LiveServer, game: str) -> dict[str, Any]:
    """A game of ``game`` with this person in the first seat and the computer (easy) in the
    others; the API's answer (``mine`` is this person's link)."""
    options = GAMES[game]
    asked = httpx.post(server.url("/api/seats"), json={"game": game, "options": options})
    assert asked.status_code == 200, asked.text
    seats = asked.json()["seats"]
    return server.new_game(game, ["me"] + ["easy"] * (len(seats) - 1), options)


def game_page(
    browser: Browser, server: LiveServer, game: str, width: int, height: int, moves: int = 2
) -> Page:
    """A page of a new game of ``game`` at ``width`` x ``height`` after this person's first
    ``moves`` moves (chosen at random, seeded), waiting at their next turn.

    The computer's replies are not seeded, so a short game can now and then be over by then
    (two Push-Pull turns end about one random game in fifty); a finished game shows no move
    controls to look at, so such a game is put aside and a new one played."""
    for attempt in range(ATTEMPTS):
        made = new_game(server, game)
        page = open_page(browser, server.url(made["mine"]), width=width, height=height)
        rng = random.Random(7 + attempt)
        for _ in range(moves):
            if wait_for_turn(page) != "choose":
                break
            move = moves_played(page)
            choose(page, rng.choice(legal_moves(page)))
            wait_for_move(page, move + 1)
        if wait_for_turn(page) == "choose":
            return page
        page.context.close()
    raise AssertionError(f"{ATTEMPTS} games of {game} were all over after {moves} moves")
