"""Events keep one index by game: the unique one on (game, seq).

Every lookup of a game's events (``WHERE game_id = ? AND seq > ?``) reads the index of the
unique constraint on ``(game_id, seq)``, whose first column is the game; the index on
``game_id`` alone served none, and every event written updated it too (a tenth of
SQLite's cost of a move's commit, and its pages in every backup).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

_INDEX = "ix_taut_events_game_id"


def upgrade() -> None:
    """Drop the index on the game alone, where it is there."""
    have = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("taut_events")}
    if _INDEX in have:
        op.drop_index(_INDEX, table_name="taut_events")


def downgrade() -> None:
    """Make it again."""
    op.create_index(_INDEX, "taut_events", ["game_id"], unique=False)
