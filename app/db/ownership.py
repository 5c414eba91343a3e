"""Room leases in PostgreSQL: which node of a cluster owns each room, and the fence on its writes.

Each room has a row ``room_leases(room_code, node, epoch, expires_at)``. The owner renews all its
rows in one statement every ``renew_seconds``; a row whose ``expires_at`` passed (the database's
clock, so the nodes' clocks do not matter) may be claimed by any node, which raises ``epoch``.
Every group commit locks the rows of the rooms it writes (``SELECT … FOR UPDATE``, in code order
so that two transactions cannot deadlock) and writes only the rooms whose row still names this
node at the epoch it claimed (``fence``): a node that was paused past its lease and comes back
finds another node's name or a higher epoch there and its writes are refused. A claim waits for
a group commit holding the row, so the new owner loads the room after the old owner's last write.

Rows are kept when a node dies (they expire) and deleted when a room leaves memory because it is
idle, so that only rooms someone is using are taken over. A node shutting down expires its rows
at once (``hand_over``): the others take its rooms within one renewal period.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import timedelta

from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)

_CLAIM = text(
    """
    INSERT INTO room_leases (room_code, node, epoch, expires_at)
    SELECT CAST(:code AS varchar), CAST(:node AS varchar), 1, now() + CAST(:ttl AS interval)
    WHERE EXISTS (SELECT 1 FROM rooms WHERE code = CAST(:code AS varchar))
    ON CONFLICT (room_code) DO UPDATE
        SET node = EXCLUDED.node, epoch = room_leases.epoch + 1, expires_at = EXCLUDED.expires_at
        WHERE room_leases.expires_at < now() OR room_leases.node = EXCLUDED.node
    RETURNING epoch
    """
)
_OWNER = text("SELECT node FROM room_leases WHERE room_code = :code")
# The subqueries lock the rows in code order: a renewal and a group commit of the same node
# lock overlapping rows, and in different orders they could deadlock.
_RENEW = text(
    """
    UPDATE room_leases AS l SET expires_at = now() + CAST(:ttl AS interval)
    FROM (SELECT room_code FROM room_leases WHERE node = :node AND room_code = ANY(:codes)
          ORDER BY room_code FOR UPDATE) AS mine
    WHERE l.room_code = mine.room_code
    RETURNING l.room_code, l.epoch
    """
)
# Rooms someone was using: being played, or waiting and changed lately. SKIP LOCKED: nodes
# taking over at the same moment share the rooms instead of queueing behind each other.
_TAKE_OVER = text(
    """
    UPDATE room_leases AS l
    SET node = :node, epoch = l.epoch + 1, expires_at = now() + CAST(:ttl AS interval)
    FROM (SELECT room_leases.room_code FROM room_leases JOIN rooms ON rooms.code = room_code
          WHERE expires_at < now() AND (rooms.status = 'playing' OR (rooms.status = 'waiting'
                AND rooms.updated_at >= now() - CAST(:idle AS interval)))
          ORDER BY random() LIMIT :limit FOR UPDATE OF room_leases SKIP LOCKED) AS free
    WHERE l.room_code = free.room_code
    RETURNING l.room_code, l.epoch
    """
)
# A node starting under the name of one that died: its old rows are free at once. Active rooms
# without a row (stored by a single server, or released) get an expired one, to be taken over.
_EXPIRE_MINE = text(
    "UPDATE room_leases SET expires_at = now() - CAST(:tick AS interval) WHERE node = :node"
)
_ADOPT = text(
    """
    INSERT INTO room_leases (room_code, node, epoch, expires_at)
    SELECT code, '', 0, now() - CAST(:tick AS interval) FROM rooms
    WHERE status = 'playing'
       OR (status = 'waiting' AND updated_at >= now() - CAST(:idle AS interval))
    ON CONFLICT (room_code) DO NOTHING
    """
)
_HAND_OVER = text(
    """
    UPDATE room_leases AS l SET expires_at = now() - CAST(:tick AS interval)
    FROM (SELECT room_code FROM room_leases WHERE node = :node ORDER BY room_code FOR UPDATE)
         AS mine
    WHERE l.room_code = mine.room_code
    """
)
_RELEASE = text("DELETE FROM room_leases WHERE room_code = :code AND node = :node AND epoch = :e")
_LOCK = text(
    "SELECT room_code, epoch FROM room_leases WHERE node = :node AND room_code = ANY(:codes) "
    "ORDER BY room_code FOR UPDATE"
)
_CREATE = text(
    "INSERT INTO room_leases (room_code, node, epoch, expires_at) VALUES (:code, :node, 1, "
    "now() + CAST(:ttl AS interval))"
)
_TICK = timedelta(seconds=1)


class RoomLeases:
    """``app.rooms.ports.Ownership`` for one node of a cluster, and the store's ``Fence``."""

    def __init__(
        self,
        engine: AsyncEngine,
        node_id: str,
        ttl_seconds: float,
        idle_seconds: float,
        take_limit: int = 50,
    ) -> None:
        self._engine = engine
        self._node = node_id
        self._ttl = timedelta(seconds=ttl_seconds)
        self._idle = timedelta(seconds=idle_seconds)
        self._take_limit = take_limit
        self._held: dict[str, int] = {}  # code -> the epoch this node claimed
        self._lost_callbacks: list[Callable[[str], None]] = []

    @property
    def node_id(self) -> str:
        return self._node

    async def start(self) -> None:
        """Free the rows a previous process of this name left, and give an expired row to every
        active room that has none, so that the cluster's take-over brings them back."""
        async with self._engine.begin() as connection:
            await connection.execute(_EXPIRE_MINE, {"node": self._node, "tick": _TICK})
            await connection.execute(_ADOPT, {"idle": self._idle, "tick": _TICK})

    async def claim(self, code: str) -> str | None:
        async with self._engine.begin() as connection:
            params = {"code": code, "node": self._node, "ttl": self._ttl}
            epoch = (await connection.execute(_CLAIM, params)).scalar()
            if epoch is not None:
                self._held[code] = int(epoch)
                return None
            owner = (await connection.execute(_OWNER, {"code": code})).scalar()
        return None if owner is None else str(owner)

    async def renew(self) -> list[str]:
        if not self._held:
            return []
        held = dict(self._held)
        async with self._engine.begin() as connection:
            params = {"node": self._node, "codes": list(held), "ttl": self._ttl}
            rows = (await connection.execute(_RENEW, params)).all()
        kept = {code: int(epoch) for code, epoch in rows}
        lost = [code for code, epoch in held.items() if kept.get(code) != epoch]
        for code in lost:
            if self._held.get(code) == held[code]:  # not claimed again meanwhile
                del self._held[code]
        return lost

    async def take_over(self) -> list[str]:
        async with self._engine.begin() as connection:
            params = {
                "node": self._node,
                "ttl": self._ttl,
                "idle": self._idle,
                "limit": self._take_limit,
            }
            rows = (await connection.execute(_TAKE_OVER, params)).all()
        for code, epoch in rows:
            self._held[code] = int(epoch)
        return [code for code, _ in rows]

    async def release(self, code: str) -> None:
        epoch = self._held.pop(code, None)
        if epoch is None:
            return
        async with self._engine.begin() as connection:
            await connection.execute(_RELEASE, {"code": code, "node": self._node, "e": epoch})

    async def hand_over(self) -> None:
        async with self._engine.begin() as connection:
            await connection.execute(_HAND_OVER, {"node": self._node, "tick": _TICK})
        self._held.clear()

    def on_lost(self, callback: Callable[[str], None]) -> None:
        self._lost_callbacks.append(callback)

    # ---- the fence, inside the store's group commit --------------------------------------

    def fence(
        self, connection: Connection, codes: Sequence[str], created: Sequence[str]
    ) -> set[str]:
        """Lock the lease rows of ``codes`` and return those this node may not write; insert
        the rows of the rooms ``created`` in this transaction (they are this node's)."""
        for code in created:  # held once stored (``settled``): a renewal would miss the row
            connection.execute(_CREATE, {"code": code, "node": self._node, "ttl": self._ttl})
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
            log.warning("room %s: lease lost to another node; its write was refused", code)
            for callback in self._lost_callbacks:
                callback(code)
