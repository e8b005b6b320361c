"""Finished games' analyses, computed once and kept."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from taut.server.store.database import NOT_SAVED, Database, StoreFailure
from taut.server.store.schema import analyses

log = logging.getLogger(__name__)


class AnalysisRows:
    """The analyses' table of a database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, game_id: str, think: float, result: Any) -> None:
        """Keep a finished game's analysis (the first one kept wins: it is computed once)."""
        try:
            async with self.db.transaction() as conn:
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

    async def load(self, game_id: str) -> tuple[float, Any] | None:
        """A kept analysis: ``(think, result)``, or None."""
        async with self.db.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(analyses.c.think, analyses.c.result).where(analyses.c.game_id == game_id)
                )
            ).first()
        return None if row is None else (float(row.think), json.loads(row.result))
