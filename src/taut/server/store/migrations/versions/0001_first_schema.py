"""The schema as it stood when versions began: every table, created where it is missing.

Databases made before the schema had versions were made by creating the tables that did
not exist yet, and every field added until then came in a table of its own; so an older
database is this schema with some tables missing, and creating those brings it here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables (and their indexes) that do not exist yet."""
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "taut_games" not in have:
        op.create_table(
            "taut_games",
            sa.Column("id", sa.String(length=40), nullable=False),
            sa.Column("game", sa.String(length=80), nullable=False),
            sa.Column("config", sa.Text(), nullable=False),
            sa.Column("status", sa.String(length=16), nullable=False),
            sa.Column("open_seats", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.Column("updated_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if "taut_players" not in have:
        op.create_table(
            "taut_players",
            sa.Column("id", sa.String(length=24), nullable=False),
            sa.Column("name", sa.String(length=40), nullable=False),
            sa.Column("name_key", sa.String(length=160), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("name_key"),
        )
    if "taut_ratings" not in have:
        op.create_table(
            "taut_ratings",
            sa.Column("game", sa.String(length=80), nullable=False),
            sa.Column("pool", sa.String(length=500), nullable=False),
            sa.Column("subject", sa.String(length=40), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("games", sa.Integer(), nullable=False),
            sa.Column("updated_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("game", "pool", "subject"),
        )
    if "taut_tournament_boards" not in have:
        op.create_table(
            "taut_tournament_boards",
            sa.Column("tournament_id", sa.String(length=24), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("first", sa.String(length=40), nullable=False),
            sa.Column("second", sa.String(length=40), nullable=True),
            sa.Column("game_id", sa.String(length=40), nullable=True),
            sa.Column("tokens", sa.Text(), nullable=False),
            sa.Column("score", sa.Float(), nullable=True),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("tournament_id", "round", "board"),
        )
        op.create_index(
            op.f("ix_taut_tournament_boards_game_id"),
            "taut_tournament_boards",
            ["game_id"],
            unique=False,
        )
    if "taut_analyses" not in have:
        op.create_table(
            "taut_analyses",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("think", sa.Float(), nullable=False),
            sa.Column("result", sa.Text(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("game_id"),
        )
    if "taut_calibrations" not in have:
        op.create_table(
            "taut_calibrations",
            sa.Column("player_id", sa.String(length=24), nullable=False),
            sa.Column("calibration", sa.Text(), nullable=False),
            sa.Column("updated_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["player_id"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("player_id"),
        )
    if "taut_events" not in have:
        op.create_table(
            "taut_events",
            sa.Column(
                "id",
                sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                autoincrement=True,
                nullable=False,
            ),
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(length=16), nullable=False),
            sa.Column("payload", sa.Text(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("game_id", "seq", name="taut_events_game_seq"),
        )
        op.create_index(op.f("ix_taut_events_game_id"), "taut_events", ["game_id"], unique=False)
    if "taut_game_ends" not in have:
        op.create_table(
            "taut_game_ends",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("returns", sa.Text(), nullable=False),
            sa.Column("outcome", sa.Text(), nullable=False),
            sa.Column("ended_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("game_id"),
        )
    if "taut_game_players" not in have:
        op.create_table(
            "taut_game_players",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("player_id", sa.String(length=24), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.ForeignKeyConstraint(
                ["player_id"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("game_id", "seat"),
        )
        op.create_index(
            op.f("ix_taut_game_players_player_id"), "taut_game_players", ["player_id"], unique=False
        )
    if "taut_player_keys" not in have:
        op.create_table(
            "taut_player_keys",
            sa.Column("id", sa.String(length=24), nullable=False),
            sa.Column("player_id", sa.String(length=24), nullable=False),
            sa.Column("key_hash", sa.String(length=64), nullable=False),
            sa.Column("device", sa.String(length=80), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.Column("seen_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["player_id"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("key_hash"),
        )
        op.create_index(
            op.f("ix_taut_player_keys_player_id"), "taut_player_keys", ["player_id"], unique=False
        )
    if "taut_rated_games" not in have:
        op.create_table(
            "taut_rated_games",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("game", sa.String(length=80), nullable=False),
            sa.Column("pool", sa.String(length=500), nullable=False),
            sa.Column("rated", sa.Integer(), nullable=False),
            sa.Column("note", sa.Text(), nullable=False),
            sa.Column("changes", sa.Text(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("game_id"),
        )
    if "taut_seats" not in have:
        op.create_table(
            "taut_seats",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(length=16), nullable=False),
            sa.Column("token_hash", sa.String(length=64), nullable=True),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("game_id", "seat"),
        )
    if "taut_secrets" not in have:
        op.create_table(
            "taut_secrets",
            sa.Column("game_id", sa.String(length=40), nullable=False),
            sa.Column("move", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.Text(), nullable=False),
            sa.Column("salt", sa.String(length=32), nullable=False),
            sa.ForeignKeyConstraint(
                ["game_id"],
                ["taut_games.id"],
            ),
            sa.PrimaryKeyConstraint("game_id", "move", "seat"),
        )
    if "taut_signins" not in have:
        op.create_table(
            "taut_signins",
            sa.Column("token_hash", sa.String(length=64), nullable=False),
            sa.Column("player_id", sa.String(length=24), nullable=False),
            sa.Column("expires_at", sa.Float(), nullable=False),
            sa.Column("used_at", sa.Float(), nullable=True),
            sa.ForeignKeyConstraint(
                ["player_id"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("token_hash"),
        )
    if "taut_tournaments" not in have:
        op.create_table(
            "taut_tournaments",
            sa.Column("id", sa.String(length=24), nullable=False),
            sa.Column("creator", sa.String(length=24), nullable=False),
            sa.Column("game", sa.String(length=80), nullable=False),
            sa.Column("config", sa.Text(), nullable=False),
            sa.Column("starts_at", sa.Float(), nullable=False),
            sa.Column("status", sa.String(length=16), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["creator"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("id"),
        )
    if "taut_webhooks" not in have:
        op.create_table(
            "taut_webhooks",
            sa.Column("player_id", sa.String(length=24), nullable=False),
            sa.Column("url", sa.Text(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["player_id"],
                ["taut_players.id"],
            ),
            sa.PrimaryKeyConstraint("player_id"),
        )
    if "taut_tournament_entrants" not in have:
        op.create_table(
            "taut_tournament_entrants",
            sa.Column("tournament_id", sa.String(length=24), nullable=False),
            sa.Column("entrant", sa.String(length=40), nullable=False),
            sa.Column("joined_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["tournament_id"],
                ["taut_tournaments.id"],
            ),
            sa.PrimaryKeyConstraint("tournament_id", "entrant"),
        )
    if "taut_tournament_rounds" not in have:
        op.create_table(
            "taut_tournament_rounds",
            sa.Column("tournament_id", sa.String(length=24), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(
                ["tournament_id"],
                ["taut_tournaments.id"],
            ),
            sa.PrimaryKeyConstraint("tournament_id", "round"),
        )


def downgrade() -> None:
    """Nothing before the first version: a database is never taken below it."""
    raise NotImplementedError("the first version of the schema has nothing below it")
