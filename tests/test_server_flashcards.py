"""Flash cards on the server: the tile sets as JSON, the pages that list and play them,
unknown sets, and text from a plugin that can never become markup."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taut.core.registry import register_plugin, tile_sets, unregister_plugin
from taut.core.tileset import Face, Tile, TileSet
from tests.test_server_api import clean_error
from tests.test_server_kit import app_client
from tests.toygame.plugin import RopePlugin

#: Text with markup in every place a plugin can put text.
MARKUP = "<b>&amp;</b>"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(tmp_path_factory.mktemp("flashcards")) as c:
        yield c


def test_the_api_lists_every_set_of_the_registry(client: TestClient) -> None:
    entries = client.get("/api/tilesets").json()
    sets = tile_sets()
    assert [e["name"] for e in entries] == list(sets)
    for entry in entries:
        ts = sets[entry["name"]]
        assert (entry["title"], entry["size"], entry["picker"]) == (ts.title, len(ts), ts.picker)
        assert (entry["board_kind"], entry["other_kind"]) == (ts.board_kind, ts.other_kind)


@pytest.mark.parametrize("name", list(tile_sets()))
def test_a_set_is_served_whole_in_order(client: TestClient, name: str) -> None:
    body = client.get(f"/api/tilesets/{name}").json()
    ts = tile_sets()[name]
    assert len(body["tiles"]) == len(ts)
    for served, tile in zip(body["tiles"], ts.tiles, strict=True):
        for side, face in (("board", tile.board), ("other", tile.other)):
            got = served[side]
            assert got["text"] == face.text and got["svg"] == face.svg
            assert got["description"] == face.description
            assert got["aliases"] == list(face.aliases)


@pytest.mark.parametrize("path", ["/api/tilesets/nope", "/api/tilesets/%3Cb%3E"])
def test_an_unknown_set_in_the_api_is_a_clean_404(client: TestClient, path: str) -> None:
    text = clean_error(client.get(path), 404)
    assert all(name in text for name in tile_sets())


def test_the_list_page_links_every_set(client: TestClient) -> None:
    page = client.get("/flashcards")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for name, ts in tile_sets().items():
        assert f'href="/flashcards/{name}"' in page.text
        assert html.escape(ts.title) in page.text


@pytest.mark.parametrize("name", list(tile_sets()))
def test_the_page_of_a_set(client: TestClient, name: str) -> None:
    page = client.get(f"/flashcards/{name}")
    ts = tile_sets()[name]
    assert page.status_code == 200
    assert f'data-set="{name}"' in page.text
    assert '<script type="module" src="/static/flashcards.js">' in page.text
    assert 'role="status" aria-live="polite"' in page.text
    assert f"{html.escape(ts.board_kind)} &rarr; {html.escape(ts.other_kind)}" in page.text


def test_an_unknown_set_page_is_a_404_page_listing_the_sets(client: TestClient) -> None:
    page = client.get("/flashcards/nope")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "No tile set called" in page.text and "nope" in page.text
    for name in tile_sets():
        assert f'href="/flashcards/{name}"' in page.text


def test_the_home_page_links_the_flash_cards(client: TestClient) -> None:
    assert 'href="/flashcards"' in client.get("/").text


@pytest.mark.parametrize("script", ["flashcards.js", "leitner.js", "flashcards.css"])
def test_the_static_files_are_served(client: TestClient, script: str) -> None:
    assert client.get(f"/static/{script}").status_code == 200


class MarkupRope(RopePlugin):
    """Rope with a tile set whose every text holds markup."""

    def tile_sets(self) -> Any:
        face = Face(MARKUP, MARKUP, MARKUP)
        tiles = (Tile(face, Face("x", "x")), Tile(Face("y", "y"), Face("z", "z")))
        return [TileSet("markup", MARKUP, MARKUP, MARKUP, tiles, MARKUP)]


def test_text_from_a_plugin_is_escaped(client: TestClient) -> None:
    register_plugin(MarkupRope())
    try:
        for path in ("/flashcards", "/flashcards/markup"):
            page = client.get(path)
            assert page.status_code == 200
            assert MARKUP not in page.text
            assert html.escape(MARKUP) in page.text
        assert client.get("/api/tilesets/markup").json()["tiles"][0]["board"]["text"] == MARKUP
    finally:
        unregister_plugin("rope")
    # Without the plugin its set is gone again: nothing is kept by name.
    assert client.get("/flashcards/markup").status_code == 404


@pytest.mark.parametrize("name", sorted(tile_sets()))
def test_the_gallery_shows_both_faces_of_every_tile(client: TestClient, name: str) -> None:
    response = client.get(f"/tiles/{name}")
    assert response.status_code == 200
    page = response.text
    ts = tile_sets()[name]
    assert page.count('class="tile-card"') == len(ts)
    for tile in ts.tiles:
        assert f"<strong>{tile.board.text}</strong>" in page
        assert (tile.other.svg or tile.other.text) in page
        if tile.other.description:
            assert html.escape(tile.other.description, quote=False) in page
    assert client.get("/tiles/nope").status_code == 404
