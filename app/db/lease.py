"""One server per database: a lease taken at start-up and held until the server stops.

Each room lives in the memory of the process that serves it (an actor). Two processes on one
database would both restore and play the same rooms, each overwriting the other's moves. With
the lease a second server waits for the first to stop (a restart that overlaps) and gives up
with a clear message when it does not. SQLite: an exclusive ``flock`` on a file beside the
database; PostgreSQL: a session advisory lock held on a connection of its own. Both go away with
the process, however it ends (SIGKILL included).
"""

from __future__ import annotations

import asyncio
import fcntl
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

LOCK_KEY = 0x62656C6F7465  # "belote": the advisory lock's key
POLL_SECONDS = 0.2


class LeaseTaken(RuntimeError):
    """Another server holds this database."""


class Lease(Protocol):
    async def acquire(self, wait_seconds: float) -> None:
        """Take the lease, waiting up to ``wait_seconds``; raise ``LeaseTaken`` otherwise."""
        ...

    async def release(self) -> None: ...


def make_lease(engine: AsyncEngine) -> Lease:
    url = engine.url
    if url.get_backend_name() == "postgresql":
        return _AdvisoryLease(engine)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return _FileLease(Path(url.database))
    return _NoLease()


async def _retry(attempt: Callable[[], Awaitable[bool]], wait_seconds: float, what: str) -> None:
    deadline = time.monotonic() + wait_seconds
    while not await attempt():
        if time.monotonic() >= deadline:
            raise LeaseTaken(
                f"Another server is using {what}; stop it first (waited {wait_seconds:g} s)."
            )
        await asyncio.sleep(POLL_SECONDS)


class _FileLease:
    def __init__(self, database: Path) -> None:
        self._path = database.with_name(database.name + ".server-lock")
        self._file: IO[str] | None = None

    async def acquire(self, wait_seconds: float) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self._path, "a")  # noqa: SIM115 - held open, and locked, until release

        async def attempt() -> bool:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True

        try:
            await _retry(attempt, wait_seconds, str(self._path.with_suffix("")))
        except BaseException:
            handle.close()
            raise
        self._file = handle

    async def release(self) -> None:
        handle, self._file = self._file, None
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()


class _AdvisoryLease:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._connection: AsyncConnection | None = None

    async def acquire(self, wait_seconds: float) -> None:
        # Autocommit: the connection must not sit "idle in transaction" for the server's life.
        connection = await self._engine.connect()
        await connection.execution_options(isolation_level="AUTOCOMMIT")

        async def attempt() -> bool:
            query = text("SELECT pg_try_advisory_lock(:key)")
            return bool(await connection.scalar(query, {"key": LOCK_KEY}))

        try:
            await _retry(attempt, wait_seconds, "this PostgreSQL database")
        except BaseException:
            await connection.close()
            raise
        self._connection = connection

    async def release(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.scalar(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
            await connection.close()


class _NoLease:
    """An in-memory database belongs to its process anyway."""

    async def acquire(self, wait_seconds: float) -> None:
        return None

    async def release(self) -> None:
        return None
