"""The rooms' ``Store`` port on SQLAlchemy, with group commit.

Every room hands its writes here and waits until they are durable before it broadcasts. One
writer task drains the queue and commits all the waiting batches of all rooms in one transaction:
a single fsync then serves many rooms, which is what lets a server with hundreds of tables keep
"commit before broadcast" cheap, and it also keeps SQLite to one writer (no lock contention).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Insert,
    Table,
    and_,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.db import models as m
from app.db.engine import make_sessionmaker, make_transactions
from app.rooms.ports import (
    ActionTaken,
    ChatPosted,
    DealFinished,
    DealStarted,
    MatchProgress,
    MatchStarted,
    Op,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    SeatsChanged,
    StatusChanged,
    StoredChat,
    StoredDeal,
    StoredMatch,
    StoredRoom,
)

log = logging.getLogger(__name__)

ACTIVE_STATUSES = ("waiting", "playing")

# The writer speaks Core to the tables, not the ORM: a group is a handful of statements, and
# the unit of work would only add bookkeeping (and autoflushes) in between.
_TABLES = m.Base.metadata.tables
ROOMS = _TABLES["rooms"]
SEATS = _TABLES["seats"]
MATCHES = _TABLES["matches"]
MATCH_SEATS = _TABLES["match_seats"]
DEALS = _TABLES["deals"]
ACTIONS = _TABLES["actions"]
CHAT = _TABLES["chat_messages"]

_BUMP_VERSION = (
    update(ROOMS)
    .where(ROOMS.c.id == bindparam("room_id"))
    .values(version=bindparam("version"), updated_at=bindparam("now"))
)


@dataclass(slots=True)
class StoreStats:
    """What the writer has done, for ``/metrics``; updated once per group, not per action."""

    groups: int = 0
    batches: int = 0
    failed_batches: int = 0
    commit_seconds: float = 0.0


@dataclass(slots=True)
class _Batch:
    code: str
    version: int
    ops: Sequence[Op]
    done: asyncio.Future[None]


@dataclass(slots=True)
class _GroupRows:
    """The frequent writes of a whole group, sent as one executemany per table.

    Each statement is a round trip to PostgreSQL, and SQLAlchemy's work per statement is the
    larger part of a small write on SQLite, so the writes that every action makes (its log row,
    the room's version) must cost per group, not per action. Only rows that nothing else in the
    group reads are deferred here: the action log, chat lines and room versions. Deals and
    rooms are inserted at once since later ops need their ids.
    """

    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)

    def write(self, connection: Connection) -> None:
        if self.actions:
            connection.execute(insert(ACTIONS), self.actions)
        if self.chat:
            connection.execute(insert(CHAT), self.chat)
        now = datetime.now(UTC)
        connection.execute(_BUMP_VERSION, [{**v, "now": now} for v in self.versions])


class SqlStore:
    """Implements ``app.rooms.ports.Store``; call ``start`` before use and ``close`` after."""

    def __init__(self, engine: AsyncEngine, chat_history: int = 50) -> None:
        self._sessions = make_sessionmaker(engine)
        self._transactions = make_transactions(engine)
        self._chat_history = chat_history
        self._queue: asyncio.Queue[_Batch] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        # Room ids and deal ids do not change once written: cache them to save a query per write.
        self._room_ids: dict[str, int] = {}
        self._deal_ids: dict[tuple[str, int], int] = {}
        self.stats = StoreStats()

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="db-writer")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
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
            try:
                await self._write(batches)
                self.stats.groups += 1
                self.stats.batches += len(batches)
                self.stats.commit_seconds += time.perf_counter() - began
            except Exception:
                # One bad batch must not fail the others: retry them one by one.
                log.exception("group commit of %d batches failed; retrying singly", len(batches))
                self._deal_ids.clear()
                for batch in batches:
                    try:
                        await self._write([batch])
                    except Exception as error:
                        self._deal_ids.clear()
                        self.stats.failed_batches += 1
                        if not batch.done.done():
                            batch.done.set_exception(error)
            for batch in batches:
                if not batch.done.done():
                    batch.done.set_result(None)

    async def _write(self, batches: Sequence[_Batch]) -> None:
        new_deals: list[tuple[str, int]] = []
        try:
            await self._transactions.run(partial(self._write_group, batches, new_deals))
        except BaseException:
            for key in new_deals:
                self._deal_ids.pop(key, None)
            for batch in batches:
                if any(isinstance(op, RoomCreated) for op in batch.ops):
                    self._room_ids.pop(batch.code, None)
            raise

    def _write_group(
        self, batches: Sequence[_Batch], new_deals: list[tuple[str, int]], connection: Connection
    ) -> None:
        """The whole group, in one transaction (run by ``Transactions``, maybe in a thread)."""
        rows = _GroupRows()
        for batch in batches:
            room_id = self._room_id(connection, batch)
            for op in batch.ops:
                self._apply(connection, room_id, op, new_deals, rows)
            rows.versions.append({"room_id": room_id, "version": batch.version})
        rows.write(connection)

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
        room_id: int,
        op: Op,
        new_deals: list[tuple[str, int]],
        rows: _GroupRows,
    ) -> None:
        """Write the rare ops at once (in order); queue the frequent ones in ``rows``."""
        match op:
            case RoomCreated():
                pass  # written by _room_id
            case SeatsChanged(seats=seats):
                connection.execute(delete(SEATS).where(SEATS.c.room_id == room_id))
                _insert_seats(connection, room_id, seats)
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
                deal_id = _insert_returning_id(
                    connection,
                    insert(DEALS).values(
                        match_id=op.match_id,
                        number=op.number,
                        dealer=op.dealer,
                        seed=op.seed,
                        cut=op.cut,
                        deck=list(op.deck),
                        hanging_in=op.hanging_in,
                        finished=False,
                    ),
                )
                self._deal_ids[(op.match_id, op.number)] = deal_id
                new_deals.append((op.match_id, op.number))
            case ActionTaken():
                deal_id = self._deal_id(connection, op.match_id, op.number)
                rows.actions.append(
                    {"deal_id": deal_id, "seq": op.seq, "action": op.action, "auto": op.auto}
                )
            case DealFinished():
                deal_id = self._deal_id(connection, op.match_id, op.number)
                connection.execute(
                    update(DEALS)
                    .where(DEALS.c.id == deal_id)
                    .values(finished=True, contract=op.contract, result=op.result)
                )
            case MatchProgress():
                connection.execute(
                    update(MATCHES)
                    .where(MATCHES.c.id == op.match_id)
                    .values(
                        scoresheet=op.scoresheet,
                        finished=op.finished,
                        winner=op.winner,
                        finished_at=datetime.now(UTC) if op.finished else None,
                    )
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
                    }
                )

    async def load_room(self, code: str) -> StoredRoom | None:
        async with self._sessions() as session:
            room = await session.scalar(select(m.Room).where(m.Room.code == code))
            if room is None:
                return None
            seats = (
                await session.scalars(
                    select(m.Seat).where(m.Seat.room_id == room.id).order_by(m.Seat.seat)
                )
            ).all()
            chat = (
                await session.scalars(
                    select(m.ChatMessage)
                    .where(m.ChatMessage.room_id == room.id)
                    .order_by(m.ChatMessage.id.desc())
                    .limit(self._chat_history)
                )
            ).all()
            match = await self._load_match(session, room.current_match_id)
            return StoredRoom(
                config=RoomConfig(
                    code=room.code,
                    host_id=room.host_id,
                    rules=room.rules,
                    target=room.target,
                    public=room.public,
                    turn_seconds=room.turn_seconds,
                    bot_level=room.bot_level,
                    deal_pause_seconds=room.deal_pause_seconds,
                ),
                status=room.status,
                version=room.version,
                seats=tuple(SeatRecord(s.player_id, s.name, s.bot) for s in seats),
                match=match,
                chat=tuple(
                    StoredChat(c.seat, c.player_id, c.name, c.text, c.at) for c in reversed(chat)
                ),
            )

    async def _load_match(self, session: AsyncSession, match_id: str | None) -> StoredMatch | None:
        if match_id is None:
            return None
        match = await session.get(m.Match, match_id)
        if match is None:
            return None
        deals = (
            await session.scalars(
                select(m.Deal).where(m.Deal.match_id == match_id).order_by(m.Deal.number)
            )
        ).all()
        actions: dict[int, list[m.ActionRow]] = {d.id: [] for d in deals}
        rows = await session.scalars(
            select(m.ActionRow)
            .where(m.ActionRow.deal_id.in_(list(actions)))
            .order_by(m.ActionRow.deal_id, m.ActionRow.seq)
        )
        for row in rows:
            actions[row.deal_id].append(row)
        return StoredMatch(
            match_id=match.id,
            rules=match.rules,
            target=match.target,
            first_dealer=match.first_dealer,
            finished=match.finished,
            deals=tuple(
                StoredDeal(
                    number=d.number,
                    dealer=d.dealer,
                    seed=d.seed,
                    cut=d.cut,
                    deck=tuple(d.deck),
                    hanging_in=d.hanging_in,
                    actions=tuple(a.action for a in actions[d.id]),
                    finished=d.finished,
                )
                for d in deals
            ),
        )

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


def _room_values(config: RoomConfig) -> dict[str, Any]:
    return {
        "code": config.code,
        "host_id": config.host_id,
        "rules": config.rules,
        "target": config.target,
        "public": config.public,
        "turn_seconds": config.turn_seconds,
        "bot_level": config.bot_level,
        "deal_pause_seconds": config.deal_pause_seconds,
        "status": "waiting",
        "version": 0,
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
