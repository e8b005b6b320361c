"""Players' ratings in a rating pool, and the rating ranges a game's maker may set on its
open seats (the pools' names in words: :mod:`taut.server.players.pool_names`)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from taut.core.registry import plugin
from taut.server.players.ratings import MODEL
from taut.server.store.games import GameRow, Store
from taut.server.store.schema import ratings_table


async def ratings_of(
    store: Store, game: str, pool: str, subjects: Sequence[str]
) -> dict[str, float]:
    """The displayed ratings (``mu - 3 sigma``) of ``subjects`` in a game's pool; a subject
    with no rated game there has a new rating's."""
    fresh = MODEL.mu - 3.0 * MODEL.sigma
    out = dict.fromkeys(subjects, fresh)
    if not subjects:
        return out
    async with store.reader.connect() as conn:
        rows = (
            await conn.execute(
                select(ratings_table.c.subject, ratings_table.c.mu, ratings_table.c.sigma).where(
                    ratings_table.c.game == game,
                    ratings_table.c.pool == pool,
                    ratings_table.c.subject.in_(list(subjects)),
                )
            )
        ).all()
    for r in rows:
        out[str(r.subject)] = float(r.mu) - 3.0 * float(r.sigma)
    return out


async def seat_refusal(store: Store, row: GameRow, player: str | None) -> str | None:
    """Why ``player`` (None: a guest) may not take an open seat of a game: the rating range
    its maker set. None: the seat is theirs to take."""
    bounds = row.config.get("rating_range")
    if not bounds:
        return None
    low, high = float(bounds[0]), float(bounds[1])
    wanted = f"this seat is for players rated {low:g} to {high:g} in this game"
    if player is None:
        return f"{wanted}; you are playing as a guest here (open the site once in this browser)"
    found = plugin(row.game)
    pool = found.rating_pool(found.game_class(**row.config["options"]))
    rating = (await ratings_of(store, row.game, pool, [player]))[player]
    if low <= rating <= high:
        return None
    return f"{wanted}, and your rating here is {rating:.1f}"
