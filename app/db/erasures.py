"""A player erased through one node is no longer named by the rooms another node holds.

``Accounts.erase`` scrubs the database, and the erasing node scrubs the rooms in its own memory
(``RoomManager.forget_player``). In a cluster, a room another node serves keeps in memory what it
had read or been told — the erased player's chat lines, their seat in the last match, their name
among those the host removed — and would show it to whoever connects until it is next loaded,
which for a busy room is hours. So every node asks the database, every ``interval`` seconds,
which players were erased since it last asked, and forgets them too. As for signed-out tokens
(``app.transport.revocation``), this needs no message between nodes and nothing is lost when a
node is down or busy: it reads what it missed at its next round.

The times compared are those the erasing nodes wrote (``players.erased_at``, their clocks), so
each round looks ``OVERLAP`` further back than the newest it has seen and skips the players it
has already forgotten: clocks a little apart lose nothing. Forgetting twice is harmless.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.tasks import stop_task

log = logging.getLogger(__name__)

OVERLAP = timedelta(seconds=60)
"""How far before the newest erasure seen each round looks again (nodes' clocks may differ)."""


class ErasureWatch:
    """Calls ``forget(player_id)`` once for each player erased from the node's start on."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        forget: Callable[[str], None],
        interval: float,
        now: datetime | None = None,
    ) -> None:
        self._sessions = sessions
        self._forget = forget
        self._interval = interval
        # Rooms loaded from here on read a scrubbed database; the window covers the rest.
        self._since = datetime.now(UTC) if now is None else now
        self._forgotten: dict[str, datetime] = {}  # within the window: not forgotten again
        self._task: asyncio.Task[None] | None = None

    async def check(self) -> int:
        """Forget the players erased since the last round; how many."""
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Player.id, m.Player.erased_at).where(
                        m.Player.erased_at > self._since - OVERLAP
                    )
                )
            ).all()
        fresh = 0
        for player_id, erased_at in rows:
            assert erased_at is not None  # the query's condition
            if player_id not in self._forgotten:
                self._forget(player_id)
                fresh += 1
            self._forgotten[player_id] = erased_at
            self._since = max(self._since, erased_at)
        window = self._since - OVERLAP
        self._forgotten = {p: at for p, at in self._forgotten.items() if at > window}
        return fresh

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="erasure-watch")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.check()
            except Exception:  # the database is down: the next round reads what was missed
                log.exception("reading the players erased by other nodes failed")
