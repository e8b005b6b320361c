"""Players without passwords: keys (only their hashes stored), names (unique whatever the
case, escaped on pages), sign-in links (single use, expiring), devices (revocable), seats
attached to players, and guests playing through links as before.

The store-level tests run on SQLite and, where it can be reached, on the PostgreSQL at
127.0.0.1 (the database fixture of ``test_server_postgres``)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taut.core.errors import InvalidOptionError
from taut.server.play.making import NewGame, SeatChoice, make_game, rematch
from taut.server.players.accounts import SIGNIN_SECONDS, BadName, NameTaken, Players, SigninError
from taut.server.store.games import Store
from tests.test_server_kit import app_client, new_game, run, socket_of, sqlite_url, token_of
from tests.test_server_postgres import database  # noqa: F401 (a fixture)

H = "X-Taut-Player"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A fresh application on a SQLite file."""
    with app_client(tmp_path) as c:
        yield c


def player(client: TestClient, name: str | None = None) -> dict[str, Any]:
    """Make a player through the API (it must succeed)."""
    body = {} if name is None else {"name": name}
    answer = client.post("/api/players", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def me(client: TestClient, key: str) -> Any:
    """``GET /api/me`` with ``key``."""
    return client.get("/api/me", headers={H: key})


def test_a_first_visit_makes_a_player_whose_key_is_stored_only_as_its_hash(
    client: TestClient, tmp_path: Path
) -> None:
    made = player(client)
    key = made["key"]
    assert len(key) >= 40 and made["name"].startswith("player-")
    assert me(client, key).json()["name"] == made["name"]
    dump = "\n".join(sqlite3.connect(tmp_path / "taut.db").iterdump())
    assert hashlib.sha256(key.encode()).hexdigest() in dump
    assert key not in dump
    other = player(client)
    assert other["key"] != key and other["name"] != made["name"]


def test_an_unknown_key_is_refused_clearly(client: TestClient) -> None:
    answer = me(client, "not-a-key")
    assert answer.status_code == 401
    assert "not known" in answer.json()["detail"]
    assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("a", "2 to 24 characters"),
        ("x" * 25, "2 to 24 characters"),
        ("a/b", "cannot hold"),
        ("50%", "cannot hold"),
        ("tab\x07bell", "cannot hold"),
        ("rt\u202eol", "cannot hold"),
        ("ME", "kept for the server"),
        ("Computer (easy)", "kept for the computer"),
        ("   ", "2 to 24 characters"),
    ],
)
def test_names_break_the_rules_with_a_clear_error(
    client: TestClient, name: str, problem: str
) -> None:
    key = player(client)["key"]
    answer = client.post("/api/me/name", json={"name": name}, headers={H: key})
    assert answer.status_code == 400, answer.text
    assert problem in answer.json()["detail"]


def test_names_are_unique_whatever_their_case(client: TestClient) -> None:
    alice = player(client, "Alice")
    answer = client.post("/api/players", json={"name": "aLiCe"})
    assert answer.status_code == 409 and "taken" in answer.json()["detail"]
    bob = player(client)
    taken = client.post("/api/me/name", json={"name": "ALICE"}, headers={H: bob["key"]})
    assert taken.status_code == 409
    renamed = client.post("/api/me/name", json={"name": "  Bob   the  Builder "},
                          headers={H: bob["key"]})  # fmt: skip
    assert renamed.status_code == 200 and renamed.json()["name"] == "Bob the Builder"
    # A player may change the case of their own name.
    again = client.post("/api/me/name", json={"name": "ALICE"}, headers={H: alice["key"]})
    assert again.status_code == 200
    assert client.get("/api/players/alice").json()["name"] == "ALICE"


def test_a_name_that_looks_like_markup_is_escaped_on_pages(client: TestClient) -> None:
    key = player(client)["key"]
    evil = "<script>alert(1)"
    answer = client.post("/api/me/name", json={"name": evil}, headers={H: key})
    assert answer.status_code == 200, answer.text
    page = client.get("/players/%3Cscript%3Ealert(1)")
    assert page.status_code == 200
    assert "&lt;script&gt;alert(1)" in page.text
    assert evil not in page.text
    assert client.get("/api/players/%3CSCRIPT%3Ealert(1)").json()["name"] == evil


def test_a_signin_link_moves_a_player_once(client: TestClient) -> None:
    first = player(client, "Carol")
    link = client.post("/api/me/signin-link", headers={H: first["key"]}).json()
    assert link["link"].startswith("/signin#") and link["seconds"] == SIGNIN_SECONDS
    token = token_of(link["link"])
    signed = client.post("/api/signin", json={"token": token, "device": "phone"})
    assert signed.status_code == 200, signed.text
    second = signed.json()
    assert second["id"] == first["id"] and second["key"] != first["key"]
    devices = me(client, second["key"]).json()["devices"]
    assert [d["device"] for d in devices] == ["a browser", "phone"]
    assert [d["this"] for d in devices] == [False, True]
    again = client.post("/api/signin", json={"token": token})
    assert again.status_code == 410 and "used already" in again.json()["detail"]
    unknown = client.post("/api/signin", json={"token": "nothing-like-it"})
    assert unknown.status_code == 404
    assert client.get("/signin").status_code == 200


def test_a_signin_link_expires(client: TestClient) -> None:
    first = player(client)
    players: Players = client.app.state.players  # type: ignore[attr-defined]
    link = client.post("/api/me/signin-link", headers={H: first["key"]}).json()
    start = players.clock()
    players.clock = lambda: start + SIGNIN_SECONDS + 1
    late = client.post("/api/signin", json={"token": token_of(link["link"])})
    assert late.status_code == 410 and "expired" in late.json()["detail"]


def test_a_device_is_revoked_from_another(client: TestClient) -> None:
    first = player(client)
    token = token_of(client.post("/api/me/signin-link", headers={H: first["key"]}).json()["link"])
    second = client.post("/api/signin", json={"token": token}).json()
    devices = me(client, second["key"]).json()["devices"]
    old = next(d for d in devices if not d["this"])
    stranger = player(client)
    refused = client.delete(f"/api/me/devices/{old['id']}", headers={H: stranger["key"]})
    assert refused.status_code == 404
    gone = client.delete(f"/api/me/devices/{old['id']}", headers={H: second["key"]})
    assert gone.status_code == 200
    assert me(client, first["key"]).status_code == 401
    assert me(client, second["key"]).status_code == 200
    assert len(me(client, second["key"]).json()["devices"]) == 1


def test_seats_attach_to_the_players_who_take_them(client: TestClient) -> None:
    alice, bob, eve = player(client, "Alice"), player(client, "Bob"), player(client, "Eve")
    made = client.post(
        "/api/games",
        json={"game": "tracks", "seats": [{"kind": "me"}, {"kind": "invite"}]},
        headers={H: alice["key"]},
    ).json()
    invited = next(link for link in made["links"].values() if link != made["mine"])
    url = f"/api/games/{made['id']}/player"
    taken = client.post(url, json={"token": token_of(invited)}, headers={H: bob["key"]})
    assert taken.status_code == 200
    assert taken.json() == {"seat": "WE", "player": "Bob", "rated": False, "refusal": None}
    # Opening the link again is fine; another player cannot take the seat.
    assert client.post(url, json={"token": token_of(invited)}, headers={H: bob["key"]}).is_success
    stolen = client.post(url, json={"token": token_of(invited)}, headers={H: eve["key"]})
    assert stolen.status_code == 409 and "Bob" in stolen.json()["detail"]
    # A page asks for the refusal in the body: no failed request in its console.
    said = client.post(url, json={"token": token_of(invited), "refusal_in_body": True},
                       headers={H: eve["key"]})  # fmt: skip
    assert said.status_code == 200
    assert said.json() == {"seat": None, "player": "Eve", "rated": False,
                           "refusal": "seat WE is Bob's already"}  # fmt: skip
    spectator = client.post(url, json={"token": token_of(made["spectator"])},
                            headers={H: eve["key"]})  # fmt: skip
    # A spectator's link attaches nothing, and is no error (the page asks on every visit).
    assert spectator.status_code == 200
    assert spectator.json() == {"seat": None, "player": "Eve", "rated": False, "refusal": None}
    assert client.post(url, json={"token": "wrong"}, headers={H: eve["key"]}).status_code == 403
    assert client.post(url, json={"token": token_of(invited)}).status_code == 401
    pages = {p["name"]: client.get(f"/api/players/{p['name']}").json() for p in (alice, bob)}
    for name, seat in (("Alice", "NS"), ("Bob", "WE")):
        [game] = pages[name]["playing"]
        assert game["id"] == made["id"] and game["seat"] == seat
        assert [s["player"] for s in game["seats"]] == ["Alice", "Bob"]
    # NS moves first in tracks: Alice's move, marked for her and not for Bob.
    assert pages["Alice"]["playing"][0]["your_move"] is True
    assert pages["Bob"]["playing"][0]["your_move"] is False
    assert pages["Bob"]["playing"][0]["to_move"] == ["NS"]
    assert pages["Alice"]["playing"][0]["time_control"] is None
    html = client.get("/players/Alice").text
    assert "Alice&#39;s move" in html or "Alice's move" in html
    # Each game in progress says against whom (a link to their page) and its clock.
    row = html.split('data-game="' + made["id"], 1)[1].split("</tr>", 1)[0]
    assert '<a href="/players/Bob">Bob</a>' in row and "<td>none</td>" in row
    assert eve["name"] not in str(pages)


def test_a_seat_claimed_from_the_lobby_attaches(client: TestClient) -> None:
    alice, bob = player(client, "Alice"), player(client, "Bob")
    made = client.post(
        "/api/games",
        json={"game": "tracks", "seats": [{"kind": "me"}, {"kind": "open"}]},
        headers={H: alice["key"]},
    ).json()
    claimed = client.post(f"/api/games/{made['id']}/claim/WE", headers={H: bob["key"]})
    assert claimed.status_code == 200
    assert client.get("/api/players/Bob").json()["playing"][0]["seat"] == "WE"


def test_guests_still_play_through_links(client: TestClient) -> None:
    made = new_game(client, "tracks", ["me", "invite"])
    stale = client.post(
        "/api/games",
        json={"game": "tracks", "seats": [{"kind": "me"}, {"kind": "invite"}]},
        headers={H: "a key this server never made"},
    )
    assert stale.status_code == 200  # a stale key is a guest's for an unrated game
    with socket_of(client, made["id"], token_of(made["mine"])) as ws:
        frame = ws.frame
        assert frame is not None and frame["you"] == "NS"
        ws.send(type="move", ref=1, move=frame["move"], action=frame["legal"][0])
        assert ws.answer(1)["type"] == "ack"
    rated = client.post(
        "/api/games",
        json={"game": "tracks", "seats": [{"kind": "me"}, {"kind": "invite"}], "rated": True},
    )
    assert rated.status_code == 400 and "rated game" in rated.json()["detail"]


def test_the_pages_of_players_exist(client: TestClient) -> None:
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/me").status_code == 200
    assert 'src="/static/players/player.js"' in client.get("/").text
    assert client.get("/static/players/player.js").status_code == 200


# -- the store, on SQLite and PostgreSQL ---------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: SQLite, or the test PostgreSQL database (skipped when unreachable)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    found: str = request.getfixturevalue("database")
    return found


def test_the_player_queries(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        await store.create_tables()
        now = [1000.0]
        players = Players(store, clock=lambda: now[0])
        try:
            dana, key = await players.create(f"Dana{id(now) % 1000}")
            assert (await players.by_key(key)) is not None
            with pytest.raises(NameTaken):
                await players.create(dana.name.upper())
            with pytest.raises(BadName):
                await players.rename(dana.id, "?")
            token, expires = await players.signin_link(dana.id)
            assert expires == now[0] + SIGNIN_SECONDS
            now[0] += 1  # the devices are listed oldest first
            again, key2 = await players.sign_in(token, "tablet")
            assert again.id == dana.id and key2 != key
            with pytest.raises(SigninError):
                await players.sign_in(token)
            late, _ = await players.signin_link(dana.id)
            now[0] += SIGNIN_SECONDS + 1
            with pytest.raises(SigninError, match="expired"):
                await players.sign_in(late)
            devices = await players.devices(dana.id)
            assert [d.device for d in devices] == ["a browser", "tablet"]
            assert await players.revoke(dana.id, devices[0].id)
            assert await players.by_key(key) is None
            assert await players.by_key(key2) is not None
        finally:
            await store.close()

    run(go())


def test_one_player_takes_one_seat_of_a_rated_game(client: TestClient) -> None:
    alice = player(client, "Alice")
    made = client.post(
        "/api/games",
        json={"game": "tracks", "seats": [{"kind": "me"}, {"kind": "invite"}], "rated": True},
        headers={H: alice["key"]},
    ).json()
    invited = next(link for link in made["links"].values() if link != made["mine"])
    url = f"/api/games/{made['id']}/player"
    mine = client.post(url, json={"token": token_of(made["mine"])}, headers={H: alice["key"]})
    assert mine.status_code == 200 and mine.json()["rated"] is True
    both = client.post(url, json={"token": token_of(invited)}, headers={H: alice["key"]})
    assert both.status_code == 409 and "different player at each seat" in both.json()["detail"]
    quiet = client.post(url, json={"token": token_of(invited), "refusal_in_body": True},
                        headers={H: alice["key"]})  # fmt: skip
    assert quiet.status_code == 200 and quiet.json()["seat"] is None
    assert "different player at each seat" in quiet.json()["refusal"]


def test_a_rematch_keeps_the_players_at_their_seats(tmp_path: Path) -> None:
    async def go() -> None:
        store = Store(sqlite_url(tmp_path, "rematch.db"))
        await store.create_tables()
        players = Players(store)
        try:
            (a, _), (b, _) = await players.create(), await players.create()
            request = NewGame(game="tracks", seats=[SeatChoice(kind="me"),
                              SeatChoice(kind="invite")], rated=True)  # fmt: skip
            made = await make_game(store, request, player=a.id)
            await players.store.seat_holders.attach(made.id, 1, b.id)
            again = await rematch(store, made.id)
            assert again != made.id
            assert await players.store.seat_holders.of_game(again) == {0: a.id, 1: b.id}
            assert (await store.load_game(again)).config["rated"] is True  # type: ignore[union-attr]
            with pytest.raises(InvalidOptionError, match="rated game"):
                await make_game(store, request)
        finally:
            await store.close()

    run(go())
