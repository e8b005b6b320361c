"""What the browser tests share: a server in this process, Debian's Chromium, and the moves
of a game page made the way a person makes them (a click on the board or on a listed move,
then the Play / Commit button).

The tests skip, saying why, when Playwright or Chromium (``make browser``) is missing.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: Longest wait for anything a page shows (computer moves included), in milliseconds.
WAIT_MS = 30_000

try:
    from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]
    expect = None  # type: ignore[assignment]
    PlaywrightTimeout = TimeoutError  # type: ignore[assignment, misc]

__all__ = [
    "WAIT_MS",
    "LiveServer",
    "PlaywrightTimeout",
    "board_text",
    "choose",
    "chromium",
    "expect",
    "legal_moves",
    "live_server",
    "moves_played",
    "open_page",
    "page_errors",
    "parts_of",
    "phase",
    "tap_graph_point",
    "wait_for_move",
    "wait_for_turn",
]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``taut serve`` in a thread of this process, on a SQLite file; it can be stopped and
    started again on the same port and database (a server restart, for reconnection)."""

    def __init__(self, folder: Path) -> None:
        self.database = f"sqlite+aiosqlite:///{folder / 'taut.db'}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Serve until :meth:`stop`."""
        import uvicorn

        from taut.server.web.app import create_app
        from taut.server.web.deflate import PROTOCOL
        from taut.server.web.settings import Settings

        app = create_app(Settings(database=self.database, computer_workers=0))
        # The WebSocket protocol taut serve uses: the browser's frames compressed as there.
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws=PROTOCOL
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop serving (open WebSockets are closed)."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=20)
        self._server = self._thread = None

    def new_game(
        self, game: str, seats: list[str], options: dict[str, Any] | None = None, name: str = ""
    ) -> dict[str, Any]:
        """Make a game through the JSON API, as the new-game page does."""
        body = {
            "game": game,
            "options": options or {},
            "seats": [{"kind": kind} for kind in seats],
            "name": name,
        }
        response = httpx.post(f"{self.base}/api/games", json=body, timeout=30)
        assert response.status_code == 200, response.text
        made: dict[str, Any] = response.json()
        return made

    def url(self, path: str) -> str:
        """The absolute address of ``path``."""
        return self.base + path


@contextlib.contextmanager
def live_server(folder: Path) -> Iterator[LiveServer]:
    """A started :class:`LiveServer`, stopped afterwards."""
    server = LiveServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright; skips the test when either is missing."""
    if sync_playwright is None:
        pytest.skip("Playwright is not installed (pip install 'taut[test]')")
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (make browser installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM))
        try:
            yield browser
        finally:
            browser.close()


#: Script errors thrown by each page :func:`open_page` opened, by the page's ``id``.
_ERRORS: dict[int, list[str]] = {}


def open_page(browser: Browser, url: str, width: int = 1280, height: int = 900) -> Page:
    """A page in a new context of its own (its own storage: one person), showing ``url``."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = _ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    return page


def page_errors(page: Page) -> list[str]:
    """Script errors the page has thrown."""
    return _ERRORS.get(id(page), [])


def phase(page: Page) -> str:
    """``choose`` (this seat must move), ``over``, or ``wait``."""
    return str(
        page.evaluate(
            """() => {
              if (!document.getElementById('result').hidden) return 'over';
              if (!document.getElementById('compose').hidden) return 'choose';
              return 'wait';
            }"""
        )
    )


def wait_for_turn(page: Page, timeout_ms: int = WAIT_MS) -> str:
    """Wait until this seat must choose or the game is over; returns which."""
    try:
        page.wait_for_function(
            """() => !document.getElementById('result').hidden
                     || !document.getElementById('compose').hidden""",
            timeout=timeout_ms,
        )
    except PlaywrightTimeout:
        said = page.locator("#move-panel").inner_text()
        raise AssertionError(f"no turn came in {timeout_ms} ms; the page says: {said}") from None
    return phase(page)


def legal_moves(page: Page) -> list[str]:
    """The moves the page offers now (the listed legal moves)."""
    moves: list[str] = page.eval_on_selector_all(
        "#legal [data-legal], #legal-select option[value]:not([value=''])",
        "els => els.map(e => e.dataset.legal || e.value)",
    )
    return moves


def parts_of(template: str, move: str) -> list[tuple[str, str]] | None:
    """The ``(slot, value)`` parts that fill ``template`` (``{slot}`` placeholders) to give
    ``move``; None if it cannot."""
    pieces = re.split(r"(\{[^{}]+\})", template)
    slots = [p[1:-1] for p in pieces if p.startswith("{") and p.endswith("}")]
    pattern = "".join(
        "(.+?)" if p.startswith("{") and p.endswith("}") else re.escape(p) for p in pieces
    )
    found = re.fullmatch(pattern, move)
    return None if found is None else list(zip(slots, found.groups(), strict=True))


def _compose_on_board(page: Page, move: str) -> bool:
    """Click the parts of ``move`` on the board; True when the page then shows it chosen."""
    template = page.locator("#board svg").get_attribute("data-compose")
    parts = None if template is None else parts_of(template, move)
    if not parts:
        return False
    for slot, value in parts:
        part = page.locator(f'#board [data-part="{slot}={value}"]')
        if part.count():
            part.first.click()
    if page.locator("#chosen").get_attribute("data-move") == move:
        return True
    page.locator("#clear").click()
    return False


def choose(page: Page, move: str) -> str:
    """Choose ``move`` as a person does, and press Play / Commit: on the board (its place,
    or its parts) where the picture offers it, else with its button in the list of moves.
    Returns ``"board"`` or ``"list"``."""
    way = "board"
    on_board = page.locator(f'#board [data-move="{move}"]')
    if on_board.count():
        on_board.first.click()
    elif not _compose_on_board(page, move):
        way = "list"
        if not page.locator("#other-ways").evaluate("d => d.open"):
            page.locator("#other-ways > summary").click()
        button = page.locator(f'#legal [data-legal="{move}"]')
        if button.count():
            button.click()
        else:
            page.locator("#legal-select").select_option(move)
    confirm = page.locator("#confirm")
    assert confirm.is_enabled(), f"{move!r} chosen but nothing to confirm"
    confirm.click()
    return way


def moves_played(page: Page) -> int:
    """The number of the game's next move, as the page was last told."""
    return int(page.locator(".game").get_attribute("data-move") or -1)


def wait_for_move(page: Page, move: int, timeout_ms: int = WAIT_MS) -> None:
    """Wait until the page shows the game at move ``move`` or later."""
    page.wait_for_function(
        "n => Number(document.querySelector('.game').dataset.move) >= n",
        arg=move,
        timeout=timeout_ms,
    )


def open_finished_replay(browser: Browser, url: str, timeout_s: float = 120) -> Page:
    """The replay page at ``url`` of a game the computers play out, once it is over (until
    then the page says "No replay yet": it is reloaded until it shows the replay)."""
    page = open_page(browser, url)
    deadline = time.monotonic() + timeout_s
    while "No replay yet" in (page.locator("#where").text_content() or ""):
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.3)
        page.reload()
    return page


def tap_graph_point(page: Page, point: Locator) -> None:
    """Tap the analysis graph where ``point`` (one of its drawn points) is, as a finger does:
    the graph as a whole takes the tap, its points are no targets of their own."""
    box = point.bounding_box()
    assert box is not None, "the graph's point is not drawn"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def wait_for_camera_hook(page: Page, timeout_ms: int = WAIT_MS) -> None:
    """Wait until the camera module's test hook (``?hands=test``) takes landmarks: it comes
    once the recogniser is loaded, after the page has already asked for a sign."""
    page.wait_for_function("() => window.__tautSigns !== undefined", timeout=timeout_ms)


def show_text(page: Page) -> None:
    """Open the page's "position as text", as a person would, and wait until it shows the
    text (the server draws it for a page only while it is open)."""
    if not page.locator("details:has(#board-text)").evaluate("box => box.open"):
        page.locator("details:has(#board-text) > summary").click()
    page.wait_for_function(
        "() => document.getElementById('board-text').textContent !== ''", timeout=WAIT_MS
    )


def board_text(page: Page) -> str:
    """The text picture of the position the page shows (its "position as text" opened
    first)."""
    show_text(page)
    return str(page.locator("#board-text").text_content() or "")
