"""The migrations build exactly the schema the models describe, and each one can be undone.

The store writes through the models' tables (``app.db.models``) while a real database gets its
schema from ``migrations/``: a column, index or constraint that one has and the other lacks
would only show when that write runs (or, for an index, never). Alembic's own comparison finds
any difference.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from app.db import models as m
from app.db.engine import make_engine
from app.db.migrate import alembic_config, upgrade
from app.rooms.watching import watch_code


def differences(connection: Connection) -> list[Any]:
    """What the migrated database and the models disagree on. Column types are compared on
    PostgreSQL only: SQLite keeps loose affinities (a ``Double`` is read back as ``FLOAT``)."""
    typed = connection.dialect.name == "postgresql"
    context = MigrationContext.configure(connection, opts={"compare_type": typed})
    return list(compare_metadata(context, m.Base.metadata))


async def test_the_migrations_build_the_schema_the_models_describe(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            assert await connection.run_sync(differences) == []
    finally:
        await engine.dispose()


async def test_every_migration_can_be_undone_and_done_again(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'undo.sqlite3'}"
    engine = make_engine(url)
    try:
        await upgrade(engine)

        def down_and_up(connection: Connection) -> list[str]:
            config = alembic_config(url)
            config.attributes["connection"] = connection
            command.downgrade(config, "base")
            left = [t for t in inspect(connection).get_table_names() if t != "alembic_version"]
            command.upgrade(config, "head")
            return left

        async with engine.begin() as connection:
            assert await connection.run_sync(down_and_up) == []  # base: no table of ours
        async with engine.connect() as connection:
            assert await connection.run_sync(differences) == []
    finally:
        await engine.dispose()


async def across(
    tmp_path: Path,
    revision: str,
    fill: Callable[[Connection], None],
    read: Callable[[Connection], list[Any]],
) -> list[Any]:
    """A fresh SQLite database migrated to ``revision``, given rows by ``fill``, migrated to
    the head, then ``read``: how a migration treats what was stored before it."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'across.sqlite3'}"
    engine = make_engine(url)

    def migrated(connection: Connection) -> list[Any]:
        config = alembic_config(url)
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        fill(connection)
        command.upgrade(config, "head")
        return read(connection)

    try:
        async with engine.begin() as connection:
            return await connection.run_sync(migrated)
    finally:
        await engine.dispose()


async def test_0015_keeps_accounts_ratings_with_their_ordinal_and_drops_guests(
    tmp_path: Path,
) -> None:
    """Ratings from before rated play needed an account (a guest's) were never ranked; every
    rating is an account's from 0015 on, so that a rank is counted on the board's index."""
    rows = [("guest", None), ("acct", "acct_name")]

    def fill(connection: Connection) -> None:
        for player, username in rows:
            connection.execute(
                text(
                    "INSERT INTO players (id, name, token_hash, created_at) "
                    "VALUES (:p, :p, :p, CURRENT_TIMESTAMP)"
                ),
                {"p": player},
            )
            if username:
                connection.execute(
                    text(
                        "INSERT INTO accounts (player_id, username, username_key, "
                        "password_hash, created_at) VALUES (:p, :u, :u, '-', CURRENT_TIMESTAMP)"
                    ),
                    {"p": player, "u": username},
                )
            connection.execute(
                text(
                    "INSERT INTO ratings (player_id, preset, mu, sigma, matches, wins, "
                    "updated_at) VALUES (:p, 'french', 30, 5, 1, 1, CURRENT_TIMESTAMP)"
                ),
                {"p": player},
            )

    def read(connection: Connection) -> list[tuple[str, float]]:
        found = connection.execute(text("SELECT player_id, ordinal FROM ratings"))
        return [(player, ordinal) for player, ordinal in found]

    assert await across(tmp_path, "0014", fill, read) == [("acct", 15.0)]


async def test_0033_gives_every_room_its_watch_code(tmp_path: Path) -> None:
    """Rooms made before watch codes get theirs, the very one the server works out."""
    codes = ["AbCdEfGhIjKlMnOp", "qrstuvwxyz012345"]

    def fill(connection: Connection) -> None:
        connection.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at) "
                "VALUES ('host', 'Host', 'h', CURRENT_TIMESTAMP)"
            )
        )
        for code in codes:
            connection.execute(
                text(
                    "INSERT INTO rooms (code, host_id, rules, public, turn_seconds, status, "
                    "version, created_at, updated_at) VALUES (:c, 'host', '{}', 0, 0, "
                    "'waiting', 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"c": code},
            )

    def read(connection: Connection) -> list[tuple[str, str]]:
        found = connection.execute(text("SELECT code, watch_code FROM rooms ORDER BY id"))
        return [(code, watch) for code, watch in found]

    found = await across(tmp_path, "0032", fill, read)
    assert found == [(code, watch_code(code)) for code in codes]
