"""Which player holds which seat of a game (``taut_game_players``).

A seat's capability token says who may play it; this table says which player account a
seat counts for (ratings, history, a player's list of games). The first player to claim a
seat keeps it.
"""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from taut.server.store.database import Database
from taut.server.store.schema import game_players


class SeatHolders:
    """The players holding games' seats."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def attach(self, game_id: str, seat: int, player_id: str) -> str:
        """Attach a game's seat to a player (first come); the player who holds it."""
        try:
            async with self.db.transaction() as conn:
                await conn.execute(
                    insert(game_players).values(
                        game_id=game_id, seat=seat, player_id=player_id, created_at=self.db.clock()
                    )
                )
            return player_id
        except IntegrityError:
            held = await self.of_game(game_id)
            if seat not in held:  # not a taken seat: no such game or player
                raise
            return held[seat]

    async def of_game(self, game_id: str) -> dict[int, str]:
        """A game's seats that players hold: seat -> player id."""
        async with self.db.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(game_players.c.seat, game_players.c.player_id).where(
                        game_players.c.game_id == game_id
                    )
                )
            ).all()
        return {int(r.seat): str(r.player_id) for r in rows}

    async def copy(self, from_game: str, to_game: str) -> None:
        """A rematch's seats go to the same players (kept if copied already)."""
        for seat, player_id in (await self.of_game(from_game)).items():
            await self.attach(to_game, seat, player_id)
