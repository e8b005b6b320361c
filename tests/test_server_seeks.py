"""Open games in the lobby: each shows its game's variant, whether it is rated, its time
control and, for a rated game, the rating range its maker set; a player outside the range
(or a guest) cannot take the seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.test_server_kit import app_client, new_game

H = "X-Taut-Player"


def player(client: TestClient) -> dict[str, str]:
    """A new player's header."""
    made = client.post("/api/players", json={})
    assert made.status_code == 201, made.text
    return {H: made.json()["key"]}


def seek(client: TestClient, maker: dict[str, str], **body: Any) -> Any:
    """Ask for a rated Track Tiles game with an open seat."""
    sent = {"game": "tracks", "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    return client.post("/api/games", json={**sent, "rated": True, **body}, headers=maker)


def lobby(client: TestClient) -> dict[str, dict[str, Any]]:
    """The lobby by game id."""
    return {g["id"]: g for g in client.get("/api/lobby").json()}


def test_the_lobby_shows_variant_rated_time_and_range(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        plain = new_game(client, "tracks", ["me", "open"])
        other = new_game(client, "tracks", ["me", "open"], {"size": 4})
        maker = player(client)
        rated = seek(client, maker, rating_range=[-5, 12.5], time_control="5+3")
        assert rated.status_code == 200, rated.text
        shown = lobby(client)
        first = shown[plain["id"]]
        assert first["variant"] == "standard" and first["rated"] is False
        assert first["rating_range"] is None and first["time_control"] is None
        assert shown[other["id"]]["variant"] != "standard" and "4" in shown[other["id"]]["variant"]
        found = shown[rated.json()["id"]]
        assert found["rated"] is True and found["rating_range"] == [-5, 12.5]
        assert found["time_control"] == "5+3"


def test_a_seat_outside_the_rating_range_is_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        maker, taker = player(client), player(client)
        narrow = seek(client, maker, rating_range=[5, 10]).json()["id"]
        wide = seek(client, maker, rating_range=[-5, 5]).json()["id"]
        refused = client.post(f"/api/games/{narrow}/claim/WE", headers=taker)
        assert refused.status_code == 403
        sentence = refused.json()["detail"]
        assert "rated 5 to 10" in sentence and "your rating here is 0.0" in sentence
        guest = client.post(f"/api/games/{narrow}/claim/WE")
        assert guest.status_code == 403 and "guest" in guest.json()["detail"]
        assert narrow in lobby(client)  # still open
        taken = client.post(f"/api/games/{wide}/claim/WE", headers=taker)
        assert taken.status_code == 200, taken.text
        assert wide not in lobby(client)
        # Without a range, anyone takes the seat, as before.
        free = seek(client, maker).json()["id"]
        assert client.post(f"/api/games/{free}/claim/WE").status_code == 200


def test_bad_rating_ranges_are_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        maker = player(client)
        unrated = seek(client, maker, rated=False, rating_range=[0, 10])
        assert unrated.status_code == 400 and "rated games" in unrated.json()["detail"]
        upside = seek(client, maker, rating_range=[10, 0])
        assert upside.status_code == 422 and "low <= high" in upside.json()["error"]
        assert seek(client, maker, rating_range=[1]).status_code == 422
