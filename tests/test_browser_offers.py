"""Offers in a real browser: a picture drawn the same for every seat (Track Tiles marks every
empty cell with ``data-offer``) becomes a board of choices at the seat to move, and only
there, and for its legal moves only; the next turn moves the choices to the other seat."""

from __future__ import annotations

from pathlib import Path

from tests.browser_kit import (
    chromium,
    expect,
    legal_moves,
    live_server,
    moves_played,
    open_page,
    page_errors,
    phase,
    wait_for_move,
    wait_for_turn,
)


def test_the_seat_to_move_gets_the_offers_as_choices(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("tracks", ["me", "invite"], {"size": 4})
        pages = [
            open_page(browser, server.url(made["mine"])),
            open_page(browser, server.url(made["links"]["WE"])),
        ]
        for _ in range(3):
            for page in pages:
                page.wait_for_function("() => !!document.querySelector('#board svg')")
            movers = []
            for page in pages:
                page.wait_for_function(
                    "() => !document.getElementById('turn').textContent.startsWith('Loading')"
                )
            for page in pages:
                if not page.locator("#compose").is_hidden():
                    movers.append(page)
            if not movers:
                wait_for_turn(pages[0])
                continue
            mover = movers[0]
            waiting = pages[1] if mover is pages[0] else pages[0]
            assert wait_for_turn(mover) == "choose"
            legal = legal_moves(mover)
            offered = mover.eval_on_selector_all(
                "#board [data-offer][data-move]", "els => els.map(e => e.dataset.move)"
            )
            assert sorted(offered) == sorted(legal)
            assert mover.locator("#board svg").get_attribute("data-offering") is not None
            label = mover.locator(f'#board [data-move="{legal[0]}"]').get_attribute("aria-label")
            assert label is not None and label.startswith("place kind ") and legal[0] in label
            # The same picture at the other seat offers nothing.
            expect(waiting.locator("#board [data-move]")).to_have_count(0)
            assert waiting.locator("#board [data-offer]").count() == len(legal)
            assert waiting.locator("#board svg").get_attribute("data-offering") is None
            assert phase(waiting) == "wait"
            move = moves_played(mover)
            mover.locator(f'#board [data-move="{legal[-1]}"]').click()
            mover.locator("#confirm").click()
            wait_for_move(mover, move + 1)
            # Once played, the choices are gone from the page that made it.
            expect(mover.locator("#board [data-move]")).to_have_count(0)
        assert all(page_errors(page) == [] for page in pages)
