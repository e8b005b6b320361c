"""A player's games as the player page lists them, read from rows, not replayed.

When a game ends, :meth:`History.record_end` keeps each seat's return and the outcome in
words (``taut_game_ends``; a hub ``when_over`` hook, so it runs wherever the game ends and
again, harmlessly, whenever a finished game is loaded). Listing a player's finished games
is then one query joining the player's seats, the games, their ends and their rating rows,
a page at a time, however many games the player has: no game is loaded into memory. A
finished game from before its end was kept (or whose end is still being written) is read
once from the store and its end kept then. Games still going are the hub's live tables:
only they know whose move it is.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import func, select

from taut.core.registry import plugin
from taut.server.play.frames import result_line
from taut.server.play.table import GameTable
from taut.server.store.games import Store
from taut.server.store.schema import game_ends, game_players, games, rated_games

log = logging.getLogger(__name__)

#: Finished games listed per page of a player's history.
PER_PAGE = 50

#: Games in progress listed at most (newest first).
PLAYING_LISTED = 200


@dataclass(frozen=True)
class GameLine:
    """One of a player's games as stored: the game, the player's seat, its settings, and
    (finished games) its end and how it was rated, where those are kept."""

    id: str
    game: str
    seat: int
    config: dict[str, Any]
    returns: list[float] | None
    outcome: str | None
    rating: dict[str, Any] | None


@lru_cache(maxsize=256)
def seat_names(game: str, options: str) -> tuple[str, ...]:
    """The seats' names of ``game`` with ``options`` (JSON text), made once per variant."""
    built = plugin(game).game_class(**json.loads(options))
    return tuple(built.info.seats)


def line_seat_names(line: GameLine) -> tuple[str, ...]:
    """The seats' names of a listed game."""
    return seat_names(line.game, json.dumps(line.config.get("options", {}), sort_keys=True))


def result_of(returns: list[float], seat: int) -> str:
    """``won``, ``lost`` or ``drew``: how a game with ``returns`` went for ``seat`` (the best
    return won; shared by all, a draw)."""
    mine, best = returns[seat], max(returns)
    if all(r == best for r in returns):
        return "drew"
    return "won" if mine == best else "lost"


class History:
    """The queries behind a player's list of games, over a
    :class:`~taut.server.store.games.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def record_end(self, table: GameTable) -> None:
        """Keep a finished game's returns and outcome (once, however often it is called;
        failures are logged: the player page reads the game itself until it is kept)."""
        if not table.state.is_terminal():
            return
        # One statement, which keeps nothing where the end is kept already (each process
        # that serves the game tells it once): no look first.
        row = {
            "game_id": table.id,
            "returns": json.dumps([float(r) for r in table.state.returns()]),
            "outcome": result_line(table.state) or table.state.describe_outcome(),
            "ended_at": self.store.clock(),
        }
        try:
            await self.store.add_once(game_ends, row)
        except Exception:
            log.exception("keeping the end of game %s failed", table.id)

    async def lines(
        self, player_id: str, *, over: bool, limit: int, offset: int = 0
    ) -> list[GameLine]:
        """The player's finished games (``over``) or games in progress, newest first."""
        status = games.c.status == "over" if over else games.c.status != "over"
        query = (
            select(
                games.c.id,
                games.c.game,
                games.c.config,
                game_players.c.seat,
                game_ends.c.returns,
                game_ends.c.outcome,
                rated_games.c.rated,
                rated_games.c.note,
                rated_games.c.changes,
            )
            .select_from(game_players)
            .join(games, games.c.id == game_players.c.game_id)
            .outerjoin(game_ends, game_ends.c.game_id == games.c.id)
            .outerjoin(rated_games, rated_games.c.game_id == games.c.id)
            .where(game_players.c.player_id == player_id, status)
            .order_by(games.c.created_at.desc(), games.c.id, game_players.c.seat)
            .limit(limit)
            .offset(offset)
        )
        async with self.store.reader.connect() as conn:
            rows = (await conn.execute(query)).all()
        out = []
        for r in rows:
            rating = None
            if r.rated is not None:
                rating = {"rated": bool(r.rated), "note": r.note, "changes": json.loads(r.changes)}
            out.append(
                GameLine(
                    id=str(r.id),
                    game=str(r.game),
                    seat=int(r.seat),
                    config=json.loads(r.config),
                    returns=None if r.returns is None else json.loads(r.returns),
                    outcome=r.outcome,
                    rating=rating,
                )
            )
        return out

    async def finished_count(self, player_id: str) -> int:
        """How many finished games the player has a seat in."""
        query = (
            select(func.count())
            .select_from(game_players)
            .join(games, games.c.id == game_players.c.game_id)
            .where(game_players.c.player_id == player_id, games.c.status == "over")
        )
        async with self.store.reader.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def holders(self, game_ids: list[str]) -> dict[str, dict[int, str]]:
        """For each game, its seats that players hold: seat -> player id (one query)."""
        if not game_ids:
            return {}
        query = select(game_players.c.game_id, game_players.c.seat, game_players.c.player_id).where(
            game_players.c.game_id.in_(game_ids)
        )
        async with self.store.reader.connect() as conn:
            rows = (await conn.execute(query)).all()
        out: dict[str, dict[int, str]] = {}
        for r in rows:
            out.setdefault(str(r.game_id), {})[int(r.seat)] = str(r.player_id)
        return out
