"""Screenshots of every game's page, at a desktop's size and a phone's, a few moves in.

They are saved under the test's ``tmp_path``. With ``TAUT_DOCS_SCREENSHOTS=1`` in the
environment the board of each game is also copied to ``docs/screenshots/<game>.png`` (the
pictures the documentation shows)::

    TAUT_DOCS_SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser_screens.py
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from taut.core.registry import games, plugin
from tests.browser_kit import (
    choose,
    chromium,
    legal_moves,
    live_server,
    moves_played,
    open_page,
    page_errors,
    wait_for_move,
    wait_for_turn,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
#: The largest picture the documentation keeps, in bytes.
MOST_BYTES = 150_000
#: Options that keep a game small enough to show whole.
SMALL: dict[str, dict[str, Any]] = {"tug-of-war": {"players": 3}, "push-pull": {"variant": "four"}}


#: The games taut ships (not those a test registers).
SHIPPED = [name for name in games() if type(plugin(name)).__module__.startswith("taut.games.")]


@pytest.mark.parametrize("game", SHIPPED)
def test_screenshots_of_every_game(game: str, tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        options = SMALL.get(game, {})
        asked = httpx.post(server.url("/api/seats"), json={"game": game, "options": options})
        seats = asked.json()["seats"]
        made = server.new_game(game, ["me"] + ["easy"] * (len(seats) - 1), options)
        shots: list[Path] = []
        for width, height, size in ((1200, 860, "desktop"), (375, 667, "phone")):
            page = open_page(browser, server.url(made["mine"]), width=width, height=height)
            rng = random.Random(2)
            for _ in range(2 if size == "desktop" else 0):
                if wait_for_turn(page) != "choose":
                    break
                move = moves_played(page)
                choose(page, rng.choice(legal_moves(page)))
                wait_for_move(page, move + 1)
            wait_for_turn(page)
            board = tmp_path / f"{game}-board-{size}.png"
            page.locator("#board").screenshot(path=str(board))
            whole = tmp_path / f"{game}-page-{size}.png"
            page.screenshot(path=str(whole), full_page=True)
            shots += [board, whole]
            assert page_errors(page) == []
            page.context.close()
        for shot in shots:
            assert shot.stat().st_size > 1000, f"{shot.name} is empty"
        board = tmp_path / f"{game}-board-desktop.png"
        assert board.stat().st_size < MOST_BYTES, f"{board.name}: {board.stat().st_size} bytes"
        if os.environ.get("TAUT_DOCS_SCREENSHOTS") == "1":
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(board, DOCS / f"{game}.png")
