"""Creating the async engine, with the SQLite settings a server needs, and ``Transactions``.

SQLite gets WAL (readers do not block the writer), a busy timeout and foreign keys; PostgreSQL
needs nothing special. The folder of an SQLite file is created, so a fresh clone just runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession

T = TypeVar("T")


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def upsert(dialect: str, table: Any) -> Any:
    """An INSERT of ``table`` that can say ``on_conflict_do_update``: PostgreSQL and SQLite
    spell it alike, each with its own construct."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(table)


def json_text(value: Any) -> str:
    """JSON columns' text: orjson, several times faster than ``json.dumps`` (every stored action
    is a JSON payload). Keys that are not strings become strings, as with ``json.dumps``."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def json_value(text: str | bytes) -> Any:
    """JSON columns' values: orjson, several times faster than ``json.loads`` (a room's load
    reads every action of its match). Whatever ``json_text`` wrote it reads back the same."""
    return orjson.loads(text)


SQLITE_BUSY_SECONDS = 30.0  # how long an SQLite statement waits for another process's lock
IDLE_IN_TRANSACTION_SECONDS = 3.0
"""PostgreSQL ends a session that sits this long inside a transaction. A node frozen in the
middle of a group commit (SIGSTOP, a paused VM) would otherwise hold its rooms' lease rows
locked (``SELECT … FOR UPDATE``) for as long as it is frozen, and the other nodes' take-over,
which skips locked rows, could never take those rooms. Below the node lease (5 s), so the
locks are gone before the lease is; our transactions never wait on anything but the database."""


def make_engine(
    url: str, sqlite_busy_seconds: float = SQLITE_BUSY_SECONDS, session_name: str = ""
) -> AsyncEngine:
    """An async engine for ``url``; for SQLite the file's folder is created first.
    ``session_name`` is PostgreSQL's ``application_name`` of every connection: a cluster's node
    names its sessions so that the others can end them once its lease lapsed
    (``app.db.ownership``)."""
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(
            url,
            connect_args={"timeout": sqlite_busy_seconds},
            json_serializer=json_text,
            json_deserializer=json_value,
        )
        event.listen(engine.sync_engine, "connect", partial(_sqlite_pragmas, sqlite_busy_seconds))
        return engine
    server = {"idle_in_transaction_session_timeout": str(int(IDLE_IN_TRANSACTION_SECONDS * 1000))}
    if session_name:
        server["application_name"] = session_name
    return create_async_engine(
        url,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        connect_args={"server_settings": server},
        json_serializer=json_text,
        json_deserializer=json_value,
    )


def _sqlite_pragmas(busy_seconds: float, dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
    cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


class Transactions(Protocol):
    """Runs a synchronous function of a ``Connection`` inside one transaction (or, for one
    statement, outside any), from async code.

    The store's group commit is written once, as plain synchronous Core, and each backend runs
    it the cheapest way it can (``make_transactions``).
    """

    async def run(self, work: Callable[[Connection], T]) -> T:
        """Begin, call ``work``, commit; roll back and raise if it raises."""
        ...

    async def run_single(self, work: Callable[[Connection], T]) -> T:
        """Call ``work``, which runs one statement, outside a transaction where that saves
        round trips (PostgreSQL: the statement is a transaction of its own, with no BEGIN and
        COMMIT sent); else as ``run``."""
        ...

    async def close(self) -> None: ...


def make_transactions(
    engine: AsyncEngine, sqlite_busy_seconds: float = SQLITE_BUSY_SECONDS
) -> Transactions:
    """A file SQLite database gets a thread of its own with a plain ``sqlite3`` connection; any
    other database runs the work on the async engine (``run_sync``: asyncpg needs no thread)."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return _SqliteThread(url.set(drivername="sqlite+pysqlite"), sqlite_busy_seconds)
    return _OnAsyncEngine(engine)


HOLD_SECONDS = 1.0  # how long ``_OnAsyncEngine`` keeps an idle connection out of the pool


class _OnAsyncEngine:
    """Transactions one after another (the store's writer) on one connection kept between them.

    Taking a connection from the pool for each transaction cost a ping (``pool_pre_ping``: a
    BEGIN, a statement and a ROLLBACK) and a reset (a ROLLBACK) on top of the transaction's own
    round trips: at a human pace, when each group commit holds one action, that was most of an
    action's CPU and latency. The connection goes back to the pool once it failed (the next
    transaction takes a fresh one) or stayed idle for ``HOLD_SECONDS`` (so that after a quiet
    spell the pool's ping checks it again, as before: a database restarted meanwhile costs no
    failed commit). ``run`` is never called concurrently: the store has one writer.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._held: AsyncConnection | None = None
        self._used = 0.0

    async def run(self, work: Callable[[Connection], T]) -> T:
        connection = await self._connection()
        try:
            async with connection.begin():
                result = await connection.run_sync(work)
        except BaseException:
            await self._release()
            raise
        self._used = time.monotonic()
        return result

    async def run_single(self, work: Callable[[Connection], T]) -> T:
        connection = await self._connection()
        default = connection.default_isolation_level
        try:
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            async with connection.begin():  # SQLAlchemy's bookkeeping: no BEGIN is sent
                result = await connection.run_sync(work)
            await connection.execution_options(isolation_level=default)
        except BaseException:
            await self._release()  # the pool restores its isolation level
            raise
        self._used = time.monotonic()
        return result

    async def _connection(self) -> AsyncConnection:
        if self._held is not None and time.monotonic() - self._used > HOLD_SECONDS:
            await self._release()
        if self._held is None:
            self._held = await self._engine.connect()
        return self._held

    async def _release(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):  # a broken connection is discarded by the pool
                await held.close()

    async def close(self) -> None:
        """Give the connection back; the engine belongs to whoever passed it in."""
        await self._release()


class _SqliteThread:
    """One transaction is one hop to this thread, however many statements it runs.

    Through aiosqlite every statement costs several hops (open a cursor, execute, close it), and
    each hop wakes a thread and the event loop; a group commit of a dozen statements spent more
    time handing work back and forth than in SQLite, and that latency is paid by every action
    waiting for the group. Only this thread touches its engine, so the connection stays in it.

    The thread keeps one connection between transactions (a pool checkout and its reset cost a
    rollback each time) and takes jobs from a plain queue, answering through
    ``call_soon_threadsafe``: ``run_in_executor`` built two futures per job and chained them.
    A connection that failed is closed, and the next transaction opens a fresh one.
    """

    def __init__(self, url: URL, busy_seconds: float) -> None:
        self._engine: Engine = create_engine(
            url,
            connect_args={"timeout": busy_seconds},
            json_serializer=json_text,
            json_deserializer=json_value,
        )
        event.listen(self._engine, "connect", partial(_sqlite_pragmas, busy_seconds))
        self._connection: Connection | None = None  # the thread's own
        self._closed = False
        self._jobs: queue.SimpleQueue[_Job[Any] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sqlite-writer", daemon=True)
        self._thread.start()

    async def run_single(self, work: Callable[[Connection], T]) -> T:
        return await self.run(work)  # a transaction costs SQLite no round trip

    async def run(self, work: Callable[[Connection], T]) -> T:
        if self._closed:
            raise RuntimeError("the SQLite writer thread is closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(work, loop, done))
        return await done

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                answer: tuple[Any, BaseException | None] = (self._begin(job.work), None)
            except BaseException as error:
                answer = (None, error)
            with contextlib.suppress(RuntimeError):  # the loop was closed: nobody is waiting
                job.loop.call_soon_threadsafe(_settle, job.done, *answer)
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
        self._engine.dispose()

    def _begin(self, work: Callable[[Connection], T]) -> T:
        if self._connection is None:
            self._connection = self._engine.connect()
        connection = self._connection
        try:
            with connection.begin():
                return work(connection)
        except BaseException:
            self._connection = None
            with contextlib.suppress(Exception):  # a broken connection is discarded by the pool
                connection.close()
            raise

    async def close(self) -> None:
        self._closed = True
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)


class _Job(Generic[T]):
    """A transaction for ``_SqliteThread``: the work and the future to answer on its loop."""

    __slots__ = ("done", "loop", "work")

    def __init__(
        self,
        work: Callable[[Connection], T],
        loop: asyncio.AbstractEventLoop,
        done: asyncio.Future[T],
    ) -> None:
        self.work = work
        self.loop = loop
        self.done = done


def _settle(done: asyncio.Future[T], result: T | None, error: BaseException | None) -> None:
    if done.cancelled():  # the caller stopped waiting; the transaction ran anyway
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)  # type: ignore[arg-type]
