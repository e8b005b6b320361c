"""The tables of the server's database, in one SQLAlchemy ``MetaData``.

Games (``taut_games``, ``taut_seats``, ``taut_events``, ``taut_secrets``), analyses,
players and ratings (``taut_players``, ``taut_player_keys``, ``taut_signins``,
``taut_game_players``, ``taut_ratings``, ``taut_rated_games``, ``taut_game_ends``,
``taut_webhooks``, ``taut_calibrations``) and tournaments (``taut_tournaments``, their
entrants, rounds and boards). Every module that queries a table imports it from here.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

games = Table(
    "taut_games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(80), nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("open_seats", Integer, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

seats = Table(
    "taut_seats",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("token_hash", String(64), nullable=True),
)

events = Table(
    "taut_events",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    # No index of its own: the unique one on (game_id, seq) serves every lookup by game.
    Column("game_id", String(40), ForeignKey("taut_games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("game_id", "seq", name="taut_events_game_seq"),
)

secrets_table = Table(
    "taut_secrets",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("salt", String(32), nullable=False),
)

analyses = Table(
    "taut_analyses",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("think", Float, nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# -- players and ratings (see taut.server.players.accounts and taut.server.players.ratings) ---

players_table = Table(
    "taut_players",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(40), nullable=False),
    # The name folded for comparison: names are unique whatever their case.
    Column("name_key", String(160), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

player_keys = Table(
    "taut_player_keys",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False, index=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("device", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
)

signins = Table(
    "taut_signins",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)

game_players = Table(
    "taut_game_players",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(24), ForeignKey("taut_players.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
)

ratings_table = Table(
    "taut_ratings",
    metadata,
    Column("game", String(80), primary_key=True),
    Column("pool", String(500), primary_key=True),
    Column("subject", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# One row per finished rated game, written in the transaction that updates the ratings:
# its primary key makes the update happen once, whoever processes the end and how often.
rated_games = Table(
    "taut_rated_games",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("game", String(80), nullable=False),
    Column("pool", String(500), nullable=False),
    Column("rated", Integer, nullable=False),
    Column("note", Text, nullable=False),
    Column("changes", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# One row per finished game: each seat's return and the outcome in words, kept when the game
# ends (see taut.server.players.history), so that a player's list of past games replays
# none of them.
game_ends = Table(
    "taut_game_ends",
    metadata,
    Column("game_id", String(40), ForeignKey("taut_games.id"), primary_key=True),
    Column("returns", Text, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("ended_at", Float, nullable=False),
)

# A player's webhook: where "your move" is POSTed (see taut.server.players.webhooks).
webhooks_table = Table(
    "taut_webhooks",
    metadata,
    Column("player_id", String(24), ForeignKey("taut_players.id"), primary_key=True),
    Column("url", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# A player's calibration of the sign recogniser: their own signs (see
# taut.server.players.calibration).
calibrations_table = Table(
    "taut_calibrations",
    metadata,
    Column("player_id", String(24), ForeignKey("taut_players.id"), primary_key=True),
    Column("calibration", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# -- tournaments (see taut.server.tournaments.director) ---

tournaments_table = Table(
    "taut_tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("creator", String(24), ForeignKey("taut_players.id"), nullable=False),
    Column("game", String(80), nullable=False),
    # Options, system, rounds, rated, time control, name: fixed when it is made.
    Column("config", Text, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, over
    Column("round", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

tournament_entrants = Table(
    "taut_tournament_entrants",
    metadata,
    Column("tournament_id", String(24), ForeignKey("taut_tournaments.id"), primary_key=True),
    # A player's id, or a computer level's rating subject (computer:easy).
    Column("entrant", String(40), primary_key=True),
    Column("joined_at", Float, nullable=False),
)

# One row per round started: its primary key makes a round start once, whichever server
# process notices first that it is due.
tournament_rounds = Table(
    "taut_tournament_rounds",
    metadata,
    Column("tournament_id", String(24), ForeignKey("taut_tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("created_at", Float, nullable=False),
)

tournament_boards = Table(
    "taut_tournament_boards",
    metadata,
    Column("tournament_id", String(24), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("first", String(40), nullable=False),
    Column("second", String(40), nullable=True),  # null: a bye
    Column("game_id", String(40), nullable=True, index=True),
    # The players' seat tokens, so that each can be handed the link to its own seat.
    Column("tokens", Text, nullable=False),
    Column("score", Float, nullable=True),  # the first entrant's points, once known
    Column("created_at", Float, nullable=False),
)
