"""Ratings of players and computer levels with openskill (Plackett-Luce), as the arena.

A game made *rated* counts when it ends. Each team of the game (:meth:`Game.teams`: a
seat alone, or the seats that win and lose together) is one openskill team; a person's
seat counts for the player who holds it (:mod:`taut.server.players.accounts`), a computer seat for
its level, a pseudo-player of its own per game and pool (``computer:easy``, ...). Teams
are ranked by their returns (equal returns: a tie). Games are rated apart per game and per
*pool*: :meth:`GamePlugin.rating_pool` says which options make games comparable.

A game is rated once: the update and a row of ``taut_rated_games`` keyed by the game are
written in one transaction, so processing the end twice, after a restart or in two server
processes on one PostgreSQL database, changes the ratings once. A rated game whose seats
are not all held by players (or where one player sits on two sides) gets that row too,
saying why it was not rated.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from taut.core.errors import TautError, UnknownGameError
from taut.core.game import Game
from taut.core.plugin import GamePlugin
from taut.server.answers import refusals
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players
from taut.server.players.pool_names import game_for, pool_query, pool_words, variant_text
from taut.server.store.games import Store
from taut.server.store.schema import rated_games, ratings_table

log = logging.getLogger("taut.server")

#: The model every rating is computed with (openskill's defaults, as the arena).
MODEL = PlackettLuce()
#: Below this many games a rating is provisional.
PROVISIONAL_GAMES = 5
#: Above this uncertainty a rating is provisional (a new rating has 25/3, about 8.33).
PROVISIONAL_SIGMA = 6.0
#: The prefix of a computer level's rating subject.
COMPUTER = "computer:"
#: Tries of a rating update that lost a race for a new rating row.
RETRIES = 5


@dataclass(frozen=True)
class Rating:
    """One subject's rating in one pool."""

    subject: str
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """The displayed rating: openskill's ordinal, ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        """Too few games, or too uncertain, to be trusted yet."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    def to_json(self) -> dict[str, Any]:
        """The numbers, rounded for display only where the reader wants them."""
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "rating": self.rating,
            "games": self.games,
            "provisional": self.provisional,
        }


def pool_of(found: GamePlugin, game: Game) -> str:
    """The pool a game counts in (the plugin's choice)."""
    return found.rating_pool(game)


def ranks_of(scores: Sequence[float]) -> list[int]:
    """Competition ranks (1 best; equal scores share a rank) from each team's score."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def sides(table: GameTable, held: dict[int, str]) -> tuple[list[list[str]], list[int]] | str:
    """The teams of a finished game as rating subjects, and their ranks; or why the game
    cannot be rated."""
    teams: list[list[str]] = []
    for team in table.game.teams():
        members: list[str] = []
        for seat in team:
            spec = table.seats[seat]
            if spec.kind == "computer":
                subject = COMPUTER + (spec.agent or "medium")
            elif seat in held:
                subject = held[seat]
            else:
                return f"seat {table.seat_name(seat)} was not held by a signed-in player"
            if subject not in members:  # one player or level for two seats of a team
                members.append(subject)
        teams.append(members)
    seen: set[str] = set()
    for members in teams:
        if seen & set(members):
            return "the same player or computer level played on two sides"
        seen |= set(members)
    if len(teams) < 2:
        return "a game with one side is not rated"
    returns = table.state.returns()
    scores = [returns[team[0]] for team in table.game.teams()]
    return teams, ranks_of(scores)


def rate(teams: list[list[Rating]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """openskill's update: the new ``(mu, sigma)`` of every member of every team."""
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    out = MODEL.rate(model_teams, ranks=list(ranks))
    return [[(float(r.mu), float(r.sigma)) for r in team] for team in out]


class Ratings:
    """The rating queries over a :class:`~taut.server.store.games.Store`."""

    def __init__(self, store: Store, players: Players) -> None:
        self.store = store
        self.players = players

    async def settle(self, table: GameTable) -> None:
        """Rate a rated game that is over, once (the hub calls this whenever a finished
        game changes or is loaded). Failures are logged: the next load tries again."""
        if not table.config.get("rated") or not table.state.is_terminal():
            return
        try:
            await self.record(table)
        except Exception:
            log.exception("rating game %s failed", table.id)

    async def outcome(self, game_id: str) -> dict[str, Any] | None:
        """How a finished rated game was counted: ``{rated, note, changes}``, or None."""
        async with self.store.reader.connect() as conn:
            row = (
                await conn.execute(select(rated_games).where(rated_games.c.game_id == game_id))
            ).first()
        if row is None:
            return None
        return {"rated": bool(row.rated), "note": row.note, "changes": json.loads(row.changes)}

    async def record(self, table: GameTable) -> bool:
        """Count a finished rated game; True if this call counted it (False: it was
        counted before, or could not be rated)."""
        if await self.outcome(table.id) is not None:
            return False
        held = await self.store.seat_holders.of_game(table.id)
        found = sides(table, held)
        pool = pool_of(table.plugin, table.game)
        for _ in range(RETRIES):
            try:
                return await self._write(table, pool, found)
            except IntegrityError:
                if await self.outcome(table.id) is not None:
                    return False  # another process counted it first
                # else a new rating row was added by another game's update: try again
        raise TautError(f"the ratings of game {table.id} could not be written; try again")

    async def _write(
        self, table: GameTable, pool: str, found: tuple[list[list[str]], list[int]] | str
    ) -> bool:
        """Write a finished game's rating changes once (False: another writer did).
        Long by nature: one transaction that must read, rate and write in this order."""
        game = table.plugin.name
        now = time.time()
        async with self.store.transaction() as conn:
            # The row first: a second writer stops here, before reading any rating.
            unrated = isinstance(found, str)
            await conn.execute(
                insert(rated_games).values(
                    game_id=table.id,
                    game=game,
                    pool=pool,
                    rated=0 if unrated else 1,
                    note=found if isinstance(found, str) else "",
                    changes="[]",
                    created_at=now,
                )
            )
            if isinstance(found, str):
                return False
            teams, ranks = found
            subjects = [s for team in teams for s in team]
            query = select(ratings_table).where(
                ratings_table.c.game == game,
                ratings_table.c.pool == pool,
                ratings_table.c.subject.in_(subjects),
            )
            if self.store.postgres:  # two games ending at once update one player in turn
                query = query.with_for_update()
            rows = {r.subject: r for r in (await conn.execute(query)).all()}
            before = [
                [
                    Rating(s, rows[s].mu, rows[s].sigma, rows[s].games)
                    if s in rows
                    else Rating(s, MODEL.mu, MODEL.sigma, 0)
                    for s in team
                ]
                for team in teams
            ]
            after = rate(before, ranks)
            changes = []
            for team_before, team_after in zip(before, after, strict=True):
                for old, (mu, sigma) in zip(team_before, team_after, strict=True):
                    values = {"mu": mu, "sigma": sigma, "games": old.games + 1, "updated_at": now}
                    if old.subject in rows:
                        await conn.execute(
                            update(ratings_table)
                            .where(
                                ratings_table.c.game == game,
                                ratings_table.c.pool == pool,
                                ratings_table.c.subject == old.subject,
                            )
                            .values(**values)
                        )
                    else:
                        await conn.execute(
                            insert(ratings_table).values(
                                game=game, pool=pool, subject=old.subject, **values
                            )
                        )
                    changes.append(
                        {"subject": old.subject, "mu_before": old.mu, "sigma_before": old.sigma,
                         "mu": mu, "sigma": sigma}
                    )  # fmt: skip
            await conn.execute(
                update(rated_games)
                .where(rated_games.c.game_id == table.id)
                .values(changes=json.dumps(changes))
            )
        return True

    async def board(self, game: str, pool: str, limit: int = 200) -> list[Rating]:
        """A pool's ratings, best displayed rating first."""
        order = (ratings_table.c.mu - 3.0 * ratings_table.c.sigma).desc()
        async with self.store.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(ratings_table)
                    .where(ratings_table.c.game == game, ratings_table.c.pool == pool)
                    .order_by(order, ratings_table.c.subject)
                    .limit(limit)
                )
            ).all()
        return [Rating(r.subject, r.mu, r.sigma, r.games) for r in rows]

    async def pools(self, game: str) -> list[str]:
        """The pools of a game that have ratings."""
        async with self.store.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(ratings_table.c.pool)
                    .where(ratings_table.c.game == game)
                    .distinct()
                    .order_by(ratings_table.c.pool)
                )
            ).all()
        return [str(r.pool) for r in rows]

    async def of(self, subject: str) -> list[tuple[str, str, Rating]]:
        """Every rating of one subject: ``(game, pool, rating)``."""
        async with self.store.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(ratings_table)
                    .where(ratings_table.c.subject == subject)
                    .order_by(ratings_table.c.game, ratings_table.c.pool)
                )
            ).all()
        return [(r.game, r.pool, Rating(r.subject, r.mu, r.sigma, r.games)) for r in rows]

    async def named(self, board: list[Rating]) -> list[dict[str, Any]]:
        """Leaderboard entries: each rating with its rank, name and kind."""
        names = await self.players.names(
            [r.subject for r in board if not r.subject.startswith(COMPUTER)]
        )
        out = []
        for rank, r in enumerate(board, start=1):
            if r.subject.startswith(COMPUTER):
                level = r.subject.removeprefix(COMPUTER)
                entry = {"name": f"computer ({level})", "kind": "computer", "level": level,
                         "page": None}  # fmt: skip
            else:
                name = names.get(r.subject, "a player")
                entry = {"name": name, "kind": "player", "level": None,
                         "page": f"/players/{name}"}  # fmt: skip
            out.append({"rank": rank, **entry, **r.to_json()})
        return out


async def leaderboard(ratings: Ratings, name: str, query: dict[str, str]) -> dict[str, Any]:
    """The leaderboard of a game's pool, as JSON (raises HTTPException for bad input)."""
    try:
        found, game = game_for(name, query)
    except UnknownGameError:
        raise HTTPException(status_code=404, detail=f"no game called {name}") from None
    except TautError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    pool = pool_of(found, game)
    entries = await ratings.named(await ratings.board(found.name, pool))
    return {
        "game": found.name,
        "title": found.title,
        "pool": pool,
        "pool_words": variant_text(found.name, dict(game.options)),
        "options": dict(game.options),
        "entries": entries,
        "pools": [
            {
                "pool": p,
                "words": pool_words(found.name, p),
                "page": f"/leaderboard/{found.name}?{pool_query(p)}",
            }
            for p in await ratings.pools(found.name)
        ],
        "provisional_games": PROVISIONAL_GAMES,
        "provisional_sigma": PROVISIONAL_SIGMA,
    }


def add_rating_routes(app: FastAPI, ratings: Ratings) -> None:
    """The JSON leaderboard (its page is in :mod:`taut.server.players.profile`)."""

    @app.get(
        "/api/leaderboard/{name}",
        responses=refusals({400: "an option is refused", 404: "no such game"}),
    )
    async def board(name: str, request: Request) -> dict[str, Any]:
        return await leaderboard(ratings, name, dict(request.query_params))
