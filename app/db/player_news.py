"""What a server must hear of the players changed elsewhere: erased, renamed, or suspended.

``Accounts.erase`` scrubs the database and ``Players.rename`` writes the new name into the
player's stored seats; the node that served the call tells the rooms in its own memory at once
(``RoomManager.forget_player``, ``RoomManager.rename_player``). A room another node of a cluster
serves, or any room when the operator renamed the player (``python -m app.admin``), keeps in
memory what it had read — an erased player's chat lines, their seat in the last match, their
name among those the host removed; a renamed player's old name at their seat — and would show it
until it is next loaded, which for a busy room is hours. So every server asks the database,
every ``interval`` seconds, which players were erased or renamed since it last asked, and tells
its rooms too. The operator's suspensions (``python -m app.admin suspend``) reach every server
the same way, into its ``app.rooms.suspensions`` registry. As for signed-out tokens
(``app.transport.revocation``), this needs no message between nodes and nothing is lost when a
node is down or busy: it reads what it missed at its next round.

The times compared are those the writers wrote (``players.erased_at``, ``renamed_at``,
``suspension_changed_at``: their clocks), so each round looks ``OVERLAP`` further back than the
newest it has seen and skips the changes it has already passed on: clocks a little apart lose
nothing. Passing one on twice is harmless.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.players import stored_suspension
from app.rooms.suspensions import Suspension
from app.tasks import stop_task

log = logging.getLogger(__name__)

OVERLAP = timedelta(seconds=60)
"""How far before the newest change seen each round looks again (nodes' clocks may differ)."""


class PlayerNews:
    """Calls ``forget(player_id)`` once for each player erased, ``rename(player_id, name)``
    once for each rename, and ``suspend(player_id, suspension)`` once for each suspension
    the operator set or lifted (None), from the node's start on."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        forget: Callable[[str], None],
        rename: Callable[[str, str], Awaitable[None]],
        interval: float,
        now: datetime | None = None,
        *,
        suspend: Callable[[str, Suspension | None], Awaitable[None]] | None = None,
    ) -> None:
        self._sessions = sessions
        self._forget = forget
        self._rename = rename
        self._suspend = suspend
        self._interval = interval
        # Rooms loaded from here on read the database as changed; the window covers the rest.
        self._since = datetime.now(UTC) if now is None else now
        self._seen: dict[tuple[str, str, datetime], None] = {}  # within the window: passed on
        self._task: asyncio.Task[None] | None = None

    async def check(self) -> int:
        """Pass on the erasures, renames and suspensions since the last round; how many."""
        after = self._since - OVERLAP
        changed = (m.Player.erased_at > after) | (m.Player.renamed_at > after)
        if self._suspend is not None:
            changed |= m.Player.suspension_changed_at > after
        async with self._sessions() as session:
            rows = (await session.execute(select(m.Player).where(changed))).scalars().all()
        news = 0
        for row in rows:
            if row.erased_at is not None:  # a rename or a suspension before it names nobody
                if row.erased_at > after and self._new(row.id, "erased", row.erased_at):
                    self._forget(row.id)
                    news += 1
                continue
            if row.renamed_at is not None and self._new(row.id, "renamed", row.renamed_at):
                await self._rename(row.id, row.name)  # failed: the next round tries again
                news += 1
            at = row.suspension_changed_at
            if self._suspend is not None and at is not None and self._new(row.id, "suspended", at):
                suspension = stored_suspension(row.suspension_reason, row.suspended_until)
                await self._suspend(row.id, suspension)
                news += 1
        for row in rows:  # noted once all passed on: a failure above is tried again
            for kind, at in (
                ("erased", row.erased_at),
                ("renamed", row.renamed_at),
                ("suspended", row.suspension_changed_at),
            ):
                if at is not None:
                    self._note(row.id, kind, at)
        window = self._since - OVERLAP
        self._seen = {key: None for key in self._seen if key[2] > window}
        return news

    def _new(self, player_id: str, kind: str, at: datetime) -> bool:
        return (player_id, kind, at) not in self._seen

    def _note(self, player_id: str, kind: str, at: datetime) -> None:
        self._seen[(player_id, kind, at)] = None
        self._since = max(self._since, at)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="player-news")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.check()
            except Exception:  # the database is down: the next round reads what was missed
                log.exception("reading the players erased or renamed through other nodes failed")
