"""The statements that append a command's events (and, on SQLite, store a new game), written
out for speed.

An append is the server's hottest write: SQLAlchemy's statement compiler would cost more
than the write itself. On PostgreSQL one statement inserts the events, updates the game's
status, keeps the computer's secrets and announces the batch to the other processes; on
SQLite three plain statements run through the driver with its own placeholders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table

from taut.server.store.schema import events, game_players, games, seats, secrets_table

#: The channel a PostgreSQL store announces new events on.
CHANNEL = "taut_events"

#: Appending on PostgreSQL (see :meth:`Store.append`): $1 game, $2-$4 the events' seq, kind
#: and payload, $5 the time, $6 the new status (null: unchanged), $7-$10 the secrets' move,
#: seat, action and salt, $11 the channel, $12 the announcement.
APPEND_POSTGRES = f"""
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


def insert_text(table: Table, columns: Sequence[str], keep_existing: bool = False) -> str:
    """SQLite's statement that inserts a row of ``columns`` into ``table``, with the driver's
    own placeholders; with ``keep_existing``, one that inserts nothing where a row with its
    key is there already."""
    text = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    return text + " ON CONFLICT DO NOTHING" if keep_existing else text


#: Appending on SQLite (see :meth:`Store.append`), with the driver's own placeholders.
_INSERT_EVENT = insert_text(events, ("game_id", "seq", "kind", "payload", "created_at"))
_SET_STATUS = f"UPDATE {games.name} SET status = ?, updated_at = ? WHERE id = ?"
_KEEP_SECRET = insert_text(secrets_table, ("game_id", "move", "seat", "action", "salt"))


def _event_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["game_id"], row["seq"], row["kind"], row["payload"], row["created_at"])


def _secret_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["game_id"], row["move"], row["seat"], row["action"], row["salt"])


def append_statements(
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


_GAME_COLUMNS = ("id", "game", "config", "status", "open_seats", "created_at", "updated_at")
_INSERT_GAME = insert_text(games, _GAME_COLUMNS)
_SEAT_COLUMNS = ("game_id", "seat", "kind", "token_hash")
_INSERT_SEAT = insert_text(seats, _SEAT_COLUMNS)
#: A new game's first events: the rows of :data:`_INSERT_EVENT`, in words of their own. A
#: group of writes runs one statement per text, in the order each text first comes
#: (:mod:`taut.server.store.group_commit`): this text comes after the game's row, which its
#: rows refer to, even where an earlier append of the group inserted events first.
_INSERT_FIRST_EVENT = (
    f"INSERT INTO {events.name} (game_id, seq, kind, payload, created_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5)"
)


#: A rematch's seats held by the players who held the finished game's ($1 the new game, $2
#: the time, $3 the finished game).
_COPY_HOLDERS = (
    f"INSERT INTO {game_players.name} (game_id, seat, player_id, created_at) "
    f"SELECT ?, seat, player_id, ? FROM {game_players.name} WHERE game_id = ?"
)


def creation_statements(
    game: dict[str, Any],
    seat_rows: list[dict[str, Any]],
    event_rows: list[dict[str, Any]],
    holders_from: str | None = None,
) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The statements that store a new game on SQLite, each with its rows of parameters:
    the game's row (``game``, by column), its seats, its first events, and with
    ``holders_from`` the players holding that game's seats made the holders of the same
    seats of this one."""
    statements = [
        (_INSERT_GAME, [tuple(game[c] for c in _GAME_COLUMNS)]),
        (_INSERT_SEAT, [tuple(r[c] for c in _SEAT_COLUMNS) for r in seat_rows]),
    ]
    if event_rows:
        statements.append((_INSERT_FIRST_EVENT, [_event_values(r) for r in event_rows]))
    if holders_from is not None:
        statements.append((_COPY_HOLDERS, [(game["id"], game["created_at"], holders_from)]))
    return statements
