"""Tournaments' rows: the tournaments, their entrants, their rounds (one row per round
started, so that a round starts once, however many processes try) and their boards.

The rules of a tournament live in :mod:`taut.server.tournaments`; this module only reads
and writes its rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from taut.server.store.database import Database
from taut.server.store.schema import (
    tournament_boards,
    tournament_entrants,
    tournament_rounds,
    tournaments_table,
)


class _Stale(Exception):
    """A round was paired from entrants that changed meanwhile (rolls its write back)."""


class TournamentRows:
    """The tournaments' tables of a database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, row: dict[str, Any]) -> None:
        """Store a new tournament (``row``: the columns of ``taut_tournaments``, its
        ``config`` a dict)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                insert(tournaments_table).values({**row, "config": json.dumps(row["config"])})
            )

    async def rows(
        self, tournament_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Tournaments (one, or the newest ``limit``), each as a dict of its columns."""
        query = select(tournaments_table).order_by(tournaments_table.c.starts_at.desc())
        if tournament_id is not None:
            query = query.where(tournaments_table.c.id == tournament_id)
        async with self.db.reader.connect() as conn:
            rows = (await conn.execute(query.limit(limit))).all()
        return [{**r._asdict(), "config": json.loads(r.config)} for r in rows]

    async def entries(self, tournament_id: str) -> tuple[list[str], list[dict[str, Any]]]:
        """A tournament's entrants in the order they joined, and its boards by round."""
        async with self.db.reader.connect() as conn:
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
            async with self.db.transaction() as conn:
                query = select(tournaments_table.c.status).where(
                    tournaments_table.c.id == tournament_id
                )
                if self.db.postgres:  # a round starting now waits for this entry, or refuses it
                    query = query.with_for_update()
                row = (await conn.execute(query)).first()
                if row is None:
                    return "missing"
                if row.status != "open":
                    return "started"
                await conn.execute(
                    insert(tournament_entrants).values(
                        tournament_id=tournament_id, entrant=entrant, joined_at=self.db.clock()
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
        now = self.db.clock()
        t = tournaments_table.c
        try:
            async with self.db.transaction() as conn:
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
        async with self.db.transaction() as conn:
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

    async def end(self, tournament_id: str) -> None:
        """Mark a tournament over."""
        async with self.db.transaction() as conn:
            await conn.execute(
                update(tournaments_table)
                .where(tournaments_table.c.id == tournament_id)
                .values(status="over")
            )

    async def due(self, now: float) -> list[str]:
        """The tournaments that may have something to do: started, or due to start."""
        t = tournaments_table.c
        async with self.db.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(t.id).where(
                        (t.status == "playing") | ((t.status == "open") & (t.starts_at <= now))
                    )
                )
            ).all()
        return [str(r.id) for r in rows]

    async def of_game(self, game_id: str) -> str | None:
        """The tournament a game was made for, or None."""
        async with self.db.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(tournament_boards.c.tournament_id).where(
                        tournament_boards.c.game_id == game_id
                    )
                )
            ).first()
        return None if row is None else str(row.tournament_id)
