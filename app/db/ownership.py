"""Room leases in PostgreSQL: which node of a cluster owns each room, and the fence on its writes.

Two tables. ``node_leases(node, epoch, expires_at)`` is one row per node: the node renews it
once every ``renew_seconds``, whatever the number of its rooms, and ``epoch`` is raised each
time a process starts under that name. ``room_leases(room_code, node, epoch, handed)`` says
which node owns a room; it is written only when a room changes hands, never to renew it. A room
is free when its node's lease expired (the database's clock, so the nodes' clocks do not
matter) or names nobody (``''``); any node may then take it, raising the room's ``epoch``.

Every group commit locks the rows of the rooms it writes (``SELECT … FOR UPDATE``, in code order
so that two transactions cannot deadlock) and writes only the rooms whose row still names this
node at the epoch it claimed (``fence``): a node that was paused past its lease and comes back
finds another node's name or a higher epoch there and its writes are refused. A claim waits for
a group commit holding the row, so the new owner loads the room after the old owner's last write.
A node that takes rooms over locks the dead node's lease row (``FOR SHARE``), so a renewal that
comes late waits for it and then knows that its lease had lapsed: only then does the node read
its rooms' rows to find the ones it lost.

A node that takes rooms over first ends the dead node's database sessions (each node names its
sessions, ``session_name``): a process frozen or cut off in the middle of a statement holds its
row locks for as long as PostgreSQL sees its connection, which the idle-in-transaction timeout
(``app.db.engine``) does not cover (a statement still running, a pipeline waiting for its
``Sync``, a result the client does not read), and the take-over skips locked rows. Only the
sessions it opened while its lease ran are ended, so a new process under the same name is left
alone; the node, if it comes back, reconnects and finds its rooms gone.

Room rows are kept when a node dies and deleted when a room leaves memory because it is idle,
so that only rooms someone is using are taken over; a node's row is deleted once its lease
lapsed long ago (``FORGET_SECONDS``) and it holds no room. A node shutting down hands each
room to a live node (``hand_over``: the row names it, ``handed``, and a ``NOTIFY`` wakes it)
and expires its own lease, so that the others take whatever is left at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row, TextClause, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import utcnow

log = logging.getLogger(__name__)

CHANNEL = "belote_handed"  # NOTIFY payload: the node that was handed rooms

# A new row's epoch is the clock in microseconds, not 1: a row deleted because its node was
# long dead (``_DEAD``) may have a process of that name still frozen somewhere, and a later
# process of the same name must not take its epoch again.
_START = text(
    """
    INSERT INTO node_leases (node, epoch, expires_at)
    VALUES (:node, CAST(extract(epoch FROM clock_timestamp()) * 1000000 AS bigint),
            now() + CAST(:ttl AS interval))
    ON CONFLICT (node) DO UPDATE
        SET epoch = node_leases.epoch + 1, expires_at = EXCLUDED.expires_at
    RETURNING epoch, clock_timestamp()
    """
)
# A process starting under the name of one that died: its old rooms are free at once (and the
# old process, if it was only frozen, finds ``''`` in their rows: its writes are refused).
_FREE_MINE = text("UPDATE room_leases SET node = '', handed = false WHERE node = :node")
# Active rooms without a row (stored by a single server, or released) get a free one.
_ADOPT = text(
    """
    INSERT INTO room_leases (room_code, node, epoch, handed)
    SELECT code, '', 0, false FROM rooms
    WHERE status = 'playing'
       OR (status = 'waiting' AND updated_at >= now() - CAST(:idle AS interval))
    ON CONFLICT (room_code) DO NOTHING
    """
)
# The previous expiry tells whether the lease had lapsed (others may have taken rooms); the
# database's clock sets this node's (``RoomLeases.now``).
_RENEW = text(
    """
    WITH old AS (SELECT expires_at FROM node_leases WHERE node = :node AND epoch = :epoch
                 FOR UPDATE)
    UPDATE node_leases SET expires_at = now() + CAST(:ttl AS interval) FROM old
    WHERE node_leases.node = :node AND node_leases.epoch = :epoch
    RETURNING old.expires_at < now(), clock_timestamp()
    """
)
_MINE = text(
    "SELECT room_code, epoch FROM room_leases WHERE node = :node AND room_code = ANY(:codes)"
)
# The nodes whose rooms are free (cheap: the node table and the index on ``room_leases.node``);
# and, in the same statement, the rows of nodes whose lease lapsed ``:forget`` ago and that
# hold no room, so that the names of nodes that never come back do not pile up.
_DEAD = text(
    """
    WITH forgotten AS (
        DELETE FROM node_leases AS g
        WHERE g.expires_at < now() - CAST(:forget AS interval)
          AND NOT EXISTS (SELECT 1 FROM room_leases AS l WHERE l.node = g.node)
    )
    SELECT n.node FROM node_leases AS n
    WHERE n.expires_at < now() AND n.node <> :node
      AND EXISTS (SELECT 1 FROM room_leases AS l WHERE l.node = n.node)
    UNION ALL
    SELECT '' WHERE EXISTS (SELECT 1 FROM room_leases WHERE node = '')
    """
)
# PostgreSQL 14 or later (the wait for each session to end, in milliseconds); the statement's
# own snapshot sees a node that renewed or restarted meanwhile, and leaves it be.
_END_SESSIONS = text(
    """
    SELECT count(pg_terminate_backend(a.pid, :wait)) FROM pg_stat_activity AS a
    JOIN node_leases AS n ON a.application_name = :prefix || n.node
    WHERE n.node = ANY(:dead) AND n.expires_at < now() AND a.backend_start < n.expires_at
      AND a.datname = current_database() AND a.usename = current_user
      AND a.pid <> pg_backend_pid()
    """
)
_END_WAIT_MS = 1000  # a backend ends at once, even one blocked writing to a frozen client
SESSION_PREFIX = "belote:"


def session_name(node: str) -> str:
    """The ``application_name`` of a node's database sessions (none outside a cluster)."""
    return SESSION_PREFIX + node if node else ""


_STILL_DEAD = text(
    "SELECT node FROM node_leases WHERE node = ANY(:dead) AND expires_at < now() FOR SHARE"
)
_ACTIVE = """(rooms.status = 'playing' OR (rooms.status = 'waiting'
              AND rooms.updated_at >= now() - CAST(:idle AS interval)))"""
# SKIP LOCKED: nodes taking over at the same moment share the rooms instead of queueing.
_TAKE_OVER = text(
    f"""
    UPDATE room_leases AS l SET node = :node, epoch = l.epoch + 1, handed = false
    FROM (SELECT room_leases.room_code FROM room_leases JOIN rooms ON rooms.code = room_code
          WHERE room_leases.node = ANY(:dead) AND {_ACTIVE}
          ORDER BY random() LIMIT :limit FOR UPDATE OF room_leases SKIP LOCKED) AS free
    WHERE l.room_code = free.room_code
    RETURNING l.room_code, l.epoch
    """
)
# A live node's share of the dead nodes' active rooms for a renewal period: enough to bring it
# up to the average number of rooms per live node once they are all taken. Without it the
# first survivor to look took them all (it restores a batch well within a period) before the
# others had looked.
_SHARE = text(
    f"""
    SELECT ceil(CAST(
               (SELECT count(*) FROM room_leases JOIN rooms ON rooms.code = room_code
                WHERE room_leases.node = ANY(:dead) AND {_ACTIVE})
             + (SELECT count(*) FROM room_leases JOIN node_leases AS n ON n.node = room_leases.node
                WHERE n.expires_at >= now()) AS numeric)
           / greatest(1, (SELECT count(*) FROM node_leases WHERE expires_at >= now())))
         - (SELECT count(*) FROM room_leases WHERE node = :node)
    """
)
# The rooms of a dead node that nobody is using: the next node to open one claims it. SKIP
# LOCKED: two nodes forgetting the same rooms in different orders would deadlock.
_FORGET = text(
    f"""
    DELETE FROM room_leases WHERE room_code IN (
        SELECT l.room_code FROM room_leases AS l WHERE l.node = ANY(:dead)
          AND NOT EXISTS (SELECT 1 FROM rooms WHERE rooms.code = l.room_code AND {_ACTIVE})
        FOR UPDATE SKIP LOCKED)
    """
)
# Rooms a stopping node handed to this one (a partial index keeps this cheap when none are).
_PICK_UP = text(
    "UPDATE room_leases SET handed = false WHERE node = :node AND handed RETURNING room_code, epoch"
)
_ROW = text("SELECT node, epoch FROM room_leases WHERE room_code = :code FOR UPDATE")
_ALIVE = text("SELECT 1 FROM node_leases WHERE node = :node AND expires_at >= now() FOR SHARE")
_INSERT = text(
    """
    INSERT INTO room_leases (room_code, node, epoch, handed)
    SELECT CAST(:code AS varchar), CAST(:node AS varchar), 1, false
    WHERE EXISTS (SELECT 1 FROM rooms WHERE code = CAST(:code AS varchar))
    ON CONFLICT (room_code) DO NOTHING
    RETURNING epoch
    """
)
_OWNER = text("SELECT node FROM room_leases WHERE room_code = :code")
_TAKE = text(
    "UPDATE room_leases SET node = :node, epoch = epoch + 1, handed = false "
    "WHERE room_code = :code RETURNING epoch"
)
_SUCCESSORS = text(
    "SELECT node, epoch FROM node_leases WHERE node <> :node AND expires_at > now() ORDER BY node"
)
_HAND = text(
    """
    UPDATE room_leases AS l SET node = :to, epoch = l.epoch + 1, handed = true
    FROM (SELECT room_code FROM room_leases WHERE node = :node AND room_code = ANY(:codes)
          ORDER BY room_code FOR UPDATE) AS mine
    WHERE l.room_code = mine.room_code
    RETURNING l.room_code
    """
)
_NOTIFY = text("SELECT pg_notify(:channel, :to)")
_EXPIRE = text(
    "UPDATE node_leases SET expires_at = now() - CAST(:tick AS interval) "
    "WHERE node = :node AND epoch = :epoch"
)
_RELEASE = text("DELETE FROM room_leases WHERE room_code = :code AND node = :node AND epoch = :e")
_LOCK = text(
    "SELECT room_code, epoch FROM room_leases WHERE node = :node AND room_code = ANY(:codes) "
    "ORDER BY room_code FOR UPDATE"
)
_CREATE = text(
    "INSERT INTO room_leases (room_code, node, epoch, handed) VALUES (:code, :node, 1, false)"
)
_TICK = timedelta(seconds=1)
FORGET_SECONDS = 24 * 3600.0
"""How long after its lease lapsed a node that holds no room loses its row in ``node_leases``:
far beyond any pause a node comes back from as itself (a node frozen longer finds no row when
it renews and loses its rooms, as when a newer process took its name)."""

CLOCK_ROUND_TRIP = timedelta(seconds=0.5)
"""The longest statement whose reading of the database's clock sets this node's (``_timed``):
one that took longer waited (for a taker's lock on the node's row), and halfway through it
could be that far off; the last good reading stands meanwhile."""


class RoomLeases:
    """``app.rooms.ports.Ownership`` for one node of a cluster, and the store's ``Fence``."""

    def __init__(
        self,
        engine: AsyncEngine,
        node_id: str,
        ttl_seconds: float,
        idle_seconds: float,
        take_limit: int = 50,
        forget_seconds: float = FORGET_SECONDS,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._engine = engine
        self._clock = clock  # this node's own
        self._offset = timedelta(0)  # the database's clock less this node's (``now``)
        self._measured = False  # whether ``_offset`` was ever read (``_timed``)
        self._node = node_id
        self._ttl = timedelta(seconds=ttl_seconds)
        self._idle = timedelta(seconds=idle_seconds)
        self._take_limit = take_limit
        self._forget = timedelta(seconds=forget_seconds)
        self._share: float | None = None  # dead nodes' rooms left to take this period
        self._seen_dead: set[str] = set()  # the dead nodes at the last period's first look
        self._epoch = 0  # this process's, in ``node_leases`` (``start``)
        self._held: dict[str, int] = {}  # code -> the epoch this node claimed
        self._lost_callbacks: list[Callable[[str], None]] = []
        self._handed = asyncio.Event()  # another node handed rooms to this one (NOTIFY)
        self._listener: AsyncConnection | None = None

    @property
    def node_id(self) -> str:
        return self._node

    def now(self) -> datetime:
        """The database's time, read without a query: this node's clock set by how far it
        was from the database's at the last renewal (``_timed``). What the nodes stamp and
        age together by — quick play's tickets (``app.rooms.matchmaking``) — then agrees
        across nodes whose clocks do not, as the leases themselves do (they are reckoned in
        the database)."""
        return self._clock() + self._offset

    async def _timed(
        self, connection: AsyncConnection, statement: TextClause, params: dict[str, Any]
    ) -> Row[Any] | None:
        """Run ``statement``, which returns the database's ``clock_timestamp()`` last in
        its row, and take the offset of this node's clock from it: the database read its
        clock between the two readings of this one, taken as halfway (off by at most half a
        round trip; a reading that took longer than ``CLOCK_ROUND_TRIP`` is not used, but for
        the first). Its row, or None."""
        before = self._clock()
        row = (await connection.execute(statement, params)).first()
        after = self._clock()
        if row is not None and (after - before <= CLOCK_ROUND_TRIP or not self._measured):
            self._offset = row[-1] - (before + (after - before) / 2)
            self._measured = True
        return row

    async def start(self) -> None:
        """Take this node's lease under a new epoch, free the rooms a previous process of this
        name left, give a free row to every active room that has none (the cluster's take-over
        brings them back), and listen for rooms handed to this node."""
        async with self._engine.begin() as connection:
            started = await self._timed(connection, _START, self._own())
            assert started is not None  # an insert or an update: a row either way
            self._epoch = int(started[0])
            await connection.execute(_FREE_MINE, {"node": self._node})
            await connection.execute(_ADOPT, {"idle": self._idle})
        with contextlib.suppress(Exception):  # without it, handed rooms wait for the next tick
            await self._listen()

    async def _listen(self) -> None:
        connection = await self._engine.connect()
        raw: Any = (await connection.get_raw_connection()).driver_connection
        await raw.add_listener(CHANNEL, self._notified)
        self._listener = connection

    def _notified(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        if payload == self._node:
            self._handed.set()

    async def close(self) -> None:
        """Stop listening (the node is stopping)."""
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
            self._listener = None

    async def wait(self, seconds: float) -> None:
        """Sleep ``seconds``, or less if another node handed rooms to this one meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._handed.wait(), seconds)
        self._handed.clear()

    def _own(self) -> dict[str, Any]:
        return {"node": self._node, "epoch": self._epoch, "ttl": self._ttl}

    async def claim(self, code: str) -> str | None:
        async with self._engine.begin() as connection:
            row = (await connection.execute(_ROW, {"code": code})).first()
            if row is None:
                params = {"code": code, "node": self._node}
                epoch = (await connection.execute(_INSERT, params)).scalar()
                if epoch is None:  # no such room, or another node inserted it just now
                    owner = (await connection.execute(_OWNER, {"code": code})).scalar()
                    return None if owner is None else str(owner)
            else:
                owner = str(row[0])
                if owner != self._node:
                    alive = await connection.execute(_ALIVE, {"node": owner})
                    if alive.first() is not None:
                        return owner
                taken = await connection.execute(_TAKE, {"code": code, "node": self._node})
                epoch = taken.scalar_one()
        self._held[code] = int(epoch)
        return None

    async def renew(self) -> list[str]:
        self._share = None  # a new period: reckoned again at the next take-over
        async with self._engine.begin() as connection:
            lapsed = await self._timed(connection, _RENEW, self._own())
        if lapsed is not None and not lapsed[0]:
            return []  # the steady state: one row written, whatever the number of rooms
        if lapsed is not None:  # the others ended this node's sessions, its listener's too
            await self.close()
            with contextlib.suppress(Exception):
                await self._listen()
        held = dict(self._held)
        kept: dict[str, int] = {}
        if lapsed is not None and held:  # others may have taken some rooms meanwhile
            async with self._engine.connect() as connection:
                params = {"node": self._node, "codes": list(held)}
                kept = {c: int(e) for c, e in (await connection.execute(_MINE, params)).all()}
        # No row: a newer process took this node's name; every room is lost.
        lost = [code for code, epoch in held.items() if kept.get(code) != epoch]
        for code in lost:
            if self._held.get(code) == held[code]:  # not claimed again meanwhile
                del self._held[code]
        return lost

    async def take_over(self) -> list[str]:
        """Rooms handed to this node, and up to ``take_limit`` active rooms of dead nodes, within
        this node's share of them for the renewal period (``_SHARE``, reckoned at its first
        take-over after a renewal). Rooms of nodes that were dead a period ago already are
        left over (another node did not take its share): those are taken without a share."""
        taken: list[Any] = []
        async with self._engine.begin() as connection:
            rows = list((await connection.execute(_PICK_UP, {"node": self._node})).all())
            asking = {"node": self._node, "forget": self._forget}
            dead = list((await connection.execute(_DEAD, asking)).scalars())
            if dead:
                ending = {"dead": dead, "prefix": SESSION_PREFIX, "wait": _END_WAIT_MS}
                if (await connection.execute(_END_SESSIONS, ending)).scalar_one():
                    log.warning("ended the database sessions of %s (their lease lapsed)", dead)
                confirmed = list(
                    (await connection.execute(_STILL_DEAD, {"dead": dead})).scalars()
                ) + [node for node in dead if node == ""]
                free = {"dead": confirmed, "idle": self._idle}
                if self._share is None:  # the first look of this period
                    if set(confirmed) <= self._seen_dead:  # left over since the last period
                        self._share = math.inf
                    else:
                        params = {**free, "node": self._node}
                        share = (await connection.execute(_SHARE, params)).scalar_one()
                        self._share = max(0, int(share))
                    self._seen_dead = set(confirmed)
                limit = int(min(self._take_limit, self._share))
                if limit > 0:
                    params = {**free, "node": self._node, "limit": limit}
                    taken = list((await connection.execute(_TAKE_OVER, params)).all())
                await connection.execute(_FORGET, free)
            elif self._share is None:
                self._seen_dead = set()
        if self._share is not None:
            self._share -= len(taken)
        for code, epoch in rows + taken:
            self._held[code] = int(epoch)
        return [code for code, _ in rows + taken]

    async def release(self, code: str) -> None:
        epoch = self._held.pop(code, None)
        if epoch is None:
            return
        async with self._engine.begin() as connection:
            await connection.execute(_RELEASE, {"code": code, "node": self._node, "e": epoch})

    async def successors(self) -> list[str]:
        """The other live nodes, to hand rooms to."""
        async with self._engine.connect() as connection:
            return list((await connection.execute(_SUCCESSORS, {"node": self._node})).scalars())

    async def hand_over(self, moves: Mapping[str, str]) -> dict[str, str]:
        """Give each room of ``moves`` (code → node) to that node, waking it up, then expire
        this node's lease so that the others take the rest at once; the rooms moved."""
        targets: dict[str, list[str]] = {}
        for code, to in sorted(moves.items()):
            if code in self._held:
                targets.setdefault(to, []).append(code)
        moved: dict[str, str] = {}
        async with self._engine.begin() as connection:
            for to, codes in targets.items():
                params = {"node": self._node, "to": to, "codes": codes}
                for code in (await connection.execute(_HAND, params)).scalars():
                    moved[code] = to
                await connection.execute(_NOTIFY, {"channel": CHANNEL, "to": to})
            await connection.execute(_EXPIRE, {**self._own(), "tick": _TICK})
        self._held.clear()
        return moved

    def on_lost(self, callback: Callable[[str], None]) -> None:
        self._lost_callbacks.append(callback)

    # ---- the fence, inside the store's group commit --------------------------------------

    @property
    def node(self) -> str:
        return self._node

    def claims(self, codes: Sequence[str]) -> list[int] | None:
        """The epoch this node claimed each of ``codes`` at, or None unless it holds them all:
        what a group commit of one statement checks in its lease rows, as ``fence`` does."""
        epochs = [self._held.get(code) for code in codes]
        return None if None in epochs else [e for e in epochs if e is not None]

    def fence(
        self, connection: Connection, codes: Sequence[str], created: Sequence[str]
    ) -> set[str]:
        """Lock the lease rows of ``codes`` and return those this node may not write; insert
        the rows of the rooms ``created`` in this transaction (they are this node's)."""
        for code in created:  # held once stored (``settled``): a renewal would miss the row
            connection.execute(_CREATE, {"code": code, "node": self._node})
        if not codes:
            return set()
        rows = connection.execute(_LOCK, {"node": self._node, "codes": list(codes)}).all()
        locked = {code: int(epoch) for code, epoch in rows}
        return {
            code for code in codes if code not in self._held or locked.get(code) != self._held[code]
        }

    def settled(self, created: Sequence[str], refused: Sequence[str]) -> None:
        """After a group commit: the rooms ``created`` are this node's at epoch 1, and the
        rooms ``refused`` another node's (their rooms are dropped)."""
        for code in created:
            self._held[code] = 1
        for code in refused:
            self._held.pop(code, None)
            for callback in self._lost_callbacks:
                callback(code)
