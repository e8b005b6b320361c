"""``taut serve`` (the browser front end) and ``taut verify`` (check a served game's record)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from taut.cli.common import EXIT_NOT_SAVED, console, err_console, fail


def data_dir() -> Path:
    """Where the server keeps its SQLite file: ``$TAUT_DATA``, else the user's data folder."""
    if os.environ.get("TAUT_DATA"):
        return Path(os.environ["TAUT_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "taut"


def database_url(db: str | None, data: Path | None) -> tuple[str, str]:
    """The database a command works on: ``db`` (a URL), else ``taut.db`` in the data folder
    (made if missing); and a phrase saying where it is, for messages."""
    if db is not None:
        return db, f"the database is {db.split('@')[-1]}"
    folder = data if data is not None else data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot make the data folder {folder}: {exc.strerror or exc}")
    path = folder / "taut.db"
    return f"sqlite+aiosqlite:///{path}", f"the database is {path}"


@click.command(name="serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--db",
    default=None,
    metavar="URL",
    help="Database: postgresql+asyncpg://USER@HOST/DB, or sqlite+aiosqlite:///FILE "
    "(default: taut.db in the data folder, see --data).",
)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the default SQLite database (default: $TAUT_DATA or ~/.local/share/taut).",
)
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=2,
    show_default=True,
    help="Processes that choose the computer's moves (0: threads).",
)
@click.option(
    "--processes",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes sharing the address (more than 1 needs a PostgreSQL --db: the "
    "processes hear each other's moves through it).",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    metavar="URL",
    help="Another origin whose pages may connect (repeatable); the server's own always may.",
)
@click.option(
    "--vendor",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of MediaPipe Hands for signing to the camera, as make vendor fills it "
    "(default: build/vendor here or in the repository; without it the camera is off).",
)
@click.option(
    "--compress",
    type=click.Choice(["large", "all", "none"]),
    default="large",
    show_default=True,
    help="WebSocket compression, for the browsers that ask for it (all do): large "
    "compresses messages of 8 KB or more only (pictures sent whole; a game's frames, a "
    "few kilobytes at most, go plain), all compresses every message (fewest bytes, about "
    "15 µs more CPU a message), none sends every message plain.",
)
@click.option(
    "--no-upgrade",
    is_flag=True,
    default=False,
    help="Refuse to start on a database an older taut made, instead of upgrading it (then "
    "run taut db upgrade yourself, after a backup).",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    data: Path | None,
    workers: int,
    processes: int,
    origins: tuple[str, ...],
    vendor: Path | None,
    compress: str,
    no_upgrade: bool,
) -> None:
    """Play in the browser: every game, against friends through links or the computer.

    Open the printed address. Moves are kept in a database (SQLite by default); several
    servers on one PostgreSQL database serve the same games, and --processes N starts N
    of them on one address (the system deals the connections between them).
    """
    try:
        import uvicorn

        from taut.server.web.app import create_app
        from taut.server.web.collector import tune_for_serving
        from taut.server.web.deflate import uvicorn_options
        from taut.server.web.settings import Settings, mediapipe_folder
    except ImportError as exc:
        fail(f"the server needs the server extra (pip install 'taut[server]'): {exc}")
    if vendor is not None and mediapipe_folder(vendor) is None:
        fail(
            f"--vendor {vendor}: no MediaPipe Hands there; give the folder make vendor fills "
            "(build/vendor) or the @mediapipe/hands package folder (the one with hands.js)"
        )
    db, where = database_url(db, data)
    if processes > 1 and not db.startswith("postgresql"):
        raise click.BadParameter(
            f"{processes} processes need a PostgreSQL database (--db postgresql+asyncpg://"
            "USER@HOST/DB): on SQLite a process would not hear the others' moves",
            param_hint="--processes",
        )
    _check_database(db, where)
    _check_schema(db, where, upgrade=not no_upgrade)
    settings = Settings(database=db, origins=origins, computer_workers=workers, vendor=vendor)
    if processes > 1:
        _serve_processes(settings, host, port, processes, where, compress)
        return
    app = create_app(settings)
    if app.state.mediapipe is None:
        err_console.print(
            "MediaPipe Hands is not installed (make vendor installs it): signing to the "
            "camera is unavailable; the pages say so and offer the palette.",
            markup=False,
            highlight=False,
        )
    console.print(f"taut serves on http://{host}:{port} ({where}); Ctrl-C stops it.")
    tune_for_serving()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=16_384,
        **uvicorn_options(compress),
    )


def _serve_processes(
    settings: Any, host: str, port: int, processes: int, where: str, compress: str
) -> None:
    """Serve with ``processes`` processes on one listening socket (uvicorn's workers),
    each building the application from ``settings`` passed in the environment, their
    WebSockets compressed as ``compress`` says."""
    import uvicorn

    from taut.server.web.deflate import uvicorn_options
    from taut.server.web.settings import SETTINGS_VARIABLE, settings_to_text

    os.environ[SETTINGS_VARIABLE] = settings_to_text(settings)
    console.print(
        f"taut serves on http://{host}:{port} with {processes} processes ({where}); "
        "Ctrl-C stops them."
    )
    uvicorn.run(
        "taut.server.web.app:create_app_from_environment",
        factory=True,
        workers=processes,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=16_384,
        **uvicorn_options(compress),
    )


def _check_database(url: str, where: str) -> None:
    """Make the tables and take a write lock once before serving, so that a database the
    server cannot write (a read-only or full file system, a server that is not there) is
    refused with a message at once, not found out by the first player's move."""
    import asyncio

    from taut.server.store.games import Store

    async def ready() -> None:
        store = Store(url)
        try:
            await store.create_tables()
            await store.probe_write()
        finally:
            await store.close()

    try:
        if url.startswith("sqlite"):
            # The standard driver, in this thread: the asynchronous one would report a
            # failed connection again from its own thread after the loop is gone.
            _check_sqlite(url.split(":///", 1)[-1])
        else:
            asyncio.run(ready())
    except Exception as exc:  # any driver's error: the server cannot keep games there
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        fail(f"cannot keep games in the database ({where}): {reason}", EXIT_NOT_SAVED)


def _check_schema(url: str, where: str, upgrade: bool) -> None:
    """Bring an older database's schema up to date before serving (or refuse, when asked
    not to upgrade); refuse a database that a newer taut wrote, leaving it untouched."""
    import asyncio

    from taut.server.store.games import Store
    from taut.server.store.versions import SchemaError, standing
    from taut.server.store.versions import upgrade as upgraded

    async def check() -> str | None:
        store = Store(url)
        try:
            found = await standing(store)
            if found.current:
                return None
            if not upgrade and found.tables:
                fail(
                    f"{where}, and {found.describe}. Back it up (taut db backup FILE), then "
                    f"run: taut db upgrade {_where_options(url)}".rstrip()
                )
            before, after = await upgraded(store)
            if not before.tables:
                return None  # a new database: nothing to tell
            was = before.revision or "before versions"
            return f"upgraded the schema from {was} to {after.revision}"
        finally:
            await store.close()

    try:
        told = asyncio.run(check())
    except SchemaError as exc:
        fail(f"{where}: {exc}")
    if told:
        err_console.print(f"{told} ({where})", markup=False, highlight=False)


def _where_options(url: str) -> str:
    """The options that name the database ``url`` again, for a command to copy."""
    return f"--db {url}"


def _check_sqlite(path: str) -> None:
    """Open the SQLite file and take its write lock once (then let go)."""
    import contextlib
    import sqlite3

    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")


@click.command(name="verify", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("record", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, default=False, help="Print the report as JSON.")
def verify(record: Path, as_json: bool) -> None:
    """Check a served game's record: every commitment's hash against its reveal, then
    every move by the rules and the result.

    Exit 0 when everything holds, 1 when something does not, 2 when the file cannot be read.
    """
    from taut.server.play.verify import verify_record

    try:
        raw = record.read_bytes()
    except OSError as exc:
        fail(f"cannot read {record}: {exc.strerror or exc}")
    report = verify_record(raw)
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        for problem in report.problems:
            err_console.print(f"[red]wrong:[/red] {problem}", markup=True, highlight=False)
        # A result is claimed only for a record that verifies: the moves of one that does
        # not may not be the game that was played.
        if not report.readable:
            console.print("The file is not a game record: nothing verified.", markup=False)
            raise click.exceptions.Exit(2)
        console.print(
            f"{report.matched} of {report.checked} commitment(s) match their reveals; "
            f"{report.moves} moves replayed"
            + (
                f"; {report.result}. All verified."
                if report.ok
                else f"; {len(report.problems)} problem(s): the record does not verify."
            ),
            markup=False,
        )
    if not report.ok:
        raise click.exceptions.Exit(1 if report.readable else 2)
