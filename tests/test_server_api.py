"""The JSON API and the pages: the catalogue, new games of every game with options read from
its plugin and every kind of seat, and clean answers to requests that are wrong."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taut.core.registry import games, plugin
from tests.test_server_kit import app_client, new_game, sample_options, socket_of, token_of

#: Option samples per game.
SAMPLES = 5


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One application for the tests that only make games and read answers."""
    with app_client(tmp_path_factory.mktemp("api")) as c:
        yield c


def clean_error(response: Any, status: int) -> str:
    """The answer is JSON with one sentence (``detail`` or ``error``), no stack trace."""
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body, dict)
    text = body.get("detail") or body.get("error")
    assert isinstance(text, str) and text
    assert "Traceback" not in response.text and 'File "' not in response.text
    return text


def test_the_catalogue_lists_every_game_with_its_options(client: TestClient) -> None:
    entries = client.get("/api/games").json()
    assert [e["name"] for e in entries] == list(games())
    for entry in entries:
        found = plugin(entry["name"])
        assert entry["title"] == found.title
        assert [o["name"] for o in entry["options"]] == [s.name for s in found.game_class.OPTIONS]


@pytest.mark.parametrize("game", games())
def test_every_kind_of_seat_with_sampled_options(client: TestClient, game: str) -> None:
    rng = random.Random(game)
    for _ in range(SAMPLES):
        options = sample_options(plugin(game), rng)
        offered = client.post("/api/seats", json={"game": game, "options": options})
        assert offered.status_code == 200, offered.text
        names = [s["seat"] for s in offered.json()["seats"]]
        levels = offered.json()["levels"]
        kinds = ["invite", "open", *levels]
        seats = [kinds[(i + rng.randrange(len(kinds))) % len(kinds)] for i in range(len(names))]
        seats[0] = "me"
        made = new_game(client, game, seats, options, name="Eve")
        holders = [n for n, k in zip(names, seats, strict=True) if k in ("me", "invite")]
        assert sorted(made["links"]) == sorted(holders)
        assert made["mine"] == made["links"][names[0]]
        opened = client.get(f"/api/games/{made['id']}/open-seats").json()["seats"]
        assert opened == [n for n, k in zip(names, seats, strict=True) if k == "open"]
        if "hard" in seats or "medium" in seats:
            continue  # made and checked; its slow computer is not started here
        with socket_of(client, made["id"], token_of(made["spectator"])) as watcher:
            assert watcher.frame is not None
            shown = watcher.frame["seats"]
            assert [s["seat"] for s in shown] == names
            for seat, kind in zip(shown, seats, strict=True):
                computer = kind in ("easy", "medium", "hard")
                assert seat["kind"] == ("computer" if computer else "human")
                assert seat["agent"] == (kind if computer else None)
            assert shown[0]["name"] == "Eve"
        for name, link in made["links"].items():
            with socket_of(client, made["id"], token_of(link)) as ws:
                assert ws.frame is not None and ws.frame["you"] == name


def test_a_level_the_computer_cannot_play_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import taut.server.play.making as service

    monkeypatch.setattr(service, "agent_refusal", lambda level, game: f"{level} is resting")
    body = {"game": "tracks", "seats": [{"kind": "me"}, {"kind": "hard"}]}
    says = clean_error(client.post("/api/games", json=body), 400)
    assert says == "seat WE: the computer cannot play here: hard is resting"


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"game": "nope", "seats": [{"kind": "me"}]}, 400, "unknown game"),
        ({"game": "tracks", "seats": [{"kind": "me"}]}, 400, "seats"),
        ({"game": "tracks", "seats": [{"kind": "me"}, {"kind": "me"}]}, 400, "one seat"),
        ({"game": "tracks", "seats": [{"kind": "me"}, {"kind": "boss"}]}, 422, "seats.1.kind"),
        ({"game": "tracks", "seats": [{"kind": "me"}, {"kind": "easy"}], "x": 1}, 422, "x"),
        ({"game": "tracks", "seats": [], "options": {}}, 422, "seats"),
        ({"game": "tracks", "seats": [{"kind": "me"}] * 2, "options": []}, 422, "options"),
        (
            {
                "game": "tracks",
                "seats": [{"kind": "me"}, {"kind": "easy"}],
                "options": {"size": "9"},
            },
            400,
            "size",
        ),
        (
            {
                "game": "tracks",
                "seats": [{"kind": "me"}, {"kind": "easy"}],
                "options": {"bogus": 1},
            },
            400,
            "bogus",
        ),
        (
            {"game": "tracks", "seats": [{"kind": "me"}, {"kind": "easy"}], "name": "x" * 41},
            422,
            "name",
        ),
        (
            {"game": "tracks", "seats": [{"kind": "me"}, {"kind": "easy"}], "name": "a\nb"},
            422,
            "not allowed",
        ),
        (
            {"game": "tracks", "seats": [{"kind": "me"}, {"kind": "easy"}], "reveal_deadline": 1},
            422,
            "reveal_deadline",
        ),
        (
            {"game": "tracks", "seats": [{"kind": "me"}, {"kind": "easy"}], "pace": "fast"},
            422,
            "pace",
        ),
        ({"game": 3, "seats": [{"kind": "me"}]}, 422, "game"),
        ([1, 2], 422, "request"),
    ],
)
def test_a_wrong_new_game_gets_a_clean_json_error(
    client: TestClient, body: Any, status: int, says: str
) -> None:
    assert says in clean_error(client.post("/api/games", json=body), status)


@pytest.mark.parametrize("raw", [b"", b"{bad", b"\xff\xfe", b"null"])
def test_a_body_that_is_not_json_gets_a_clean_json_error(client: TestClient, raw: bytes) -> None:
    response = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    clean_error(response, 422)
    seats = client.post("/api/seats", content=raw, headers={"content-type": "application/json"})
    clean_error(seats, 400)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "nope"}, 404),
        ({"game": "tracks", "options": {"size": 99}}, 400),
        ({"game": "tracks", "options": [1]}, 400),
        ({"game": "tracks", "options": {"bogus": True}}, 400),
    ],
)
def test_the_seats_of_wrong_options_get_a_clean_error(
    client: TestClient, body: Any, status: int
) -> None:
    clean_error(client.post("/api/seats", json=body), status)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/nope/record",
        "/api/games/nope/positions",
        "/api/games/nope/open-seats",
        "/g/nope",
        "/replay/nope",
        "/rules/nope",
        "/new/nope",
    ],
)
def test_what_does_not_exist_is_a_clean_404(client: TestClient, path: str) -> None:
    clean_error(client.get(path), 404)


def test_the_pages_of_every_game(client: TestClient) -> None:
    for path in ["/", "/lobby", "/verify"] + [
        f"/{kind}/{game}" for game in games() for kind in ("rules", "new")
    ]:
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html")


def test_verify_through_the_api(client: TestClient) -> None:
    assert client.post("/api/verify", content=b"not json").json()["ok"] is False
    assert client.post("/api/verify", content=b"not json").json()["readable"] is False
    too_big = client.post("/api/verify", content=b" " * 5_000_001)
    assert "5 MB" in clean_error(too_big, 413)


def test_a_replay_waits_for_the_end(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        made = new_game(c, "tracks", ["me", "invite"], {"size": 3})
        assert "over" in clean_error(c.get(f"/api/games/{made['id']}/positions"), 409)
        assert "over" in clean_error(c.get(f"/api/games/{made['id']}/record"), 409)
