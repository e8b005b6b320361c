"""The database over time: versions of the schema, upgrades of databases that earlier
releases wrote, a newer database refused untouched, backups taken while a server runs and
restored into a new data folder (``taut db``), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import shutil
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner

from taut.cli import cli
from taut.server.store import versions
from taut.server.store.games import Store
from taut.server.store.schema import metadata
from taut.server.store.versions import SchemaTooNew, standing, upgrade
from tests.test_server_kit import Remote, Served, play_remote, run, start_server, token_of
from tests.test_server_postgres import _admin

OLD = Path(__file__).parent / "old_databases"
RELEASES = ["first-browser", "before-players", "before-tournaments"]


def old_database(tmp_path: Path, release: str) -> tuple[str, Path, dict[str, Any]]:
    """A copy of an earlier release's database: its URL, its file, what it holds."""
    folder = tmp_path / release
    folder.mkdir()
    path = folder / "taut.db"
    shutil.copy(OLD / f"{release}.db", path)
    return f"sqlite+aiosqlite:///{path}", path, json.loads((OLD / f"{release}.json").read_text())


def schema_differences(url: str) -> list[Any]:
    """How the database's tables differ from the code's (empty: the same)."""

    def compare(connection: Any) -> list[Any]:
        context = MigrationContext.configure(connection)
        found = compare_metadata(context, metadata)
        return [d for d in found if versions.VERSION_TABLE not in repr(d)]

    async def go() -> list[Any]:
        store = Store(url)
        try:
            async with store.reader.connect() as conn:
                return await conn.run_sync(compare)
        finally:
            await store.close()

    return run(go())


def contents(path: Path) -> str:
    """Everything a SQLite database holds, as SQL (its journal mode aside)."""
    with sqlite3.connect(path) as db:
        return "\n".join(db.iterdump())


def get(served: Served, path: str, key: str | None = None) -> Any:
    """GET JSON (with a player's key)."""
    headers = {"X-Taut-Player": key} if key else {}
    request = urllib.request.Request(served.base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def invoke(*args: str) -> Any:
    """Run ``taut ARGS`` in this process."""
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("release", RELEASES)
def test_a_database_an_earlier_release_wrote_is_upgraded_and_played_on(
    tmp_path: Path, release: str
) -> None:
    url, _, held = old_database(tmp_path, release)
    before = run(_standing(url))
    assert before.revision is None and before.tables > 0 and not before.current
    assert schema_differences(url), "the old database already has today's schema"
    served = start_server(url, tmp_path / "serve.log")  # upgrades at its start
    try:
        assert run(_standing(url)).current
        assert schema_differences(url) == []
        record = get(served, f"/api/games/{held['finished']['id']}/record")
        assert record["result"] is not None and record["moves"]
        going = held["going"]
        people = [
            Remote(served, going["id"], token, random.Random(i))
            for i, token in enumerate(going["tokens"].values())
        ]

        async def play_on() -> None:
            for person in people:
                frame = await person.connect()
                assert frame["move"] == going["move"]
            await play_remote(people)
            assert people[0].frame["phase"] == "over"
            for person in people:
                await person.close()

        run(play_on())
        if "players" in held:
            ann = get(served, "/api/me", key=held["players"]["Ann"])
            assert ann["name"] == "Ann"
            page = get(served, "/api/players/Ann")
            assert page["ratings"] and page["finished_count"] == 1
    finally:
        served.stop()
    assert "upgraded the schema from before versions" in (tmp_path / "serve.log").read_text()


async def _standing(url: str) -> versions.Standing:
    store = Store(url)
    try:
        return await standing(store)
    finally:
        await store.close()


def test_taut_db_upgrade_says_what_it_did_and_is_idempotent(tmp_path: Path) -> None:
    url, _, _ = old_database(tmp_path, "before-players")
    status = invoke("db", "status", "--db", url)
    assert status.exit_code == 0 and "before the schema had versions" in status.output
    first = invoke("db", "upgrade", "--db", url)
    assert first.exit_code == 0, first.output
    assert f"from before versions to {versions.head()}" in first.output
    again = invoke("db", "upgrade", "--db", url)
    assert again.exit_code == 0 and "nothing to do" in again.output
    assert schema_differences(url) == []


def test_serve_with_no_upgrade_refuses_an_old_database_and_names_the_command(
    tmp_path: Path,
) -> None:
    url, path, _ = old_database(tmp_path, "first-browser")
    was = contents(path)
    refused = invoke("serve", "--db", url, "--no-upgrade", "--workers", "0")
    assert refused.exit_code != 0
    assert "taut db upgrade --db" in refused.output and "made before" in refused.output
    assert contents(path) == was


THROWAWAY = '''"""A column added to a table that exists (a throw-away revision of the tests)."""

import sqlalchemy as sa
from alembic import op

revision = "9001"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("taut_players") as batch:
        batch.add_column(sa.Column("motto", sa.String(40), nullable=False, server_default="hi"))
    with op.batch_alter_table("taut_events") as batch:
        batch.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("taut_events") as batch:
        batch.drop_column("note")
    with op.batch_alter_table("taut_players") as batch:
        batch.drop_column("motto")
'''


def test_a_new_column_in_an_existing_table_carries_every_row_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, path, held = old_database(tmp_path, "before-tournaments")
    with sqlite3.connect(path) as db:
        tables = ("taut_players", "taut_events", "taut_ratings", "taut_games")
        counts = {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    later = tmp_path / "migrations"
    shutil.copytree(versions.MIGRATIONS, later)
    (later / "versions" / "9001_motto.py").write_text(THROWAWAY.format(head=versions.head()))
    monkeypatch.setattr(versions, "MIGRATIONS", later)

    async def go() -> tuple[versions.Standing, versions.Standing]:
        store = Store(url)
        try:
            done = await upgrade(store)
            game = await store.load_game(held["going"]["id"])
            assert game is not None and game.status == "playing"
            return done
        finally:
            await store.close()

    before, after = run(go())
    assert before.revision is None and after.revision == "9001"
    with sqlite3.connect(path) as db:
        for table, count in counts.items():
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == count, table
        mottos = {r[0] for r in db.execute("SELECT motto FROM taut_players")}
        names = {r[0] for r in db.execute("SELECT name FROM taut_players")}
    assert mottos == {"hi"} and names == {"Ann", "Bob"}

    # The code without that revision: the database is newer than it, and left untouched.
    monkeypatch.setattr(
        versions, "MIGRATIONS", OLD.parent.parent / "src/taut/server/store/migrations"
    )
    was = contents(path)
    with pytest.raises(SchemaTooNew, match="written by a newer taut"):
        run(_standing(url))
    refused = invoke("serve", "--db", url, "--workers", "0")
    assert refused.exit_code != 0 and "newer taut" in refused.output
    upgrading = invoke("db", "upgrade", "--db", url)
    assert upgrading.exit_code != 0 and "newer taut" in upgrading.output
    assert contents(path) == was


def test_a_backup_taken_mid_game_is_restored_into_a_new_folder_and_played_on(
    tmp_path: Path,
) -> None:
    first = tmp_path / "first"
    first.mkdir()
    url = f"sqlite+aiosqlite:///{first / 'taut.db'}"
    backup = tmp_path / "games.backup"
    served = start_server(url, tmp_path / "serve.log")
    try:
        made = served.post("/api/games", {"game": "tracks", "options": {"size": 3},
                           "seats": [{"kind": "me"}, {"kind": "easy"}]})  # fmt: skip
        person = Remote(served, made["id"], token_of(made["mine"]), random.Random(3))

        async def part(until: int | None) -> int:
            await person.connect()
            await play_remote([person], until=until)
            move = int(person.frame["move"])
            await person.close()
            return move

        at_backup = run(part(2))
        taken = invoke("db", "backup", str(backup), "--data", str(first))
        assert taken.exit_code == 0 and "backed up 1 game(s)" in taken.output, taken.output
        assert run(part(None)) > at_backup  # the server served on meanwhile, to the end
    finally:
        served.stop()
    second = tmp_path / "second"
    restored = invoke("db", "restore", str(backup), "--data", str(second))
    assert restored.exit_code == 0 and "restored 1 game(s)" in restored.output, restored.output
    again = invoke("db", "restore", str(backup), "--data", str(second))
    assert again.exit_code != 0 and "already holds 1 game(s)" in again.output
    served = start_server(f"sqlite+aiosqlite:///{second / 'taut.db'}", tmp_path / "serve2.log")
    try:
        person = Remote(served, made["id"], token_of(made["mine"]), random.Random(4))

        async def play_on() -> None:
            frame = await person.connect()
            assert frame["move"] == at_backup and frame["phase"] != "over"
            await play_remote([person])
            assert person.frame["phase"] == "over"
            await person.close()

        run(play_on())
    finally:
        served.stop()


def test_backup_and_restore_refuse_what_they_cannot_use(tmp_path: Path) -> None:
    missing = invoke("db", "restore", str(tmp_path / "nothing"), "--data", str(tmp_path / "a"))
    assert missing.exit_code != 0 and "does not exist" in missing.output
    junk = tmp_path / "junk"
    junk.write_text("not a database")
    bad = invoke("db", "restore", str(junk), "--data", str(tmp_path / "b"))
    assert bad.exit_code != 0 and "not a SQLite database" in bad.output
    empty = invoke("db", "backup", str(tmp_path / "x"), "--data", str(tmp_path / "c"))
    assert empty.exit_code != 0 and "does not exist" in empty.output
    assert not (tmp_path / "x").exists()


@pytest.fixture
def postgres() -> Any:
    """Two fresh PostgreSQL databases (dropped after), as SQLAlchemy URLs."""
    pytest.importorskip("asyncpg")
    names = [f"taut_db_{secrets.token_hex(4)}" for _ in range(2)]
    try:
        for name in names:
            run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError) as exc:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 cannot be reached ({exc})")
    except Exception as exc:  # asyncpg's own errors: refused, no such role, ...
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 cannot be used ({exc})")
    try:
        yield [f"postgresql+asyncpg://postgres@127.0.0.1/{name}" for name in names]
    finally:
        for name in names:
            run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_on_postgres_servers_upgrading_at_once_upgrade_once_and_backups_restore(
    postgres: list[str], tmp_path: Path
) -> None:
    from taut.server.play.making import NewGame, SeatChoice, make_game

    first, second = postgres

    async def race() -> list[tuple[versions.Standing, versions.Standing]]:
        stores = [Store(first) for _ in range(3)]
        try:
            return list(await asyncio.gather(*(upgrade(s) for s in stores)))
        finally:
            for s in stores:
                await s.close()

    done = run(race())
    assert sum(1 for before, _ in done if not before.current) == 1  # the others waited
    assert all(after.current for _, after in done)
    assert schema_differences(first) == []
    # The commands on PostgreSQL: the second database is empty, upgraded, then current.
    empty = invoke("db", "status", "--db", second)
    assert empty.exit_code == 0 and "empty" in empty.output, empty.output
    made = invoke("db", "upgrade", "--db", second)
    assert made.exit_code == 0 and f"from empty to {versions.head()}" in made.output
    again = invoke("db", "upgrade", "--db", second)
    assert again.exit_code == 0 and "nothing to do" in again.output

    async def a_game() -> tuple[str, int]:
        store = Store(first)
        try:
            seats = [SeatChoice(kind="me"), SeatChoice(kind="easy")]
            request = NewGame(game="tracks", options={"size": 3}, seats=seats)
            made = await make_game(store, request)
            return made.id, len(await store.events_after(made.id, -1))
        finally:
            await store.close()

    game_id, events = run(a_game())
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed: the backup half cannot run")
    backup = tmp_path / "games.dump"
    taken = invoke("db", "backup", str(backup), "--db", first)
    assert taken.exit_code == 0 and backup.stat().st_size > 0, taken.output
    restored = invoke("db", "restore", str(backup), "--db", second)
    assert restored.exit_code == 0, restored.output

    async def read_back() -> int:
        store = Store(second)
        try:
            assert (await standing(store)).current
            return len(await store.events_after(game_id, -1))
        finally:
            await store.close()

    assert run(read_back()) == events
