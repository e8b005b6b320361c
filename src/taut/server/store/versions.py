"""The schema's version: where a database stands, and bringing it to the code's.

Every database records the revision of the schema it was last brought to (Alembic's
version table, here ``taut_schema_version``); the revisions are in
:mod:`taut.server.store.migrations`. A database made before versions has tables and no
version: the first revision brings it in. A server brings an older database up to date
when it starts (:func:`upgrade`), unless its operator asked it not to; a database whose
revision this code does not know was written by a newer taut and is refused untouched
(:class:`SchemaTooNew`).

On PostgreSQL, several servers may start at once on one database: the upgrade runs under
an advisory lock, so one upgrades and the others wait for it, then find nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import inspect, text

from taut.core.errors import TautError
from taut.server.store.database import Database

#: Where the revisions are.
MIGRATIONS = Path(__file__).parent / "migrations"
#: The table that records a database's revision.
VERSION_TABLE = "taut_schema_version"
#: The advisory lock servers on one PostgreSQL database take while upgrading it.
UPGRADE_LOCK = 0x7461_7574  # "taut"


class SchemaError(TautError):
    """The database's schema is not one this code serves."""


class SchemaTooNew(SchemaError):
    """The database was written by a newer taut: it is left as it is."""


class SchemaBehind(SchemaError):
    """The database is older than the code, and the operator asked not to upgrade it."""


@dataclass(frozen=True)
class Standing:
    """Where a database stands: its revision (None: none recorded) and the code's."""

    revision: str | None
    head: str
    tables: int
    """Tables of taut's in the database (0: an empty database)."""

    @property
    def current(self) -> bool:
        """Whether the database is at the code's revision."""
        return self.revision == self.head

    @property
    def describe(self) -> str:
        """The database's standing in words."""
        if self.current:
            return f"the schema is current (revision {self.head})"
        if self.revision is None and self.tables == 0:
            return f"the database is empty; upgrading makes the schema (revision {self.head})"
        if self.revision is None:
            return (
                "the database was made before the schema had versions; upgrading brings it "
                f"to revision {self.head}"
            )
        return f"the database is at revision {self.revision}; the code's is {self.head}"


def config(connection: Any = None) -> Config:
    """Alembic's configuration for taut's revisions (``connection``: the one to run on)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The code's revision of the schema."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None, "no revisions"
    return found


def _known(revision: str) -> bool:
    try:
        ScriptDirectory.from_config(config()).get_revision(revision)
    except CommandError:
        return False
    return True


def _standing(connection: Any) -> Standing:
    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    names = inspect(connection).get_table_names()
    tables = sum(1 for n in names if n.startswith("taut_") and n != VERSION_TABLE)
    return Standing(context.get_current_revision(), head(), tables)


def _refuse_newer(standing: Standing) -> None:
    if standing.revision is not None and not _known(standing.revision):
        raise SchemaTooNew(
            f"the database is at revision {standing.revision}, which this version of taut "
            f"does not know (its newest is {standing.head}): it was written by a newer taut. "
            "It was left as it is; serve it with that version or a later one"
        )


def _upgrade(connection: Any, target: str) -> tuple[Standing, Standing]:
    if connection.dialect.name == "postgresql":
        # Released when the transaction ends: a second server waits here, then finds the
        # database upgraded.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
    before = _standing(connection)
    _refuse_newer(before)
    if not before.current or target != "head":
        command.upgrade(config(connection), target)
    return before, _standing(connection)


async def standing(db: Database) -> Standing:
    """Where ``db`` stands (raises :class:`SchemaTooNew` for a newer database's revision)."""
    async with db.reader.connect() as conn:
        found = await conn.run_sync(_standing)
    _refuse_newer(found)
    return found


async def upgrade(db: Database, target: str = "head") -> tuple[Standing, Standing]:
    """Bring ``db`` to revision ``target`` (the code's by default) in one transaction;
    where it stood before and after. Raises :class:`SchemaTooNew`, touching nothing, for a
    database written by a newer taut."""
    async with db.transaction() as conn:
        return await conn.run_sync(_upgrade, target)
