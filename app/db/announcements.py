"""The operator's announcement: a word to everyone on the site ("the server restarts at
22:00 UTC for a few minutes"), set with ``python -m app.admin announce`` and shown by every
client at the top of every page until it ends or is taken down (``unannounce``).

One at a time (the row with id 1), in one text for everyone and, if the operator gives them,
the same in other languages for those readers. Every node reads it from the database at most
once per ``fresh_seconds`` (the server's ``token_check_seconds``, as for the operator's other
changes): clients ask for it when they start and every few minutes, and a crowd of them must
not become a query each — nor, when the copy goes stale, a query each of those asking at that
moment: one reads, the others wait for its answer.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.engine import upsert

TEXT_MAX = 300


@dataclass(frozen=True, slots=True)
class Announcement:
    text: str
    texts: dict[str, str]
    """The same in other languages, by language code."""
    made_at: datetime
    until: datetime | None


class Announcements:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], fresh_seconds: float) -> None:
        self._sessions = sessions
        self._fresh = fresh_seconds
        self._read_at = float("-inf")
        self._held: Announcement | None = None
        self._reading = asyncio.Lock()

    async def set(self, text: str, texts: dict[str, str], until: datetime | None) -> None:
        """Make this the announcement, in place of any other."""
        now = datetime.now(UTC)
        async with self._sessions.begin() as session:
            dialect = session.get_bind().dialect.name
            values = {"text": text, "texts": texts, "made_at": now, "until": until}
            await session.execute(
                upsert(dialect, m.Announcement)
                .values(id=1, **values)
                .on_conflict_do_update(index_elements=["id"], set_=values)
            )

    async def clear(self) -> bool:
        """Take the announcement down; whether there was one."""
        async with self._sessions.begin() as session:
            done = await session.execute(delete(m.Announcement))
        return bool(getattr(done, "rowcount", 0))

    async def current(self) -> Announcement | None:
        """The announcement in force now, as read at most ``fresh_seconds`` ago."""
        if time.monotonic() - self._read_at >= self._fresh:
            async with self._reading:
                if time.monotonic() - self._read_at >= self._fresh:  # nobody read it meanwhile
                    await self._read()
        held = self._held
        if held is None or (held.until is not None and held.until <= datetime.now(UTC)):
            return None
        return held

    async def _read(self) -> None:
        async with self._sessions() as session:
            row = await session.get(m.Announcement, 1)
        self._held = (
            None if row is None else Announcement(row.text, dict(row.texts), row.made_at, row.until)
        )
        self._read_at = time.monotonic()
