"""The rooms' ``Store`` port on SQLAlchemy, with group commit.

Every room hands its writes here and waits until they are durable before it broadcasts. One
writer task drains the queue and commits all the waiting batches of all rooms in one transaction:
a single fsync then serves many rooms, which is what lets a server with hundreds of tables keep
"commit before broadcast" cheap, and it also keeps SQLite to one writer (no lock contention). On
PostgreSQL a group of actions alone (the usual one at a person's pace) is a single statement
instead, a transaction of its own (``_write_single``).

When the database is unavailable (locked, unreachable, the connection lost) a group fails as a
whole and every waiting room gets the error at once: each room then refuses its command or
retries its timed step later. A failure that may have come from the COMMIT itself (every write
was sent) is settled before anyone is told: the writer asks the database, once it answers again,
whether the group's versions were stored, so that a room never retries what is already stored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from sqlalchemy import (
    ARRAY,
    BindParameter,
    ColumnElement,
    Connection,
    CursorResult,
    Delete,
    Insert,
    Integer,
    String,
    Table,
    Text,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from app.db import models as m
from app.db.engine import SQLITE_BUSY_SECONDS, make_sessionmaker, make_transactions, upsert
from app.db.players import row_for_living
from app.rooms.errors import LeaseLost
from app.rooms.ports import (
    ActionTaken,
    AwayChanged,
    ChatPosted,
    DealFinished,
    DealStarted,
    HostChanged,
    MatchProgress,
    MatchStarted,
    Op,
    RemovedChanged,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    SeatRenamed,
    SeatsChanged,
    SettingsChanged,
    ShuffleCommitted,
    StandinsChanged,
    StatusChanged,
    StoredChat,
    StoredDeal,
    StoredMatch,
    StoredRoom,
    TableVotes,
    VotesChanged,
)
from app.rooms.watching import watch_code
from app.rules import TALLY_COUNTERS
from app.tasks import stop_task

log = logging.getLogger(__name__)

ACTIVE_STATUSES = ("waiting", "playing")

# The writer speaks Core to the tables, not the ORM: a group is a handful of statements, and
# the unit of work would only add bookkeeping (and autoflushes) in between.
_TABLES = m.Base.metadata.tables
ROOMS = _TABLES["rooms"]
PLAYERS = _TABLES["players"]
SEATS = _TABLES["seats"]
MATCHES = _TABLES["matches"]
MATCH_SEATS = _TABLES["match_seats"]
DEALS = _TABLES["deals"]
ACTIONS = _TABLES["actions"]
PLAY_STATS = _TABLES["play_stats"]
CHAT = _TABLES["chat_messages"]


class _Raw:
    """A statement compiled once for the store's dialect, run with rows of plain tuples.

    ``Connection.execute`` of a Core statement does, at each call, work that never changes for
    the statements a group runs every time: it computes the statement's cache key to find its
    compiled form, builds and processes a dict of parameters per row and sets up the result
    for the ORM's use. Here that is done once: a row becomes a tuple through the bind processors
    SQLAlchemy would apply (the stored values are the same), and goes to the driver by
    ``exec_driver_sql``, which still wraps the driver's errors and notices a lost connection.
    Values that are the same for every row of a group (``fixed``: its timestamp) are processed
    once.
    """

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        names = compiled.positiontup
        if names is None:
            raise ValueError(f"{dialect.name}: the store needs a positional paramstyle")
        self.sql = compiled.string
        self._processors: dict[str, Callable[[Any], Any] | None] = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for name, bind in compiled.binds.items()
        }
        self._names = names
        # Values written into the statement (a LIMIT): the same in every row.
        self._constants = {
            name: self._process(name, bind.effective_value)
            for name, bind in compiled.binds.items()
            if not bind.required
        }

    def _process(self, name: str, value: Any) -> Any:
        process = self._processors[name]
        return value if process is None else process(value)

    def run(
        self, connection: Connection, rows: Sequence[Mapping[str, Any]], **fixed: Any
    ) -> CursorResult[Any]:
        """Execute once per row of ``rows`` (one ``executemany``); ``fixed`` adds to each."""
        constants = self._constants | {name: self._process(name, v) for name, v in fixed.items()}
        steps = [(name, self._processors[name]) for name in self._names]
        tuples = [
            tuple(
                constants[name] if name in constants else row[name] if p is None else p(row[name])
                for name, p in steps
            )
            for row in rows
        ]
        if len(tuples) == 1:
            return connection.exec_driver_sql(self.sql, tuples[0])
        return connection.exec_driver_sql(self.sql, tuples)

    def one(self, connection: Connection, **values: Any) -> CursorResult[Any]:
        return self.run(connection, [values])


def _prune_chat(keep: int) -> Delete:
    """Delete a room's chat lines but the newest ``keep``: a room keeps what it shows (the
    snapshot's chat), so posting cannot fill the database. One indexed delete per room that
    got chat in a group; nothing to delete while the room has ``keep`` lines or fewer."""
    oldest_gone = (
        select(CHAT.c.id)
        .where(CHAT.c.room_id == bindparam("room_id"))
        .order_by(CHAT.c.id.desc())
        .offset(keep)
        .limit(1)
        .scalar_subquery()
    )
    return delete(CHAT).where(CHAT.c.room_id == bindparam("room_id"), CHAT.c.id <= oldest_gone)


_LOG_BINDS = (
    bindparam("now", type_=ACTIONS.c.created_at.type),
    bindparam("deal_ids", type_=ARRAY(ACTIONS.c.deal_id.type)),
    bindparam("seqs", type_=ARRAY(ACTIONS.c.seq.type)),
    bindparam("payloads", type_=ARRAY(Text())),  # JSON text: the column's own serializer
    bindparam("autos", type_=ARRAY(ACTIONS.c.auto.type)),
    bindparam("room_ids", type_=ARRAY(ROOMS.c.id.type)),
    bindparam("versions", type_=ARRAY(ROOMS.c.version.type)),
)
_LEASES = _TABLES["room_leases"]
_PG_LOG = text(
    """
    WITH logged AS (
        INSERT INTO actions (deal_id, seq, action, auto, created_at)
        SELECT a.deal_id, a.seq, CAST(a.action AS json), a.auto, :now
        FROM unnest(:deal_ids, :seqs, :payloads, :autos) AS a(deal_id, seq, action, auto)
    )
    UPDATE rooms SET version = v.version, updated_at = :now
    FROM unnest(:room_ids, :versions) AS v(id, version)
    WHERE rooms.id = v.id
    """
).bindparams(*_LOG_BINDS)


_PG_FENCED_LOG = text(
    """
    WITH held AS (
        SELECT l.room_code FROM room_leases AS l
        JOIN unnest(:codes, :epochs) AS c(code, epoch)
            ON l.room_code = c.code AND l.epoch = c.epoch
        WHERE l.node = :node
        ORDER BY l.room_code
        FOR UPDATE OF l
    ), logged AS (
        INSERT INTO actions (deal_id, seq, action, auto, created_at)
        SELECT a.deal_id, a.seq, CAST(a.action AS json), a.auto, :now
        FROM unnest(:deal_ids, :seqs, :payloads, :autos, :action_codes)
            AS a(deal_id, seq, action, auto, code)
        WHERE a.code IN (SELECT room_code FROM held)
    ), versioned AS (
        UPDATE rooms SET version = v.version, updated_at = :now
        FROM unnest(:room_ids, :versions, :version_codes) AS v(id, version, code)
        WHERE rooms.id = v.id AND v.code IN (SELECT room_code FROM held)
    )
    SELECT room_code FROM held
    """
).bindparams(
    *_LOG_BINDS,
    bindparam("node", type_=_LEASES.c.node.type),
    bindparam("codes", type_=ARRAY(_LEASES.c.room_code.type)),
    bindparam("epochs", type_=ARRAY(_LEASES.c.epoch.type)),
    bindparam("action_codes", type_=ARRAY(ROOMS.c.code.type)),
    bindparam("version_codes", type_=ARRAY(ROOMS.c.code.type)),
)
"""``_PG_LOG`` behind the fence, as one statement: the lease rows of the group's rooms are
locked (in code order, as ``app.db.ownership``'s fence locks them) and only the rooms this node
still holds at the epochs it claimed get their rows; the statement returns those rooms. Run
outside a transaction it is one round trip where BEGIN, the fence, the log and COMMIT were
four (``SqlStore._write_single``)."""


def _binds(*names: str) -> dict[str, BindParameter[Any]]:
    return {name: bindparam(name) for name in names}


class _Statements:
    """The writes a group makes for every action and every deal, compiled once (``_Raw``);
    the rare ones (a room created, seated, a match started) stay plain Core."""

    def __init__(self, dialect: Dialect, chat_history: int) -> None:
        def raw(statement: ClauseElement) -> _Raw:
            return _Raw(statement, dialect)

        # PostgreSQL: a group's action rows and room versions in one statement, as arrays, in
        # place of ``action`` and ``version``. Each statement is a round trip, and asyncpg's
        # executemany costs per row on the client.
        self.log: _Raw | None = None
        self.fenced_log: _Raw | None = None
        if dialect.name == "postgresql":
            self.log = raw(_PG_LOG)
            self.fenced_log = raw(_PG_FENCED_LOG)
        processor = ACTIONS.c.action.type.dialect_impl(dialect).bind_processor(dialect)
        assert processor is not None  # JSON is serialized by SQLAlchemy, not by the driver
        self.action_json: Callable[[Any], str] = processor

        self.action = raw(
            insert(ACTIONS).values(
                **_binds("deal_id", "seq", "action", "auto"),
                created_at=bindparam("now"),
            )
        )
        self.version = raw(
            update(ROOMS)
            .where(ROOMS.c.id == bindparam("room_id"))
            .values(version=bindparam("version"), updated_at=bindparam("now"))
        )
        self.chat = raw(
            insert(CHAT).values(
                **_binds("room_id", "seat", "player_id", "name", "text", "at", "command_id")
            )
        )
        self.prune_chat = raw(_prune_chat(chat_history))
        self.deal = raw(
            insert(DEALS)
            .values(
                **_binds(
                    "match_id",
                    "number",
                    "dealer",
                    "seed",
                    "cut",
                    "deck",
                    "hanging_in",
                    "commitment",
                    "contributions",
                    "finished",
                    "dealt_at",
                )
            )
            .returning(DEALS.c.id)
        )
        self.next_seed = raw(
            update(ROOMS)
            .where(ROOMS.c.id == bindparam("room_id"))
            .values(next_seed=bindparam("seed"))
        )
        self.deal_finished = raw(
            update(DEALS)
            .where(DEALS.c.id == bindparam("deal_id"))
            .values(finished=True, contract=bindparam("contract"), result=bindparam("result"))
        )
        self.count_deal = raw(_count_deal(dialect.name))
        self.match_progress = raw(
            update(MATCHES)
            .where(MATCHES.c.id == bindparam("match_id"))
            .values(**_binds("scoresheet", "finished", "winner", "finished_at"))
        )


def _count_deal(dialect: str) -> Insert:
    """Add one person's counts from a deal to their statistics in its preset (``PlayStats``);
    nothing for an erased player, whose profile is gone."""
    counters = [bindparam(name, type_=Integer) for name in TALLY_COUNTERS]
    player, preset = bindparam("player_id", type_=String), bindparam("preset", type_=String)
    row = row_for_living(player, preset, *counters)
    statement = upsert(dialect, PLAY_STATS).from_select(
        ["player_id", "preset", *TALLY_COUNTERS], row
    )
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["player_id", "preset"],
        set_={name: PLAY_STATS.c[name] + statement.excluded[name] for name in TALLY_COUNTERS},
    )


class Fence(Protocol):
    """Room ownership as the group commit sees it (a cluster's ``app.db.ownership``)."""

    def fence(
        self, connection: Connection, codes: Sequence[str], created: Sequence[str]
    ) -> set[str]:
        """In the group's transaction: lock the ownership of ``codes`` and return those this
        node may not write; record this node as the owner of the rooms ``created``."""
        ...

    def settled(self, created: Sequence[str], refused: Sequence[str]) -> None:
        """After the transaction was stored: the rooms ``created`` are this node's, the
        batches of the rooms ``refused`` were not written."""
        ...

    @property
    def node(self) -> str:
        """This node's name, as the lease rows hold it."""
        ...

    def claims(self, codes: Sequence[str]) -> list[int] | None:
        """The epoch at which this node holds each of ``codes``, or None if it holds not all of
        them (``_PG_FENCED_LOG`` checks these inside its one statement)."""
        ...


@dataclass(slots=True)
class StoreStats:
    """What the writer has done, for ``/metrics``; updated once per group, not per action."""

    groups: int = 0
    batches: int = 0
    failed_batches: int = 0
    fenced_batches: int = 0  # refused: the room's lease was another node's
    single_statement_groups: int = 0  # actions alone, stored as one statement (PostgreSQL)
    commit_seconds: float = 0.0


@dataclass(slots=True)
class _Batch:
    code: str
    version: int
    ops: Sequence[Op]
    done: asyncio.Future[None]


@dataclass(slots=True)
class _Attempt:
    """Whether a transaction sent all its writes: if it then fails, the commit may have been
    what failed, and whether it was stored is not known. ``refused``: the rooms the fence
    kept out of the transaction (nothing of theirs was written)."""

    written: bool = False
    refused: set[str] = field(default_factory=set)
    fenced_late: bool = False
    """The fence's verdict was to come back with the statement (``_write_single``): if that
    failed, which rooms it refused is not known either."""


@dataclass(slots=True)
class _GroupRows:
    """The frequent writes of a whole group, sent as one executemany per table (on PostgreSQL
    the action rows and the room versions as one statement: ``_PG_LOG``).

    Each statement is a round trip to PostgreSQL, and SQLAlchemy's work per statement is the
    larger part of a small write on SQLite, so the writes that every action makes (its log row,
    the room's version) must cost per group, not per action. Only rows that nothing else in the
    group reads are deferred here: the action log, chat lines and room versions. Deals and
    rooms are inserted at once since later ops need their ids.
    """

    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)

    def write(self, connection: Connection, statements: _Statements) -> None:
        now = datetime.now(UTC)  # one timestamp for the group: bound once
        if statements.log is not None:
            if self.versions:  # none when the fence refused every batch (nor any action)
                # A room's last version wins, as in the executemany: an UPDATE … FROM joined
                # to the same row twice would take either.
                versions = {v["room_id"]: v["version"] for v in self.versions}
                payload = statements.action_json
                statements.log.one(
                    connection,
                    now=now,
                    deal_ids=[a["deal_id"] for a in self.actions],
                    seqs=[a["seq"] for a in self.actions],
                    payloads=[payload(a["action"]) for a in self.actions],
                    autos=[a["auto"] for a in self.actions],
                    room_ids=list(versions),
                    versions=list(versions.values()),
                )
        else:
            if self.actions:
                statements.action.run(connection, self.actions, now=now)
            if self.versions:
                statements.version.run(connection, self.versions, now=now)
        if self.chat:
            statements.chat.run(connection, self.chat)
            rooms = [{"room_id": r} for r in {c["room_id"] for c in self.chat}]
            statements.prune_chat.run(connection, rooms)


class SqlStore:
    """Implements ``app.rooms.ports.Store``; call ``start`` before use and ``close`` after."""

    def __init__(
        self,
        engine: AsyncEngine,
        chat_history: int = 50,
        sqlite_busy_seconds: float = SQLITE_BUSY_SECONDS,
        fence: Fence | None = None,
    ) -> None:
        self._fence = fence
        self._engine = engine
        self._sessions = make_sessionmaker(engine)
        self._transactions = make_transactions(engine, sqlite_busy_seconds)
        self._chat_history = chat_history
        self._statements: _Statements | None = None  # compiled for the dialect at first use
        self._queue: asyncio.Queue[_Batch] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        # Room ids and deal ids do not change once written: cache them to save a query per write.
        self._room_ids: dict[str, int] = {}
        self._deal_ids: dict[tuple[str, int], int] = {}
        self._failures = 0  # groups failed in a row: the first one is logged with its traceback
        self.stats = StoreStats()

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="db-writer")

    async def close(self) -> None:
        await stop_task(self._writer)
        self._writer = None
        await self._transactions.close()

    async def commit(self, code: str, version: int, ops: Sequence[Op]) -> None:
        if self._writer is None:
            raise RuntimeError("SqlStore.start() was not called")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Batch(code, version, ops, done))
        await done

    async def _write_loop(self) -> None:
        while True:
            batches = [await self._queue.get()]
            while not self._queue.empty():
                batches.append(self._queue.get_nowait())
            began = time.perf_counter()
            error = await self._attempt(batches)
            if error is None:
                self.stats.groups += 1
                self.stats.batches += len(batches)
                self.stats.commit_seconds += time.perf_counter() - began
                if self._failures:
                    log.info("storing works again after %d failed groups", self._failures)
                    self._failures = 0
            elif len(batches) == 1 or _is_outage(error):
                self._fail(batches, error)  # an outage is not the batches' fault: alone too
            else:
                # One bad batch must not fail the others: retry them one by one.
                log.warning("group commit of %d batches failed; retrying singly", len(batches))
                for batch in batches:
                    single = await self._attempt([batch])
                    if single is not None:
                        self._fail([batch], single)
            for batch in batches:
                if not batch.done.done():
                    batch.done.set_result(None)

    async def _attempt(self, batches: Sequence[_Batch]) -> Exception | None:
        """Write ``batches`` in one transaction (or one statement); the error if they were not
        stored, else None."""
        attempt = _Attempt()
        claims = self._single_statement(batches)
        try:
            if claims is None:
                await self._transactions.run(partial(self._write_group, batches, attempt))
            else:
                write = partial(self._write_single, batches, *claims, attempt)
                await self._transactions.run_single(write)
        except Exception as error:
            self._deal_ids.clear()  # ids cached by the transaction may have been rolled back
            for batch in batches:
                if _creates(batch):
                    self._room_ids.pop(batch.code, None)
            if attempt.written and await self._stored_after_all(batches, attempt):
                log.warning("a commit failed (%s) but was stored", type(error).__name__)
                self._settle(batches, attempt.refused)
                self.stats.single_statement_groups += int(claims is not None)
                return None
            return error
        self._settle(batches, attempt.refused)
        self.stats.single_statement_groups += int(claims is not None)
        return None

    def _settle(self, batches: Sequence[_Batch], refused: set[str]) -> None:
        """Tell the fence what was stored; fail the batches it kept out (their rooms belong to
        another node now)."""
        if self._fence is None:
            return
        for batch in batches:
            if batch.code in refused and not batch.done.done():
                self.stats.fenced_batches += 1
                batch.done.set_exception(LeaseLost(f"room {batch.code} is another node's"))
        self._fence.settled([b.code for b in batches if _creates(b)], sorted(refused))

    async def _stored_after_all(self, batches: Sequence[_Batch], attempt: _Attempt) -> bool:
        """Whether a group whose commit failed was stored after all (its rooms' versions are).

        Only a failure during the commit leaves the outcome unknown (a connection lost after
        COMMIT was sent). Every batch raises its room's version, and a new room's row exists
        only once stored, so the stored versions tell. The writer waits for the database to
        answer: telling a room "not stored" when it was would make it store the step twice.

        When the fence's verdict was lost with the statement (``attempt.fenced_late``), the
        fence is asked again first: a room this node no longer holds is refused whatever
        became of its rows (the node drops it, and its new owner restored it from what is
        stored), and only the versions of the others tell, since nobody else writes them.
        """
        fence = self._fence if attempt.fenced_late else None
        delay = 0.1
        while True:
            try:
                refused, stored = await self._transactions.run(
                    partial(_stored_state, batches, attempt.refused, fence)
                )
                attempt.refused = refused
                return all(
                    _was_stored(b, stored.get(b.code)) for b in batches if b.code not in refused
                )
            except Exception as error:
                log.warning("cannot tell yet whether a failed commit was stored: %r", error)
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)

    def _fail(self, batches: Sequence[_Batch], error: Exception) -> None:
        """Tell the rooms waiting on ``batches`` that they were not stored; log it, once with
        the traceback per streak of failures (an outage fails every group until it ends)."""
        self._failures += 1
        if self._failures == 1:
            log.error("storing %d batches failed", len(batches), exc_info=error)
        else:
            log.warning("storing failed again (%d groups in a row): %r", self._failures, error)
        for batch in batches:
            if not batch.done.done():
                self.stats.failed_batches += 1
                batch.done.set_exception(error)

    def _write_group(
        self, batches: Sequence[_Batch], attempt: _Attempt, connection: Connection
    ) -> None:
        """The whole group, in one transaction (run by ``Transactions``, maybe in a thread)."""
        statements = self._statements
        if statements is None:
            statements = self._statements = _Statements(connection.dialect, self._chat_history)
        rows = _GroupRows()
        if self._fence is not None:
            created = [b.code for b in batches if _creates(b)]
            written = sorted({b.code for b in batches} - set(created))
            attempt.refused = self._fence.fence(connection, written, created)
        for batch in batches:
            if batch.code in attempt.refused:
                continue
            room_id = self._room_id(connection, batch)
            for op in batch.ops:
                self._apply(connection, statements, room_id, op, rows)
            rows.versions.append({"room_id": room_id, "version": batch.version})
        rows.write(connection, statements)
        attempt.written = True  # only the commit is left

    def _single_statement(self, batches: Sequence[_Batch]) -> tuple[list[str], list[int]] | None:
        """The rooms of ``batches`` and the lease epochs ``_write_single`` checks for them (none
        without a fence), or None if the group needs a transaction: not PostgreSQL, or an op
        other than an action, or a room or deal whose id is not known yet, or a room this node
        does not hold."""
        statements = self._statements
        if statements is None or statements.log is None:
            return None
        for batch in batches:
            if batch.code not in self._room_ids:
                return None
            for op in batch.ops:
                if not isinstance(op, ActionTaken):
                    return None
                if (op.match_id, op.number) not in self._deal_ids:
                    return None
        codes = _codes(batches)
        if self._fence is None:
            return codes, []
        epochs = self._fence.claims(codes)
        return None if epochs is None else (codes, epochs)

    def _write_single(
        self,
        batches: Sequence[_Batch],
        codes: list[str],
        epochs: list[int],
        attempt: _Attempt,
        connection: Connection,
    ) -> None:
        """A group of actions alone, the usual one, as one statement outside any transaction
        (``Transactions.run_single``): at a person's pace a group holds one action, and on
        PostgreSQL the BEGIN, the fence's lock and the COMMIT were three of its four round
        trips. The fence's check is the statement's first part (``_PG_FENCED_LOG``)."""
        statements = self._statements
        assert statements is not None and statements.log is not None
        payload = statements.action_json
        deal_ids: list[int] = []
        seqs: list[int] = []
        payloads: list[str] = []
        autos: list[bool] = []
        action_codes: list[str] = []
        versions: dict[int, tuple[int, str]] = {}  # a room's last version wins (_GroupRows)
        for batch in batches:
            for op in batch.ops:
                assert isinstance(op, ActionTaken)
                deal_ids.append(self._deal_ids[(op.match_id, op.number)])
                seqs.append(op.seq)
                payloads.append(payload(op.action))
                autos.append(op.auto)
                action_codes.append(batch.code)
            versions[self._room_ids[batch.code]] = (batch.version, batch.code)
        values = {
            "now": datetime.now(UTC),
            "deal_ids": deal_ids,
            "seqs": seqs,
            "payloads": payloads,
            "autos": autos,
            "room_ids": list(versions),
            "versions": [version for version, _code in versions.values()],
        }
        attempt.written = True  # one statement: if it fails, it may have been stored
        if self._fence is None:
            statements.log.one(connection, **values)
            return
        assert statements.fenced_log is not None
        attempt.fenced_late = True
        held = statements.fenced_log.one(
            connection,
            **values,
            node=self._fence.node,
            codes=codes,
            epochs=epochs,
            action_codes=action_codes,
            version_codes=[code for _version, code in versions.values()],
        )
        attempt.refused = set(codes) - {code for (code,) in held}
        attempt.fenced_late = False

    def _room_id(self, connection: Connection, batch: _Batch) -> int:
        for op in batch.ops:
            if isinstance(op, RoomCreated):
                room_id = _insert_returning_id(
                    connection, insert(ROOMS).values(**_room_values(op.config))
                )
                _insert_seats(connection, room_id, op.seats)
                self._room_ids[batch.code] = room_id
                return room_id
        cached = self._room_ids.get(batch.code)
        if cached is None:
            found: int | None = connection.scalar(
                select(ROOMS.c.id).where(ROOMS.c.code == batch.code)
            )
            if found is None:
                raise LookupError(f"room {batch.code} is not stored")
            cached = self._room_ids[batch.code] = found
        return cached

    def _deal_id(self, connection: Connection, match_id: str, number: int) -> int:
        key = (match_id, number)
        cached = self._deal_ids.get(key)
        if cached is None:
            found: int | None = connection.scalar(
                select(DEALS.c.id).where(DEALS.c.match_id == match_id, DEALS.c.number == number)
            )
            if found is None:
                raise LookupError(f"deal {number} of match {match_id} is not stored")
            cached = self._deal_ids[key] = found
        return cached

    def _apply(
        self,
        connection: Connection,
        statements: _Statements,
        room_id: int,
        op: Op,
        rows: _GroupRows,
    ) -> None:
        """Write the rare ops at once (in order); queue the frequent ones in ``rows``."""
        match op:
            case RoomCreated():
                pass  # written by _room_id
            case SeatsChanged(seats=seats):
                connection.execute(delete(SEATS).where(SEATS.c.room_id == room_id))
                _insert_seats(connection, room_id, seats)
            case SeatRenamed(seat=seat, name=name):
                connection.execute(
                    update(SEATS)
                    .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                    .values(name=name)
                )
            case StandinsChanged(seats=standins):
                connection.execute(
                    update(SEATS)
                    .where(SEATS.c.room_id == room_id)
                    .values(standin=SEATS.c.seat.in_(standins))
                )
            case AwayChanged(seat=seat, since=since):
                at = None if since is None else datetime.fromtimestamp(since, UTC)
                connection.execute(
                    update(SEATS)
                    .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                    .values(away_since=at)
                )
            case VotesChanged(votes=votes):
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == room_id).values(votes=_votes_dict(votes))
                )
            case RemovedChanged(players=players):
                # A room another node serves may still hold an erased account's name in
                # memory (``Accounts.erase`` reaches only the erasing node's rooms): the
                # list, written whole, must not bring it back.
                erased = set(
                    connection.execute(
                        select(PLAYERS.c.id).where(
                            PLAYERS.c.id.in_([pid for pid, _ in players]),
                            PLAYERS.c.erased_at.is_not(None),
                        )
                    ).scalars()
                )
                removed = [
                    {"id": pid, "name": None if pid in erased else name} for pid, name in players
                ]
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == room_id).values(removed=removed)
                )
            case HostChanged(host_id=host_id):
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == room_id).values(host_id=host_id)
                )
            case SettingsChanged(config=config):
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == room_id).values(**_settings_values(config))
                )
            case StatusChanged(status=status):
                connection.execute(update(ROOMS).where(ROOMS.c.id == room_id).values(status=status))
            case MatchStarted():
                connection.execute(
                    insert(MATCHES).values(
                        id=op.match_id,
                        room_id=room_id,
                        rules=op.rules,
                        target=op.target,
                        first_dealer=op.first_dealer,
                        finished=False,
                    )
                )
                connection.execute(
                    insert(MATCH_SEATS),
                    [
                        {
                            "match_id": op.match_id,
                            "seat": i,
                            "player_id": s.player_id,
                            "name": s.name,
                            "bot": s.bot,
                        }
                        for i, s in enumerate(op.seats)
                    ],
                )
                connection.execute(
                    update(ROOMS).where(ROOMS.c.id == room_id).values(current_match_id=op.match_id)
                )
            case DealStarted():
                deal_id = statements.deal.one(
                    connection,
                    match_id=op.match_id,
                    number=op.number,
                    dealer=op.dealer,
                    seed=op.seed,
                    cut=op.cut,
                    deck=list(op.deck),
                    hanging_in=op.hanging_in,
                    commitment=op.commitment,
                    contributions=list(op.contributions),
                    finished=False,
                    dealt_at=datetime.now(UTC),
                ).scalar_one()
                self._deal_ids[(op.match_id, op.number)] = int(deal_id)
            case ShuffleCommitted(seed=seed):
                statements.next_seed.one(connection, room_id=room_id, seed=seed)
            case ActionTaken():
                deal_id = self._deal_id(connection, op.match_id, op.number)
                rows.actions.append(
                    {"deal_id": deal_id, "seq": op.seq, "action": op.action, "auto": op.auto}
                )
            case DealFinished():
                statements.deal_finished.one(
                    connection,
                    deal_id=self._deal_id(connection, op.match_id, op.number),
                    contract=op.contract,
                    result=op.result,
                )
                if op.tallies:
                    statements.count_deal.run(
                        connection,
                        [
                            {"player_id": player, "preset": op.preset, **asdict(tally)}
                            for player, tally in op.tallies
                        ],
                    )
            case MatchProgress():
                statements.match_progress.one(
                    connection,
                    match_id=op.match_id,
                    scoresheet=op.scoresheet,
                    finished=op.finished,
                    winner=op.winner,
                    finished_at=datetime.now(UTC) if op.finished else None,
                )
            case ChatPosted():
                rows.chat.append(
                    {
                        "room_id": room_id,
                        "seat": op.seat,
                        "player_id": op.player_id,
                        "name": op.name,
                        "text": op.text,
                        "at": op.at,
                        "command_id": _tagged_id(op.command_id),
                    }
                )

    async def load_room(self, code: str) -> StoredRoom | None:
        return (await self.load_rooms([code])).get(code)

    async def load_rooms(self, codes: Sequence[str]) -> dict[str, StoredRoom]:
        """The stored rooms of ``codes`` (those that exist), read together: a take-over
        restores a dead node's rooms fifty at a time, and five queries for the whole batch
        cost far less than the ORM's six per room (and its objects, and a pool checkout with
        its ping per room). Plain Core rows of the columns a room needs (``_read_rooms``)."""
        if not codes:
            return {}
        async with self._engine.connect() as connection:
            return await connection.run_sync(partial(_read_rooms, list(codes), self._chat_history))

    async def code_watched_by(self, watch: str) -> str | None:
        async with self._engine.connect() as connection:
            found = await connection.scalar(select(ROOMS.c.code).where(ROOMS.c.watch_code == watch))
        return None if found is None else str(found)

    async def active_room_codes(self, waiting_since: datetime | None = None) -> Sequence[str]:
        wanted: ColumnElement[bool] = m.Room.status.in_(ACTIVE_STATUSES)
        if waiting_since is not None:
            wanted = or_(
                m.Room.status == "playing",
                and_(m.Room.status == "waiting", m.Room.updated_at >= waiting_since),
            )
        async with self._sessions() as session:
            rows = await session.scalars(select(m.Room.code).where(wanted).order_by(m.Room.id))
            return list(rows)


def _creates(batch: _Batch) -> bool:
    return any(isinstance(op, RoomCreated) for op in batch.ops)


def _is_outage(error: Exception) -> bool:
    """Whether the database failed rather than the batch: locked, unreachable, disconnected."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error, OperationalError | InterfaceError)
    return isinstance(error, OSError | TimeoutError)


def _codes(batches: Sequence[_Batch]) -> list[str]:
    """The rooms of ``batches``, each once, in order."""
    return sorted({b.code for b in batches})


def _was_stored(batch: _Batch, row: tuple[int, str | None] | None) -> bool:
    """Whether ``batch`` is stored, its room's stored version and next seed being ``row``
    (None: no such room stored). A batch without events (a room's seed stored on its own)
    leaves the version as it was: its seed tells."""
    if row is None:
        return False
    version, seed = row
    seeds = [op.seed for op in batch.ops if isinstance(op, ShuffleCommitted)]
    return version == batch.version and (not seeds or seed == seeds[-1])


def _stored_state(
    batches: Sequence[_Batch], refused: set[str], fence: Fence | None, connection: Connection
) -> tuple[set[str], dict[str, tuple[int, str | None]]]:
    """The rooms of ``batches`` refused (asked of ``fence`` again if given) and the stored
    versions and next seeds of the others (``_was_stored``)."""
    if fence is not None:
        refused = fence.fence(connection, _codes(batches), [])
    codes = sorted({b.code for b in batches} - refused)
    rows = connection.execute(
        select(ROOMS.c.code, ROOMS.c.version, ROOMS.c.next_seed).where(ROOMS.c.code.in_(codes))
    )
    return refused, {code: (version, seed) for code, version, seed in rows}


def _read_rooms(
    codes: Sequence[str], chat_history: int, connection: Connection
) -> dict[str, StoredRoom]:
    """``SqlStore.load_rooms`` on one connection: the rooms with their seats (one query), the
    newest ``chat_history`` chat lines of each (one), their current matches (one), the deals
    with the time each last moved (one) and every action of those deals (one). Rows are plain
    tuples of the columns needed; the JSON columns are parsed by the engine's ``json_value``."""
    wanted = ROOMS.c.code.in_(codes)
    rooms: dict[int, tuple[Any, ...]] = {}
    seats: dict[int, list[SeatRecord]] = {}
    standins: dict[int, list[int]] = {}
    away: dict[int, list[tuple[int, float]]] = {}
    room_columns = (
        ROOMS.c.id,
        ROOMS.c.code,
        ROOMS.c.host_id,
        ROOMS.c.rules,
        ROOMS.c.target,
        ROOMS.c.public,
        ROOMS.c.turn_seconds,
        ROOMS.c.bot_level,
        ROOMS.c.rated,
        ROOMS.c.deal_pause_seconds,
        ROOMS.c.accounts_only,
        ROOMS.c.status,
        ROOMS.c.version,
        ROOMS.c.current_match_id,
        ROOMS.c.next_seed,
        ROOMS.c.votes,
        ROOMS.c.removed,
    )
    n = len(room_columns)  # the seat's columns follow the room's
    room_rows = connection.execute(
        select(
            *room_columns,
            SEATS.c.seat,
            SEATS.c.player_id,
            SEATS.c.name,
            SEATS.c.bot,
            SEATS.c.standin,
            SEATS.c.away_since,
        )
        .select_from(ROOMS.outerjoin(SEATS, SEATS.c.room_id == ROOMS.c.id))
        .where(wanted)
        .order_by(ROOMS.c.id, SEATS.c.seat)
    )
    for row in room_rows:
        room_id = row[0]
        if room_id not in rooms:
            rooms[room_id] = tuple(row[:n])
            seats[room_id] = []
            standins[room_id] = []
            away[room_id] = []
        seat, player_id, name, bot, standin, away_since = row[n:]
        if seat is not None:
            seats[room_id].append(SeatRecord(player_id, name, bot))
            if standin:
                standins[room_id].append(seat)
            if away_since is not None:
                away[room_id].append((seat, away_since.timestamp()))
    if not rooms:
        return {}
    ranked = (
        select(
            CHAT.c.id,
            CHAT.c.room_id,
            CHAT.c.seat,
            CHAT.c.player_id,
            CHAT.c.name,
            CHAT.c.text,
            CHAT.c.at,
            CHAT.c.command_id,
            func.row_number()
            .over(partition_by=CHAT.c.room_id, order_by=CHAT.c.id.desc())
            .label("newest"),
        )
        .where(CHAT.c.room_id.in_(list(rooms)))
        .subquery()
    )
    chat: dict[int, list[StoredChat]] = {room_id: [] for room_id in rooms}
    chat_rows = connection.execute(
        select(*list(ranked.c)[1:8])
        .where(ranked.c.newest <= chat_history)
        .order_by(ranked.c.room_id, ranked.c.id)
    )
    for room_id, seat, player_id, name, line, at, command_id in chat_rows:
        chat[room_id].append(StoredChat(seat, player_id, name, line, at, _untagged_id(command_id)))
    current = select(ROOMS.c.current_match_id).where(wanted)
    matches = {
        match_id: row
        for match_id, *row in connection.execute(
            select(
                MATCHES.c.id,
                MATCHES.c.rules,
                MATCHES.c.target,
                MATCHES.c.first_dealer,
                MATCHES.c.finished,
                MATCHES.c.scoresheet,
            ).where(MATCHES.c.id.in_(current))
        )
    }
    deal_rows = connection.execute(
        select(
            DEALS.c.id,
            DEALS.c.match_id,
            DEALS.c.number,
            DEALS.c.dealer,
            DEALS.c.seed,
            DEALS.c.cut,
            DEALS.c.deck,
            DEALS.c.hanging_in,
            DEALS.c.finished,
            DEALS.c.commitment,
            DEALS.c.contributions,
            func.coalesce(  # when it last moved: ``StoredMatch.moved_at``
                select(func.max(ACTIONS.c.created_at))
                .where(ACTIONS.c.deal_id == DEALS.c.id)
                .scalar_subquery(),
                DEALS.c.dealt_at,
                type_=DEALS.c.dealt_at.type,
            ),
        )
        .where(DEALS.c.match_id.in_(current))
        .order_by(DEALS.c.match_id, DEALS.c.number)
    ).all()
    actions: dict[int, list[dict[str, Any]]] = {row[0]: [] for row in deal_rows}
    auto: dict[int, list[int]] = {row[0]: [] for row in deal_rows}
    action_rows = connection.execute(
        select(ACTIONS.c.deal_id, ACTIONS.c.seq, ACTIONS.c.action, ACTIONS.c.auto)
        .join(DEALS, DEALS.c.id == ACTIONS.c.deal_id)
        .where(DEALS.c.match_id.in_(current))
        .order_by(ACTIONS.c.deal_id, ACTIONS.c.seq)
    )
    for deal_id, seq, action, automatic in action_rows:
        actions[deal_id].append(action)
        if automatic:
            auto[deal_id].append(seq)
    played_by: dict[str, list[SeatRecord]] = {match_id: [] for match_id in matches}
    for match_id, player_id, name, bot in connection.execute(
        select(
            MATCH_SEATS.c.match_id, MATCH_SEATS.c.player_id, MATCH_SEATS.c.name, MATCH_SEATS.c.bot
        )
        .where(MATCH_SEATS.c.match_id.in_(current))
        .order_by(MATCH_SEATS.c.match_id, MATCH_SEATS.c.seat)
    ):
        played_by[match_id].append(SeatRecord(player_id, name, bot))
    deals: dict[str, list[StoredDeal]] = {match_id: [] for match_id in matches}
    moved_at: dict[str, float] = {}  # the match's last deal's, read last
    for deal_id, match_id, number, dealer, seed, cut, deck, hanging_in, *rest in deal_rows:
        finished, commitment, contributions, moved = rest
        if moved is not None:
            moved_at[match_id] = moved.timestamp()
        else:
            moved_at.pop(match_id, None)
        deals[match_id].append(
            StoredDeal(
                number=number,
                dealer=dealer,
                seed=seed,
                cut=cut,
                deck=tuple(deck),
                hanging_in=hanging_in,
                actions=tuple(actions[deal_id]),
                finished=finished,
                commitment=commitment,
                contributions=tuple(contributions or ()),
                auto=frozenset(auto[deal_id]),
            )
        )
    loaded: dict[str, StoredRoom] = {}
    for room_id, room_row in rooms.items():
        (
            _,
            code,
            host_id,
            rules,
            target,
            public,
            turn_seconds,
            bot_level,
            rated,
            pause,
            accounts_only,
            status,
            version,
            match_id,
            next_seed,
            votes,
            removed,
        ) = room_row  # ``room_columns``
        match = None
        if match_id is not None and match_id in matches:
            match_rules, match_target, first_dealer, match_finished, scoresheet = matches[match_id]
            match = StoredMatch(
                match_id=match_id,
                rules=match_rules,
                target=match_target,
                first_dealer=first_dealer,
                finished=match_finished,
                deals=tuple(deals[match_id]),
                seats=tuple(played_by[match_id]),
                conceded=m.conceded_side(scoresheet),
                moved_at=moved_at.get(match_id),
            )
        loaded[code] = StoredRoom(
            config=RoomConfig(
                code=code,
                host_id=host_id,
                rules=rules,
                target=target,
                public=public,
                turn_seconds=turn_seconds,
                bot_level=bot_level,
                rated=rated,
                deal_pause_seconds=pause,
                accounts_only=accounts_only,
            ),
            status=status,
            version=version,
            seats=tuple(seats[room_id]),
            match=match,
            chat=tuple(chat[room_id]),
            next_seed=next_seed,
            standins=tuple(standins[room_id]),
            away=tuple(away[room_id]),
            votes=_read_votes(votes),
            removed=_removed(removed),
        )
    return loaded


def _removed(stored: list[Any] | None) -> tuple[tuple[str, str | None], ...]:
    """``rooms.removed`` as the room keeps it: ``{"id", "name"}`` objects, or bare ids as they
    were stored before names were kept (no name then to show the host)."""
    return tuple(
        (item, None) if isinstance(item, str) else (item["id"], item.get("name"))
        for item in stored or ()
    )


def _tagged_id(command_id: str | int | None) -> str | None:
    """A command id as stored (``chat_messages.command_id``): its type, then its text."""
    if command_id is None:
        return None
    return f"i:{command_id}" if isinstance(command_id, int) else f"s:{command_id}"


def _untagged_id(stored: str | None) -> str | int | None:
    if stored is None:
        return None
    return int(stored[2:]) if stored.startswith("i:") else stored[2:]


def _votes_dict(votes: TableVotes) -> dict[str, Any]:
    return {
        "match": votes.match_id,
        "deal": votes.deal,
        "rematch": list(votes.rematch),
        "concede": list(votes.concede),
        "ready": list(votes.ready),
    }


def _read_votes(stored: dict[str, Any] | None) -> TableVotes | None:
    """The ``TableVotes`` of a stored ``rooms.votes`` (written by ``_votes_dict``)."""
    if stored is None:
        return None
    return TableVotes(
        stored["match"],
        stored["deal"],
        tuple(stored["rematch"]),
        tuple(stored["concede"]),
        tuple(stored["ready"]),
    )


def _room_values(config: RoomConfig) -> dict[str, Any]:
    return {
        "code": config.code,
        "watch_code": watch_code(config.code),
        "host_id": config.host_id,
        "rated": config.rated,
        "status": "waiting",
        "version": 0,
        **_settings_values(config),
    }


def _settings_values(config: RoomConfig) -> dict[str, Any]:
    """The columns of the settings a host may change (``SettingsChanged``)."""
    return {
        "rules": config.rules,
        "target": config.target,
        "public": config.public,
        "turn_seconds": config.turn_seconds,
        "bot_level": config.bot_level,
        "deal_pause_seconds": config.deal_pause_seconds,
        "accounts_only": config.accounts_only,
    }


def _insert_returning_id(connection: Connection, statement: Insert) -> int:
    """Insert one row and return its generated id (RETURNING: PostgreSQL, SQLite >= 3.35)."""
    table = statement.table
    assert isinstance(table, Table)
    return int(connection.execute(statement.returning(table.c.id)).scalar_one())


def _insert_seats(connection: Connection, room_id: int, seats: Sequence[SeatRecord]) -> None:
    connection.execute(
        insert(SEATS),
        [
            {"room_id": room_id, "seat": i, "player_id": s.player_id, "name": s.name, "bot": s.bot}
            for i, s in enumerate(seats)
        ],
    )
