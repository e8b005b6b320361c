"""Where games live: an append-only event table per game, on SQLite or PostgreSQL.

* ``taut_games``: a game's settings (JSON), its status and when that last changed;
* ``taut_seats``: each seat's kind and the SHA-256 of its capability token (the token
  itself is never stored, so the database cannot hand out a seat);
* ``taut_events``: everything that happens, as ``(game_id, seq, kind, payload)`` rows with
  ``UNIQUE(game_id, seq)``. Rows are only ever added. A command's events are written in
  one transaction before the command is acknowledged; two processes racing for the same
  ``seq`` cannot both win, and the loser reloads and tries again. On PostgreSQL that
  transaction is one statement, which also announces the events to the other processes
  (``pg_notify``); on SQLite the writers of one process queue for the one write lock.
* ``taut_secrets`` keeps the computer seats' choices between their commitment and their
  reveal, so that a restarted server can still reveal them; it is never sent to a client.

:class:`Store` is the server's handle on its database: the games' rows here, and the
other domains' stores as its members (:attr:`Store.tournaments`, :attr:`Store.analyses`,
:attr:`Store.seat_holders`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from taut.server.store.analyses import AnalysisRows
from taut.server.store.database import NOT_SAVED, Conflict, Database, StoreFailure
from taut.server.store.group_commit import SeqTaken
from taut.server.store.schema import events, games, seats, secrets_table
from taut.server.store.seat_holders import SeatHolders
from taut.server.store.statements import (
    APPEND_POSTGRES,
    CHANNEL,
    append_statements,
    creation_statements,
)
from taut.server.store.tournaments import TournamentRows
from taut.server.store.versions import upgrade

log = logging.getLogger(__name__)


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


class Store(Database):
    """The server's database: games and their events here, the other domains' rows in
    :attr:`tournaments`, :attr:`analyses` and :attr:`seat_holders` (one per process)."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        super().__init__(url, clock)
        self.tournaments = TournamentRows(self)
        """Tournaments, their entrants, rounds and boards."""
        self.analyses = AnalysisRows(self)
        """Finished games' analyses."""
        self.seat_holders = SeatHolders(self)
        """Which player holds which seat of a game."""

    async def create_tables(self) -> None:
        """Bring the schema to the code's revision: make it in an empty database, upgrade
        an older one (see :mod:`taut.server.store.versions`)."""
        await upgrade(self)

    async def create_game(
        self,
        game_id: str,
        game: str,
        config: dict[str, Any],
        seat_kinds: Sequence[str],
        hashes: Sequence[str | None],
        first_events: Sequence[tuple[str, dict[str, Any]]],
        holders_from: str | None = None,
    ) -> tuple[GameRow, list[Event]]:
        """Store a new game with its seats and its first events (seq 0, 1, ...); raises
        :class:`Conflict` if a game with this id exists. With ``holders_from`` (a finished
        game, of which this is the rematch), the players who hold its seats hold the same
        seats of this one. Returns the game as stored (its row and its events), which
        :meth:`load_game` and :meth:`events_after` would read."""
        now = self.clock()
        open_seats = sum(
            1 for k, h in zip(seat_kinds, hashes, strict=True) if k == "open" and h is None
        )
        status = "waiting" if open_seats else "playing"
        game_row = {
            "id": game_id,
            "game": game,
            "config": json.dumps(config),
            "status": status,
            "open_seats": open_seats,
            "created_at": now,
            "updated_at": now,
        }
        seat_rows = [
            {"game_id": game_id, "seat": i, "kind": kind, "token_hash": h}
            for i, (kind, h) in enumerate(zip(seat_kinds, hashes, strict=True))
        ]
        written = [Event(i, kind, payload, now) for i, (kind, payload) in enumerate(first_events)]
        event_rows = [_event_row(game_id, e) for e in written]
        try:
            if self._sqlite_path() is not None:
                # As an append is: written with the appends waiting, in their transaction.
                made = creation_statements(game_row, seat_rows, event_rows, holders_from)
                await self._group.write(made)
            else:
                async with self._transaction() as conn:
                    await conn.execute(insert(games).values(**game_row))
                    await conn.execute(insert(seats), seat_rows)
                    if event_rows:
                        await conn.execute(insert(events), event_rows)
        except (IntegrityError, SeqTaken):
            raise Conflict(f"a game {game_id} exists already") from None
        except Exception as exc:  # rolled back: no game half made
            log.error("cannot create game %s: %s", game_id, exc)
            raise StoreFailure(f"{NOT_SAVED}; the game was not made") from exc
        if holders_from is not None and self._sqlite_path() is None:
            await self.seat_holders.copy(holders_from, game_id)  # (on SQLite: with the game)
        # As read back: the config and the payloads through JSON, as a load gives them.
        stored = json.loads(str(game_row["config"]))
        row = GameRow(game_id, game, stored, status, tuple(seat_kinds), tuple(hashes), now)
        return row, [
            Event(e.seq, e.kind, json.loads(r["payload"]), e.created_at)
            for e, r in zip(written, event_rows, strict=True)
        ]

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
        appends waiting (:mod:`taut.server.store.group_commit`), on the loop's own thread; a
        database in memory goes through the pool, one append a transaction."""
        if self._sqlite_path() is None:
            async with self._transaction_lock():
                await self._append_pooled(game_id, rows, status, kept, now)
            return
        try:
            await self._group.write(append_statements(game_id, rows, status, kept, now))
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
                for sql, values in append_statements(game_id, rows, status, kept, now):
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
                    APPEND_POSTGRES,
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
