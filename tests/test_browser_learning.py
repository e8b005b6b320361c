"""A learning game in the browser: a player signs with the handshape palette against the
computer, sees both faces after every turn, and reads the accuracy summary at the end."""

from __future__ import annotations

import re
from pathlib import Path

from tests.browser_kit import (
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

TURNS = 3


def right_part(options: dict[str, object], letter: str) -> str:
    """The palette part of the right answer to ``letter`` at the first turn, for X (the
    rules' own palette order: the page shows places only)."""
    from taut.core.registry import make

    state = make("pulling-strings", **options).new_initial_state()
    end = state.game.end_index(letter)
    assert end is not None
    _, tile = state.decode(state.right_action(end))
    return f"answer=@{state.palette_order(0).index(tile)}"


def test_signing_with_the_palette_against_the_computer(tmp_path: Path) -> None:
    options = {"edition": "published", "learning": "strict", "seed": 8, "max_turns": TURNS}
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "easy"], options)
        page = open_page(browser, server.url(made["mine"]), width=420, height=900)
        for turn in range(TURNS):
            assert wait_for_turn(page) == "choose"
            # The answers are never listed: the move is made on the board.
            assert legal_moves(page) == []
            palette = page.locator('#board [data-part^="answer="]')
            expect(palette).to_have_count(26)
            labels = palette.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
            assert all(label and "ASL handshape for" not in label for label in labels)
            move = moves_played(page)
            end = page.locator('#board [data-part^="end="]').first
            letter = (end.get_attribute("data-part") or "").split("=", 1)[1]
            end.click()
            chosen = page.locator("#chosen")
            # With only the string chosen, the move is said in words, not as notation.
            expect(chosen).to_contain_text(f"pulls {letter}")
            assert "=" not in (chosen.text_content() or "")
            # The page names each answer by its place only: no letter anywhere in the palette.
            parts = palette.evaluate_all("els => els.map(e => e.dataset.part)")
            assert all(re.fullmatch(r"answer=@\d+", p) for p in parts), parts
            # The first turn signs right, the others sign the first handshape offered.
            right = page.locator(f'#board [data-part="{right_part(options, letter)}"]')
            answer = palette.nth(0) if turn else right
            answer.click()
            expect(chosen).to_have_attribute("data-move", re.compile(rf"^{letter}=@\d+$"))
            # Said in words, although the page is never given a list of these moves.
            expect(chosen).to_have_text(
                re.compile(rf"^Squares \(X\) pulls {letter} \(\w+\), answering .+$")
            )
            assert "=" not in (chosen.text_content() or "")
            page.locator("#confirm").click()
            wait_for_move(page, move + 1)
            # Both faces are revealed: who meant what, gave what, and whether it was right.
            log = page.locator("#log")
            expect(log).to_contain_text("meant")
            if turn == 0:
                expect(log).to_contain_text(f"Squares (X) meant {letter} and gave the ")
                expect(page.locator("#board")).to_contain_text("right")
        assert wait_for_turn(page) == "over"
        expect(page.locator("#log")).to_contain_text(re.compile(rf"X: \d of {TURNS} signs right"))
        page.screenshot(path=str(tmp_path / "learning.png"), full_page=True)
        assert page_errors(page) == []
