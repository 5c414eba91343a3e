"""Applying the Alembic migrations from code: at start-up and in the tests.

The migration scripts live in ``migrations/`` at the repository root; ``alembic.ini`` there lets
the ``alembic`` command line work too. Here the location is set from this file, so the server
migrates whatever the current directory is.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

ROOT = Path(__file__).resolve().parents[2]
MIGRATE_KEY = 0x62656C6F74656D  # "belotem": one migration at a time on a shared database


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database behind ``engine`` to the latest revision."""

    def run(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":  # nodes of a cluster start together
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_KEY})
        config = alembic_config(engine.url.render_as_string(hide_password=False))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async with engine.begin() as connection:
        await connection.run_sync(run)
