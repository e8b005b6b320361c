"""Flash cards on the server: the tile sets as JSON, the scheduling API (next card,
review, progress checked and converted; the server keeps nothing), the pages that list and
play them, unknown sets, bad input refused with a sentence, and text from a plugin that
can never become markup."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fsrs
import pytest
from fastapi.testclient import TestClient

from taut.core.registry import register_plugin, unregister_plugin
from taut.learn import flashcards as fc
from taut.learn.registry import tile_sets
from taut.learn.tileset import Face, Tile, TileSet
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
    assert '<script type="module" src="/static/learn/flashcards.js">' in page.text
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


@pytest.mark.parametrize(
    "script", ["learn/flashcards.js", "signs/signing.js", "learn/words.js", "learn/flashcards.css"]
)  # fmt: skip
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


# -- the scheduling API --------------------------------------------------------------------

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FIXTURES = Path(__file__).parent / "fixtures"


def at(moment: datetime) -> str:
    return moment.isoformat()


def test_a_drill_through_the_api_is_the_fsrs_schedule(client: TestClient) -> None:
    deck: dict[str, Any] = {"cards": [], "confusions": []}
    now = NOW
    asked: list[tuple[int, str]] = []
    for i in range(12):
        avoid = [{"tile": t, "direction": d} for t, d in asked[-1:]]
        nxt = client.post("/api/flashcards/next", json={
            "set": "roman", "deck": deck, "seed": "7", "now": at(now), "avoid": avoid,
            "new_seen": len({k for k in asked}),
        })  # fmt: skip
        assert nxt.status_code == 200, nxt.text
        body = nxt.json()
        card = body["card"]
        key = (card["tile"], card["direction"])
        # The same choice as the scheduler's own, with the same inputs.
        pick = fc.next_card(
            fc.parse_deck(deck), tile_sets()["roman"], now=now, seed="7",
            new_left=fc.NEW_PER_SITTING - len(set(asked)), avoid=set(asked[-1:]),
        )  # fmt: skip
        assert (pick.card.key, pick.reason) == (key, body["reason"])
        assert card["tile"] in body["choices"] and len(body["choices"]) == fc.CHOICES
        given = card["tile"] if i % 3 else (card["tile"] + 1) % 26
        done = client.post("/api/flashcards/review", json={
            "set": "roman", "deck": deck, "card": card, "given": given, "now": at(now),
        })  # fmt: skip
        assert done.status_code == 200, done.text
        reply = done.json()
        assert reply["right"] == (given == card["tile"])
        deck = reply["deck"]
        asked.append(key)
        now += timedelta(minutes=3)
    # Each card's memory is the fsrs library's after the same answers at the same times.
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    theirs: dict[tuple[int, str], fsrs.Card] = {}
    for i, key in enumerate(asked):
        rating = fsrs.Rating.Good if i % 3 else fsrs.Rating.Again
        card = theirs.get(key, fsrs.Card(card_id=1, due=NOW))
        theirs[key], _ = scheduler.review_card(card, rating, NOW + timedelta(minutes=3 * i))
    stored = {(c["tile"], c["direction"]): c for c in deck["cards"]}
    assert set(stored) == set(theirs)
    for key, card in theirs.items():
        assert datetime.fromisoformat(stored[key]["due"]) == card.due
        assert stored[key]["stability"] == pytest.approx(card.stability)
    assert sum(c["count"] for c in deck["confusions"]) == 4
    summary = reply["summary"]
    assert (summary["right"], summary["wrong"]) == (8, 4)
    assert summary["accuracy"] == "Accuracy: 8 right of 12 (67%)."


def test_the_review_says_when_the_card_comes_back(client: TestClient) -> None:
    card = {"tile": 2, "direction": "other->board"}
    deck: dict[str, list[Any]] = {"cards": [], "confusions": []}
    right = client.post(
        "/api/flashcards/review",
        json={"set": "kana", "deck": deck, "card": card, "given": 2, "now": at(NOW)},
    ).json()
    wrong = client.post(
        "/api/flashcards/review",
        json={"set": "kana", "deck": deck, "card": card, "given": None, "now": at(NOW)},
    ).json()
    assert (right["again"], right["state"]) == ("in 10 minutes", "learning")
    assert wrong["again"] == "in 1 minute"
    assert wrong["deck"]["confusions"] == []  # an answer naming no tile confuses nothing
    assert datetime.fromisoformat(right["due"]) == NOW + timedelta(minutes=10)


@pytest.mark.parametrize(
    "name", ["flashcards_v1_terminal.json", "flashcards_v1_browser.json"]
)  # fmt: skip
def test_old_progress_is_converted_by_the_api(client: TestClient, name: str) -> None:
    old = json.loads((FIXTURES / name).read_text())
    reply = client.post("/api/flashcards/progress", json={"progress": old, "now": at(NOW)})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["converted"] is True and body["progress"]["version"] == 2
    assert body["progress"] == fc.Progress.from_json(old, NOW).to_json()
    again = client.post("/api/flashcards/progress", json={"progress": body["progress"]}).json()
    assert again == {"progress": body["progress"], "converted": False}


def _deck() -> dict[str, Any]:
    deck = fc.record(fc.Deck(), fc.Card("roman", 1, fc.BOARD_TO_OTHER), 1, NOW)
    return fc.deck_json(deck)


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("next", {"set": "nope", "deck": _deck()}, 400, "no tile set called 'nope'"),
        ("next", {"set": "roman", "deck": {"cards": []}}, 422, "deck.confusions"),
        ("next", {"set": "roman", "deck": _deck(), "directions": ["up"]}, 400,
         "unknown direction 'up'"),
        ("next", {"set": "roman", "deck": _deck(), "now": "noon"}, 400,
         "now: 'noon' is not a date"),
        ("next", {"set": "roman", "deck": _deck(), "now": "2026-03-01T09:00"}, 400,
         "no time zone"),
        ("next", {"set": "roman", "deck": _deck(), "new_seen": -1}, 422, "new_seen"),
        ("next", {"set": "roman", "deck": _deck(), "avoid": [{"tile": 99,
         "direction": "board->other"}]}, 400, "card.tile: 99 is not a tile of 'roman'"),
        ("next", {"set": "roman", "deck": [], "x": 1}, 422, "deck"),
        ("review", {"set": "roman", "deck": _deck(), "card": {"tile": 1, "direction": "up"},
         "given": 1}, 400, "card.direction: 'up' is not a direction"),
        ("review", {"set": "roman", "deck": _deck(), "card": {"tile": 1,
         "direction": "board->other"}, "given": 40}, 400, "given: 40 is not a tile"),
        ("review", {"set": "roman", "deck": _deck(), "card": {"tile": -1,
         "direction": "board->other"}, "given": 1}, 422, "card.tile"),
        ("review", {"set": "roman", "deck": _deck()}, 422, "card"),
        ("progress", {"progress": {"version": 7, "sets": {}}}, 400, "version 7 is not known"),
        ("progress", {"progress": {"version": 1, "sets": {"roman": {"round": 0}}}}, 400,
         "sets.roman: the field 'cards' is missing"),
    ],
)  # fmt: skip
def test_bad_input_to_the_api_is_refused_with_a_sentence(
    client: TestClient, path: str, body: dict[str, Any], status: int, words: str
) -> None:
    text = clean_error(client.post(f"/api/flashcards/{path}", json=body), status)
    assert words in text


def test_a_deck_naming_tiles_the_set_lacks_is_refused(client: TestClient) -> None:
    deck = fc.deck_json(fc.record(fc.Deck(), fc.Card("x", 30, fc.BOARD_TO_OTHER), 30, NOW))
    text = clean_error(
        client.post("/api/flashcards/next", json={"set": "roman", "deck": deck}), 400
    )
    assert "names tile 30" in text


def test_the_sign_direction_is_offered_where_a_recogniser_reads_the_set(
    client: TestClient,
) -> None:
    for name, ts in tile_sets().items():
        page = client.get(f"/flashcards/{name}").text
        offered = 'value="board->sign"' in page
        assert offered == bool(ts.sign_files), name
        if offered:
            assert 'data-recogniser="/game-files/' in page
            recogniser = page.split('data-recogniser="')[1].split('"')[0]
            assert client.get(recogniser).status_code == 200
