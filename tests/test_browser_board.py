"""The board conventions of :mod:`taut.core.svg` in a real browser, on a small game drawn for
the test: whole moves (``data-move``) and moves composed of parts (``data-part`` with the
root's ``data-compose``) chosen by mouse and by keyboard, shown before they are played."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from taut.core.game import State
from taut.core.registry import register_plugin, unregister_plugin
from taut.core.svg import esc
from tests.browser_kit import (
    chromium,
    expect,
    live_server,
    open_page,
    page_errors,
    wait_for_move,
    wait_for_turn,
)
from tests.toygame.plugin import RopePlugin
from tests.toygame.rules import RopeState

#: The rope's goal that makes its picture compose a move from a part (else: whole moves).
COMPOSED = 3


class DrawnRope(RopePlugin):
    """Rope with a picture: one square per pull, a whole move or one part of a move."""

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """Squares for ``legal``, clickable as :mod:`taut.core.svg` describes."""
        assert isinstance(view, RopeState)
        compose = view.game.goal == COMPOSED
        items = []
        for i, move in enumerate(legal):
            what = f'data-part="pull={esc(move)}"' if compose else f'data-move="{esc(move)}"'
            items.append(
                f'<g {what} role="button" tabindex="0" aria-label="pull {esc(move)}">'
                f'<rect x="{10 + 60 * i}" y="40" width="50" height="50" fill="#56B4E9"/>'
                f'<text x="{28 + 60 * i}" y="72">{esc(move)}</text></g>'
            )
        root = ' data-compose="{pull}"' if compose else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" role="group" '
            f'aria-label="the rope, marker at {view.marker}"{root}>'
            f'<text x="10" y="20">{esc(self.render(view))}</text>{"".join(items)}</svg>'
        )


@pytest.fixture
def drawn_rope() -> Iterator[None]:
    """The drawn rope registered for this test only."""
    register_plugin(DrawnRope())
    yield
    unregister_plugin("rope")


@pytest.mark.usefixtures("drawn_rope")
def test_whole_moves_are_chosen_on_the_board_by_mouse_and_keyboard(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("rope", ["me", "invite"], {"goal": 2, "max_turns": 3})
        left = open_page(browser, server.url(made["mine"]))
        right = open_page(browser, server.url(made["links"]["R"]))
        wait_for_turn(left)
        wait_for_turn(right)
        # The list of moves is folded away when the board itself can be clicked.
        assert not left.locator("#other-ways").evaluate("d => d.open")
        expect(left.locator("#confirm")).to_be_disabled()
        left.locator('#board [data-move="3"]').click()
        expect(left.locator("#chosen")).to_have_text("3")
        expect(left.locator('#board [data-move="3"]')).to_have_attribute("aria-pressed", "true")
        expect(left.locator("#confirm")).to_have_text("Commit 3")
        # Keyboard: Tab reaches the squares, Enter chooses, the focus ring shows.
        square = right.locator('#board [data-move="1"]')
        square.focus()
        right.keyboard.press("Tab")
        right.keyboard.press("Shift+Tab")
        outline = square.evaluate("e => getComputedStyle(e).outlineStyle")
        assert outline == "solid"
        right.keyboard.press("Enter")
        expect(right.locator("#chosen")).to_have_text("1")
        expect(right.locator("#confirm")).to_be_focused()
        right.keyboard.press("Enter")
        expect(right.locator("#turn")).to_have_text("You have chosen")
        # The other side's choice arrived meanwhile: Left's selection is kept.
        expect(left.locator("#seats")).to_contain_text("has chosen")
        expect(left.locator("#chosen")).to_have_text("3")
        left.locator("#confirm").click()
        wait_for_move(left, 1)
        expect(left.locator("#log li.last")).to_have_count(1)
        assert page_errors(left) == page_errors(right) == []


@pytest.mark.usefixtures("drawn_rope")
def test_a_move_composed_of_parts_shows_what_is_chosen(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("rope", ["me", "easy"], {"goal": COMPOSED, "max_turns": 2})
        page = open_page(browser, server.url(made["mine"]), width=375, height=667)
        wait_for_turn(page)
        expect(page.locator("#chosen")).to_have_text("…")
        expect(page.locator("#confirm")).to_be_disabled()
        part = page.locator('#board [data-part="pull=2"]')
        part.focus()
        page.keyboard.press(" ")
        expect(page.locator("#chosen")).to_have_text("2")
        expect(part).to_have_class("chosen")
        page.locator('#board [data-part="pull=3"]').click()
        expect(part).not_to_have_class("chosen")
        expect(page.locator("#chosen")).to_have_text("3")
        page.locator("#clear").click()
        expect(page.locator("#confirm")).to_be_disabled()
        page.locator('#board [data-part="pull=1"]').click()
        page.locator("#confirm").click()
        wait_for_move(page, 1)
        # A move can always be typed too.
        assert wait_for_turn(page) in ("choose", "over")
        if page.locator("#result").is_hidden():
            page.locator("#other-ways > summary").click()
            page.locator("#move-text").fill("2")
            page.locator("#move-text").press("Enter")
            expect(page.locator("#result")).to_be_visible()
        assert page_errors(page) == []


@pytest.mark.usefixtures("drawn_rope")
def test_a_tap_on_a_piece_that_moves_under_the_finger_still_chooses_it(tmp_path: Path) -> None:
    """A press on a piece, which then moves away before the finger lifts (as a piece does
    whose animation the press ends), chooses that piece; a press dragged well away from where
    it began chooses nothing."""
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("rope", ["me", "invite"], {"goal": 2, "max_turns": 3})
        page = open_page(browser, server.url(made["mine"]))
        wait_for_turn(page)

        def press(move: str) -> tuple[float, float]:
            box = page.locator(f'#board [data-move="{move}"] rect').bounding_box()
            assert box is not None
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            return x, y

        press("3")
        # The piece slides out from under the finger: the lift lands on the picture's ground.
        page.locator('#board [data-move="3"]').evaluate(
            "e => e.setAttribute('transform', 'translate(0, 200)')"
        )
        page.mouse.up()
        expect(page.locator("#chosen")).to_have_text("3")
        page.locator("#clear").click()
        expect(page.locator("#chosen")).not_to_have_text("3")
        # A press carried off the piece and lifted far away is no tap.
        press("1")
        ground = page.locator("#board svg").bounding_box()
        assert ground is not None
        page.mouse.move(ground["x"] + 3, ground["y"] + 3)
        page.mouse.up()
        expect(page.locator("#confirm")).to_be_disabled()
        assert page_errors(page) == []
