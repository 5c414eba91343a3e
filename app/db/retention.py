"""Rooms made and never played are deleted once nobody has touched them for a long time.

Every "Create" stores a room, and most rooms are played; but a room whose link was never shared,
whose friends never came, or which quick play made for players gone by the time it was ready
(``app.rooms.matchmaking``: it empties such a room and never begins it) would stay in the
database for ever, with its seats and chat: nobody can reach it but by its code, and nothing in
it is worth keeping. A room that played a match is history and is never deleted here.

Reports players made of others (``app.db.reports``) go after ``report_days``: each holds the
reported player's words, which the operator needs while the report is fresh, not for ever.

The networks players used (``app.db.networks``) go ``NETWORK_RETENTION_DAYS`` after they were
last used, whatever the settings above: the site promises it.

Each node sweeps on its own; the deletion is one statement that is harmless to repeat, and it
spares the rooms a node holds in memory (its own: ``held``; another node's: those with a live
lease, ``app.db.ownership``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.networks import NETWORK_RETENTION_DAYS
from app.tasks import stop_task

log = logging.getLogger(__name__)

BATCH = 500
"""Rooms deleted per statement: a first sweep over years of rooms is many short ones, none of
which holds the table for long."""


class Retention:
    """Deletes the rooms that are still waiting for their first match and have not changed
    for ``keep_days``, and the reports older than ``report_days`` (0 days keeps them all),
    and the networks unused for ``NETWORK_RETENTION_DAYS``, every ``every_seconds``."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        keep_days: float,
        held: Callable[[], Collection[str]],
        every_seconds: float = 3600.0,
        report_days: float = 0.0,
    ) -> None:
        self._sessions = sessions
        self._keep = timedelta(days=keep_days)
        self._report_keep = timedelta(days=report_days)
        self._held = held
        self._every = every_seconds
        self._task: asyncio.Task[None] | None = None

    async def sweep(self, now: datetime | None = None) -> int:
        """Delete the abandoned rooms (their seats and chat go with them); how many."""
        if not self._keep:
            return 0
        now = datetime.now(UTC) if now is None else now
        leased = (
            select(m.RoomLease.room_code)
            .join(m.NodeLease, m.NodeLease.node == m.RoomLease.node)
            .where(m.RoomLease.room_code == m.Room.code, m.NodeLease.expires_at > now)
            .exists()
        )
        deleted = 0
        while True:
            held = set(self._held())
            async with self._sessions.begin() as session:
                rows = (
                    await session.execute(
                        select(m.Room.id, m.Room.code)
                        .where(
                            m.Room.status == "waiting",  # never played: it never goes back
                            m.Room.updated_at < now - self._keep,
                            ~leased,
                        )
                        .order_by(m.Room.id)
                        .limit(BATCH)
                    )
                ).all()
                doomed = [(room_id, code) for room_id, code in rows if code not in held]
                if doomed:
                    ids = [room_id for room_id, _ in doomed]
                    codes = [code for _, code in doomed]
                    await session.execute(
                        delete(m.Room)
                        .where(m.Room.id.in_(ids), m.Room.status == "waiting")
                        .execution_options(synchronize_session=False)
                    )
                    await session.execute(
                        delete(m.RoomLease).where(m.RoomLease.room_code.in_(codes))
                    )
            deleted += len(doomed)
            if len(rows) < BATCH or not doomed:
                break
        if deleted:
            log.info("deleted %d rooms never played and untouched for %s", deleted, self._keep)
        return deleted

    async def sweep_reports(self, now: datetime | None = None) -> int:
        """Delete the reports made more than ``report_days`` ago; how many."""
        if not self._report_keep:
            return 0
        now = datetime.now(UTC) if now is None else now
        async with self._sessions.begin() as session:
            done = await session.execute(
                delete(m.Report).where(m.Report.created_at < now - self._report_keep)
            )
        deleted = int(getattr(done, "rowcount", 0) or 0)
        if deleted:
            log.info("deleted %d reports older than %s", deleted, self._report_keep)
        return deleted

    async def sweep_networks(self, now: datetime | None = None) -> int:
        """Delete the networks nobody used for ``NETWORK_RETENTION_DAYS``; how many."""
        before = (now or datetime.now(UTC)) - timedelta(days=NETWORK_RETENTION_DAYS)
        async with self._sessions.begin() as session:
            done = await session.execute(
                delete(m.PlayerNetwork).where(m.PlayerNetwork.seen_at < before)
            )
        return int(getattr(done, "rowcount", 0) or 0)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="retention")

    async def _loop(self) -> None:
        while True:
            try:
                await self.sweep()
                await self.sweep_reports()
                await self.sweep_networks()
            except Exception:  # the database away: the next round tries again
                log.exception("deleting abandoned rooms, old reports or networks failed")
            await asyncio.sleep(self._every)

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None
