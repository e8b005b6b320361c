"""An accessibility audit of every page with axe-core (WCAG 2.0 and 2.1, levels A and AA):
the home page, the lobby, the new-game form, a game of each shipped game in play, a replay,
the rules, flash cards, words, a tile set's gallery, a player's page, a leaderboard, signing
in and verifying a record. Every page must have no violation at all.

axe-core comes from ``make vendor`` (``build/vendor/node_modules/axe-core``, pinned in
``src/taut/server/web/vendor/package.json``); without it the test skips, saying so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser_kit import (
    LiveServer,
    chromium,
    live_server,
    open_finished_replay,
    open_page,
    page_errors,
    tap_graph_point,
)
from tests.browser_play import GAMES, game_page, new_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

AXE = Path(__file__).resolve().parent.parent / "build" / "vendor" / "node_modules" / "axe-core"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The longest list of offending elements shown for one rule.
SHOWN = 8

RUN = """async tags => {
  // Only the violations are wanted in full (the other result types are cut short: faster).
  const found = await axe.run(document, {
    runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'],
  });
  return found.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({ target: n.target.join(' '), summary: n.failureSummary || '' })),
  }));
}"""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's script, or a skip that says how to install it."""
    script = AXE / "axe.min.js"
    if not script.is_file():
        pytest.skip(f"axe-core is not installed at {AXE} (make vendor installs it with npm)")
    return script


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module's pages."""
    with live_server(tmp_path_factory.mktemp("axe")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module."""
    with chromium() as started:
        yield started


def violations(page: Page, script: Path) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` as it is now."""
    page.wait_for_function("() => document.getAnimations().length === 0")
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(script))
    found: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
    return found


def said(found: list[dict[str, Any]]) -> str:
    """The violations in words: each rule, then the elements that break it."""
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:SHOWN]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}: {summary}")
        if len(v["nodes"]) > SHOWN:
            lines.append(f"    ... and {len(v['nodes']) - SHOWN} more")
    return "\n".join(lines)


def simple(path: str) -> Callable[[Browser, LiveServer], Page]:
    """Opening the page at ``path`` and letting its scripts fill it in."""

    def opened(browser: Browser, server: LiveServer) -> Page:
        page = open_page(browser, server.url(path))
        page.wait_for_load_state("networkidle")
        return page

    return opened


def game_in_play(game: str) -> Callable[[Browser, LiveServer], Page]:
    """A game of ``game`` a few moves in, at this person's turn."""
    return lambda browser, server: game_page(browser, server, game, 1280, 900, moves=1)


def replay(browser: Browser, server: LiveServer) -> Page:
    """The replay of a finished game with its analysis shown (two computers on a 3x3 Track
    Tiles board: over in moments)."""
    made = server.new_game("tracks", ["easy", "easy"], {"size": 3})
    page = open_finished_replay(browser, server.url(f"/replay/{made['id']}"), timeout_s=60)
    page.get_by_role("button", name="Analyse the game").click()
    page.locator("#analysis-result").wait_for(state="visible", timeout=120_000)
    # The worst move judged, where the page shows the most: its label and the engine's move.
    points = page.locator("#eval-graph .point")
    for worst in ("blunder", "mistake", "inaccuracy"):
        flagged = page.locator(f"#eval-graph .point[data-said*='{worst}']")
        if flagged.count():
            points = flagged
            break
    tap_graph_point(page, points.last)
    page.wait_for_load_state("networkidle")
    return page


def replay_in_play(browser: Browser, server: LiveServer) -> Page:
    """The replay page of a game still being played: it says so."""
    page = game_page(browser, server, "pulling-strings", 1280, 900, moves=1)
    page.goto(page.url.replace("/g/", "/replay/").split("#")[0])
    page.wait_for_load_state("networkidle")
    return page


def player(browser: Browser, server: LiveServer) -> Page:
    """The page of the player this browser made on its first visit, after a game."""
    page = open_page(browser, server.url("/"))
    me = page.locator("#me-link")
    me.wait_for()
    name = me.inner_text()
    page.goto(server.url("/new/tracks"))
    page.get_by_role("button", name="Make the game").click()
    page.wait_for_url(re.compile(r"/g/"))
    page.goto(server.url(f"/players/{name}"))
    page.wait_for_load_state("networkidle")
    return page


def new_form_made(browser: Browser, server: LiveServer) -> Page:
    """The new-game form after making a game with an invitation: its links shown."""
    made = new_game(server, "pulling-strings")
    assert made["mine"]
    return simple("/new/pulling-strings")(browser, server)


PAGES: dict[str, Callable[[Browser, LiveServer], Page]] = {
    "home": simple("/"),
    "lobby": simple("/lobby"),
    "new game": simple("/new/push-pull"),
    **{f"game {game}": game_in_play(game) for game in GAMES},
    "replay": replay,
    "replay of a game in play": replay_in_play,
    "rules": simple("/rules/tug-of-war"),
    "flash cards": simple("/flashcards"),
    "flash cards of a set": simple("/flashcards/kana"),
    "words": simple("/words"),
    "tiles": simple("/tiles/kana"),
    "player": player,
    "leaderboard": simple("/leaderboard/tracks"),
    "sign in": simple("/signin"),
    "verify": simple("/verify"),
    "me": simple("/me"),
    "tutorial": simple("/learn/push-pull"),
    "tournaments": simple("/tournaments"),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_no_accessibility_violations(
    name: str, axe_script: Path, server: LiveServer, browser: Browser
) -> None:
    page = PAGES[name](browser, server)
    found = violations(page, axe_script)
    assert found == [], f"{name} ({page.url}) breaks {len(found)} rules:\n{said(found)}"
    other_ways = page.locator("#other-ways > summary")
    if other_ways.count() and other_ways.is_visible():
        # The list of moves, shut at first, audited open.
        other_ways.click()
        found = violations(page, axe_script)
        assert found == [], f"{name}, moves listed, breaks {len(found)} rules:\n{said(found)}"
        # On a phone's screen, where a board may scroll sideways in its frame.
        page.set_viewport_size({"width": 390, "height": 844})
        found = violations(page, axe_script)
        assert found == [], f"{name} on a phone breaks {len(found)} rules:\n{said(found)}"
    assert page_errors(page) == []
    page.context.close()
