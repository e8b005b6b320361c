"""A player's calibration of the sign recogniser kept on the server: only with the player's
key, checked for its form, replaced, read back and deleted; on SQLite and, where it can be
reached, on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taut.games.pulling_strings.signs.learnt import calibrate, calibration_from_json
from taut.server.players.accounts import Players
from taut.server.players.calibration import MAX_SIGNS, BadCalibration, Calibrations, check
from taut.server.store.games import Store
from tests.real_hands import real_hand
from tests.test_server_kit import app_client, run, sqlite_url
from tests.test_server_postgres import database  # noqa: F401 (a fixture)

H = "X-Taut-Player"


def own() -> dict[str, Any]:
    """A learner's calibration as the page makes it: three signs of three letters."""
    signs = [(k, real_hand(k, n)) for k in "AUV" for n in range(3)]
    made: dict[str, Any] = json.loads(json.dumps(calibrate(signs).to_json()))
    return made


def test_a_player_keeps_reads_replaces_and_deletes_a_calibration(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        key = client.post("/api/players", json={}).json()["key"]
        other = client.post("/api/players", json={}).json()["key"]
        assert client.get("/api/me/calibration").status_code == 401
        assert client.put("/api/me/calibration", json={"calibration": own()}).status_code == 401
        assert client.get("/api/me/calibration", headers={H: key}).json() == {"calibration": None}
        mine = own()
        answer = client.put("/api/me/calibration", json={"calibration": mine}, headers={H: key})
        assert answer.status_code == 200, answer.text
        kept = client.get("/api/me/calibration", headers={H: key}).json()["calibration"]
        assert kept == mine
        # The recogniser reads it back as it was made.
        assert calibration_from_json(kept) == calibrate(
            [(k, real_hand(k, n)) for k in "AUV" for n in range(3)]
        )
        assert client.get("/api/me/calibration", headers={H: other}).json()["calibration"] is None
        smaller = {"version": 1, "letters": {"A": mine["letters"]["A"][:1]}}
        client.put("/api/me/calibration", json={"calibration": smaller}, headers={H: key})
        assert client.get("/api/me/calibration", headers={H: key}).json()["calibration"] == smaller
        gone = client.delete("/api/me/calibration", headers={H: key})
        assert gone.json() == {"calibration": None}
        assert client.get("/api/me/calibration", headers={H: key}).json() == {"calibration": None}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"letters": {}}, "a calibration is"),
        ({"version": 1, "letters": {}, "more": 1}, "a calibration is"),
        ({"version": 1, "letters": {"a": [[1.0]]}}, "not one letter A-Z"),
        ({"version": 1, "letters": {"AB": [[1.0]]}}, "not one letter A-Z"),
        ({"version": 1, "letters": {"A": []}}, f"1 to {MAX_SIGNS} signs"),
        ({"version": 1, "letters": {"A": [[1.0]] * (MAX_SIGNS + 1)}}, f"1 to {MAX_SIGNS} signs"),
        ({"version": 1, "letters": {"A": [[1.0, 2.0], [1.0]]}}, "every sign has 2 numbers"),
        ({"version": 1, "letters": {"A": [[True]]}}, "finite numbers only"),
        ({"version": 1, "letters": {"A": [["1"]]}}, "finite numbers only"),
        ({"version": 1, "letters": {"A": [[]]}}, "a list of numbers"),
    ],
)
def test_a_calibration_of_the_wrong_form_is_refused(
    tmp_path: Path, bad: dict[str, Any], message: str
) -> None:
    with pytest.raises(BadCalibration, match=message):
        check(bad)
    with app_client(tmp_path) as client:
        key = client.post("/api/players", json={}).json()["key"]
        answer = client.put("/api/me/calibration", json={"calibration": bad}, headers={H: key})
        assert answer.status_code == 400
        assert message in answer.json()["detail"]
        assert client.get("/api/me/calibration", headers={H: key}).json()["calibration"] is None


def test_non_finite_numbers_are_refused() -> None:
    with pytest.raises(BadCalibration, match="finite"):
        check({"version": 1, "letters": {"A": [[float("inf")]]}})


async def _round_trip(url: str) -> tuple[Any, Any]:
    store = Store(url)
    await store.create_tables()
    try:
        players = Players(store)
        player, _ = await players.create(None, "a test")
        kept = Calibrations(store)
        await kept.keep(player.id, own())
        first = await kept.of(player.id)
        await kept.forget(player.id)
        return first, await kept.of(player.id)
    finally:
        await store.close()


def test_the_store_keeps_calibrations_on_sqlite(tmp_path: Path) -> None:
    first, after = run(_round_trip(sqlite_url(tmp_path)))
    assert first == own() and after is None


def test_the_store_keeps_calibrations_on_postgres(database: str) -> None:  # noqa: F811
    first, after = run(_round_trip(database))
    assert first == own() and after is None
