"""The board (the position as text, the log) a page draws from patches is the one it draws from
whole pictures: pages at the same seat, one as every page is (it takes patches) and one
asking for whole pictures (``?patches=0``), through random games of every kind, show the
same picture after every move. Where a game gives the data its table is drawn from, the
first page draws every picture itself from that data: the same as the server's; a third
page then asks for the server's pictures patched (``?draws=0``), as a page of a position
without data takes them."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from taut.core.registry import plugin
from tests.browser_kit import (
    choose,
    chromium,
    legal_moves,
    live_server,
    moves_played,
    open_page,
    page_errors,
    show_text,
    wait_for_move,
    wait_for_turn,
)
from tests.browser_play import GAMES

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocket

#: The board as drawn, once no animation runs (ghosts of old pieces are gone then), the
#: position as text, and the log.
DRAWN = """() => {
  if (document.getAnimations().length) return null;
  const svg = document.querySelector('#board svg');
  const text = document.getElementById('board-text');
  const log = document.getElementById('log').textContent;
  if (!svg) return null;
  const drawn = svg.outerHTML.replace(/ style="--unit:[^"]*"/, '');
  return drawn + ' | ' + text.textContent + ' | ' + log;
}"""


def count(page: Page, seen: dict[str, int], name: str) -> None:
    """Count under ``name`` the frames with a patched picture that ``page`` receives, and
    under ``name`` + ``" tables"`` those with a table's data (the page draws it)."""

    def watch(socket: WebSocket) -> None:
        def received(payload: str | bytes) -> None:
            if isinstance(payload, str) and '"board_patch"' in payload:
                seen[name] += 1
            if isinstance(payload, str) and '"table":{' in payload:
                seen[name + " tables"] += 1

        socket.on("framereceived", received)

    page.on("websocket", watch)


def same_board(one: Page, other: Page, seconds: float = 10) -> bool:
    """Whether the two pages come to draw the same board (each takes its frames when they
    come: the second may be a frame behind for a moment)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        a, b = one.evaluate(DRAWN), other.evaluate(DRAWN)
        if a is not None and a == b:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("game", list(GAMES))
def test_the_patched_board_is_the_whole_board(tmp_path: Path, game: str) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        options = {**GAMES[game], **({"players": 2} if game == "tug-of-war" else {})}
        made = server.new_game(game, ["me", "easy"], options)
        patched = open_page(browser, "about:blank")
        seen = {name: 0 for name in ("patched", "whole", "pictures")}
        seen |= {f"{name} tables": 0 for name in list(seen)}
        count(patched, seen, "patched")
        patched.goto(server.url(made["mine"]))
        whole = open_page(browser, "about:blank")
        count(whole, seen, "whole")
        whole.goto(server.url(made["mine"].replace("#", "?patches=0#")))
        pages = [patched, whole]
        drawn = plugin(game).table_drawing is not None
        if drawn:
            pictures = open_page(browser, "about:blank")
            count(pictures, seen, "pictures")
            pictures.goto(server.url(made["mine"].replace("#", "?draws=0#")))
            pages.append(pictures)
        # The position as text is compared too: it is sent (and patched) while it is shown.
        for page in pages:
            show_text(page)
        rng = random.Random(12)
        compared = 0
        for _ in range(25):
            turn = wait_for_turn(patched)
            move = moves_played(patched)
            for page in pages[1:]:
                wait_for_move(page, move)
            if all(moves_played(page) == move for page in pages[1:]):
                for page in pages[1:]:
                    _same_or_fail(patched, page, move)
                compared += 1
            if turn != "choose":
                break
            choose(patched, rng.choice(legal_moves(patched)))
            wait_for_move(patched, move + 1)
        assert compared >= 3
        # The patched page was sent patches, or the table's data where the game gives it
        # (then the page draws every picture); the other, whole pictures only.
        if not drawn:
            assert seen["patched"] > 0 and seen["patched tables"] == 0, seen
        else:
            assert seen["patched tables"] > 0 and seen["patched"] == 0, seen
            assert seen["pictures"] > 0 and seen["pictures tables"] == 0, seen
        assert seen["whole"] == 0 and seen["whole tables"] == 0, seen
        assert all(page_errors(page) == [] for page in pages)


def _same_or_fail(one: Page, other: Page, move: int) -> None:
    """Fail, showing where, unless the two pages come to draw the same board."""
    if not same_board(one, other):
        a, b = one.evaluate(DRAWN) or "", other.evaluate(DRAWN) or ""
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)
        raise AssertionError(
            f"the boards differ at move {move}: …{a[at - 80 : at + 120]}… "
            f"against …{b[at - 80 : at + 120]}…"
        )
