"""Every page and flow a person meets, walked in Chromium on a phone (390 x 844) and a desktop
(1280 x 800): the pages of the site, each game's tutorial to its end, a game of each kind
against the computer to its end with its replay and analysis, two players and a spectator, a
rated game with a clock and the ratings after it, a tournament, flash cards and words.

At every stop :func:`tests.page_audit.audit` measures the page and the walk fails on any
console error, failed or refused request, page wider than the window, word under 12 CSS
pixels or target under 44 x 44. A screenshot of each stop's first screen is saved under the
test's ``tmp_path``; with ``TAUT_DOCS_SCREENSHOTS=1`` in the environment they are also copied
to ``docs/screenshots/walk/`` (the pictures docs/browser.md shows)::

    TAUT_DOCS_SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser_walk.py
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from taut.core.registry import games
from taut.learn.flashcards import CHOICES
from taut.learn.registry import tile_sets
from taut.server.learn.flashcards import word_sets
from tests.browser_kit import (
    WAIT_MS,
    LiveServer,
    chromium,
    expect,
    legal_moves,
    live_server,
    moves_played,
    phase,
    wait_for_move,
    wait_for_turn,
)
from tests.browser_kit import choose as choose_move
from tests.page_audit import Watch, audit, describe
from tests.test_browser_rated_clock import named

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "walk"
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
#: Options that keep each game short enough to play to its end.
SHORT: dict[str, dict[str, Any]] = {
    "pulling-strings": {},
    "push-pull": {},
    "tug-of-war": {"players": 2, "end": "rounds", "rounds": 1},
    "tracks": {"size": 4},
}
#: The most moves a walk makes in one game before it gives up waiting for its end.
MOST_MOVES = 200


class Walk:
    """One person's browser at one size: pages opened in it are watched and audited."""

    def __init__(self, browser: Browser, server: LiveServer, size: str, shots: Path) -> None:
        self.server = server
        self.size = size
        self.shots = shots
        width, height = SIZES[size]
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.watch = Watch()

    def open(self, path: str) -> Page:
        """A new tab of this person at ``path``."""
        page = self.watch.attach(self.context.new_page())
        page.set_default_timeout(WAIT_MS)
        page.goto(self.server.url(path))
        return page

    def check(
        self, page: Page, name: str, refused: tuple[str, ...] = (), show: str | None = None
    ) -> None:
        """Audit ``page`` as it is now and everything it logged so far (a refusal whose
        address matches one of ``refused`` is expected); save its first screen (or the
        screen from the element ``show`` down) as ``name``."""
        page.wait_for_load_state("networkidle")
        problems = audit(page)
        where = f"{name} ({self.size}, {page.url})"
        assert problems == [], describe(where, problems)
        errors = [e for e in self.watch.errors if not any(re.search(r, e) for r in refused)]
        assert errors == [], describe(where, errors)
        self.watch.errors.clear()
        if show is None:
            page.evaluate("() => scrollTo(0, 0)")
        else:
            page.locator(show).evaluate("el => el.scrollIntoView({ block: 'start' })")
        page.screenshot(path=str(self.shots / f"{name}-{self.size}.png"), scale="css")

    def close(self) -> None:
        """Close every tab of this person."""
        self.context.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the walk."""
    with live_server(tmp_path_factory.mktemp("walk")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the walk."""
    with chromium() as started:
        yield started


#: The stops the docs show: each at a phone's size, the first ones at a desktop's too.
DOC_STOPS = [
    "home", "new-tracks", "tournament-form", "game-tracks-3", "game-push-pull-3",
    "analysis-tracks", "published-strict-1-string", "player-ada",
    "lobby", "rules-tracks", "learn-pulling-strings-1", "game-pulling-strings-3",
    "game-tug-of-war-3", "game-tracks-over", "replay-tracks", "two-players-first",
    "spectator-start", "rated-clock-lost", "leaderboard-after", "tournament-round",
    "tournament-after", "flashcards-answered", "words-answered", "tiles-asl", "me",
]  # fmt: skip
#: How many of :data:`DOC_STOPS` the docs show at a desktop's size too.
DOC_DESKTOP = 8


def keep_for_docs(folder: Path) -> None:
    """Copy the stops the docs show from ``folder`` to :data:`DOCS`, in 128 colours (a
    screenshot of flat colours loses nothing to see, and a third of its bytes)."""
    from PIL import Image

    DOCS.mkdir(parents=True, exist_ok=True)
    for i, stop in enumerate(DOC_STOPS):
        for size in ("phone", "desktop") if i < DOC_DESKTOP else ("phone",):
            shot = folder / f"{stop}-{size}.png"
            if shot.exists():
                with Image.open(shot) as picture:
                    picture.convert("RGB").quantize(128).save(DOCS / shot.name, optimize=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where the walk's screenshots go; the docs' stops copied to the docs at the end when
    asked."""
    folder = tmp_path_factory.mktemp("walk-shots")
    yield folder
    if os.environ.get("TAUT_DOCS_SCREENSHOTS") == "1":
        keep_for_docs(folder)


@pytest.fixture(params=list(SIZES))
def walk(
    request: pytest.FixtureRequest, browser: Browser, server: LiveServer, shots: Path
) -> Iterator[Walk]:
    """A person at each size."""
    person = Walk(browser, server, request.param, shots)
    yield person
    person.close()


def play_to_the_end(page: Page, rng: random.Random, checks: list[int], check: Any) -> None:
    """Random moves until the game is over, calling ``check(page, n)`` at the ``n``-th move
    of ``checks`` (at this seat's turn)."""
    for n in range(MOST_MOVES):
        if wait_for_turn(page, timeout_ms=60_000) != "choose":
            break
        if n in checks:
            check(page, n)
        move = moves_played(page)
        choose_move(page, rng.choice(legal_moves(page)))
        wait_for_move(page, move + 1)
    expect(page.locator("#result")).to_be_visible(timeout=60_000)


def test_the_pages_of_the_site(walk: Walk) -> None:
    sets = list(tile_sets())
    pages = {
        "home": "/",
        "lobby": "/lobby",
        "signin": "/signin",
        "me": "/me",
        "tournaments": "/tournaments",
        "flashcards": "/flashcards",
        "words": "/words",
        "calibrate": "/calibrate",
        "verify": "/verify",
        **{f"rules-{g}": f"/rules/{g}" for g in games()},
        **{f"new-{g}": f"/new/{g}" for g in games()},
        **{f"leaderboard-{g}": f"/leaderboard/{g}" for g in games()},
        **{f"tiles-{s}": f"/tiles/{s}" for s in sets[:2]},
    }
    page = walk.open("/")
    for name, path in pages.items():
        page.goto(walk.server.url(path))
        walk.check(page, name)
    # A page that is not there is a page that says so, its own answer its only refusal.
    page.goto(walk.server.url("/no-such-page"))
    expect(page.locator("h1")).to_be_visible()
    walk.check(page, "not-found", refused=(r"/no-such-page -> 404", r"404 \(Not Found\)"))


@pytest.mark.parametrize("game", games())
def test_a_tutorial_to_its_end(walk: Walk, game: str) -> None:
    steps = httpx.get(walk.server.url(f"/api/tutorials/{game}")).json()["steps"]
    page = walk.open(f"/learn/{game}")
    for index in range(len(steps) - 1):
        expect(page.locator(".learn")).to_have_attribute("data-step", str(index))
        if index in (0, 1, len(steps) // 2):
            walk.check(page, f"learn-{game}-{index}")
        if page.locator("#next").is_visible():
            page.locator("#next").click()
            continue
        page.locator("#show").click()
        page.locator("#play").click()
    expect(page.locator("#step")).to_have_text("Tutorial done")
    walk.check(page, f"learn-{game}-done")


@pytest.mark.parametrize("game", games())
def test_a_game_against_the_computer_to_its_end_then_its_replay(walk: Walk, game: str) -> None:
    made = walk.server.new_game(game, ["me", "easy"], SHORT[game])
    page = walk.open(made["mine"])
    play_to_the_end(
        page,
        random.Random(5),
        [0, 3],
        lambda p, n: walk.check(p, f"game-{game}-{n}"),
    )
    walk.check(page, f"game-{game}-over")
    replay = walk.open(f"/replay/{made['id']}")
    expect(replay.locator("#board svg")).to_be_visible()
    walk.check(replay, f"replay-{game}")
    replay.locator("#analyse").click()
    replay.locator("#analysis-result").wait_for(state="visible", timeout=180_000)
    walk.check(replay, f"analysis-{game}", show="#analysis-title")


def test_two_players_and_a_spectator(walk: Walk, browser: Browser) -> None:
    made = walk.server.new_game("tracks", ["me", "invite"], {"size": 4})
    other = Walk(browser, walk.server, walk.size, walk.shots)
    watcher = Walk(browser, walk.server, walk.size, walk.shots)
    try:
        first = walk.open(made["mine"])
        invited = next(link for link in made["links"].values() if link != made["mine"])
        second = other.open(invited)
        spectator = watcher.open(made["spectator"])
        expect(spectator.locator(".game")).to_have_attribute("data-phase", re.compile("play"))
        watcher.check(spectator, "spectator-start")
        rng = random.Random(11)
        seats = [(first, walk, "first"), (second, other, "second")]
        for n in range(MOST_MOVES):
            if phase(first) == "over":
                break
            page, person, name = seats[n % 2]
            assert wait_for_turn(page) == "choose", f"{name}: not its turn at move {n}"
            if n < 2:
                person.check(page, f"two-players-{name}")
            move = moves_played(page)
            choose_move(page, rng.choice(legal_moves(page)))
            wait_for_move(page, move + 1)
        for page, person, name in seats:
            expect(page.locator("#result")).to_be_visible()
            person.check(page, f"two-players-{name}-over")
        expect(spectator.locator("#result")).to_be_visible()
        watcher.check(spectator, "spectator-over")
    finally:
        other.close()
        watcher.close()


def test_a_rated_game_with_a_clock_lost_on_time_and_the_ratings(
    walk: Walk, browser: Browser
) -> None:
    from tests.test_browser_clocks import Clock

    store = walk.server._server.config.app.state.store
    clock = Clock()
    before = store.clock
    store.clock = clock
    other = Walk(browser, walk.server, walk.size, walk.shots)
    try:
        ada, brook = f"Ada-{walk.size}", f"Brook-{walk.size}"
        x = walk.open("/")
        o = other.open("/")
        key = named(x, ada)
        named(o, brook)
        body = {
            "game": "pulling-strings", "options": {}, "rated": True, "time_control": "1+0",
            "seats": [{"kind": "me"}, {"kind": "invite"}],
        }  # fmt: skip
        made = httpx.post(walk.server.url("/api/games"), json=body, headers=key, timeout=30)
        assert made.status_code == 200, made.text
        links = made.json()
        x.goto(walk.server.url(links["mine"]))
        o.goto(walk.server.url(links["links"]["O"]))
        assert wait_for_turn(x) == "choose" and wait_for_turn(o) == "choose"
        walk.check(x, "rated-clock")
        x.locator("#chat-text").fill("good luck!")
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator("#chat-lines")).to_contain_text("good luck!")
        choose_move(x, legal_moves(x)[0])
        other.check(o, "rated-clock-chat")
        # O thinks too long; X's next line of chat makes the server look at the clocks.
        clock.offset += 61
        x.locator("#chat-text").fill("hurry up")
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator("#clock-result")).to_have_text("O lost on time.", timeout=15_000)
        expect(x.locator("#result-text")).to_contain_text("time")
        walk.check(x, "rated-clock-won")
        other.check(o, "rated-clock-lost")
        for person, page, name in ((walk, x, ada), (other, o, brook)):
            page.goto(walk.server.url(f"/players/{name}"))
            expect(page.locator("main")).to_contain_text("→")
            person.check(page, f"player-{name.split('-')[0].lower()}")
        x.goto(walk.server.url("/leaderboard/pulling-strings"))
        expect(x.locator("main")).to_contain_text(ada)
        walk.check(x, "leaderboard-after")
    finally:
        store.clock = before
        other.close()


def test_a_tournament_made_entered_and_played(walk: Walk) -> None:
    page = walk.open("/tournaments")
    page.fill("#t-name", f"Cup {walk.size}")
    page.select_option("#t-game", "tracks")
    page.locator("#options-box > summary").click()
    page.fill("#option-size", "3")
    page.locator("#option-size").dispatch_event("change")
    walk.check(page, "tournament-form")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url("**/t/*")
    page.locator("#t-levels button[data-level=easy]").click()
    expect(page.locator("#t-standings tr")).to_have_count(2)
    walk.check(page, "tournament-open")
    # Another, starting at once: the maker and two computers, a round robin of three rounds.
    key = page.evaluate(
        "async () => { await window.tautPlayer.ready; return window.tautPlayer.headers(); }"
    )
    body = {
        "game": "tracks", "options": {"size": 3}, "system": "round-robin",
        "starts_at": time.time() + 2, "name": f"Now {walk.size}",
    }  # fmt: skip
    made = httpx.post(walk.server.url("/api/tournaments"), json=body, headers=key, timeout=30)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    url = walk.server.url(f"/api/tournaments/{tid}")
    assert httpx.post(url + "/join", headers=key).status_code == 200
    for level in ("easy", "medium"):
        answer = httpx.post(url + "/entrants", json={"level": level}, headers=key)
        assert answer.status_code == 200, answer.text
    page.goto(walk.server.url(f"/t/{tid}"))
    mine = page.get_by_role("link", name="play your game")
    expect(mine.first).to_be_visible(timeout=30_000)
    walk.check(page, "tournament-round")
    mine.first.click()
    page.wait_for_url("**/g/*")
    play_to_the_end(page, random.Random(3), [0], lambda p, n: walk.check(p, "tournament-game"))
    page.go_back()
    expect(page.get_by_role("link", name="your game").first).to_be_visible(timeout=30_000)
    walk.check(page, "tournament-after")


def test_flash_cards_and_words(walk: Walk) -> None:
    tiles = next(iter(tile_sets()))
    page = walk.open(f"/flashcards/{tiles}")
    buttons = page.locator("#fc-choices button")
    expect(buttons).to_have_count(CHOICES)
    walk.check(page, "flashcards-card")
    for _ in range(3):
        expect(page.locator("#fc-next")).to_be_hidden()
        buttons.first.click()
        expect(page.locator("#fc-next")).to_be_visible()
        walk.check(page, "flashcards-answered")
        page.locator("#fc-next").click()
    words = word_sets()[0]
    page.goto(walk.server.url(f"/words/{words.name}"))
    expect(page.locator(".w")).to_have_attribute("data-ready", "true")
    walk.check(page, "words")
    page.get_by_role("button", name="Show the word").click()
    expect(page.locator("#w-stage")).to_have_attribute("data-state", "done", timeout=30_000)
    page.get_by_label("Type the word").fill("abc")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("status")).not_to_be_empty()
    walk.check(page, "words-answered")


@pytest.mark.parametrize("learning", ["off", "strict"])
def test_the_published_edition_and_its_learning_game(walk: Walk, learning: str) -> None:
    """The boxed game's tiles, and the learning game's palette of handshapes (its answers
    only opaque ids) with the feedback on the last sign: a string, then a handshape."""
    options = {"edition": "published", "tiles": "asl", "learning": learning, "max_turns": 4}
    made = walk.server.new_game("pulling-strings", ["me", "easy"], options)
    page = walk.open(made["mine"])
    rng = random.Random(8)
    for turn in range(4):
        if wait_for_turn(page) != "choose":
            break
        walk.check(page, f"published-{learning}-{turn}")
        move = moves_played(page)
        if learning == "off":
            choose_move(page, rng.choice(legal_moves(page)))
        else:
            page.locator('#board [data-part^="end="]').first.click()
            walk.check(page, f"published-{learning}-{turn}-string")
            page.locator('#board [data-part^="answer="]').nth(turn).click()
            page.locator("#confirm").click()
        wait_for_move(page, move + 1)
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    walk.check(page, f"published-{learning}-over")
