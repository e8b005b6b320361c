"""``taut db``: a server's database: where its schema stands, upgrades, backups, restores."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from taut.cli.common import EXIT_NOT_SAVED, console, fail
from taut.cli.serve import database_url

_DB = click.option(
    "--db",
    default=None,
    metavar="URL",
    help="Database: postgresql+asyncpg://USER@HOST/DB, or sqlite+aiosqlite:///FILE "
    "(default: taut.db in the data folder, see --data).",
)
_DATA = click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the default SQLite database (default: $TAUT_DATA or ~/.local/share/taut).",
)


@click.group(name="db", context_settings={"help_option_names": ["-h", "--help"]})
def db() -> None:
    """A server's database: its schema's version, upgrades, backups and restores.

    \b
    taut db status                      where the schema stands
    taut db upgrade                     bring an older database up to date
    taut db backup games.backup         a copy, taken while the server runs
    taut db restore games.backup --data NEW   put a copy back (stop the server first)

    Every command takes --db URL or --data FOLDER, as taut serve does.
    """


def _store(url: str):  # type: ignore[no-untyped-def]  # the server extra is optional
    try:
        from taut.server.store.games import Store
    except ImportError as exc:
        fail(f"the database needs the server extra (pip install 'taut[server]'): {exc}")
    return Store(url)


@db.command(name="status")
@_DB
@_DATA
def status(db: str | None, data: Path | None) -> None:
    """Say where the database's schema stands against this version of taut."""
    from taut.server.store.versions import SchemaError, standing

    url, where = database_url(db, data)

    async def look() -> str:
        store = _store(url)
        try:
            return (await standing(store)).describe
        finally:
            await store.close()

    try:
        console.print(f"{where}: {asyncio.run(look())}", markup=False, highlight=False)
    except SchemaError as exc:
        fail(f"{where}: {exc}")


@db.command(name="upgrade")
@_DB
@_DATA
@click.option(
    "--to",
    "target",
    default="head",
    show_default=True,
    metavar="REVISION",
    help="The revision to bring the schema to (head: this version's).",
)
def upgrade(db: str | None, data: Path | None, target: str) -> None:
    """Bring the database's schema up to this version of taut (a server does it itself
    when it starts, unless started with --no-upgrade). Back it up first."""
    from taut.server.store.versions import SchemaError
    from taut.server.store.versions import upgrade as upgraded

    url, where = database_url(db, data)

    async def run() -> str:
        store = _store(url)
        try:
            before, after = await upgraded(store, target)
        finally:
            await store.close()
        if before.revision == after.revision:
            return f"nothing to do: {after.describe}"
        was = before.revision or ("empty" if not before.tables else "before versions")
        return f"upgraded the schema from {was} to {after.revision}"

    try:
        console.print(f"{where}: {asyncio.run(run())}", markup=False, highlight=False)
    except SchemaError as exc:
        fail(f"{where}: {exc}")
    except Exception as exc:  # an unknown revision, a database that cannot be written
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        fail(f"cannot upgrade ({where}): {reason}", EXIT_NOT_SAVED)


@db.command(name="backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_DB
@_DATA
def backup(file: Path, db: str | None, data: Path | None) -> None:
    """Copy the database into FILE while the server runs (SQLite's online backup; on
    PostgreSQL, pg_dump's custom format). FILE is written whole or not at all."""
    from taut.server.store.backup import BackupError, backup_postgres, backup_sqlite

    url, where = database_url(db, data)
    try:
        if url.startswith("postgresql"):
            backup_postgres(url, file)
            console.print(f"backed up ({where}) into {file}", markup=False, highlight=False)
        else:
            games = backup_sqlite(url, file)
            console.print(
                f"backed up {games} game(s) ({where}) into {file}", markup=False, highlight=False
            )
    except BackupError as exc:
        fail(str(exc), EXIT_NOT_SAVED)


@db.command(name="restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_DB
@_DATA
@click.option(
    "--replace",
    is_flag=True,
    default=False,
    help="Replace a SQLite database that already holds games (stop its server first).",
)
def restore(file: Path, db: str | None, data: Path | None, replace: bool) -> None:
    """Put the backup FILE back into the database (a new data folder, or --db). Stop any
    server on that database first; the next server to start upgrades an older backup."""
    from taut.server.store.backup import BackupError, restore_postgres, restore_sqlite

    url, where = database_url(db, data)
    try:
        if url.startswith("postgresql"):
            restore_postgres(file, url)
            console.print(f"restored {file} ({where})", markup=False, highlight=False)
        else:
            games = restore_sqlite(file, url, replace=replace)
            console.print(
                f"restored {games} game(s) from {file} ({where})", markup=False, highlight=False
            )
    except BackupError as exc:
        fail(str(exc), EXIT_NOT_SAVED)
