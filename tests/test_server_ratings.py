"""Ratings: a rated game updates its players (and computer levels) once, as openskill's own
Plackett-Luce computes it, for two players, teams and many players; the leaderboard and
the player page as JSON; provisional ratings; pools from the plugin's hook.

The store-level tests run on SQLite and, where it can be reached, on the PostgreSQL at
127.0.0.1 (the database fixture of ``test_server_postgres``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from taut.core.registry import plugin
from taut.server.play.computer import Computer
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, SeatChoice, make_game
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players
from taut.server.players.ratings import COMPUTER, Rating, Ratings, ranks_of
from taut.server.store.games import Store
from tests.test_server_kit import (
    Bench,
    Person,
    app_client,
    play_out,
    run,
    socket_of,
    sqlite_url,
    token_of,
)
from tests.test_server_postgres import database  # noqa: F401 (a fixture)

H = "X-Taut-Player"


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: SQLite, or the test PostgreSQL database (skipped when unreachable)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    found: str = request.getfixturevalue("database")
    return found


@contextlib.asynccontextmanager
async def rated_bench(url: str, hooked: bool = True) -> AsyncIterator[tuple[Bench, Ratings]]:
    """A hub whose finished games are rated (unless not ``hooked``), on ``url``."""
    store = Store(url)
    await store.create_tables()
    hub = Hub(store, Computer(0))
    ratings = Ratings(store, Players(store))
    if hooked:
        hub.when_over.append(ratings.settle)
    try:
        yield Bench(store, hub, random.Random(7)), ratings
    finally:
        await hub.settle()
        await hub.close()
        await store.close()


async def new_players(ratings: Ratings, count: int) -> list[str]:
    """``count`` new players' ids (names unique across test runs on one database)."""
    out = []
    for _ in range(count):
        made, _ = await ratings.players.create()
        out.append(made.id)
    return out


async def play_rated(
    bench: Bench,
    ratings: Ratings,
    game: str,
    seats: Sequence[str],
    options: dict[str, Any] | None = None,
    attach: bool = True,
) -> GameTable:
    """Make a rated game (``seats``: player ids, or levels), attach the players (unless
    not ``attach``: then only the maker's seat) and play it out at random."""
    levels = ("easy", "medium", "hard")
    kinds = ["me" if i == 0 else "invite" for i in range(len(seats))]
    kinds = [s if s in levels else k for s, k in zip(seats, kinds, strict=True)]
    request = NewGame(
        game=game,
        options=options or {},
        seats=[SeatChoice(kind=k) for k in kinds],  # type: ignore[arg-type]
        rated=True,
    )
    made = await make_game(bench.store, request, seed=bench.rng.randrange(2**62), player=seats[0])
    for i, who in enumerate(seats):
        if i > 0 and who not in levels and attach:
            await ratings.store.seat_holders.attach(made.id, i, who)
    people = [await bench.join(made.id, i) for i, who in enumerate(seats) if who not in levels]
    await bench.play(people, nodes=3000)
    await bench.quiet()
    table = bench.hub.tables[made.id]
    assert table.state.is_terminal()
    return table


def expected(table: GameTable, teams: list[list[tuple[float, float]]]) -> list[list[Any]]:
    """openskill's own update of ``teams`` (``(mu, sigma)``) ranked by the game's returns."""
    model = PlackettLuce()
    returns = table.state.returns()
    scores = [returns[team[0]] for team in table.game.teams()]
    order = sorted(set(scores), reverse=True)
    ranks: list[float] = [order.index(s) + 1 for s in scores]  # dense: the order counts
    rated: list[list[Any]] = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks
    )
    return rated


async def rating(ratings: Ratings, table: GameTable, subject: str) -> Rating:
    """``subject``'s rating in the pool of ``table``'s game."""
    pool = table.plugin.rating_pool(table.game)
    board = {r.subject: r for r in await ratings.board(table.plugin.name, pool)}
    return board[subject]


def test_a_rated_game_updates_both_players_once(url: str) -> None:
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            a, b = await new_players(ratings, 2)
            table = await play_rated(bench, ratings, "tracks", [a, b], {"size": 4})
            [[ea], [eb]] = expected(table, [[(25.0, 25 / 3)], [(25.0, 25 / 3)]])
            for who, want in ((a, ea), (b, eb)):
                got = await rating(ratings, table, who)
                assert got.games == 1
                assert got.mu == pytest.approx(want.mu) and got.sigma == pytest.approx(want.sigma)
            counted = await ratings.outcome(table.id)
            assert counted is not None and counted["rated"] and len(counted["changes"]) == 2
            # The end processed again, here or by a restarted server: nothing changes.
            assert await ratings.record(table) is False
            await ratings.settle(table)
            again = Hub(bench.store, Computer(0))
            again.when_over.append(ratings.settle)
            assert await again.table(table.id) is not None
            await again.settle()
            await again.close()
            assert (await rating(ratings, table, a)).games == 1
            assert (await rating(ratings, table, a)).mu == pytest.approx(ea.mu)

    run(go())


def test_two_servers_counting_one_end_count_it_once(url: str) -> None:
    async def go() -> None:
        async with rated_bench(url, hooked=False) as (bench, ratings):
            a, b = await new_players(ratings, 2)
            table = await play_rated(bench, ratings, "tracks", [a, b], {"size": 3})
            assert await ratings.outcome(table.id) is None  # no hook: not counted yet
            other = Store(url)
            try:
                second = Ratings(other, Players(other))
                done = await asyncio.gather(ratings.record(table), second.record(table))
            finally:
                await other.close()
            assert sorted(done) == [False, True]
            assert (await rating(ratings, table, a)).games == 1
            assert (await rating(ratings, table, b)).games == 1

    run(go())


def test_computer_levels_are_rated_as_pseudo_players(url: str) -> None:
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            [a] = await new_players(ratings, 1)
            table = await play_rated(bench, ratings, "tracks", [a, "easy"], {"size": 3})
            [[ea], [ee]] = expected(table, [[(25.0, 25 / 3)], [(25.0, 25 / 3)]])
            level = await rating(ratings, table, COMPUTER + "easy")
            assert level.games == 1 and level.mu == pytest.approx(ee.mu)
            assert (await rating(ratings, table, a)).mu == pytest.approx(ea.mu)
            pool = table.plugin.rating_pool(table.game)
            entries = await ratings.named(await ratings.board("tracks", pool))
            computer = next(e for e in entries if e["kind"] == "computer")
            assert computer["name"] == "computer (easy)" and computer["level"] == "easy"

    run(go())


def test_teams_are_rated_as_openskill_rates_teams(url: str) -> None:
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            people = await new_players(ratings, 4)
            options = {"variant": "four-teams", "max_turns": 12}
            table = await play_rated(bench, ratings, "push-pull", people, options)
            teams = table.game.teams()
            assert [len(t) for t in teams] == [2, 2]
            fresh = (25.0, 25 / 3)
            want = expected(table, [[fresh, fresh], [fresh, fresh]])
            for team, new in zip(teams, want, strict=True):
                for seat, r in zip(team, new, strict=True):
                    got = await rating(ratings, table, people[seat])
                    assert got.mu == pytest.approx(r.mu) and got.sigma == pytest.approx(r.sigma)

    run(go())


def test_many_players_are_rated_as_openskill_rates_them(url: str) -> None:
    async def go() -> None:
        async with rated_bench(url) as (bench, ratings):
            people = await new_players(ratings, 3)
            options = {"players": 3, "end": "rounds", "rounds": 1}
            table = await play_rated(bench, ratings, "tug-of-war", people, options)
            fresh = (25.0, 25 / 3)
            want = expected(table, [[fresh], [fresh], [fresh]])
            for seat, [r] in enumerate(want):
                got = await rating(ratings, table, people[seat])
                assert got.mu == pytest.approx(r.mu) and got.sigma == pytest.approx(r.sigma)
            # A second game starts from the first one's ratings.
            before = [await rating(ratings, table, p) for p in people]
            second = await play_rated(bench, ratings, "tug-of-war", people, options)
            want = expected(second, [[(r.mu, r.sigma)] for r in before])
            for seat, [r] in enumerate(want):
                got = await rating(ratings, table, people[seat])
                assert got.games == 2 and got.mu == pytest.approx(r.mu)

    run(go())


def test_a_rated_game_with_a_seat_no_player_holds_is_not_rated(tmp_path: Path) -> None:
    async def go() -> None:
        async with rated_bench(sqlite_url(tmp_path)) as (bench, ratings):
            a, b = await new_players(ratings, 2)
            table = await play_rated(bench, ratings, "tracks", [a, b], {"size": 3}, attach=False)
            counted = await ratings.outcome(table.id)
            assert counted is not None and not counted["rated"]
            assert "seat WE" in counted["note"] and "signed-in player" in counted["note"]
            assert await ratings.of(a) == []

    run(go())


def test_one_player_on_two_sides_is_not_rated(tmp_path: Path) -> None:
    async def go() -> None:
        async with rated_bench(sqlite_url(tmp_path)) as (bench, ratings):
            [a] = await new_players(ratings, 1)
            table = await play_rated(bench, ratings, "tracks", [a, a], {"size": 3})
            counted = await ratings.outcome(table.id)
            assert counted is not None and "two sides" in counted["note"]

    run(go())


def test_provisional_ratings_are_flagged() -> None:
    assert Rating("x", 30.0, 5.0, 4).provisional  # too few games
    assert Rating("x", 30.0, 7.0, 50).provisional  # too uncertain
    settled = Rating("x", 30.0, 5.0, 5)
    assert not settled.provisional
    assert settled.rating == pytest.approx(15.0)
    assert settled.to_json() == {
        "mu": 30.0, "sigma": 5.0, "rating": 15.0, "games": 5, "provisional": False,
    }  # fmt: skip


def test_ranks_share_places_on_equal_returns() -> None:
    assert ranks_of([1.0, -1.0]) == [1, 2]
    assert ranks_of([0.0, 0.0]) == [1, 1]
    assert ranks_of([3.0, 5.0, 3.0]) == [2, 1, 2]


def test_pools_come_from_the_options() -> None:
    found = plugin("push-pull")
    duel = found.rating_pool(found.game_class())
    teams = found.rating_pool(found.game_class(variant="four-teams"))
    assert duel != teams
    assert "variant=duel" in duel and "variant=four-teams" in teams
    assert duel == found.rating_pool(found.game_class(variant="duel"))


def rated_game_played(client: TestClient) -> dict[str, Any]:
    """Alice and <b>Bob play a rated 2x2 Track Tiles game to its end; the game made."""
    keys = {}
    for name in ("Alice", "<b>Bob"):
        answer = client.post("/api/players", json={"name": name})
        assert answer.status_code == 201
        keys[name] = answer.json()["key"]
    made = client.post(
        "/api/games",
        json={"game": "tracks", "options": {"size": 2}, "rated": True,
              "seats": [{"kind": "me"}, {"kind": "invite"}]},
        headers={H: keys["Alice"]},
    ).json()  # fmt: skip
    invited = next(link for link in made["links"].values() if link != made["mine"])
    taken = client.post(
        f"/api/games/{made['id']}/player",
        json={"token": token_of(invited)},
        headers={H: keys["<b>Bob"]},
    )
    assert taken.status_code == 200, taken.text
    rng = random.Random(3)
    with (
        socket_of(client, made["id"], token_of(made["mine"])) as one,
        socket_of(client, made["id"], token_of(invited)) as two,
    ):
        people = [Person(one, made["id"], rng), Person(two, made["id"], rng)]
        play_out(people)
    return made


def test_the_leaderboard_and_the_player_page_as_json(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        rated_game_played(client)
        board: dict[str, Any] = {}
        for _ in range(200):  # the rating is written just after the last move
            board = client.get("/api/leaderboard/tracks?size=2").json()
            if len(board["entries"]) == 2:
                break
        assert board["game"] == "tracks" and "size=2" in board["pool"]
        assert [e["rank"] for e in board["entries"]] == [1, 2]
        for entry in board["entries"]:
            assert set(entry) == {
                "rank", "name", "kind", "level", "page", "mu", "sigma", "rating", "games",
                "provisional",
            }  # fmt: skip
            assert entry["games"] == 1 and entry["provisional"] is True
            assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"])
        assert {e["name"] for e in board["entries"]} == {"Alice", "<b>Bob"}
        assert client.get("/api/leaderboard/tracks").json()["entries"] == []  # another pool
        page = client.get("/leaderboard/tracks?size=2")
        assert page.status_code == 200 and "&lt;b&gt;Bob" in page.text and "<b>Bob" not in page.text
        alice = client.get("/api/players/Alice").json()
        assert set(alice) == {
            "id", "name", "page", "playing", "finished", "finished_count", "finished_page",
            "finished_more", "ratings",
        }  # fmt: skip
        [game] = alice["finished"]
        assert game["result"] in ("won", "lost", "drew") and game["rated"] is True
        assert game["rating"]["rated"] is True and game["rating"]["change"]["mu"] > 0
        [r] = alice["ratings"]
        assert r["game"] == "tracks" and r["games"] == 1 and r["provisional"] is True
        assert r["leaderboard"].startswith("/leaderboard/tracks?")
        assert client.get(r["leaderboard"]).status_code == 200
        assert client.get("/players/Alice").status_code == 200
        # One rating everywhere, the displayed one (mu - 3 sigma): the game's before and
        # after, the player's table and the leaderboard agree; mu and sigma only in details.
        change = game["rating"]["change"]
        before = change["mu_before"] - 3 * change["sigma_before"]
        after = change["mu"] - 3 * change["sigma"]
        html = client.get("/players/Alice").text
        assert f"{before:.1f} &rarr; {after:.1f}" in html
        assert f"{r['rating']:.1f}" in html and f"{after:.1f}" == f"{r['rating']:.1f}"
        assert f"{change['mu']:.1f} &rarr;" not in html or change["mu"] == after
        # Pools in words: the options that differ from the defaults, not the stored string.
        assert r["pool_words"] == board["pool_words"] == "Board size: 2"
        assert r["pool"] not in html and "Board size: 2" in html
        leader = client.get("/leaderboard/tracks?size=2").text
        assert "Rules: Board size: 2." in leader and r["pool"] not in leader
        assert leader.index("How the ratings are made") < leader.index("&mu; ")
        bad = client.get("/api/leaderboard/tracks?size=99")
        assert bad.status_code == 400 and "size" in bad.json()["detail"]
        assert client.get("/api/leaderboard/no-such-game").status_code == 404
