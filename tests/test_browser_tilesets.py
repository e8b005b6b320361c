"""A tile set file uploaded on the new-game form: checked by the server, kept with the game,
played with in the browser (Chromium; skipped without it)."""

from __future__ import annotations

import re
from pathlib import Path

from taut.games.pulling_strings.tilesets import SETS
from tests.browser_kit import chromium, expect, live_server, open_page, page_errors


def test_an_uploaded_tile_set_is_played_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\ntitle = "Bad"\nboard = "a"\nother = "b"\ntiles = []\n')
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/new/pulling-strings"))
        page.get_by_label("Edition", exact=True).select_option('"published"')
        page.get_by_label("Learn while playing", exact=True).select_option('"strict"')
        upload = page.get_by_label(re.compile(r"^Or your own tile set file"))
        # A bad file: the server's message, naming what is wrong, shows under the form.
        upload.set_input_files(str(bad))
        expect(page.locator("#form-error")).to_contain_text("0 tiles; a tile set needs 20")
        upload.set_input_files(str(SETS / "elements.toml"))
        tiles = page.get_by_label("Tile set", exact=True)
        expect(tiles).to_contain_text("your file: elements.toml")
        expect(page.locator("#form-error")).to_have_text("")
        page.get_by_label(re.compile(r"^O \(")).select_option("easy")
        page.get_by_role("button", name="Make the game").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+#[\w-]+$"))
        # The palette offers the set's other faces (the element names).
        board = page.locator("svg[data-compose]")
        expect(board).to_contain_text("Hydrogen")
        assert page_errors(page) == []
