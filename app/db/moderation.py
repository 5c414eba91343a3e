"""The operators' log: every change ``python -m app.admin`` makes to a player (a new password,
a rename, a suspension and its lifting, reports closed, an appeal denied) or to the whole site
(an announcement made or taken down) is written down with the operator's name and the time, so
that a site with several operators can tell who did what, and a player who asks why can be
answered. Read with ``python -m app.admin log``.

A player's erasure keeps their entries (what was done, by whom, when) but drops their words
(a suspension's reason, a name), which are about the person.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, true, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m

DETAIL_MAX = 400


@dataclass(frozen=True, slots=True)
class Entry:
    at: datetime
    operator: str
    action: str
    player_id: str | None
    """None: a change to the whole site (an announcement)."""
    player_name: str
    """The player's name now (empty once erased, or for the whole site)."""
    detail: str | None


class ModerationLog:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def note(
        self, operator: str, action: str, player_id: str | None, detail: str | None
    ) -> None:
        async with self._sessions.begin() as session:
            session.add(
                m.ModerationEntry(
                    at=datetime.now(UTC),
                    operator=operator[:64],
                    action=action,
                    player_id=player_id,
                    detail=None if detail is None else detail[:DETAIL_MAX],
                )
            )

    async def since(self, when: datetime, player_id: str | None = None) -> list[Entry]:
        """The entries since ``when`` (of one player, or all: the whole site's too), the oldest
        first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.ModerationEntry, m.Player.name)
                .outerjoin(m.Player, m.Player.id == m.ModerationEntry.player_id)
                .where(
                    m.ModerationEntry.at >= when,
                    true() if player_id is None else m.ModerationEntry.player_id == player_id,
                )
                .order_by(m.ModerationEntry.at, m.ModerationEntry.id)
            )
            return [
                Entry(e.at, e.operator, e.action, e.player_id, name or "", e.detail)
                for e, name in rows
            ]


async def forget_words(session: AsyncSession, player_id: str) -> None:
    """Erasure: the entries about the player stay, their words go."""
    await session.execute(
        update(m.ModerationEntry)
        .where(m.ModerationEntry.player_id == player_id)
        .values(detail=None)
    )
