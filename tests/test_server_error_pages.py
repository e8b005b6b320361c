"""Refusals a person meets in the browser: a wrong address gets a page with the site's
navigation, a title, the status code kept and what to do next, while every API client
still gets JSON; and the replay of a game still being played says so, with where to
watch it, instead of dead controls."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from taut.core.registry import games, plugin, register_plugin, unregister_plugin
from taut.server.web.error_pages import wants_page
from tests.test_server_api import clean_error
from tests.test_server_clocks import Clock
from tests.test_server_kit import app_client, new_game, socket_of, token_of
from tests.test_server_tournaments import create, player, served, shown, wait_for
from tests.toygame.plugin import RopePlugin

#: What a browser sends when it opens a page.
BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One application for the tests that only read answers."""
    with app_client(tmp_path_factory.mktemp("error-pages")) as c:
        yield c


def error_page(response: Any, status: int) -> str:
    """``response`` is a page of the site (navigation, a title) with ``status``; its text."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    text: str = response.text
    assert '<nav aria-label="Site">' in text and 'href="/lobby"' in text
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    assert title is not None and title.group(1).strip() not in ("", "taut")
    assert "<h1>" in text and f"Error {status}." in text
    assert "Traceback" not in text and '"detail"' not in text
    return text


def test_an_unknown_game_page_says_so_and_links_the_lobby(client: TestClient) -> None:
    for path in ("/g/xyz", "/replay/xyz"):
        text = error_page(client.get(path, headers=BROWSER), 404)
        assert "No game \u201cxyz\u201d" in text
        assert "Find an open game in the lobby" in text


@pytest.mark.parametrize("kind", ["new", "rules"])
def test_an_unknown_game_name_lists_the_games_there_are(client: TestClient, kind: str) -> None:
    text = error_page(client.get(f"/{kind}/chess", headers=BROWSER), 404)
    assert "No game called \u201cchess\u201d" in text
    for name in games():
        assert f'<a href="/{kind}/{name}">{html.escape(plugin(name).title)}</a>' in text


def test_an_unknown_tutorial_lists_the_tutorials(client: TestClient) -> None:
    text = error_page(client.get("/learn/nope", headers=BROWSER), 404)
    assert "No game called \u201cnope\u201d" in text and "These games have a tutorial" in text
    for name in games():
        if plugin(name).tutorial() is not None:
            assert f'href="/learn/{name}"' in text


def test_a_game_without_a_tutorial_links_its_rules(client: TestClient) -> None:
    register_plugin(RopePlugin())
    try:
        assert plugin("rope").tutorial() is None
        text = error_page(client.get("/learn/rope", headers=BROWSER), 404)
        assert f"No tutorial for {html.escape(plugin('rope').title)} yet" in text
        assert 'href="/rules/rope"' in text
    finally:
        unregister_plugin("rope")


@pytest.mark.parametrize(
    ("path", "words", "link"),
    [
        ("/t/nope", "No tournament \u201cnope\u201d", "/tournaments"),
        ("/players/nobody", "No player called \u201cnobody\u201d", "/"),
        ("/nonexistent", "This server has no page at /nonexistent", "/"),
        ("/static/nope.css", "no page at /static/nope.css", "/"),
    ],
)
def test_other_missing_pages_say_what_is_missing(
    client: TestClient, path: str, words: str, link: str
) -> None:
    text = error_page(client.get(path, headers=BROWSER), 404)
    assert words in text and f'href="{link}"' in text


@pytest.mark.parametrize(
    "path", ["/g/xyz", "/replay/xyz", "/new/chess", "/learn/nope", "/t/nope", "/nonexistent"]
)
@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "text/html;q=0"])
def test_a_client_that_asks_for_no_page_gets_json(
    client: TestClient, path: str, accept: str | None
) -> None:
    headers = {} if accept is None else {"accept": accept}
    clean_error(client.get(path, headers=headers), 404)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/xyz/record",
        "/api/games/xyz/positions",
        "/api/tutorials/nope",
        "/api/tournaments/nope",
        "/api/nonexistent",
    ],
)
def test_the_api_answers_json_even_to_a_browser(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.headers["content-type"].startswith("application/json")
    clean_error(response, 404)


def test_a_malformed_page_address_is_a_page_for_a_browser(client: TestClient) -> None:
    made = client.post("/api/players", json={"name": "Ada"}).json()
    path = f"/players/{made['name']}?page=0"
    text = error_page(client.get(path, headers=BROWSER), 422)
    assert "Page: Input should be greater than or equal to 1." in text
    assert "error" in client.get(path).json()
    assert "error" in client.get(f"/api/players/{made['name']}?page=0", headers=BROWSER).json()


def test_what_an_address_holds_is_escaped(client: TestClient) -> None:
    for path in ("/g/<script>alert(1)<%2Fscript>", "/new/<b>x</b>", "/<i>x</i>"):
        text = error_page(client.get(path, headers=BROWSER), 404)
        assert "<script>alert" not in text and "<b>x" not in text and "<i>x" not in text


def test_a_fault_on_a_page_is_a_page_for_a_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import taut.server.web.pages as pages

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("an inner detail")

    monkeypatch.setattr(pages, "game_entry", broken)
    with app_client(tmp_path, raise_errors=False) as c:
        text = error_page(c.get("/new/tracks", headers=BROWSER), 500)
        assert "Something went wrong on the server" in text and "inner detail" not in text
        answer = c.get("/new/tracks")
        assert answer.status_code == 500
        assert answer.json() == {"error": "something went wrong on the server"}


def test_the_schema_says_a_page_refusal_may_be_html(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/g/{game_id}", "/replay/{game_id}", "/new/{name}", "/learn/{name}"):
        content = paths[path]["get"]["responses"]["404"]["content"]
        assert set(content) == {"application/json", "text/html"}, path
    api = paths["/api/games/{game_id}/record"]["get"]["responses"]["404"]["content"]
    assert set(api) == {"application/json"}


@pytest.mark.parametrize(
    ("accept", "path", "page"),
    [
        ("text/html", "/g/x", True),
        ("application/xhtml+xml", "/g/x", True),
        ("TEXT/HTML; q=0.5", "/g/x", True),
        ("text/html;q=0", "/g/x", False),
        ("text/html;q=nonsense", "/g/x", False),
        ("application/json, */*", "/g/x", False),
        ("", "/g/x", False),
        ("text/html", "/api/games", False),
        ("text/html", "/api", False),
        ("text/html", "/apiary", True),
    ],
)
def test_which_requests_get_a_page(accept: str, path: str, page: bool) -> None:
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(b"accept", accept.encode())],
    }
    assert wants_page(Request(scope)) is page


# -- the replay of a game still being played ------------------------------------------------


def still_going(text: str) -> None:
    """The replay page of a game not over: it says so, with no dead controls."""
    assert "still being played" in text and "No replay yet" in text
    assert "open on this page once it is over" in text
    assert "/static/play/replay.js" not in text
    assert "/record" not in text and "Download the record" not in text
    assert "<button" not in text and 'type="range"' not in text


def test_the_replay_of_a_game_going_on_says_when_it_opens(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        made = new_game(c, "tracks", ["me", "invite"], {"size": 3})
        page = c.get(f"/replay/{made['id']}", headers=BROWSER)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        still_going(page.text)
        title = f"<title>{html.escape(plugin('tracks').title)}: still being played</title>"
        assert title in page.text
        assert "spectators' link" in page.text and 'href="/lobby"' in page.text
        assert "A seat is still open" not in page.text
        # No token is ever shown: the server has none but hashes.
        for link in (made["spectator"], *made["links"].values()):
            assert token_of(link) not in page.text
        with socket_of(c, made["id"], token_of(made["mine"])) as ws:
            ws.send(type="resign", ref=1)
            assert ws.answer(1)["type"] == "ack"
        over = c.get(f"/replay/{made['id']}", headers=BROWSER).text
        assert "still being played" not in over
        assert f'href="/api/games/{made["id"]}/record"' in over
        assert "/static/play/replay.js" in over and 'id="next"' in over


def test_the_replay_of_a_game_with_an_open_seat_sends_to_the_lobby(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        made = new_game(c, "tracks", ["me", "open"], {"size": 3})
        text = c.get(f"/replay/{made['id']}").text
        still_going(text)
        assert "A seat is still open" in text and 'href="/lobby">take it in the lobby' in text


def test_the_replay_of_a_tournament_game_going_on_links_its_spectators(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as c:
        a, b = player(c), player(c)
        tid = create(c, a, clock)
        for who in (a, b):
            assert c.post(f"/api/tournaments/{tid}/join", headers=who).status_code == 200
        clock.skip(61)
        shown(c, tid)  # the start
        found = wait_for(c, tid, lambda t: bool(t["rounds"]) and bool(t["rounds"][0]["boards"]))
        watch = found["rounds"][0]["boards"][0]["game"]
        game_id = watch.split("/g/", 1)[1].split("#", 1)[0]
        text = c.get(f"/replay/{game_id}", headers=BROWSER).text
        still_going(text)
        assert f'href="{html.escape(watch)}">Watch the game</a>' in text
        assert f'href="/t/{tid}"' in text
