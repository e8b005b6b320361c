"""The board animates each turn (static/play/animate.js), in every game: a move starts an
animation, the board it leaves behind is exactly the picture drawn without one, a browser
that asks for reduced motion gets none, and a click ends one at once.

Each game is played by two people; the first seat's page is open twice, once as usual and
once in a browser that asks for reduced motion, so the two show the same frames and the
second is the picture with animation off."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

import taut
from tests.browser_kit import (
    WAIT_MS,
    choose,
    chromium,
    legal_moves,
    live_server,
    moves_played,
    phase,
    wait_for_move,
    wait_for_turn,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.browser_kit import LiveServer

#: Watches the board of a page: every animation that starts is noted (the move it follows
#: and how many animations run), and paused when the test asks (to click during it).
WATCH = """
window.__started = [];
window.__pause = false;
addEventListener('DOMContentLoaded', () => {
  const holder = document.getElementById('board');
  if (!holder) return;
  let on = false;
  new MutationObserver(() => {
    const now = holder.hasAttribute('data-animating');
    if (now && !on) {
      const running = document.getAnimations();
      window.__started.push({
        move: Number(document.querySelector('.game').dataset.move), count: running.length,
      });
      if (window.__pause) for (const a of running) a.pause();
    }
    on = now;
  }).observe(holder, { attributes: true, attributeFilter: ['data-animating'] });
});
"""

#: Whether the page's board is still: no animation and nothing marked as animating.
STILL = """() => !document.getElementById('board').hasAttribute('data-animating')
                 && document.getAnimations().length === 0
                 && !document.querySelector('#board [data-ghost]')"""

Moves = Callable[[int, dict[str, "Page"]], dict[str, str]]


def _first_legal(turn: int, pages: dict[str, Page]) -> dict[str, str]:
    """The first legal move of every seat that must choose now."""
    return {seat: legal_moves(page)[0] for seat, page in pages.items() if phase(page) == "choose"}


#: Each game: its options, and the moves of each turn (by seat) that move something.
GAMES: dict[str, tuple[dict[str, Any], Moves]] = {
    # The same end twice: the stack slides along the column and the end breaks.
    "pulling-strings": ({}, lambda turn, _: {s: "co"[turn] for s in ("X", "O")}),
    # West pushes one piece a square east; East passes.
    "push-pull": (
        {"variant": "duel"},
        lambda turn, _: {
            "W": ("L=push,M=pass,S=pass", "L=pass,M=push,S=pass")[turn],
            "E": "L=pass,M=pass,S=pass",
        },
    ),
    # A tile comes down on the board, each player's in turn.
    "tracks": ({}, lambda turn, _: [{"NS": "c3"}, {"WE": "d4"}][turn]),
    # A domino goes from the hand to a train (or a tile is drawn).
    "tug-of-war": ({"players": 2}, _first_legal),
}


#: Script errors of the pages :func:`_open` opened.
ERRORS: list[str] = []


def _open(browser: Browser, url: str, reduced: bool) -> Page:
    """A page showing ``url`` in a browser context of its own (a window: a page behind
    another in one window gets no animation frames), asking for reduced motion where
    ``reduced``."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.on("pageerror", lambda exc: ERRORS.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#board svg")
    return page


def _svg(page: Page) -> str:
    return str(page.locator("#board svg").evaluate("s => s.outerHTML"))


def _play_turn(turn: int, moves: Moves, pages: dict[str, Page]) -> None:
    """Make the moves of ``turn``, waiting for each seat to be asked for its move."""
    start = moves_played(next(iter(pages.values())))
    for page in pages.values():
        page.wait_for_function(
            """() => !document.getElementById('compose').hidden
                     || !document.getElementById('turn').textContent.startsWith('Loading')"""
        )
    chosen: dict[str, str] = {}
    for _ in range(100):
        chosen = moves(turn, pages)
        if chosen and all(phase(pages[s]) == "choose" for s in chosen):
            break
        pages[next(iter(pages))].wait_for_timeout(100)
    assert chosen, "nobody is asked for a move"
    for seat, move in chosen.items():
        choose(pages[seat], move)
    for page in pages.values():
        wait_for_move(page, start + 1)


def _same_board(page: Page, plain: Page) -> None:
    """The animated page's board, once still, is the picture the plain page shows."""
    page.wait_for_function(STILL)
    target = moves_played(page)
    wait_for_move(plain, target)
    for _ in range(50):
        if _svg(page) == _svg(plain):
            break
        page.wait_for_timeout(100)
    assert _svg(page) == _svg(plain)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Browser]]:
    """One server and one browser for the tests of this module (each game is new)."""
    with live_server(tmp_path_factory.mktemp("animation")) as server, chromium() as browser:
        yield server, browser


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_is_animated_and_leaves_the_board_as_drawn(
    served: tuple[LiveServer, Browser], game: str
) -> None:
    options, moves = GAMES[game]
    server, browser = served
    ERRORS.clear()
    made = server.new_game(game, ["me", "invite"], options)
    first, second = taut.make(game, **options).info.seats[:2]
    page = _open(browser, server.url(made["mine"]), reduced=False)
    plain = _open(browser, server.url(made["mine"]), reduced=True)
    other = _open(browser, server.url(made["links"][second]), reduced=False)
    pages = {first: page, second: other}
    try:
        assert page.locator("#animate-moves").is_checked()
        assert plain.locator("#animate-moves").is_disabled()

        # (a) a move starts an animation; (b) once it ends, the board is as drawn.
        before = moves_played(page)
        _play_turn(0, moves, pages)
        page.wait_for_function("n => window.__started.some(s => s.move > n)", arg=before)
        started = page.evaluate("window.__started")
        assert any(s["move"] > before and s["count"] > 0 for s in started), started
        _same_board(page, plain)
        # (c) reduced motion: never an animation.
        assert plain.evaluate("window.__started") == []
        assert plain.evaluate("document.getAnimations().length") == 0

        # (d) a click (in two games; a key press in the others) ends the animation at once
        # (it is held still until then).
        page.evaluate("window.__pause = true")
        before = moves_played(page)
        _play_turn(1, moves, pages)
        page.wait_for_function("n => window.__started.some(s => s.move > n)", arg=before)
        assert page.evaluate(STILL) is False, "the animation is held until it is skipped"
        if game in ("pulling-strings", "tug-of-war"):
            page.locator("h1").click()
        else:
            page.keyboard.press("Shift")
        assert page.evaluate(STILL) is True
        _same_board(page, plain)
        assert plain.evaluate("window.__started") == []
        assert ERRORS == []
    finally:
        for opened in (page, plain, other):
            opened.context.close()


def test_animate_moves_can_be_turned_off_and_is_remembered(
    served: tuple[LiveServer, Browser],
) -> None:
    server, browser = served
    made = server.new_game("tracks", ["me", "easy"], {})
    page = _open(browser, server.url(made["mine"]), reduced=False)
    try:
        page.locator("#animate-moves").uncheck()
        page.reload()
        page.wait_for_selector("#board svg")
        assert not page.locator("#animate-moves").is_checked()
        # The player's tile and the computer's come down without an animation.
        _play_turn(0, GAMES["tracks"][1], {"NS": page})
        assert wait_for_turn(page) == "choose"
        page.wait_for_function(STILL)
        assert page.evaluate("window.__started") == []
        page.locator("#animate-moves").check()
        assert page.evaluate("localStorage.getItem('taut:animate')") == "1"
    finally:
        page.context.close()
