"""Where games live: an append-only event table per game, on SQLite or PostgreSQL.

Three tables (SQLAlchemy 2, async):

* ``taut_games``: a game's settings (JSON), its status and when that last changed;
* ``taut_seats``: each seat's kind and the SHA-256 of its capability token (the token
  itself is never stored, so the database cannot hand out a seat);
* ``taut_events``: everything that happens, as ``(game_id, seq, kind, payload)`` rows with
  ``UNIQUE(game_id, seq)``. Rows are only ever added. A command's events are written in
  one transaction before the command is acknowledged; two processes racing for the same
  ``seq`` cannot both win, and the loser reloads and tries again. On PostgreSQL that
  transaction is one statement, which also announces the events to the other processes
  (``pg_notify``); on SQLite the writers of one process queue for the one write lock.

A fourth table, ``taut_secrets``, keeps the computer seats' choices between their
commitment and their reveal, so that a restarted server can still reveal them; it is
never sent to a client.

Players and ratings have tables of their own (``taut_players``, ``taut_player_keys``,
``taut_signins``, ``taut_game_players``, ``taut_ratings``, ``taut_rated_games``,
``taut_game_ends``); their queries live in :mod:`taut.server.players`,
:mod:`taut.server.ratings` and :mod:`taut.server.history`.

Tournaments (:mod:`taut.server.tournaments`) keep ``taut_tournaments``, their entrants,
their rounds (one row per round started, so that a round starts once) and their boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from taut.core.errors import TautError
from taut.server.checkpoints import Checkpointer
from taut.server.group_commit import GroupWriter, SeqTaken
from taut.server.inline_sqlite import connect_inline

log = logging.getLogger(__name__)

metadata = MetaData()

games = Table(
    "taut_games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(80), nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("open_seats", Integer, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

seats = Table(
    "taut_seats",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("token_hash", String(64), nullable=True),
)

events = Table(
    "taut_events",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("game_id", String(40), ForeignKey("taut_games.id"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("game_id", "seq", name="taut_events_game_seq"),
)

secrets_table = Table(
    "taut_secrets",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("salt", String(32), nullable=False),
)

analyses = Table(
    "taut_analyses",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("think", Float, nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# -- players and ratings (see taut.server.players and taut.server.ratings) ------------------

players_table = Table(
    "taut_players",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(40), nullable=False),
    # The name folded for comparison: names are unique whatever their case.
    Column("name_key", String(160), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

player_keys = Table(
    "taut_player_keys",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False, index=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("device", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
)

signins = Table(
    "taut_signins",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)

game_players = Table(
    "taut_game_players",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
)

ratings_table = Table(
    "taut_ratings",
    metadata,
    Column("game", String(80), primary_key=True),
    Column("pool", String(500), primary_key=True),
    Column("subject", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# One row per finished rated game, written in the transaction that updates the ratings:
# its primary key makes the update happen once, whoever processes the end and how often.
rated_games = Table(
    "taut_rated_games",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("game", String(80), nullable=False),
    Column("pool", String(500), nullable=False),
    Column("rated", Integer, nullable=False),
    Column("note", Text, nullable=False),
    Column("changes", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# One row per finished game: each seat's return and the outcome in words, kept when the game
# ends (see taut.server.history), so that a player's list of past games replays none of them.
game_ends = Table(
    "taut_game_ends",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("returns", Text, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("ended_at", Float, nullable=False),
)

# A player's webhook: where "your move" is POSTed (see taut.server.webhooks).
webhooks_table = Table(
    "taut_webhooks",
    metadata,
    Column("player_id", String(24), ForeignKey("taut_players.id"), primary_key=True),
    Column("url", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# A player's calibration of the sign recogniser: their own signs (see
# taut.server.calibration).
calibrations_table = Table(
    "taut_calibrations",
    metadata,
    Column("player_id", String(24), ForeignKey("taut_players.id"), primary_key=True),
    Column("calibration", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# -- tournaments (see taut.server.tournaments) ------------------------------------------------

tournaments_table = Table(
    "taut_tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("creator", String(24), ForeignKey("taut_players.id"), nullable=False),
    Column("game", String(80), nullable=False),
    # Options, system, rounds, rated, time control, name: fixed when it is made.
    Column("config", Text, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, over
    Column("round", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

tournament_entrants = Table(
    "taut_tournament_entrants",
    metadata,
    Column("tournament_id", String(24), ForeignKey("taut_tournaments.id"), primary_key=True),
    # A player's id, or a computer level's rating subject (computer:easy).
    Column("entrant", String(40), primary_key=True),
    Column("joined_at", Float, nullable=False),
)

# One row per round started: its primary key makes a round start once, whichever server
# process notices first that it is due.
tournament_rounds = Table(
    "taut_tournament_rounds",
    metadata,
    Column("tournament_id", String(24), ForeignKey("taut_tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("created_at", Float, nullable=False),
)

tournament_boards = Table(
    "taut_tournament_boards",
    metadata,
    Column("tournament_id", String(24), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("first", String(40), nullable=False),
    Column("second", String(40), nullable=True),  # null: a bye
    Column("game_id", String(40), nullable=True, index=True),
    # The players' seat tokens, so that each can be handed the link to its own seat.
    Column("tokens", Text, nullable=False),
    Column("score", Float, nullable=True),  # the first entrant's points, once known
    Column("created_at", Float, nullable=False),
)

#: Connections a store keeps open (and opens at most as many more in a burst).
POOL = 20

#: The channel a PostgreSQL store announces new events on.
CHANNEL = "taut_events"

#: Appending on PostgreSQL (see :meth:`Store.append`): $1 game, $2-$4 the events' seq, kind
#: and payload, $5 the time, $6 the new status (null: unchanged), $7-$10 the secrets' move,
#: seat, action and salt, $11 the channel, $12 the announcement.
_APPEND_POSTGRES = f"""
WITH added AS (
    INSERT INTO {events.name} (game_id, seq, kind, payload, created_at)
    SELECT $1, e.seq, e.kind, e.payload, $5
    FROM unnest($2::int[], $3::text[], $4::text[]) AS e(seq, kind, payload)
    RETURNING seq
), moved AS (
    UPDATE {games.name} SET status = $6, updated_at = $5
    WHERE id = $1 AND $6::text IS NOT NULL
    RETURNING id
), kept AS (
    INSERT INTO {secrets_table.name} (game_id, move, seat, action, salt)
    SELECT $1, k.move, k.seat, k.action, k.salt
    FROM unnest($7::int[], $8::int[], $9::text[], $10::text[]) AS k(move, seat, action, salt)
    RETURNING seat
)
SELECT pg_notify($11, $12)
"""


def token_hash(token: str) -> str:
    """What the store keeps of a capability token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Conflict(Exception):
    """Another writer took the ``seq`` first: reload the events and try again."""


class _Stale(Exception):
    """A round was paired from entrants that changed meanwhile (rolls its write back)."""


class StoreFailure(TautError):
    """The database refused a write (a full disk, a file-size limit, a read-only file
    system, a lost connection): the transaction was rolled back, so nothing changed, and
    the player is told to try again."""


#: What players are told when a write fails (the cause goes to the server's log).
NOT_SAVED = "the server could not save this (its storage refused the write); nothing changed"


@dataclass(frozen=True)
class Event:
    """One row of the event table."""

    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True)
class GameRow:
    """A game's settings and seats as stored."""

    id: str
    game: str
    config: dict[str, Any]
    status: str
    seat_kinds: tuple[str, ...]
    token_hashes: tuple[str | None, ...]
    created_at: float

    @property
    def free_seats(self) -> list[int]:
        """The seats for anyone that nobody has taken yet, by index."""
        return [
            i
            for i, (kind, hashed) in enumerate(zip(self.seat_kinds, self.token_hashes, strict=True))
            if kind == "open" and hashed is None
        ]


class Store:
    """The tables behind the server (one per process; connections pooled by SQLAlchemy)."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.clock = clock
        """The time events are stored with (seconds since the epoch): the games' clocks are
        read from it, so tests may put a made-up clock here."""
        self.postgres = url.startswith("postgresql")
        # Connections stay open between commands: a burst beyond the pool would otherwise
        # open (and on PostgreSQL fork a server process for) a connection per command.
        kwargs: dict[str, Any] = {"pool_size": POOL, "max_overflow": POOL}
        if not self.postgres:
            kwargs["connect_args"] = {"timeout": 30}
            path = _file_path(url)
            if path is not None:  # a file: its connections run on the loop's thread
                kwargs["async_creator"] = connect_inline(path, timeout=30)
            # Every use of a SQLite connection ends its own transaction (the driver opens
            # none for reading), so the pool's rollback on return would only cost a trip.
            kwargs["pool_reset_on_return"] = None
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self.reader: AsyncEngine = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.postgres
            else self.engine
        )
        """The engine that reads (the same pool): on PostgreSQL its queries run outside any
        transaction, so that a read is one round trip, not a ``BEGIN``, the query and a
        ``ROLLBACK`` when its connection goes back to the pool. Anything that writes, or
        reads what it is about to write, uses :attr:`engine` and a transaction."""
        if not self.postgres:
            event.listen(self.engine.sync_engine, "connect", self._connected)
        # SQLite has one writer at a time and makes the others sleep and poll for the lock:
        # in one process, writers queue here instead, without sleeping.
        self._writing = asyncio.Lock() if not self.postgres else None
        # SQLite's moves are written through one connection of the driver's, kept open and
        # used on the event loop's thread (see _sqlite_file).
        self._file: sqlite3.Connection | None = None
        self._checkpoints: Checkpointer | None = None
        # Appends waiting while the loop was busy are committed together (group_commit).
        self._group = GroupWriter(self._sqlite_file, self._writing or asyncio.Lock())

    def _transaction_lock(self) -> asyncio.Lock | contextlib.nullcontext[None]:
        """The one write lock of SQLite (nothing to hold on PostgreSQL)."""
        return self._writing if self._writing is not None else contextlib.nullcontext()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite)."""
        if self._writing is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._writing, self.engine.begin() as conn:
            yield conn

    def transaction(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite), for the player and rating
        queries that live beside their routes."""
        return self._transaction()

    async def create_tables(self) -> None:
        """Create the tables that do not exist yet."""
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)

    async def save_analysis(self, game_id: str, think: float, result: Any) -> None:
        """Keep a finished game's analysis (the first one kept wins: it is computed once)."""
        try:
            async with self._transaction() as conn:
                await conn.execute(
                    insert(analyses).values(
                        game_id=game_id,
                        think=think,
                        result=json.dumps(result),
                        created_at=time.time(),
                    )
                )
        except IntegrityError:
            return  # another process kept one first
        except Exception as exc:
            log.error("cannot keep the analysis of %s: %s", game_id, exc)
            raise StoreFailure(f"{NOT_SAVED}; the analysis was not kept") from exc

    async def load_analysis(self, game_id: str) -> tuple[float, Any] | None:
        """A kept analysis: ``(think, result)``, or None."""
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(analyses.c.think, analyses.c.result).where(analyses.c.game_id == game_id)
                )
            ).first()
        return None if row is None else (float(row.think), json.loads(row.result))

    async def probe_write(self) -> None:
        """Start a write and roll it back: raises when the database cannot be written
        (a read-only file or file system), before any player depends on it."""
        async with self.engine.connect() as conn:
            await conn.execute(
                games.update().where(games.c.id == "").values(updated_at=games.c.updated_at)
            )
            await conn.rollback()

    async def close(self) -> None:
        """Close every pooled connection."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._checkpoints is not None:
            self._checkpoints.stop()
            self._checkpoints = None
        await self.engine.dispose()

    def _sqlite_path(self) -> str | None:
        """The SQLite file's path (None for a database in memory or on PostgreSQL)."""
        return None if self.postgres else _file_path(self.url)

    def _sqlite_file(self) -> sqlite3.Connection:
        """The connection moves are written through on SQLite, on the event loop's own
        thread (a file's: a database in memory is shared only by the pool's connections).
        Writing a move takes tens of microseconds; handing it to a database thread and
        back costs more than that (the hand-over contends for the interpreter's lock), and
        the command waits for the write either way. Used holding the write lock."""
        if self._file is None:
            path = self._sqlite_path()
            if path is None:
                raise RuntimeError("no SQLite file to write moves through")
            self._file = sqlite3.connect(path, timeout=30)
            self._connected(self._file, None)
        return self._file

    def _connected(self, dbapi_connection: Any, connection_record: Any) -> None:
        """A new SQLite connection of this store: its settings. A file's connections commit
        on the loop's thread, so they leave the checkpoints to a thread of their own
        (:mod:`taut.server.checkpoints`), started with the first of them."""
        _sqlite_pragmas(dbapi_connection, connection_record)
        path = self._sqlite_path()
        if path is None:
            return
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()
        if self._checkpoints is None:
            self._checkpoints = Checkpointer(path)

    # -- games -------------------------------------------------------------------------

    async def create_game(
        self,
        game_id: str,
        game: str,
        config: dict[str, Any],
        seat_kinds: Sequence[str],
        hashes: Sequence[str | None],
        first_events: Sequence[tuple[str, dict[str, Any]]],
    ) -> None:
        """Store a new game with its seats and its first events (seq 0, 1, ...); raises
        :class:`Conflict` if a game with this id exists."""
        now = self.clock()
        open_seats = sum(
            1 for k, h in zip(seat_kinds, hashes, strict=True) if k == "open" and h is None
        )
        try:
            async with self._transaction() as conn:
                await conn.execute(
                    insert(games).values(
                        id=game_id,
                        game=game,
                        config=json.dumps(config),
                        status="waiting" if open_seats else "playing",
                        open_seats=open_seats,
                        created_at=now,
                        updated_at=now,
                    )
                )
                await conn.execute(
                    insert(seats),
                    [
                        {"game_id": game_id, "seat": i, "kind": kind, "token_hash": h}
                        for i, (kind, h) in enumerate(zip(seat_kinds, hashes, strict=True))
                    ],
                )
                await self._insert_events(conn, game_id, 0, first_events, now)
        except IntegrityError:
            raise Conflict(f"a game {game_id} exists already") from None
        except Exception as exc:  # rolled back: no game half made
            log.error("cannot create game %s: %s", game_id, exc)
            raise StoreFailure(f"{NOT_SAVED}; the game was not made") from exc

    async def load_game(self, game_id: str) -> GameRow | None:
        """A game's row and seats, or None."""
        async with self.reader.connect() as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            if row is None:
                return None
            seat_rows = (
                await conn.execute(
                    select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
                )
            ).all()
        return GameRow(
            id=row.id,
            game=row.game,
            config=json.loads(row.config),
            status=row.status,
            seat_kinds=tuple(r.kind for r in seat_rows),
            token_hashes=tuple(r.token_hash for r in seat_rows),
            created_at=row.created_at,
        )

    async def claim_seat(self, game_id: str, seat: int, hashed: str) -> bool:
        """Give an open seat to the holder of a new token (first come); False if taken."""
        async with self._transaction() as conn:
            done = await conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .where(seats.c.kind == "open", seats.c.token_hash.is_(None))
                .values(token_hash=hashed)
            )
            if done.rowcount != 1:
                return False
            await conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(open_seats=games.c.open_seats - 1, updated_at=time.time())
            )
            await conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.open_seats == 0, games.c.status == "waiting")
                .values(status="playing")
            )
        return True

    async def open_games(self, limit: int = 50) -> list[tuple[str, str, int, float]]:
        """Games waiting for players: ``(id, game, open seats, created)``, newest first."""
        return [row[:4] for row in await self.open_games_with_settings(limit)]

    async def open_games_with_settings(
        self, limit: int = 50
    ) -> list[tuple[str, str, int, float, dict[str, Any]]]:
        """Games waiting for players: ``(id, game, open seats, created, settings)``, newest
        first."""
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        games.c.id,
                        games.c.game,
                        games.c.open_seats,
                        games.c.created_at,
                        games.c.config,
                    )
                    .where(games.c.open_seats > 0, games.c.status != "over")
                    .order_by(games.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
        return [(r.id, r.game, r.open_seats, r.created_at, json.loads(r.config)) for r in rows]

    async def clocked_in_play(self) -> list[str]:
        """The games not over whose settings hold a time control (``"clock"``)."""
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(games.c.id).where(
                        games.c.status != "over", games.c.config.like('%"clock": {%')
                    )
                )
            ).all()
        return [r.id for r in rows]

    # -- events ------------------------------------------------------------------------

    async def events_after(self, game_id: str, seq: int) -> list[Event]:
        """The game's events with a ``seq`` above ``seq``, in order."""
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(events.c.seq, events.c.kind, events.c.payload, events.c.created_at)
                    .where(events.c.game_id == game_id, events.c.seq > seq)
                    .order_by(events.c.seq)
                )
            ).all()
        return [Event(r.seq, r.kind, json.loads(r.payload), r.created_at) for r in rows]

    async def append(
        self,
        game_id: str,
        last_seq: int,
        new: Sequence[tuple[str, dict[str, Any]]],
        status: str | None = None,
        secrets: Sequence[tuple[int, int, str, str]] = (),
    ) -> list[Event]:
        """Add ``new`` after ``last_seq`` in one transaction (with the computer ``secrets``
        ``(move, seat, action, salt)`` to keep); raises :class:`Conflict` if a row with one
        of those numbers exists already. Other processes are told on PostgreSQL."""
        now = self.clock()
        first = last_seq + 1
        written = [Event(first + i, kind, payload, now) for i, (kind, payload) in enumerate(new)]
        if not written:
            return written
        rows = [_event_row(game_id, e) for e in written]
        kept = [
            {"game_id": game_id, "move": m, "seat": s, "action": a, "salt": salt}
            for m, s, a, salt in secrets
        ]
        try:
            if self.postgres:
                await self._append_postgres(game_id, rows, status, kept, now, written[-1].seq)
            else:
                await self._append_sqlite(game_id, rows, status, kept, now)
        except (Conflict, asyncio.CancelledError):
            raise
        except Exception as exc:  # the write was rolled back: say so, never half-apply it
            log.error("cannot append to game %s: %s", game_id, exc)
            raise StoreFailure(f"{NOT_SAVED}; try again") from exc
        return written

    async def _append_sqlite(
        self,
        game_id: str,
        rows: list[dict[str, Any]],
        status: str | None,
        kept: list[dict[str, Any]],
        now: float,
    ) -> None:
        """The events, the status and the secrets in one transaction, with the other
        appends waiting (:mod:`taut.server.group_commit`), on the loop's own thread; a
        database in memory goes through the pool, one append a transaction."""
        if self._sqlite_path() is None:
            async with self._transaction_lock():
                await self._append_pooled(game_id, rows, status, kept, now)
            return
        try:
            await self._group.write(_append_statements(game_id, rows, status, kept, now))
        except SeqTaken:
            raise Conflict(f"{game_id}: seq {rows[0]['seq']} is taken") from None

    async def _append_pooled(
        self,
        game_id: str,
        rows: list[dict[str, Any]],
        status: str | None,
        kept: list[dict[str, Any]],
        now: float,
    ) -> None:
        """:meth:`_append_sqlite` through a pooled connection (a database in memory)."""
        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                for sql, values in _append_statements(game_id, rows, status, kept, now):
                    await driver.executemany(sql, values)
                await driver.commit()
            except sqlite3.IntegrityError:
                await driver.rollback()
                raise Conflict(f"{game_id}: seq {rows[0]['seq']} is taken") from None
            except BaseException:
                await driver.rollback()
                raise

    async def _append_postgres(
        self,
        game_id: str,
        rows: list[dict[str, Any]],
        status: str | None,
        kept: list[dict[str, Any]],
        now: float,
        last: int,
    ) -> None:
        """The events, the status, the secrets and the announcement in one statement,
        atomic by itself: one round trip, prepared once per connection (the same text for
        any number of events), straight to the driver."""
        import asyncpg

        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                await driver.execute(
                    _APPEND_POSTGRES,
                    game_id,
                    [r["seq"] for r in rows],
                    [r["kind"] for r in rows],
                    [r["payload"] for r in rows],
                    now,
                    status,
                    [k["move"] for k in kept],
                    [k["seat"] for k in kept],
                    [k["action"] for k in kept],
                    [k["salt"] for k in kept],
                    CHANNEL,
                    f"{game_id}:{last}",
                )
            except asyncpg.UniqueViolationError:
                raise Conflict(f"{game_id}: seq {rows[0]['seq']} is taken") from None

    async def secret(self, game_id: str, move: int, seat: int) -> tuple[str, str] | None:
        """A computer seat's kept ``(action, salt)``."""
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(secrets_table.c.action, secrets_table.c.salt).where(
                        secrets_table.c.game_id == game_id,
                        secrets_table.c.move == move,
                        secrets_table.c.seat == seat,
                    )
                )
            ).first()
        return None if row is None else (row.action, row.salt)

    @staticmethod
    async def _insert_events(
        conn: AsyncConnection,
        game_id: str,
        first: int,
        new: Sequence[tuple[str, dict[str, Any]]],
        now: float,
    ) -> list[Event]:
        written = [Event(first + i, kind, payload, now) for i, (kind, payload) in enumerate(new)]
        if written:
            await conn.execute(insert(events), [_event_row(game_id, e) for e in written])
        return written

    # -- tournaments (the rules of which live in taut.server.tournaments) ---------------------

    async def create_tournament(self, row: dict[str, Any]) -> None:
        """Store a new tournament (``row``: the columns of ``taut_tournaments``, its
        ``config`` a dict)."""
        async with self._transaction() as conn:
            await conn.execute(
                insert(tournaments_table).values({**row, "config": json.dumps(row["config"])})
            )

    async def tournament_rows(
        self, tournament_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Tournaments (one, or the newest ``limit``), each as a dict of its columns."""
        query = select(tournaments_table).order_by(tournaments_table.c.starts_at.desc())
        if tournament_id is not None:
            query = query.where(tournaments_table.c.id == tournament_id)
        async with self.reader.connect() as conn:
            rows = (await conn.execute(query.limit(limit))).all()
        return [{**r._asdict(), "config": json.loads(r.config)} for r in rows]

    async def tournament_entries(
        self, tournament_id: str
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """A tournament's entrants in the order they joined, and its boards by round."""
        async with self.reader.connect() as conn:
            entrants = (
                await conn.execute(
                    select(tournament_entrants.c.entrant)
                    .where(tournament_entrants.c.tournament_id == tournament_id)
                    .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.entrant)
                )
            ).all()
            boards = (
                await conn.execute(
                    select(tournament_boards)
                    .where(tournament_boards.c.tournament_id == tournament_id)
                    .order_by(tournament_boards.c.round, tournament_boards.c.board)
                )
            ).all()
        return [str(r.entrant) for r in entrants], [
            {**b._asdict(), "tokens": json.loads(b.tokens)} for b in boards
        ]

    async def add_entrant(self, tournament_id: str, entrant: str) -> str | None:
        """Enter ``entrant`` while the tournament has not started: None, or why not
        (``missing``, ``started``, ``entered``)."""
        try:
            async with self._transaction() as conn:
                query = select(tournaments_table.c.status).where(
                    tournaments_table.c.id == tournament_id
                )
                if self.postgres:  # a round starting now waits for this entry, or refuses it
                    query = query.with_for_update()
                row = (await conn.execute(query)).first()
                if row is None:
                    return "missing"
                if row.status != "open":
                    return "started"
                await conn.execute(
                    insert(tournament_entrants).values(
                        tournament_id=tournament_id, entrant=entrant, joined_at=self.clock()
                    )
                )
        except IntegrityError:
            return "entered"
        return None

    async def start_round(
        self,
        tournament_id: str,
        number: int,
        pairs: Sequence[tuple[str, str | None]],
        entrants: int,
    ) -> bool:
        """Write a round's pairings, once: False if the round was started already (here or
        by another process), or if the tournament no longer has ``entrants`` entrants (one
        entered while the round was paired: pair it again)."""
        now = self.clock()
        t = tournaments_table.c
        try:
            async with self._transaction() as conn:
                # The tournament's row first: an entry waits for it, or this waits for the
                # entry, and the count below sees it.
                await conn.execute(
                    update(tournaments_table)
                    .where(t.id == tournament_id)
                    .values(status="playing", round=number)
                )
                counted = (
                    await conn.execute(
                        select(func.count()).where(
                            tournament_entrants.c.tournament_id == tournament_id
                        )
                    )
                ).scalar_one()
                if counted != entrants:
                    raise _Stale
                await conn.execute(
                    insert(tournament_rounds).values(
                        tournament_id=tournament_id, round=number, created_at=now
                    )
                )
                await conn.execute(
                    insert(tournament_boards),
                    [
                        {"tournament_id": tournament_id, "round": number, "board": i}
                        | {"first": a, "second": b, "game_id": None, "tokens": "{}"}
                        | {"score": None, "created_at": now}
                        for i, (a, b) in enumerate(pairs)
                    ],
                )
        except (IntegrityError, _Stale):
            return False
        return True

    async def set_board(self, tournament_id: str, number: int, board: int, **values: Any) -> bool:
        """Fill a board's ``game_id`` (with its ``tokens``) or its ``score``, once: False if
        it was filled already."""
        if "tokens" in values:
            values["tokens"] = json.dumps(values["tokens"])
        empty = tournament_boards.c.game_id if "game_id" in values else tournament_boards.c.score
        async with self._transaction() as conn:
            done = await conn.execute(
                update(tournament_boards)
                .where(
                    tournament_boards.c.tournament_id == tournament_id,
                    tournament_boards.c.round == number,
                    tournament_boards.c.board == board,
                    empty.is_(None),
                )
                .values(**values)
            )
        return bool(done.rowcount == 1)

    async def end_tournament(self, tournament_id: str) -> None:
        """Mark a tournament over."""
        async with self._transaction() as conn:
            await conn.execute(
                update(tournaments_table)
                .where(tournaments_table.c.id == tournament_id)
                .values(status="over")
            )

    async def tournaments_due(self, now: float) -> list[str]:
        """The tournaments that may have something to do: started, or due to start."""
        t = tournaments_table.c
        async with self.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(t.id).where(
                        (t.status == "playing") | ((t.status == "open") & (t.starts_at <= now))
                    )
                )
            ).all()
        return [str(r.id) for r in rows]

    async def tournament_of_game(self, game_id: str) -> str | None:
        """The tournament a game was made for, or None."""
        async with self.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(tournament_boards.c.tournament_id).where(
                        tournament_boards.c.game_id == game_id
                    )
                )
            ).first()
        return None if row is None else str(row.tournament_id)


#: Appending on SQLite (see :meth:`Store.append`), with the driver's own placeholders.
_INSERT_EVENT = (
    f"INSERT INTO {events.name} (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)"
)
_SET_STATUS = f"UPDATE {games.name} SET status = ?, updated_at = ? WHERE id = ?"
_KEEP_SECRET = (
    f"INSERT INTO {secrets_table.name} (game_id, move, seat, action, salt) VALUES (?, ?, ?, ?, ?)"
)


def _event_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["game_id"], row["seq"], row["kind"], row["payload"], row["created_at"])


def _secret_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["game_id"], row["move"], row["seat"], row["action"], row["salt"])


@functools.lru_cache(maxsize=16)
def _file_path(url: str) -> str | None:
    """The file of a SQLite URL (None for a database in memory); kept per URL, since every
    append asks and parsing a URL costs more than the rest of its question."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    return None if not database or database == ":memory:" else database


def _event_row(game_id: str, event: Event) -> dict[str, Any]:
    """An event as a row of ``taut_events``."""
    return {
        "game_id": game_id,
        "seq": event.seq,
        "kind": event.kind,
        # orjson: the same JSON, compact, several times faster (an event per command).
        "payload": orjson.dumps(event.payload, option=orjson.OPT_NON_STR_KEYS).decode(),
        "created_at": event.created_at,
    }


def _append_statements(
    game_id: str,
    rows: list[dict[str, Any]],
    status: str | None,
    kept: list[dict[str, Any]],
    now: float,
) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The statements of one append on SQLite, each with its rows of parameters: the
    events, the game's status (when it changes) and the computer's kept secrets."""
    statements = [(_INSERT_EVENT, [_event_values(r) for r in rows])]
    if status is not None:
        statements.append((_SET_STATUS, [(status, now, game_id)]))
    if kept:
        statements.append((_KEEP_SECRET, [_secret_values(k) for k in kept]))
    return statements


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL: readers never wait for the writer; a committed move survives a killed server."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
