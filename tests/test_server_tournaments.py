"""Tournaments at ``taut serve``: made, entered and started through the API, the start
moved on by a made-up clock; rounds paired and their games made; games finished by
resigning (players) or by themselves (computer levels); the next round paired when a round
ends; standings; a restart in the middle; and every refusal a clear 4xx sentence."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from taut.core.registry import games
from taut.server.play.computer import Computer
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, make_game
from taut.server.players.accounts import Players
from taut.server.store.games import Store
from taut.server.tournaments.director import Tournaments
from taut.server.tournaments.form import NewTournament
from taut.server.web.app import create_app
from taut.server.web.settings import Settings
from tests.test_server_clocks import Clock
from tests.test_server_kit import run, socket_of, sqlite_url, token_of
from tests.test_server_postgres import database  # noqa: F401 (a fixture)

H = "X-Taut-Player"
#: A small, quick game of two seats.
GAME = {"game": "tracks", "options": {"size": 3}}


@contextlib.contextmanager
def served(folder: Path, clock: Clock) -> Iterator[TestClient]:
    """The application on a SQLite file in ``folder``, its store on ``clock``."""
    app = create_app(Settings(database=sqlite_url(folder), computer_workers=0))
    app.state.store.clock = clock
    with TestClient(app) as client:
        yield client


def player(client: TestClient) -> dict[str, str]:
    """A new player's header."""
    made = client.post("/api/players", json={})
    assert made.status_code == 201, made.text
    return {H: made.json()["key"]}


def create(client: TestClient, who: dict[str, str], clock: Clock, **body: Any) -> str:
    """A new tournament starting in a minute (it must be made); its id."""
    sent = {**GAME, "system": "round-robin", "starts_at": clock() + 60, **body}
    made = client.post("/api/tournaments", json=sent, headers=who)
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    return tournament_id


def shown(client: TestClient, tid: str, who: dict[str, str] | None = None) -> dict[str, Any]:
    """The tournament as its JSON route shows it (to ``who``)."""
    got = client.get(f"/api/tournaments/{tid}", headers=who or {})
    assert got.status_code == 200, got.text
    found: dict[str, Any] = got.json()
    return found


def wait_for(
    client: TestClient, tid: str, test: Callable[[dict[str, Any]], bool], wait: float = 30.0
) -> dict[str, Any]:
    """Look at the tournament until ``test`` passes (fails the test after ``wait`` s)."""
    deadline = time.monotonic() + wait
    while True:
        found = shown(client, tid)
        if test(found):
            return found
        assert time.monotonic() < deadline, f"the tournament did not get there: {found}"
        time.sleep(0.05)


def resign(client: TestClient, link: str) -> None:
    """Resign the seat a link opens, through the WebSocket."""
    game_id = link.split("/g/", 1)[1].split("#", 1)[0]
    with socket_of(client, game_id, token_of(link)) as ws:
        ws.send(type="resign", ref=1)
        assert ws.answer(1)["type"] == "ack"


def refused(answer: Any, status: int, *words: str) -> None:
    """``answer`` is a refusal with ``status`` whose sentence holds ``words``."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    sentence = str(body.get("detail") or body.get("error"))
    for word in words:
        assert word in sentence, sentence


def test_a_rated_round_robin_is_played_out_across_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        a, b = player(client), player(client)
        tid = create(client, a, clock, rated=True, name="Friday cup")
        assert client.post(f"/api/tournaments/{tid}/join", headers=a).status_code == 200
        assert client.post(f"/api/tournaments/{tid}/join", headers=b).status_code == 200
        added = client.post(f"/api/tournaments/{tid}/entrants", json={"level": "easy"}, headers=a)
        assert added.status_code == 200, added.text
        before = shown(client, tid)
        assert before["status"] == "open" and before["rounds"] == []
        assert [e["kind"] for e in before["entrants"]] == ["player", "player", "computer"]
        assert before["total_rounds"] == 3 and before["tiebreak"] == "Sonneborn-Berger"
        clock.skip(61)  # the start: the first request looks, whatever the timer does
        first = shown(client, tid, a)
        assert first["status"] == "playing" and first["round"] == 1
        listed = {t["id"]: t for t in client.get("/api/tournaments").json()}
        assert listed[tid]["name"] == "Friday cup" and listed[tid]["entrants"] == 3
    # A restart between rounds: the tournament and its games are in the store.
    with served(tmp_path, clock) as client:
        results = play_out(client, tid, [a, b])
        done = wait_for(client, tid, lambda t: t["status"] == "over")
        assert len(done["rounds"]) == 3
        pairs = [
            frozenset((x["first"]["name"], x["second"]["name"]))
            for r in done["rounds"]
            for x in r["boards"]
            if not x["bye"]
        ]
        assert len(pairs) == 3 == len(set(pairs))  # each pair once
        byes = [x["first"]["name"] for r in done["rounds"] for x in r["boards"] if x["bye"]]
        assert len(set(byes)) == 3
        # The player who resigns every game loses them; the other loses to the computer.
        points = {s["name"]: s["points"] for s in done["standings"]}
        assert points == results
        assert done["standings"][0]["name"] == "computer (easy)"
        # The player-against-player game counted for the ratings of both players.
        board = client.get("/api/leaderboard/tracks", params={"size": 3}).json()
        assert {e["name"] for e in board["entries"] if e["kind"] == "player"} == {
            n for n in points if not n.startswith("computer")
        }
        page = client.get(f"/t/{tid}").text
        assert "Friday cup" in page and "Sonneborn-Berger" in page and "watch" in page


def play_out(client: TestClient, tid: str, people: list[dict[str, str]]) -> dict[str, float]:
    """Play every round: the first of ``people`` resigns each game, the second resigns
    against the computer only and wins against the first. The points each should get."""
    names = [client.get("/api/me", headers=p).json()["name"] for p in people]
    for number in (1, 2, 3):
        found = wait_for(client, tid, lambda t, n=number: t["round"] == n)
        for who in people:
            mine = shown(client, tid, who)["rounds"][number - 1]["boards"]
            for board in mine:
                link = board["yours"]
                if link is None or board["result"] != "playing":
                    continue
                others = {board["first"]["name"], board["second"]["name"]}
                if who is people[0] or "computer (easy)" in others:
                    resign(client, link)
        assert found["rounds"][number - 1]["boards"][0]["game"].startswith("/g/")
    return {names[0]: 1.0, names[1]: 2.0, "computer (easy)": 3.0}  # each has a bye


def test_a_swiss_of_computers_pairs_no_rematch(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        a = player(client)
        tid = create(client, a, clock, system="swiss", rounds=3, time_control="10+5")
        for level in ("easy", "medium"):
            sent = client.post(f"/api/tournaments/{tid}/entrants", json={"level": level}, headers=a)
            assert sent.status_code == 200, sent.text
        assert client.post(f"/api/tournaments/{tid}/join", headers=a).status_code == 200
        clock.skip(61)
        for number in (1, 2, 3):
            found = wait_for(client, tid, lambda t, n=number: t["round"] >= n)
            for board in shown(client, tid, a)["rounds"][number - 1]["boards"]:
                if board["yours"] is not None and board["result"] == "playing":
                    resign(client, board["yours"])
        done = wait_for(client, tid, lambda t: t["status"] == "over")
        assert done["tiebreak"] == "Buchholz" and len(done["rounds"]) == 3
        pairs = [
            frozenset((x["first"]["name"], x["second"]["name"]))
            for r in done["rounds"]
            for x in r["boards"]
            if not x["bye"]
        ]
        assert len(pairs) == len(set(pairs)) == 3
        byes = [x["first"]["name"] for r in done["rounds"] for x in r["boards"] if x["bye"]]
        assert sorted(byes) == sorted(e["name"] for e in done["entrants"])
        # The computers' game ended by itself, with a result.
        computers = [
            x
            for r in done["rounds"]
            for x in r["boards"]
            if not x["bye"] and x["first"]["kind"] == x["second"]["kind"] == "computer"
        ]
        assert len(computers) == 1 and computers[0]["result"] in ("1-0", "½-½", "0-1")
        game_id = computers[0]["game"].split("/g/", 1)[1].split("#", 1)[0]
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["meta"]["clock"] == "10+5"  # the time control reaches every game
        total = sum(s["points"] for s in done["standings"])
        assert total == 3 + 3  # a point a game, and a point a bye
        assert found["status"] in ("playing", "over")


def test_a_tournament_without_entrants_ends_at_its_start(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        a = player(client)
        tid = create(client, a, clock)
        client.post(f"/api/tournaments/{tid}/join", headers=a)
        clock.skip(61)
        over = shown(client, tid)
        assert over["status"] == "over" and "fewer than two" in over["note"]


def test_bad_tournaments_and_entries_are_refused_clearly(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        a, b = player(client), player(client)
        post = client.post
        base = {**GAME, "system": "round-robin", "starts_at": clock() + 60}
        refused(post("/api/tournaments", json=base), 401, "X-Taut-Player")
        refused(
            post("/api/tournaments", json={**base, "game": "chess"}, headers=a),
            400,
            "no game called chess",
            "tracks",
        )
        four = {**base, "game": "push-pull", "options": {"variant": "four"}}
        refused(post("/api/tournaments", json=four, headers=a), 400, "two seats", "4")
        refused(
            post("/api/tournaments", json={**base, "options": {"size": -3}}, headers=a), 400, "size"
        )
        past = {**base, "starts_at": clock() - 10}
        refused(post("/api/tournaments", json=past, headers=a), 400, "in the past")
        swiss = {**base, "system": "swiss"}
        refused(post("/api/tournaments", json=swiss, headers=a), 400, "rounds")
        refused(post("/api/tournaments", json={**base, "rounds": 3}, headers=a), 400, "round robin")
        refused(post("/api/tournaments", json={**base, "system": "knockout"}, headers=a), 422)
        tid = create(client, a, clock)
        join = f"/api/tournaments/{tid}/join"
        assert post(join, headers=a).status_code == 200
        refused(post(join, headers=a), 409, "entered already")
        refused(post(join), 401)
        refused(post("/api/tournaments/nothing/join", headers=a), 404, "no such tournament")
        entrants = f"/api/tournaments/{tid}/entrants"
        refused(post(entrants, json={"level": "easy"}, headers=b), 403, "made the tournament")
        refused(post(entrants, json={"level": "master"}, headers=a), 422, "level")
        assert post(entrants, json={"level": "easy"}, headers=a).status_code == 200
        refused(post(entrants, json={"level": "easy"}, headers=a), 409, "computer (easy)")
        clock.skip(61)
        refused(post(join, headers=b), 409, "started")
        refused(client.get("/api/tournaments/nothing"), 404, "no such tournament")


def test_the_pages_show_the_list_and_the_standings(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        a = player(client)
        tid = create(client, a, clock, name="Spring open")
        listing = client.get("/tournaments")
        assert listing.status_code == 200 and 'href="/tournaments"' in listing.text
        page = client.get(f"/t/{tid}")
        assert page.status_code == 200 and "Spring open" in page.text
        assert client.get("/t/nothing").status_code == 404


def test_the_form_offers_each_game_with_defaults_and_presets_it_takes(tmp_path: Path) -> None:
    """The form's games, each with the defaults it shows and each preset it offers, make a
    tournament (two seats) as sent."""
    import html
    import json
    import re

    clock = Clock()
    with served(tmp_path, clock) as client:
        a = player(client)
        text = client.get("/tournaments").text
        found = re.search(
            r'<script type="application/json" id="entries">(.*?)</script>', text, re.S
        )
        assert found is not None
        entries = json.loads(html.unescape(found.group(1)))
        assert {e["name"] for e in entries} == set(games())
        for entry in entries:
            defaults = {o["name"]: o["default"] for o in entry["options"]}
            create(client, a, clock, game=entry["name"], options=defaults)
            for preset in entry["presets"]:
                create(
                    client, a, clock, game=entry["name"], options={**defaults, **preset["values"]}
                )


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: SQLite, or the test PostgreSQL database (skipped when unreachable)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    found: str = request.getfixturevalue("database")
    return found


def test_two_servers_start_a_round_once(url: str) -> None:
    async def go() -> None:
        clock = Clock()
        stores = [Store(url, clock) for _ in range(2)]
        await stores[0].create_tables()
        hubs = [Hub(s, Computer(0)) for s in stores]
        both = [Tournaments(s, h, Players(s)) for s, h in zip(stores, hubs, strict=True)]
        try:
            maker, _ = await Players(stores[0]).create()
            body = NewTournament.model_validate(
                {**GAME, "system": "round-robin", "starts_at": clock() + 60}
            )
            tid = await both[0].create(body, maker.id)
            for level in ("hard", "easy", "medium"):  # the first rests: a quick game
                assert await stores[0].tournaments.add_entrant(tid, f"computer:{level}") is None
            assert await stores[1].tournaments.add_entrant(tid, "computer:easy") == "entered"
            # Pairings from a stale list of entrants are not written.
            assert not await stores[0].tournaments.start_round(tid, 1, [("computer:easy", None)], 1)
            assert (await stores[1].tournaments.rows(tid))[0]["status"] == "open"
            assert (await stores[1].tournaments.entries(tid))[1] == []
            clock.skip(61)
            # Both servers notice the start at once: one pairs the round and makes its game.
            await asyncio.gather(*(t.advance(tid) for t in both))
            _, boards = await stores[1].tournaments.entries(tid)
            assert [(b["round"], b["second"] is None) for b in boards] == [(1, False), (1, True)]
            assert boards[0]["game_id"] is not None
            assert not await stores[0].tournaments.start_round(tid, 1, [("a", "b")], 3)
            assert await stores[1].tournaments.add_entrant(tid, "computer:late") == "started"
            assert await stores[1].tournaments.add_entrant("nothing", "computer:easy") == "missing"
        finally:
            for hub, store in zip(hubs, stores, strict=True):
                await hub.close()
                await store.close()

    run(go())


def test_the_live_page_hears_each_change_at_once(tmp_path: Path) -> None:
    """The tournament's socket sends it whole at first, then again at each change this
    process makes (an entrant, the first round paired): no waiting for a timer."""
    clock = Clock()
    with served(tmp_path, clock) as client:
        a = player(client)
        tid = create(client, a, clock)
        with client.websocket_connect(f"/api/tournaments/{tid}/live") as live:
            live.send_json({"key": a[H]})
            first = live.receive_json()
            assert first["status"] == "open" and first["standings"] == [] and first["mine"]
            started = time.monotonic()
            assert client.post(f"/api/tournaments/{tid}/join", headers=a).status_code == 200
            joined = live.receive_json()
            assert [s["name"] for s in joined["standings"]] == [
                shown(client, tid)["standings"][0]["name"]
            ]
            # Well within the second a person waits, far under the recheck's five.
            assert time.monotonic() - started < 1.0
            for level in ("easy", "medium"):
                answer = client.post(
                    f"/api/tournaments/{tid}/entrants", json={"level": level}, headers=a
                )
                assert answer.status_code == 200, answer.text
                assert len(live.receive_json()["standings"]) in (2, 3)
            clock.offset += 120  # past the start: the next look pairs round 1
            client.get(f"/api/tournaments/{tid}")
            paired = live.receive_json()
            while not paired["rounds"]:
                paired = live.receive_json()
            assert paired["status"] == "playing" and paired["rounds"][0]["round"] == 1
    # A tournament that is not there closes the socket saying so.
    with (
        served(tmp_path, clock) as client,
        client.websocket_connect("/api/tournaments/nope/live") as live,
    ):
        live.send_json({})
        with pytest.raises(WebSocketDisconnect) as closed:
            live.receive_json()
        assert closed.value.code == 4404


def test_a_game_end_asks_for_its_tournament_only_while_one_is_in_play(tmp_path: Path) -> None:
    """A server that holds no tournament in play asks the store nothing at a game's end; once
    one is in play (moved on here, or due at a tick) every end is looked up, and a board's
    end moves its tournament on at once; a tick that finds nothing due stops the asking."""

    async def go() -> None:
        clock = Clock()
        store = Store(sqlite_url(tmp_path), clock)
        await store.create_tables()
        hub = Hub(store, Computer(0))
        director = Tournaments(store, hub, Players(store))
        asked: list[str] = []
        moved: list[str] = []
        of_game = store.tournaments.of_game
        advance = director.advance

        async def counted_of_game(game_id: str) -> str | None:
            asked.append(game_id)
            return await of_game(game_id)

        async def counted_advance(tournament_id: str) -> None:
            moved.append(tournament_id)
            await advance(tournament_id)

        store.tournaments.of_game = counted_of_game  # type: ignore[method-assign]
        director.advance = counted_advance  # type: ignore[method-assign]
        try:
            seats = [{"kind": "me"}, {"kind": "invite"}]
            request = NewGame.model_validate({**GAME, "seats": seats})
            free = await hub.table((await make_game(store, request)).id)
            assert free is not None
            await director.game_over(free)
            assert asked == [], "a game's end was looked up with no tournament in play"

            maker, _ = await Players(store).create()
            body = NewTournament.model_validate(
                {**GAME, "system": "round-robin", "starts_at": clock() + 60}
            )
            tid = await director.create(body, maker.id)
            for level in ("easy", "medium"):
                assert await store.tournaments.add_entrant(tid, f"computer:{level}") is None
            clock.skip(61)
            await director.tick()  # due: started here
            assert moved == [tid]
            _, boards = await store.tournaments.entries(tid)
            board = await hub.table(boards[0]["game_id"])
            assert board is not None
            await director.game_over(free)
            await director.game_over(board)
            assert asked == [free.id, board.id]
            assert moved == [tid, tid], "a board's end did not move its tournament on"

            async def nothing_due(now: float) -> list[str]:
                return []

            store.tournaments.due = nothing_due  # type: ignore[method-assign]
            await director.tick()
            await director.game_over(free)
            assert asked == [free.id, board.id]
        finally:
            await hub.close()
            await store.close()

    run(go())
