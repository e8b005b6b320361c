"""Backups of a server's database, taken while it serves, and restoring them.

SQLite: SQLite's online backup API copies the database page by page into a new file from
a consistent snapshot (readers never wait in WAL mode, so the server keeps serving); the
copy is written beside its target and renamed into place only when whole. Restoring
copies a backup into a database file the same way; a server must not be serving that file
meanwhile, and a file that already holds games is replaced only when asked.

PostgreSQL: ``pg_dump --format=custom`` takes a consistent snapshot while the servers
run, and ``pg_restore --clean`` puts it back; both must be installed (they come with
PostgreSQL's client tools).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from taut.core.errors import TautError
from taut.server.store.database import sqlite_file_path

#: A table every taut database has.
GAMES_TABLE = "taut_games"


class BackupError(TautError):
    """A backup or a restore could not be made; what was there is left as it was."""


def _sqlite_path(url: str) -> Path:
    path = sqlite_file_path(url)
    if path is None:
        raise BackupError("a database in memory has nothing to back up")
    return Path(path)


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(r[0]) for r in rows}


def _games(conn: sqlite3.Connection) -> int:
    if GAMES_TABLE not in _tables(conn):
        return 0
    return int(conn.execute(f"SELECT count(*) FROM {GAMES_TABLE}").fetchone()[0])


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy ``source`` into a new file at ``target``, renamed into place when whole."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(partial)) as out:
            source.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")  # one file, whatever the source used
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot write {target}: {exc}") from None


def _open_existing(path: Path, what: str) -> sqlite3.Connection:
    if not path.is_file():
        raise BackupError(f"{what} {path} does not exist")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise BackupError(f"{what} {path} is not a SQLite database: {exc}") from None
    return conn


def backup_sqlite(url: str, target: Path) -> int:
    """Back up the SQLite database of ``url`` into ``target``; the games it holds."""
    source_path = _sqlite_path(url)
    with contextlib.closing(_open_existing(source_path, "the database")) as source:
        if GAMES_TABLE not in _tables(source):
            raise BackupError(f"{source_path} holds no taut database")
        games = _games(source)
        _copy(source, target)
    return games


def restore_sqlite(source_file: Path, url: str, replace: bool = False) -> int:
    """Restore the backup ``source_file`` into the SQLite database of ``url``; the games
    it holds. A database that already holds games is replaced only when ``replace``."""
    target = _sqlite_path(url)
    with contextlib.closing(_open_existing(source_file, "the backup")) as source:
        if GAMES_TABLE not in _tables(source):
            raise BackupError(f"{source_file} is not a backup of a taut database")
        if target.exists():
            with contextlib.closing(_open_existing(target, "the database")) as current:
                held = _games(current)
            if held and not replace:
                raise BackupError(
                    f"{target} already holds {held} game(s): restore into a new data folder, "
                    "or replace them with --replace (stop the server first)"
                )
        target.parent.mkdir(parents=True, exist_ok=True)
        for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):
            stale.unlink(missing_ok=True)  # the old database's log must not replay onto it
        _copy(source, target)
        return _games(source)


def _dsn(url: str) -> str:
    """A PostgreSQL URL as libpq's tools take it (no driver in the scheme)."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: it comes with PostgreSQL's client tools (Debian and "
            f"Ubuntu: apt install postgresql-client); {name} is what backs up and restores a "
            "PostgreSQL database"
        )
    return found


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise BackupError(f"{Path(command[0]).name} failed: {detail[-1] if detail else done}")


def backup_postgres(url: str, target: Path) -> None:
    """Back up the PostgreSQL database of ``url`` into ``target`` with ``pg_dump``."""
    partial = target.with_name(target.name + ".partial")
    try:
        _run([_tool("pg_dump"), "--format=custom", f"--file={partial}", _dsn(url)])
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def restore_postgres(source_file: Path, url: str) -> None:
    """Restore the ``pg_dump`` backup ``source_file`` into the database of ``url``."""
    if not source_file.is_file():
        raise BackupError(f"the backup {source_file} does not exist")
    _run(
        [
            _tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            f"--dbname={_dsn(url)}",
            str(source_file),
        ]
    )
