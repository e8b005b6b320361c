"""Alembic's environment: migrations run on the connection :mod:`taut.server.store.versions`
hands in (``config.attributes["connection"]``), inside its transaction."""

from __future__ import annotations

from alembic import context

from taut.server.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    version_table="taut_schema_version",
    render_as_batch=True,  # SQLite alters a table by copying it
    transaction_per_migration=False,
)
with context.begin_transaction():
    context.run_migrations()
